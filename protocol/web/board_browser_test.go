//go:build !js

package web

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// The browser tests of the analysis board: the arrows, the evaluation bar,
// the clickable graph, the board's size and squareness, and the page's
// fixes. DAMKA_GUI_SHOTS=DIR also writes each variant at 360 and 1920 px
// wide there (gui-VARIANT-360.png, gui-VARIANT-1920.png).

// analysisPage opens a test server's page in a fresh browser.
func analysisPage(t *testing.T, cfg Config) (context.Context, func() []string) {
	t.Helper()
	bin := requireChromium(t)
	if cfg.Version == "" {
		cfg.Version = "test"
	}
	_, hs := newTestServer(t, cfg)
	ctx, _, consoleErrors := openBrowser(t, bin, 3*time.Minute)
	openPage(t, ctx, hs.URL+"/")
	return ctx, consoleErrors
}

// setMultiPV sets the page's multipv setting.
func setMultiPV(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#set-multipv`), fmt.Sprint(n)),
		js(`document.getElementById("set-multipv").dispatchEvent(new Event("change"))`),
	)
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById("set-multipv").value === "%d"`, n))
}

// setFEN sets the position by the FEN box.
func setFEN(t *testing.T, ctx context.Context, fen string) {
	t.Helper()
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#fen`), fen),
		chromedp.Click(chromedp.CSS(`#btn-fen`)),
	)
}

// stopAnalysis stops the analysis and waits until nothing runs.
func stopAnalysis(t *testing.T, ctx context.Context) {
	t.Helper()
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-stop`)))
	waitFor(t, ctx, `window.damka.state.busy === "" && document.body.dataset.busy === ""`)
}

// TestBrowserArrowsAndEvalBar: the analysis' best move as an arrow along
// its path, the second line's fainter; the evaluation bar from the score;
// a decided score as a win in words; the analysis going on after a move.
func TestBrowserArrowsAndEvalBar(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	setMultiPV(t, ctx, 2)
	const fenButtonY = `document.getElementById("btn-fen").getBoundingClientRect().y`
	y0 := eval[float64](t, ctx, fenButtonY)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-analyse`)))
	waitFor(t, ctx, `!!document.querySelector("#arrowlines .arrow.best") && !!document.querySelector("#arrowlines .arrow.other")`)
	// The lines' box kept their rows: what lies below did not move.
	require.InDelta(t, y0, eval[float64](t, ctx, fenButtonY), 0.5, "the FEN button moved while the analysis reported")
	// The arrow starts on a white man (White to move), drawn from that
	// square's middle (read at once: a deeper line may change the arrow).
	type arrow struct {
		Path  string    `json:"path"`
		Piece string    `json:"piece"`
		Start []float64 `json:"start"`
		Cell  []float64 `json:"cell"`
	}
	a := eval[arrow](t, ctx, `(() => {
	  const pl = document.querySelector("#arrowlines .arrow.best");
	  const from = Number(pl.dataset.path.split("-")[0]);
	  const q = pl.points[0].matrixTransform(document.getElementById("arrows").getScreenCTM());
	  const r = document.getElementById("sq-" + from).getBoundingClientRect();
	  return {path: pl.dataset.path, piece: window.damka.state.board[from], start: [q.x, q.y], cell: [r.x + r.width/2, r.y + r.height/2]};
	})()`)
	require.Regexp(t, `^[0-9]+-[0-9]+$`, a.Path)
	require.Equal(t, "w", a.Piece)
	require.InDelta(t, a.Cell[0], a.Start[0], 2)
	require.InDelta(t, a.Cell[1], a.Start[1], 2)
	require.Less(t, eval[float64](t, ctx, `Number(getComputedStyle(document.querySelector("#arrowlines .arrow.other")).opacity)`),
		eval[float64](t, ctx, `Number(getComputedStyle(document.querySelector("#arrowlines .arrow.best")).opacity)`), "the other line is fainter")

	// The evaluation bar: White's share from the score of line 1.
	waitFor(t, ctx, `document.getElementById("evalbar").dataset.white !== ""`)
	// Both at once: the next line may move the bar.
	bar := eval[[]float64](t, ctx, `[Number(document.getElementById("evalbar").dataset.white), parseFloat(document.getElementById("evalbar-fill").style.height)]`)
	white, share := bar[0], bar[1]
	require.Greater(t, share, 0.0)
	require.Less(t, share, 100.0)
	if white > 0 {
		require.Greater(t, share, 50.0)
	}

	// A move: the analysis goes on, on the new position, with its arrow.
	path := eval[[]int](t, ctx, `window.damka.state.moves[0].path`)
	runIn(t, ctx, clickSq(path[0]), clickSq(path[1]))
	waitFor(t, ctx, `window.damka.state.played.length === 1 && document.body.dataset.busy === "analyse" && !!document.querySelector("#arrowlines .arrow.best")`)
	require.Equal(t, "b", eval[string](t, ctx, `window.damka.state.board[Number(document.querySelector("#arrowlines .arrow.best").dataset.path.split("-")[0])]`), "Black's move after White's")

	// A won position: "win in 1", the bar all White's.
	setFEN(t, ctx, "W:Wc3:Bd4")
	waitFor(t, ctx, `!!document.querySelector("#lines tbody td:nth-child(3)") && document.querySelector("#lines tbody td:nth-child(3)").textContent === "win in 1"`)
	waitFor(t, ctx, `document.getElementById("evalbar").title.includes("White wins in 1")`)
	require.Greater(t, eval[float64](t, ctx, `parseFloat(document.getElementById("evalbar-fill").style.height)`), 99.0)
	stopAnalysis(t, ctx)
	// Flipped, White's share hangs from the top.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-flip`)))
	require.True(t, eval[bool](t, ctx, `document.getElementById("evalbar").classList.contains("flipped")`))
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-flip`)))
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserGraphClick: a click on the evaluation graph shows the
// position of the ply under it.
func TestBrowserGraphClick(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	for ply := 0; ply < 6; ply++ {
		path := eval[[]int](t, ctx, `window.damka.state.moves[0].path`)
		runIn(t, ctx, clickSq(path[0]), clickSq(path[len(path)-1]))
		waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d`, ply+1))
	}
	// The graph spans 10 plies at least: a click 2/10 of the way in is ply 2.
	runIn(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		xy, err := chromedp.Evaluate[[]float64](`(() => { const g = document.getElementById("graph"); g.scrollIntoView({block: "center"}); const r = g.getBoundingClientRect(); return [r.x + r.width * 2 / 10, r.y + r.height / 2]; })()`)(ctx, tg)
		if err != nil {
			return err
		}
		_, err = chromedp.MouseClickXY(xy[0], xy[1])(ctx, tg)
		return err
	}))
	waitFor(t, ctx, `window.damka.state.played.length === 2`)
	// The graph marks the ply shown.
	require.InDelta(t, 60, eval[float64](t, ctx, `Number(document.getElementById("graphcur").getAttribute("x1"))`), 0.5)
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// boardShape returns the board's width and the sizes of its rows and
// columns and of its pieces, as drawn.
type boardShape struct {
	Board   float64     `json:"board"`
	Rows    []float64   `json:"rows"`
	Cols    []float64   `json:"cols"`
	Pieces  [][]float64 `json:"pieces"`
	Window  float64     `json:"window"`
	Overrun bool        `json:"overrun"`
}

const readBoardShape = `(() => {
  const b = document.getElementById("board");
  const n = window.damka.state.size;
  const cells = [...b.children];
  const rows = [], cols = [];
  for (let i = 0; i < n; i++) {
    rows.push(cells[i * n].getBoundingClientRect().height);
    cols.push(cells[i].getBoundingClientRect().width);
  }
  const pieces = [...b.querySelectorAll(".piece")].map(p => { const r = p.getBoundingClientRect(); return [r.width, r.height]; });
  return {board: b.getBoundingClientRect().width, rows: rows, cols: cols, pieces: pieces, window: window.innerWidth,
          overrun: document.documentElement.scrollWidth > window.innerWidth};
})()`

// TestBrowserSquareBoard: with kings on it the board stays square, each
// row as tall as a column is wide and each king round, at a phone's width
// and on a desktop screen, where the board grows past its old 526 px.
func TestBrowserSquareBoard(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	setFEN(t, ctx, "W:WKa1,Kc3,Ke5,Kg7:BKb8,Kd8,Kf8,Kh8")
	waitFor(t, ctx, `window.damka.state.board.filter(p => p === "W" || p === "B").length === 8`)
	defer runIn(t, ctx, chromedp.EmulateViewport(1000, 800))
	for _, c := range []struct{ w, h int64 }{{360, 740}, {1920, 1080}, {1000, 800}} {
		runIn(t, ctx, chromedp.EmulateViewport(c.w, c.h), chromedp.Sleep(200*time.Millisecond))
		sh := eval[boardShape](t, ctx, readBoardShape)
		cell := (sh.Board - 6) / 8
		for i := range 8 {
			require.InDelta(t, cell, sh.Rows[i], 1, "%dx%d: row %d of %v", c.w, c.h, i, sh.Rows)
			require.InDelta(t, cell, sh.Cols[i], 1, "%dx%d: column %d of %v", c.w, c.h, i, sh.Cols)
		}
		require.Len(t, sh.Pieces, 8)
		for _, p := range sh.Pieces {
			require.InDelta(t, p[0], p[1], 1, "%dx%d: a king %vx%v", c.w, c.h, p[0], p[1])
		}
		require.False(t, sh.Overrun, "%dx%d: the page is wider than the window", c.w, c.h)
		switch c.w {
		case 360:
			require.Greater(t, sh.Board, 280.0, "at 360 px")
		case 1920:
			require.Greater(t, sh.Board, 850.0, "at 1920x1080 the board fills the height")
		}
	}
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserRefusedPlayFromHere: a position the server refuses leaves the
// page in the editor, on the edited board, the error in the variant's
// notation; a click still edits.
func TestBrowserRefusedPlayFromHere(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	b8 := sqNamed(t, ctx, "b8")
	c5 := sqNamed(t, ctx, "c5")
	runIn(t, ctx,
		chromedp.Click(chromedp.CSS(`#btn-edit`)),
		chromedp.Click(chromedp.CSS(`#btn-clear`)),
		clickSq(b8), // a white man on its crowning row
		clickSq(c5), clickSq(c5), clickSq(c5),
		chromedp.Click(chromedp.CSS(`#btn-edit-done`)),
	)
	waitFor(t, ctx, `document.getElementById("error").textContent !== ""`)
	msg := eval[string](t, ctx, `document.getElementById("error").textContent`)
	require.Contains(t, msg, "man on b8")
	require.Contains(t, msg, "write Kb8")
	require.True(t, eval[bool](t, ctx, `!!window.damka.editing`), "the editor stays open")
	require.Equal(t, "w", eval[string](t, ctx, fmt.Sprintf(`document.getElementById("sq-%d").dataset.piece`, b8)), "the edited board stays")
	require.Equal(t, 0, eval[int](t, ctx, `window.damka.state.played.length`))
	// A click edits: the man on b8 becomes a king, and the position is taken.
	runIn(t, ctx, clickSq(b8))
	require.Equal(t, "W", eval[string](t, ctx, fmt.Sprintf(`document.getElementById("sq-%d").dataset.piece`, b8)))
	require.Equal(t, 0, eval[int](t, ctx, `window.damka.state.played.length`))
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-edit-done`)))
	waitFor(t, ctx, fmt.Sprintf(`!window.damka.editing && window.damka.state.board[%d] === "W" && window.damka.state.board[%d] === "b"`, b8, c5))
	require.Empty(t, eval[string](t, ctx, `document.getElementById("error").textContent`))
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserEditorThenNavigation: going to a move (a key, a button, a
// click in the list) while the editor is open leaves the editor, and the
// board shows that move's position, not the edited board.
func TestBrowserEditorThenNavigation(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	typeMove(t, ctx, "c3-d4", 1)
	typeMove(t, ctx, "f6-g5", 2)
	d4 := sqNamed(t, ctx, "d4")
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-edit`)), chromedp.Click(chromedp.CSS(`#btn-clear`)))
	require.True(t, eval[bool](t, ctx, `!!window.damka.editing`))
	runIn(t, ctx, js(`document.activeElement.blur()`), chromedp.KeyEvent(kb.Home))
	shown(t, ctx, 0, 0)
	waitFor(t, ctx, `!window.damka.editing && document.querySelectorAll("#board [data-piece]").length === 24`)
	require.False(t, eval[bool](t, ctx, `document.getElementById("board").classList.contains("editing")`))
	// The editor again, then a click on a move of the list.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-edit`)), chromedp.Click(chromedp.CSS(`#btn-clear`)))
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#movelist .mv[data-node="1"]`)))
	shown(t, ctx, 1, 1)
	waitFor(t, ctx, fmt.Sprintf(`!window.damka.editing && document.getElementById("sq-%d").dataset.piece === "w"`, d4))
	// A click on the board plays in the position shown.
	typeMove(t, ctx, "b6-a5", 2)
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserMoveListFits: moves 10 to 13 keep their numbers whole and the
// list does not overlap itself, on a desktop and at 360 px.
func TestBrowserMoveListFits(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	for ply := 0; ply < 27; ply++ {
		runIn(t, ctx, js(`window.damka.send({type: "move", move: window.damka.state.moves[0].text})`))
		waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d`, ply+1))
		if eval[string](t, ctx, `window.damka.state.result`) != "" {
			break
		}
	}
	require.GreaterOrEqual(t, eval[int](t, ctx, `document.querySelectorAll("#movelist > li").length`), 13)
	defer runIn(t, ctx, chromedp.EmulateViewport(1000, 800))
	for _, w := range []int64{1920, 1000, 360} {
		runIn(t, ctx, chromedp.EmulateViewport(w, 800), chromedp.Sleep(150*time.Millisecond))
		// The numbers stand in the list's left padding: it holds "999. ".
		room := eval[float64](t, ctx, `(() => {
		  const ol = document.getElementById("movelist");
		  const cs = getComputedStyle(ol);
		  const c = document.createElement("canvas").getContext("2d");
		  c.font = cs.fontSize + " " + cs.fontFamily;
		  return parseFloat(cs.paddingLeft) - c.measureText("999. ").width;
		})()`)
		require.GreaterOrEqual(t, room, 0.0, "%d px: the move numbers do not fit", w)
		overlap := eval[string](t, ctx, `(() => {
		  const ol = document.getElementById("movelist");
		  const lis = [...ol.children].map(li => li.getBoundingClientRect());
		  const box = ol.getBoundingClientRect();
		  for (let i = 0; i < lis.length; i++) {
		    if (lis[i].right > box.right + 0.5) return "item " + i + " sticks out";
		    for (let j = i + 1; j < lis.length; j++) {
		      const a = lis[i], b = lis[j];
		      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) return "items " + i + " and " + j + " overlap";
		    }
		  }
		  return "";
		})()`)
		require.Empty(t, overlap, "%d px", w)
	}
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserBigPDNFile: a long PDN file chosen in the browser is loaded
// without being put in the PDN box (a box of a hundred thousand lines
// stops Chromium for many seconds); the box says so, another game of the
// file loads from the game list, and text pasted in the box is loaded
// instead.
func TestBrowserBigPDNFile(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	runIn(t, ctx, js(`const dt = new DataTransfer();
	  dt.items.add(new File([("[Event \"x\"]\n1. c3-d4 f6-g5 *\n\n").repeat(50000) + "[Event \"last\"]\n1. a3-b4 *\n"], "big.pdn"));
	  const f = document.getElementById("pdn-file"); f.files = dt.files; f.dispatchEvent(new Event("change"))`))
	waitFor(t, ctx, `window.damka.state.played.length === 2 && !document.getElementById("pdn-games").hidden`)
	require.Equal(t, "", eval[string](t, ctx, `document.getElementById("pdn").value`), "the file is not put in the box")
	require.Contains(t, eval[string](t, ctx, `document.getElementById("pdn").placeholder`), "big.pdn")
	// Another game of the file, by the list.
	runIn(t, ctx, js(`const g = document.getElementById("pdn-game"); g.value = "2"; g.dispatchEvent(new Event("change"))`))
	waitFor(t, ctx, `document.getElementById("pdn-game").value === "2" && window.damka.state.played.length === 2`)
	// A game pasted in the box is loaded instead of the file.
	runIn(t, ctx, chromedp.SetValue(chromedp.CSS(`#pdn`), "1. a3-b4 *"),
		js(`document.getElementById("pdn").dispatchEvent(new Event("input"))`),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)))
	waitFor(t, ctx, `window.damka.state.played.length === 1 && window.damka.state.played[0] === "a3-b4" && document.getElementById("pdn-games").hidden`)
	require.Equal(t, "paste a PDN game here", eval[string](t, ctx, `document.getElementById("pdn").placeholder`))
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserReviewReportAfterStop: a review's progress report that
// comes after the review stopped (the server's review sends it as the Stop
// arrives) does not leave "reviewing: move N of M" on the page.
func TestBrowserReviewReportAfterStop(t *testing.T) {
	bin := requireChromium(t)
	_, hs := newTestServer(t, Config{Version: "test"})
	ctx, _, consoleErrors := openBrowser(t, bin, 2*time.Minute)
	// The page's WebSocket, kept where the test can hand it a message.
	runIn(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		  const W = window.WebSocket; window.pageSockets = [];
		  window.WebSocket = function (...a) { const w = new W(...a); window.pageSockets.push(w); return w; };
		  window.WebSocket.prototype = W.prototype; window.WebSocket.OPEN = W.OPEN; })()`})
		return err
	}))
	openPage(t, ctx, hs.URL+"/")
	newGame(t, ctx, "russian", "human", "human")
	typeMove(t, ctx, "c3-d4", 1)
	typeMove(t, ctx, "f6-g5", 2)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-review`)))
	waitFor(t, ctx, `window.damka.state.busy === "" && document.body.dataset.busy === "" && !!window.damka.state.tree[2].comment`)
	runIn(t, ctx, js(`window.pageSockets[0].onmessage({data: JSON.stringify({type: "review", done: 1, total: 2})})`))
	require.Equal(t, "", eval[string](t, ctx, `document.getElementById("review-status").textContent`))
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserPDNFixes: a PDN text past the bound is refused by the page
// with the reason and the page stays connected; a loaded game where damka
// is to move starts damka; an international win is 2-0, recorded, not a
// resignation; a game of another variant without a GameType is read as
// that variant and the page says so.
func TestBrowserPDNFixes(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	runIn(t, ctx, js(`window.damka.send({type: "loadpdn", text: "[Event \"big\"]\n" + " ".repeat(17 << 20) + "1. c3-d4 *"})`))
	waitFor(t, ctx, `document.getElementById("error").textContent.includes("MiB")`)
	require.Contains(t, eval[string](t, ctx, `document.getElementById("error").textContent`), "at most 16.0 MiB")
	require.Equal(t, "true", eval[string](t, ctx, `document.body.dataset.connected`))

	// damka to move in the loaded game: it moves.
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#lv-movetime`), "0"),
		chromedp.SetValue(chromedp.CSS(`#lv-nodes`), "200"),
		chromedp.Click(chromedp.CSS(`#btn-level`)),
		chromedp.SetValue(chromedp.CSS(`#side-black`), "damka"),
		js(`document.getElementById("side-black").dispatchEvent(new Event("change"))`),
	)
	waitFor(t, ctx, `window.damka.state.black === "damka"`)
	runIn(t, ctx,
		js(`document.getElementById("pdn").value = "1. c3-d4 *"`),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
	)
	waitFor(t, ctx, `window.damka.state.played.length === 2 && window.damka.state.played[0] === "c3-d4" && window.damka.state.busy === ""`)
	runIn(t, ctx, js(`window.damka.send({type: "sides", white: "human", black: "human"})`))
	waitFor(t, ctx, `window.damka.state.black === "human" && document.getElementById("side-black").value === "human"`)

	// International: 2-0, as the game records it.
	newGame(t, ctx, "russian", "human", "human")
	runIn(t, ctx,
		js(`document.getElementById("pdn").value = '[GameType "20"]\n1. 32-28 19-23 2-0'`),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
	)
	waitFor(t, ctx, `window.damka.state.variant === "international" && window.damka.state.result === "2-0"`)
	res := eval[string](t, ctx, `document.getElementById("result").textContent`)
	require.Contains(t, res, "2-0")
	require.Contains(t, res, "recorded")
	require.NotContains(t, res, "resignation")
	require.Contains(t, eval[string](t, ctx, `document.getElementById("status").textContent`), "GameType tag says international")
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-save`)))
	waitFor(t, ctx, `document.getElementById("pdn").value.includes('[Result "2-0"]')`)

	// An English game with no GameType on a Russian board.
	newGame(t, ctx, "russian", "human", "human")
	runIn(t, ctx,
		js(`document.getElementById("pdn").value = "1. 11-15 23-19 *"`),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
	)
	waitFor(t, ctx, `window.damka.state.variant === "english" && window.damka.state.played.length === 2`)
	require.Contains(t, eval[string](t, ctx, `document.getElementById("status").textContent`), "read as english")
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// TestBrowserToken: a server with a token serves the page at the address
// with ?token= (the WebSocket too); a page without it gets 403.
func TestBrowserToken(t *testing.T) {
	bin := requireChromium(t)
	_, hs := newTestServer(t, Config{Version: "test", Token: "tok123"})
	ctx, _, consoleErrors := openBrowser(t, bin, time.Minute)
	openPage(t, ctx, hs.URL+"/?token=tok123")
	require.Equal(t, "connected", eval[string](t, ctx, `document.getElementById("status").textContent`))
	consoleErrors()

	ctx2, _, _ := openBrowser(t, bin, time.Minute)
	runIn(t, ctx2, chromedp.Navigate(hs.URL+"/"))
	require.Contains(t, eval[string](t, ctx2, `document.body.textContent`), "token")
}

// TestBrowserTooManyPages: the page past the server's bound says why it is
// not connected.
func TestBrowserTooManyPages(t *testing.T) {
	bin := requireChromium(t)
	_, hs := newTestServer(t, Config{Version: "test", MaxPages: 1})
	ctx, _, _ := openBrowser(t, bin, time.Minute)
	openPage(t, ctx, hs.URL+"/")
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	runIn(t, tab, chromedp.Navigate(hs.URL+"/"))
	waitFor(t, tab, `document.getElementById("status").textContent.includes("1 pages are open")`)
	require.Equal(t, "false", eval[string](t, tab, `document.body.dataset.connected`))
	require.True(t, eval[bool](t, tab, `document.getElementById("loading").getClientRects().length > 0`), "the board says so too")
}

// TestBrowserShots writes each variant at 360 and 1920 px wide, analysing
// with two lines, when DAMKA_GUI_SHOTS names a folder (make gui-shots).
func TestBrowserShots(t *testing.T) {
	shots := os.Getenv("DAMKA_GUI_SHOTS")
	if shots == "" {
		t.Skip("DAMKA_GUI_SHOTS is not set")
	}
	ctx, consoleErrors := analysisPage(t, Config{})
	setMultiPV(t, ctx, 2)
	opening := map[string][]string{
		"russian": {"c3-d4", "f6-g5", "g3-f4"}, "brazilian": {"c3-d4", "f6-g5", "g3-f4"},
		"english": {"11-15", "23-19", "8-11"}, "international": {"32-28", "19-23", "28x19"},
	}
	for _, variant := range []string{"russian", "english", "brazilian", "international"} {
		newGame(t, ctx, variant, "human", "human")
		for i, mv := range opening[variant] {
			runIn(t, ctx, js(fmt.Sprintf(`window.damka.send({type: "move", move: %q})`, mv)))
			waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d`, i+1))
		}
		runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-analyse`)))
		waitFor(t, ctx, `!!document.querySelector("#arrowlines .arrow.other") && window.damka.state.played.length === 3`)
		runIn(t, ctx, chromedp.Sleep(500*time.Millisecond))
		stopAnalysis(t, ctx)
		for _, w := range []int64{360, 1920} {
			h := int64(1080)
			if w == 360 {
				h = 740
			}
			runIn(t, ctx, chromedp.EmulateViewport(w, h),
				js(`document.querySelectorAll("details").forEach((d, i) => d.open = i < 3); window.scrollTo(0, 0)`),
				chromedp.Sleep(300*time.Millisecond))
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			if w == 1920 {
				shot = halvePNG(t, shot)
			}
			require.NoError(t, writeSmallPNG(filepath.Join(shots, fmt.Sprintf("gui-%s-%d.png", variant, w)), shot))
		}
		runIn(t, ctx, chromedp.EmulateViewport(1000, 800), js(`document.querySelectorAll("details").forEach(d => d.open = true)`))
	}
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}

// halvePNG scales a screenshot to half its width and height (each pixel
// the mean of four), to keep the wide ones small.
func halvePNG(t *testing.T, data []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := 0; y < b.Dy()/2; y++ {
		for x := 0; x < b.Dx()/2; x++ {
			var r, g, bl uint32
			for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				cr, cg, cb, _ := img.At(b.Min.X+2*x+d[0], b.Min.Y+2*y+d[1]).RGBA()
				r, g, bl = r+cr, g+cg, bl+cb
			}
			out.Set(x, y, color.RGBA{uint8(r / 4 >> 8), uint8(g / 4 >> 8), uint8(bl / 4 >> 8), 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, out))
	return buf.Bytes()
}

// TestBrowserFENBoxKeepsTyping: a state of the same position (one asked
// for, as a clock or the analysis starting sends) leaves what the person
// typed in the FEN box; a new position replaces it.
func TestBrowserFENBoxKeepsTyping(t *testing.T) {
	ctx, consoleErrors := analysisPage(t, Config{})
	newGame(t, ctx, "russian", "human", "human")
	const typed = "W:Wc3:Bd"
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#fen`), typed),
		js(`window.prevState = window.damka.state; window.damka.send({type: "state"})`),
	)
	waitFor(t, ctx, `window.damka.state !== window.prevState`)
	require.Equal(t, eval[string](t, ctx, `window.prevState.fen`), eval[string](t, ctx, `window.damka.state.fen`))
	require.Equal(t, typed, eval[string](t, ctx, `document.getElementById("fen").value`), "the typed FEN is kept")

	path := eval[[]int](t, ctx, `window.damka.state.moves[0].path`)
	runIn(t, ctx, clickSq(path[0]), clickSq(path[len(path)-1]))
	waitFor(t, ctx, `window.damka.state.played.length === 1`)
	require.Equal(t, eval[string](t, ctx, `window.damka.state.fen`), eval[string](t, ctx, `document.getElementById("fen").value`), "a new position replaces it")
	require.Empty(t, consoleErrors(), "console errors and exceptions")
}
