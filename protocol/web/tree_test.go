//go:build !js

package web

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// treeNodes returns a state's tree as its nodes.
func treeNodes(t *testing.T, st map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, n := range st["tree"].([]any) {
		out = append(out, n.(map[string]any))
	}
	return out
}

// childMoves returns the moves of node n's children, in order.
func childMoves(tree []map[string]any, n int) []string {
	var out []string
	for _, c := range tree[n]["children"].([]any) {
		out = append(out, tree[int(c.(float64))]["move"].(string))
	}
	return out
}

// humans makes both sides people and returns the fresh state.
func humans(w *wsClient) map[string]any {
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "new", "variant": "russian"})
	return w.nextState(func(s map[string]any) bool { return plies(s) == 0 && s["white"] == "human" })
}

func TestTreeTakeBackMakesVariation(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	for _, mv := range []string{"c3-d4", "f6-g5"} {
		w.send(map[string]any{"type": "move", "move": mv})
		w.next("state")
	}
	w.send(map[string]any{"type": "undo"})
	st := w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	assert.EqualValues(t, 1, st["node"], "the shown node is the first move")
	w.send(map[string]any{"type": "move", "move": "h6-g5"})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 2 })
	tree := treeNodes(t, st)
	require.Len(t, tree, 4, "the root, c3-d4 and both replies")
	assert.Equal(t, []string{"f6-g5", "h6-g5"}, childMoves(tree, 1), "the first reply stays the main line")
	assert.EqualValues(t, 3, st["node"])
	assert.Equal(t, []any{"c3-d4", "h6-g5"}, st["played"])

	// The same move again from the same position follows the tree.
	w.send(map[string]any{"type": "goto", "node": 1})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	w.send(map[string]any{"type": "move", "move": "f6-g5"})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 2 })
	assert.Len(t, st["tree"], 4)
	assert.EqualValues(t, 2, st["node"])

	w.send(map[string]any{"type": "pdn"})
	text := w.next("pdn")["text"].(string)
	assert.Contains(t, text, "1. c3-d4 f6-g5 (1... h6-g5) *", "the variation as RAV")

	// Loading it back shows the variation.
	w.send(map[string]any{"type": "loadpdn", "text": text})
	st = w.next("state")
	tree = treeNodes(t, st)
	require.Len(t, tree, 4)
	assert.Equal(t, []string{"f6-g5", "h6-g5"}, childMoves(tree, 1))
	assert.Equal(t, []any{"c3-d4", "f6-g5"}, st["played"], "the main line's end is shown")
}

func TestTreeGoto(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	for _, mv := range []string{"c3-d4", "f6-g5", "g3-h4"} {
		w.send(map[string]any{"type": "move", "move": mv})
		w.next("state")
	}
	w.send(map[string]any{"type": "goto", "node": 0})
	st := w.nextState(func(s map[string]any) bool { return plies(s) == 0 })
	assert.Len(t, st["tree"], 4, "going back keeps the moves")
	assert.Equal(t, "white", st["side"])
	w.send(map[string]any{"type": "goto", "node": 2})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 2 })
	assert.Equal(t, []any{"c3-d4", "f6-g5"}, st["played"])
	assert.Equal(t, "white", st["side"])
	w.send(map[string]any{"type": "goto", "node": 3})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 3 })
	assert.EqualValues(t, 3, st["node"])

	for _, n := range []int{-1, 4, 1 << 30} {
		w.send(map[string]any{"type": "goto", "node": n})
		assert.Contains(t, w.next("error")["message"], "goto: no move", n)
	}

	// An analysis follows the position shown.
	w.send(map[string]any{"type": "analyse"})
	w.next("info")
	w.send(map[string]any{"type": "goto", "node": 1})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	fen := st["fen"].(string)
	for {
		if info := w.next("info"); info["fen"] != nil && strings.HasPrefix(info["fen"].(string), "B:") {
			break
		}
	}
	assert.True(t, strings.HasPrefix(fen, "B:"), fen)
	w.send(map[string]any{"type": "stop"})
	assert.Equal(t, "", w.next("busy")["what"])
}

// reviewedGame has a blunder (4. f4-g5??) that a review at depth 8 marks.
const reviewedGame = "1. c3-b4 f6-g5 2. b4-a5 g5-h4 3. g3-f4 b6-c5 4. f4-g5 h6xf4 5. e3xg5 *"

func TestReviewMarksTheTree(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	w.send(map[string]any{"type": "loadpdn", "text": reviewedGame})
	st := w.next("state")
	w.send(map[string]any{"type": "goto", "node": 3})
	w.nextState(func(s map[string]any) bool { return plies(s) == 3 })
	w.send(map[string]any{"type": "review"})
	assert.Equal(t, "review", w.next("busy")["what"])
	pr := w.next("review")
	assert.EqualValues(t, 9, pr["total"], "the line shown is reviewed to its end")
	st = w.nextState(func(s map[string]any) bool { return s["accuracy"] != nil })
	assert.EqualValues(t, 3, st["node"], "the node shown stays")
	acc := st["accuracy"].(map[string]any)
	assert.Contains(t, acc, "white")
	assert.Contains(t, acc, "black")
	tree := treeNodes(t, st)
	// Node 7 is 4. f4-g5, the blunder; its better line is a variation.
	assert.Equal(t, "f4-g5", tree[7]["move"])
	assert.Equal(t, "??", tree[7]["glyph"])
	assert.Contains(t, tree[7]["comment"], "better:")
	assert.Greater(t, len(tree[6]["children"].([]any)), 1, "the better move beside the blunder")
	// The summary after the last move names the players, not "?".
	assert.Contains(t, tree[9]["comment"], "review: White human: accuracy")
	assert.Contains(t, tree[9]["comment"], "Black human: accuracy")

	w.send(map[string]any{"type": "pdn"})
	text := w.next("pdn")["text"].(string)
	assert.Contains(t, text, "f4-g5??")
	assert.Contains(t, text, "[WhiteAccuracy ")

	// A reviewed PDN loads with its marks and accuracies.
	w.send(map[string]any{"type": "new"})
	w.nextState(func(s map[string]any) bool { return plies(s) == 0 })
	w.send(map[string]any{"type": "loadpdn", "text": text})
	st = w.next("state")
	assert.Equal(t, acc, st["accuracy"])
	tree = treeNodes(t, st)
	assert.Equal(t, "??", tree[7]["glyph"])
	assert.Greater(t, len(tree[6]["children"].([]any)), 1)
}

func TestReviewBadRequests(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	w.send(map[string]any{"type": "review"})
	assert.Contains(t, w.next("error")["message"], "no moves to review")
	for _, d := range []int{-1, maxReviewDepth + 1} {
		w.send(map[string]any{"type": "review", "depth": d})
		assert.Contains(t, w.next("error")["message"], "want a depth", d)
	}
	// A move stops a running review.
	w.send(map[string]any{"type": "loadpdn", "text": reviewedGame})
	w.next("state")
	w.send(map[string]any{"type": "goto", "node": 0})
	w.nextState(func(s map[string]any) bool { return plies(s) == 0 })
	w.send(map[string]any{"type": "review", "depth": maxReviewDepth})
	assert.Equal(t, "review", w.next("busy")["what"])
	w.send(map[string]any{"type": "move", "move": "c3-d4"})
	st := w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	assert.Equal(t, "", st["busy"])
	assert.Nil(t, st["accuracy"])
}

func TestTreePDNRoundTrip(t *testing.T) {
	g, err := pdn.NewReader(strings.NewReader("1. c3-d4 (1. a3-b4 {v (note)} b6-a5 (1... f6-g5 {nested} 2. b4-c5) 2. g3-h4) (1. e3-f4) 1... f6-g5?! {a note} 2. g3-h4 *"), engine.Russian).Next()
	require.NoError(t, err)
	tr := treeFromPDN(g)
	assert.Equal(t, 3, len(tr.line(tr.cur)))
	msg := tr.message()
	assert.Equal(t, []int{1, 2, 7}, msg[0].Children, "c3-d4, then a3-b4 and e3-f4")
	assert.Equal(t, []int{3, 4}, msg[2].Children, "b6-a5, then the variation inside: f6-g5")
	assert.Equal(t, "f6-g5", msg[8].Move)
	assert.Equal(t, "?!", msg[8].Glyph)
	assert.Equal(t, "a note", msg[8].Comment)
	assert.Equal(t, "v (note)", msg[2].Comment, "a variation's comment")
	assert.Equal(t, "nested", msg[4].Comment, "a nested variation's comment")
	out := pdn.NewGame(engine.Russian, g.Start)
	tr.toPDN(out)
	assert.Equal(t, g.Moves, out.Moves)
	assert.Equal(t, g.Variations, out.Variations)
	assert.Equal(t, g.Lines, out.Lines, "with the variations' comments")
	assert.Equal(t, g.Glyphs, out.Glyphs)

	// A variation's comment before its first move goes before that move's.
	g, err = pdn.NewReader(strings.NewReader("1. c3-d4 ({why} 1. a3-b4 {x}) *"), engine.Russian).Next()
	require.NoError(t, err)
	assert.Equal(t, "why x", treeFromPDN(g).message()[2].Comment)
}

func TestReviewGoesOnWhileNavigating(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	w.send(map[string]any{"type": "loadpdn", "text": reviewedGame})
	w.next("state")
	w.send(map[string]any{"type": "review", "depth": 10})
	assert.Equal(t, "review", w.next("busy")["what"])
	w.send(map[string]any{"type": "goto", "node": 2})
	st := w.nextState(func(s map[string]any) bool { return plies(s) == 2 })
	assert.Equal(t, "review", st["busy"], "the review goes on")
	st = w.nextState(func(s map[string]any) bool { return s["accuracy"] != nil })
	assert.EqualValues(t, 2, st["node"], "the node shown stays")
	assert.Equal(t, "??", treeNodes(t, st)[7]["glyph"])
}

func TestTreeBound(t *testing.T) {
	g := engine.NewGame(engine.StartPosition(engine.Russian))
	tr := newMoveTree(g)
	pos := g.Position()
	mv := pos.SortedMoves()
	require.Greater(t, len(mv), 1)
	a := tr.child(0, mv[0])
	assert.Equal(t, 1, a)
	assert.Equal(t, a, tr.child(0, mv[0]), "the same move follows the tree")
	tr.nodes = append(tr.nodes, make([]treeNode, maxTreeNodes-len(tr.nodes))...)
	assert.Equal(t, -1, tr.child(0, mv[1]), "no move past the bound")
	assert.Equal(t, a, tr.child(0, mv[0]), "a move the tree has is still followed")
	n, ok := tr.follow([]engine.Move{mv[0], mv[0]})
	assert.False(t, ok)
	assert.Equal(t, a, n)
}

func TestTreeKeepsLoadedResult(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	w.send(map[string]any{"type": "loadpdn", "text": "1. c3-d4 f6-g5 2. g3-h4 1-0"})
	st := w.next("state")
	assert.Equal(t, "1-0", st["result"])
	w.send(map[string]any{"type": "goto", "node": 1})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	assert.Equal(t, "", st["result"], "the game goes on at an earlier move")
	w.send(map[string]any{"type": "pdn"})
	assert.Contains(t, w.next("pdn")["text"], "2. g3-h4 1-0", "the main line's result")
	w.send(map[string]any{"type": "goto", "node": 3})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 3 })
	assert.Equal(t, "1-0", st["result"], "the end of the main line has its result again")
}

// TestGotoAfterLossOnTime: going to another move of a game lost on time
// stops the clocks (as a take back does), so the flag of the position
// shown does not fall again while the game is gone through.
func TestGotoAfterLossOnTime(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	w.send(map[string]any{"type": "clock", "base": 300, "inc": 0})
	w.next("state")
	w.send(map[string]any{"type": "move", "move": "c3-d4"})
	w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	st := w.nextState(func(s map[string]any) bool { return s["result"] != "" })
	assert.Equal(t, "1-0", st["result"], "Black lost on time")
	w.send(map[string]any{"type": "goto", "node": 0})
	assert.Contains(t, w.next("notice")["message"], "the clocks are stopped")
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 0 })
	assert.Equal(t, false, st["clock"].(map[string]any)["timed"])
	time.Sleep(time.Second)
	w.send(map[string]any{"type": "state"})
	st = w.next("state")
	assert.Equal(t, "", st["result"], "no flag falls at the start")
	w.send(map[string]any{"type": "goto", "node": 1})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 1 })
	assert.Equal(t, "", st["result"])
}

// TestReviewKeepsOtherMarks: a review replaces the marks it gives (?!, ?,
// ??) and leaves a loaded game's other marks ("!") where it marks nothing.
func TestReviewKeepsOtherMarks(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	humans(w)
	w.send(map[string]any{"type": "loadpdn", "text": "1. c3-b4! f6-g5 2. b4-a5 g5-h4 3. g3-f4 b6-c5? 4. f4-g5 h6xf4 5. e3xg5 *"})
	st := w.next("state")
	tree := treeNodes(t, st)
	require.Equal(t, "!", tree[1]["glyph"])
	require.Equal(t, "?", tree[6]["glyph"])
	w.send(map[string]any{"type": "review"})
	st = w.nextState(func(s map[string]any) bool { return s["accuracy"] != nil })
	tree = treeNodes(t, st)
	assert.Equal(t, "!", tree[1]["glyph"], "a mark the review does not give stays")
	assert.Equal(t, "??", tree[7]["glyph"], "the review's blunder")
	assert.NotEqual(t, "?", tree[6]["glyph"], "the loaded ? is the review's to give")
}
