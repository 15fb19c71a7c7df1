//go:build !js

package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// TestAnalysisResumesAfterMove: the analysis goes on after a move, on the
// new position, until Stop.
func TestAnalysisResumesAfterMove(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "analyse"})
	info := w.next("info")
	assert.Equal(t, true, info["analysis"])
	w.send(map[string]any{"type": "move", "move": "c3-d4"})
	st := w.nextState(func(st map[string]any) bool { return plies(st) == 1 })
	require.Equal(t, "black", st["side"])
	busy := w.next("busy")
	assert.Equal(t, "analyse", busy["what"], "the analysis resumes")
	for {
		info = w.next("info")
		if start := engine.StartPosition(engine.Russian); info["fen"] != start.FEN() {
			break
		}
	}
	pos, err := engine.ParsePosition(engine.Russian, info["fen"].(string))
	require.NoError(t, err)
	assert.Equal(t, engine.Black, pos.Side, "the analysis is of the position after the move")

	// Stop: the next move is not analysed.
	w.send(map[string]any{"type": "stop"})
	assert.Equal(t, "", w.next("busy")["what"])
	w.send(map[string]any{"type": "move", "move": "f6-g5"})
	st = w.nextState(func(st map[string]any) bool { return plies(st) == 2 })
	assert.Equal(t, "", st["busy"])
}

// TestInfoArrowAndWords: each analysis line carries the squares of its
// first move (the page's arrow) and a decided score in words.
func TestInfoArrowAndWords(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	// White takes Black's last man: a win in 1 ply.
	w.send(map[string]any{"type": "fen", "fen": "W:Wc3:Bd4"})
	w.nextState(func(st map[string]any) bool { return st["fen"] == "W:Wc3:Bd4" })
	w.send(map[string]any{"type": "analyse"})
	var info map[string]any
	for {
		info = w.next("info")
		if info["decided"] == true {
			break
		}
	}
	assert.Equal(t, "win in 1", info["scoreText"])
	c3, err := engine.ParseSquare(engine.Russian, "c3")
	require.NoError(t, err)
	e5, err := engine.ParseSquare(engine.Russian, "e5")
	require.NoError(t, err)
	assert.Equal(t, []any{float64(c3), float64(e5)}, info["path"])
	w.send(map[string]any{"type": "stop"})
	w.next("busy")
}

// TestScoreWords: decided scores in words, from the side to move's view.
func TestScoreWords(t *testing.T) {
	assert.Equal(t, "win in 3", scoreWords(search.Mate-3))
	assert.Equal(t, "loss in 4", scoreWords(-(search.Mate - 4)))
	assert.Equal(t, "", scoreWords(35))
	assert.Equal(t, "", scoreWords(0))
}

// TestLoadedPDNStartsDamka: a game loaded where damka is to move makes
// damka move.
func TestLoadedPDNStartsDamka(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "level", "nodes": 200})
	w.next("level")
	w.send(map[string]any{"type": "sides", "white": "human", "black": "damka"})
	w.next("state")
	w.send(map[string]any{"type": "loadpdn", "text": "1. c3-d4 *"})
	st := w.nextState(func(st map[string]any) bool { return plies(st) == 2 })
	assert.Equal(t, "white", st["side"])
}

// TestInternationalResults: an international game's result is 2-0, 0-2 or
// 1-1, in the state and the PDN; a loaded result the position does not
// decide is the game's recorded result, not a resignation.
func TestInternationalResults(t *testing.T) {
	assert.Equal(t, "2-0", resultToken(engine.WhiteWins, engine.International))
	assert.Equal(t, "0-2", resultToken(engine.BlackWins, engine.International))
	assert.Equal(t, "1-1", resultToken(engine.Draw, engine.International))
	assert.Equal(t, "1-0", resultToken(engine.WhiteWins, engine.Russian))
	assert.Equal(t, "*", resultToken(engine.Ongoing, engine.International))

	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "loadpdn", "text": "[GameType \"20\"]\n1. 32-28 19-23 2-0"})
	st := w.nextState(func(st map[string]any) bool { return plies(st) == 2 })
	assert.Equal(t, "2-0", st["result"])
	assert.Equal(t, "White wins (the result recorded in the game)", st["reason"])
	w.send(map[string]any{"type": "pdn"})
	text := w.next("pdn")["text"].(string)
	assert.Contains(t, text, `[Result "2-0"]`)
	assert.Contains(t, text, "19-23 2-0")
	w.send(map[string]any{"type": "loadpdn", "text": "[GameType \"20\"]\n1. 32-28 19-23 1-1"})
	st = w.nextState(func(st map[string]any) bool { return st["result"] == "1-1" })
	assert.Equal(t, "draw (the result recorded in the game)", st["reason"])
}

// TestPDNVariantHints: a game of another variant is read as its GameType
// says and the page is told; one without the tag that is no game of the
// board's variant is read as the variant it is, or the error says the
// board's variant was assumed.
func TestPDNVariantHints(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "loadpdn", "text": "1. 11-15 23-19 *"})
	assert.Equal(t, "the text has no GameType tag and is not a russian game: read as english", w.next("notice")["message"])
	st := w.nextState(func(st map[string]any) bool { return plies(st) == 2 })
	assert.Equal(t, "english", st["variant"])

	// On an international board: "an international game".
	w.send(map[string]any{"type": "new", "variant": "international"})
	w.nextState(func(st map[string]any) bool { return st["variant"] == "international" })
	w.send(map[string]any{"type": "loadpdn", "text": "1. 11-15 23-19 *"})
	assert.Equal(t, "the text has no GameType tag and is not an international game: read as english", w.next("notice")["message"])
	w.nextState(func(st map[string]any) bool { return plies(st) == 2 && st["variant"] == "english" })

	w.send(map[string]any{"type": "new", "variant": "russian"})
	w.nextState(func(st map[string]any) bool { return st["variant"] == "russian" })
	w.send(map[string]any{"type": "loadpdn", "text": "[GameType \"21\"]\n1. 11-15 *"})
	assert.Equal(t, "the game's GameType tag says english: the board is now english", w.next("notice")["message"])
	st = w.nextState(func(st map[string]any) bool { return plies(st) == 1 })
	assert.Equal(t, "english", st["variant"])

	w.send(map[string]any{"type": "new", "variant": "russian"})
	w.nextState(func(st map[string]any) bool { return st["variant"] == "russian" })
	w.send(map[string]any{"type": "loadpdn", "text": "1. 99-98 *"})
	msg := w.next("error")["message"].(string)
	assert.Contains(t, msg, "no GameType tag")
	assert.Contains(t, msg, "russian")
}

// TestFENErrorInTheVariantsNotation: a refused position is described in
// the board's notation (Russian: algebraic).
func TestFENErrorInTheVariantsNotation(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "fen", "fen": "W:Wd8:Bb6"})
	msg := w.next("error")["message"].(string)
	assert.Contains(t, msg, "man on d8")
	assert.NotContains(t, msg, "man on 2 ")
}
