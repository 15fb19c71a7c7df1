//go:build !js

package web

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// typeMove plays a move by the page's move box.
func typeMove(t *testing.T, ctx context.Context, mv string, ply int) {
	t.Helper()
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#move-text`), mv),
		chromedp.Click(chromedp.CSS(`#btn-move`)),
	)
	waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d && window.damka.state.played[%d] === %q`, ply, ply-1, mv))
}

// shown waits until the page shows node n of its tree, at ply.
func shown(t *testing.T, ctx context.Context, n, ply int) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`(() => { const s = window.damka.state, c = document.querySelector("#movelist .mv.cur");
  return s.node === %d && s.played.length === %d && (c ? c.dataset.node === "%d" : %d === 0); })()`, n, ply, n, n))
}

// TestBrowserMoveTree is the move tree on the page served by damka gui: a
// move after a take back is a variation beside the main line, both in the
// list; the buttons, the arrow keys, Home and End and a click on a move
// show their positions; a move from an earlier position follows the tree
// or adds a line; PDN keeps the variation.
func TestBrowserMoveTree(t *testing.T) {
	bin := requireChromium(t)
	_, hs := newTestServer(t, Config{Version: "test"})
	ctx, _, consoleErrors := openBrowser(t, bin, 2*time.Minute)
	openPage(t, ctx, hs.URL+"/")
	newGame(t, ctx, "russian", "human", "human")

	typeMove(t, ctx, "c3-d4", 1)
	typeMove(t, ctx, "f6-g5", 2)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-undo`)))
	shown(t, ctx, 1, 1)
	typeMove(t, ctx, "h6-g5", 2)
	shown(t, ctx, 3, 2)
	moves := func() []string {
		return eval[[]string](t, ctx, `[...document.querySelectorAll("#movelist .mv")].map(e => e.dataset.node + ":" + e.textContent)`)
	}
	require.Equal(t, []string{"1:c3-d4", "2:f6-g5", "3:h6-g5"}, moves(), "both replies listed, the main line first")
	require.Equal(t, "(1... h6-g5)", eval[string](t, ctx, `document.querySelector("#movelist .variations .var").textContent`), "the variation indented in parentheses")
	require.Equal(t, 1, eval[int](t, ctx, `document.querySelectorAll("#movelist > li").length`))

	// Buttons.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-first`)))
	shown(t, ctx, 0, 0)
	require.Equal(t, 12, eval[int](t, ctx, `document.querySelectorAll("#board [data-piece='w']").length`))
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-forward`)))
	shown(t, ctx, 1, 1)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-last`)))
	shown(t, ctx, 2, 2)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-back`)))
	shown(t, ctx, 1, 1)

	// Keys, with the focus outside the text boxes.
	runIn(t, ctx, js(`document.activeElement.blur()`))
	for _, step := range []struct {
		key       string
		node, ply int
	}{{kb.Home, 0, 0}, {kb.ArrowRight, 1, 1}, {kb.ArrowRight, 2, 2}, {kb.ArrowLeft, 1, 1}, {kb.End, 2, 2}, {kb.ArrowRight, 2, 2}} {
		runIn(t, ctx, chromedp.KeyEvent(step.key))
		shown(t, ctx, step.node, step.ply)
	}
	// An arrow key in the move box moves the caret, not the game.
	runIn(t, ctx, chromedp.Focus(chromedp.CSS(`#move-text`)), chromedp.KeyEvent(kb.ArrowLeft))
	time.Sleep(200 * time.Millisecond)
	shown(t, ctx, 2, 2)

	// A click on the variation's move shows its position.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#movelist .mv[data-node="3"]`)))
	shown(t, ctx, 3, 2)
	require.Equal(t, "h6-g5", eval[string](t, ctx, `document.querySelector("#movelist .mv.cur").textContent`))
	require.Equal(t, "", eval[string](t, ctx, `document.querySelector("#sq-"+window.damka.state.squares.find(s => s.name === "h6").sq).dataset.piece || ""`), "h6 is empty")

	// A move from an earlier position: the same move follows the tree,
	// another one is a new variation.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#movelist .mv[data-node="1"]`)))
	shown(t, ctx, 1, 1)
	typeMove(t, ctx, "f6-g5", 2)
	shown(t, ctx, 2, 2)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#movelist .mv[data-node="1"]`)))
	shown(t, ctx, 1, 1)
	typeMove(t, ctx, "b6-a5", 2)
	shown(t, ctx, 4, 2)
	require.Equal(t, 2, eval[int](t, ctx, `document.querySelectorAll("#movelist .variations .var").length`))
	typeMove(t, ctx, "g3-h4", 3)
	require.Equal(t, "(1... b6-a5 2. g3-h4)", eval[string](t, ctx, `document.querySelectorAll("#movelist .variations .var")[1].textContent`))

	// PDN out and back in keeps the variations.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-save`)))
	waitFor(t, ctx, `document.getElementById("pdn").value.includes("1. c3-d4 f6-g5 (1... h6-g5) (1... b6-a5 2. g3-h4)")`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-new`)))
	waitFor(t, ctx, `window.damka.state.played.length === 0 && window.damka.state.tree.length === 1`)
	require.Empty(t, moves())
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-load`)))
	waitFor(t, ctx, `window.damka.state.played.length === 2 && window.damka.state.tree.length === 6`)
	require.Equal(t, []string{"1:c3-d4", "2:f6-g5", "3:h6-g5", "4:b6-a5", "5:g3-h4"}, moves())

	// A long game: the list scrolls to the move shown, the page does not.
	long, n := longGame(t, 120)
	require.Greater(t, n, 36, "longer than the list is high")
	runIn(t, ctx,
		js(fmt.Sprintf(`document.getElementById("pdn").value = %q`, long)),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
		js(`window.scrollTo(0, 0)`),
	)
	waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d`, n))
	visible := `(() => { const l = document.getElementById("movelist"), c = l.querySelector(".mv.cur");
	  const a = l.getBoundingClientRect(), b = c.getBoundingClientRect(); return b.top >= a.top && b.bottom <= a.bottom; })()`
	waitFor(t, ctx, visible)
	require.Greater(t, eval[int](t, ctx, `document.getElementById("movelist").scrollTop`), 0)
	runIn(t, ctx, js(`document.activeElement.blur()`), chromedp.KeyEvent(kb.Home))
	shown(t, ctx, 0, 0)
	runIn(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	shown(t, ctx, 1, 1)
	waitFor(t, ctx, visible)
	require.Zero(t, eval[int](t, ctx, `window.scrollY`), "the page stays")

	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// longGame returns a Russian game of one legal move after another (the
// n-th at ply n, of those in the position), at most plies long, as PDN,
// and its length.
func longGame(t *testing.T, plies int) (string, int) {
	t.Helper()
	g := pdn.NewGame(engine.Russian, engine.StartPosition(engine.Russian))
	for range plies {
		p := g.Position()
		ms := p.SortedMoves()
		if len(ms) == 0 {
			break
		}
		g.AppendMove(ms[len(g.Moves)%len(ms)])
	}
	var b bytes.Buffer
	require.NoError(t, pdn.Write(&b, g))
	return b.String(), len(g.Moves)
}

// TestBrowserReview is the review on the page: a review's progress and
// its stop; the Review button marks
// the blunder of a loaded game with its better line as a variation and
// shows both sides' accuracy; the reviewed game saved and loaded again
// shows the same marks and accuracy.
func TestBrowserReview(t *testing.T) {
	bin := requireChromium(t)
	_, hs := newTestServer(t, Config{Version: "test"})
	ctx, _, consoleErrors := openBrowser(t, bin, 2*time.Minute)
	openPage(t, ctx, hs.URL+"/")
	newGame(t, ctx, "russian", "human", "human")
	runIn(t, ctx,
		js(fmt.Sprintf(`document.getElementById("pdn").value = %q`, reviewedGame)),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
	)
	waitFor(t, ctx, `window.damka.state.played.length === 9`)
	require.Equal(t, "", eval[string](t, ctx, `document.getElementById("accuracy").textContent`))

	// A deep review shows its progress; Stop ends it with no marks.
	runIn(t, ctx, js(`window.damka.send({type: "review", depth: 24})`))
	waitFor(t, ctx, `/^reviewing: move [1-9] of 9$/.test(document.getElementById("review-status").textContent) && window.damka.state.busy === "review"`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-stop`)))
	waitFor(t, ctx, `document.getElementById("review-status").textContent === "" && document.body.dataset.busy === ""`)
	require.Zero(t, eval[int](t, ctx, `document.querySelectorAll("#movelist .glyph").length`))

	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-review`)))
	waitFor(t, ctx, `!!document.querySelector('#movelist .mv[data-glyph="??"]')`)
	require.Equal(t, "f4-g5??", eval[string](t, ctx, `document.querySelector('#movelist .mv[data-glyph="??"]').textContent`))
	require.Contains(t, eval[string](t, ctx, `document.querySelector('#movelist .mv[data-glyph="??"]').title`), "better:")
	require.Equal(t, 1, eval[int](t, ctx, `document.querySelectorAll('#movelist .variations').length`), "the better line beside the blunder")
	acc := eval[string](t, ctx, `document.getElementById("accuracy").textContent`)
	require.Regexp(t, `^accuracy: White [0-9.]+%, Black [0-9.]+%$`, acc)
	require.Equal(t, "", eval[string](t, ctx, `document.getElementById("review-status").textContent`), "the progress gone at the end")
	scored := eval[int](t, ctx, `window.damka.state.tree.filter(n => /\[%eval /.test(n.comment || "")).length`)
	require.Greater(t, scored, 4, "the review's scores (book moves have none)")
	require.Equal(t, scored, eval[int](t, ctx, `document.getElementById("graphline").getAttribute("points").trim().split(/\s+/).length`), "the review's scores in the graph")

	// The reviewed game out and in again.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-save`)))
	waitFor(t, ctx, `document.getElementById("pdn").value.includes("f4-g5??")`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-new`)))
	waitFor(t, ctx, `window.damka.state.played.length === 0 && document.getElementById("accuracy").textContent === ""`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-load`)))
	waitFor(t, ctx, `window.damka.state.played.length === 9 && !!document.querySelector('#movelist .mv[data-glyph="??"]')`)
	require.Equal(t, acc, eval[string](t, ctx, `document.getElementById("accuracy").textContent`))
	require.Equal(t, 1, eval[int](t, ctx, `document.querySelectorAll('#movelist .variations').length`))

	require.Empty(t, consoleErrors(), "console errors and exceptions")
}
