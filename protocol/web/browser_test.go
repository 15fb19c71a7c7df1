//go:build !js

package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// The browser test drives the page in headless Chromium. It skips when no
// Chromium is installed, unless DAMKA_GUI_REQUIRE is set (make test-gui);
// DAMKA_GUI_SHOTS=DIR writes a screenshot of each variant there
// (gui-russian.png, ...; TestBrowserShots adds each at 360 and 1920 px
// wide). DAMKA_CHROMIUM names the browser's binary.

func chromiumPath() string {
	if p := os.Getenv("DAMKA_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// requireChromium returns the chromium binary, skipping t when there is
// none (failing it under DAMKA_GUI_REQUIRE, as make test-gui sets).
func requireChromium(t *testing.T) string {
	t.Helper()
	bin := chromiumPath()
	if bin == "" {
		if os.Getenv("DAMKA_GUI_REQUIRE") != "" {
			t.Fatal("no chromium binary (install Debian's chromium, or set DAMKA_CHROMIUM): make test-gui needs one")
		}
		t.Skip("no chromium binary: the browser test is skipped (make test-gui requires it; Debian: apt-get install chromium)")
	}
	return bin
}

// openBrowser starts headless chromium bin (closed when t ends) on a
// blank page with a deadline, and returns its context, a function running
// steps that fails t on an error, and consoleErrors, which stops listening
// and returns every console error or warning and uncaught exception the
// pages showed.
func openBrowser(t *testing.T, bin string, timeout time.Duration) (ctx context.Context, do func(...chromedp.Action[chromedp.Void]), consoleErrors func() []string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.WindowSize(1000, 800))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, waitScale*timeout)
	t.Cleanup(cancelT)
	do = func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, steps...))
	}
	do(chromedp.Navigate("about:blank"))
	var mu sync.Mutex
	var errs []string
	cctx, stopConsole := context.WithCancel(ctx)
	msgs := chromedp.Console(cctx)
	consoleDone := make(chan struct{})
	go func() {
		defer close(consoleDone)
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning || m.IsException() {
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
		}
	}()
	consoleErrors = func() []string {
		stopConsole()
		<-consoleDone
		mu.Lock()
		defer mu.Unlock()
		return errs
	}
	return ctx, do, consoleErrors
}

// pageState is what the test reads of the page each turn.
type pageState struct {
	Ply    int    `json:"ply"`
	Result string `json:"result"`
	Busy   string `json:"busy"`
	Human  bool   `json:"human"`
	Path   []int  `json:"path"`
	Error  string `json:"error"`
}

const readState = `(() => {
  const s = window.damka.state;
  if (!s) return {ply: -1};
  const m = (s.moves || [])[0];
  return {ply: s.played.length, result: s.result, busy: s.busy, human: s[s.side] === "human",
          path: m ? m.path : [], error: document.getElementById("error").textContent};
})()`

// runIn runs steps in the browser of ctx, failing t on an error.
func runIn(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, steps...))
}

// waitFor waits up to 20 s (longer under the race detector: waitScale)
// for the JavaScript condition cond to hold; on a timeout it fails t with
// what the page shows.
func waitFor(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	pctx, cancel := context.WithTimeout(ctx, waitScale*20*time.Second)
	_, err := chromedp.Run(pctx, chromedp.Poll[bool](cond))
	cancel()
	require.NoError(t, err, "waiting for %s: %s", cond,
		eval[string](t, ctx, `JSON.stringify(window.damka.state) + " error=" + document.getElementById("error").textContent`))
}

// openPage opens the page at url and waits until it speaks to damka.
func openPage(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	runIn(t, ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`body[data-connected="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#sq-1`)),
		js(`document.querySelectorAll("details").forEach(d => d.open = true)`),
	)
}

// TestBrowserGames is the page served by damka gui: every check of
// checkPage, and a game of an external engine against damka on the board.
func TestBrowserGames(t *testing.T) {
	bin := requireChromium(t)
	began := time.Now()
	var closed atomic.Int32
	_, hs := newTestServer(t, Config{Version: "test", Engines: []string{"first"},
		StartEngine: func(ctx context.Context, name string) (Engine, error) {
			return &fakeEngine{closed: &closed}, nil
		}})
	ctx, _, consoleErrors := openBrowser(t, bin, 3*time.Minute)
	openPage(t, ctx, hs.URL+"/")
	checkPage(t, ctx, 200, os.Getenv("DAMKA_GUI_SHOTS"))

	// An engine of the command line against damka, live on the board, the
	// result in the saved PDN.
	// The new game's own state first (the page may show a Brazilian
	// game at ply 0 already): a state after it would reset the sides.
	game := eval[int](t, ctx, `window.damka.state.game`)
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#variant`), "brazilian"),
		chromedp.Click(chromedp.CSS(`#btn-new`)),
	)
	waitFor(t, ctx, fmt.Sprintf(`window.damka.state.game !== %d && window.damka.state.variant === "brazilian" && window.damka.state.played.length === 0`, game))
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#side-white`), "first"),
		chromedp.SetValue(chromedp.CSS(`#side-black`), "damka"),
		js(`document.getElementById("side-black").dispatchEvent(new Event("change"))`),
	)
	waitFor(t, ctx, `window.damka.state.played.length > 0 && window.damka.state.white === "first" && !!document.querySelector("#board [data-piece]")`)
	pctx, cancel := context.WithTimeout(ctx, time.Minute)
	_, err := chromedp.Run(pctx, chromedp.Poll[bool](`window.damka.state.result !== ""`))
	cancel()
	require.NoError(t, err, "the engine's game does not end: %s", eval[string](t, ctx, `JSON.stringify({played: window.damka.state.played, busy: window.damka.state.busy, white: window.damka.state.white, black: window.damka.state.black, error: document.getElementById("error").textContent, status: document.getElementById("status").textContent})`))
	result := eval[string](t, ctx, `window.damka.state.result`)
	require.Greater(t, eval[int](t, ctx, `window.damka.state.played.length`), 10)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-save`)))
	waitFor(t, ctx, `document.getElementById("pdn").value.includes('[White "first"]')`)
	pdn := eval[string](t, ctx, `document.getElementById("pdn").value`)
	require.Contains(t, pdn, `[Black "damka"]`)
	require.Contains(t, pdn, `[Result "`+result+`"]`)
	require.True(t, strings.HasSuffix(strings.TrimSpace(pdn), result), pdn)

	require.Empty(t, consoleErrors(), "console errors and exceptions")
	t.Logf("browser test: %.1fs", time.Since(began).Seconds())
}

// checkPage runs the checks of the page wherever it is served (by damka gui
// or as the wasm folder): a whole game by clicks against damka at nodes
// nodes a move in each variant with an analysis and the evaluation graph,
// the position editor, FEN, flip, PDN out and in, then the board's
// notation, a capture route chosen square by square, take back, both
// clocks, the strength setting, a new game from a ballot and the page at a
// phone's width. shots, when not empty, is the folder of the screenshots.
func checkPage(t *testing.T, ctx context.Context, nodes int, shots string) {
	t.Helper()
	playEachVariant(t, ctx, nodes, shots)
	checkEditor(t, ctx)
	checkNotation(t, ctx)
	checkCaptureRoute(t, ctx)
	checkTypedMoveAndStatus(t, ctx)
	checkClocksAndTakeBack(t, ctx)
	checkBallot(t, ctx)
	checkNarrow(t, ctx)
}

// playEachVariant plays a whole game in each variant, the person's moves
// by clicks (one Russian move by a drag), analysing once at ply 6.
func playEachVariant(t *testing.T, ctx context.Context, nodes int, shots string) {
	for i, variant := range []string{"russian", "english", "brazilian", "international"} {
		t.Run(variant, func(t *testing.T) {
			do := func(steps ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				runIn(t, ctx, steps...)
			}
			start := time.Now()
			multipv := "1"
			if i%2 == 0 {
				multipv = "2"
			}
			do(
				chromedp.SetValue(chromedp.CSS(`#set-multipv`), multipv),
				js(`document.getElementById("set-multipv").dispatchEvent(new Event("change"))`),
				chromedp.SetValue(chromedp.CSS(`#lv-movetime`), "0"),
				chromedp.SetValue(chromedp.CSS(`#lv-nodes`), fmt.Sprint(nodes)),
				chromedp.Click(chromedp.CSS(`#btn-level`)),
				chromedp.SetValue(chromedp.CSS(`#variant`), variant),
				chromedp.Click(chromedp.CSS(`#btn-new`)),
				chromedp.WaitVisible(chromedp.CSS(`body[data-variant="`+variant+`"]`)),
			)
			analysed, dragged := false, false
			var st pageState
			for turn := 0; ; turn++ {
				require.Less(t, turn, 3000, "the game does not end")
				st = eval[pageState](t, ctx, readState)
				require.Empty(t, st.Error, "the page shows an error")
				if st.Result != "" {
					break
				}
				if st.Busy != "" || !st.Human || len(st.Path) < 2 {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				if !analysed && st.Ply >= 6 {
					analysed = true
					rows := 1
					if multipv == "2" && eval[int](t, ctx, `window.damka.state.moves.length`) > 1 {
						rows = 2
					}
					actx, acancel := context.WithTimeout(ctx, 20*time.Second)
					err := chromedp.Do(actx,
						chromedp.Click(chromedp.CSS(`#btn-analyse`)),
						chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#lines tbody tr:nth-child(%d)`, rows))),
						chromedp.WaitVisible(chromedp.CSS(`body[data-busy="analyse"]`)),
					)
					acancel()
					require.NoError(t, err, "analysis: %s", eval[string](t, ctx, `document.getElementById("lines").outerHTML + " busy=" + document.body.dataset.busy + " error=" + document.getElementById("error").textContent`))
					// Each line: its number, depth, score and moves.
					row := eval[[]string](t, ctx, `[...document.querySelectorAll("#lines tbody tr:first-child td")].map(td => td.textContent)`)
					require.Len(t, row, 4)
					require.Equal(t, "1", row[0])
					require.NotEmpty(t, row[1])
					require.NotEmpty(t, row[2])
					require.NotEmpty(t, row[3])
					require.Contains(t, eval[string](t, ctx, `document.getElementById("anastat").textContent`), "depth ")
					if shots != "" {
						do(js(`document.querySelectorAll("details").forEach((d, i) => d.open = i < 3); window.scrollTo(0, 0)`),
							chromedp.Sleep(300*time.Millisecond))
						png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
						do(js(`document.querySelectorAll("details").forEach(d => d.open = true)`))
						require.NoError(t, err)
						require.NoError(t, writeSmallPNG(filepath.Join(shots, "gui-"+variant+".png"), png))
					}
					do(
						chromedp.Click(chromedp.CSS(`#btn-stop`)),
						chromedp.WaitVisible(chromedp.CSS(`body[data-busy=""]`)),
					)
				}
				// The person plays the first legal move: its origin, then its
				// destination; when routes differ, the squares along the way.
				from, to := st.Path[0], st.Path[len(st.Path)-1]
				rest := st.Path // a king's capture back to its square: the whole path
				if from != to && variant == "russian" && !dragged {
					// One move by drag: press on the piece, move, release.
					dragged = true
					do(dragSq(from, to))
					require.True(t, plyChanged(ctx, t, st.Ply), "the drag %d-%d played no move: %s", from, to,
						eval[string](t, ctx, `document.getElementById("error").textContent`))
					continue
				}
				if from != to {
					do(clickSq(from), clickSq(to))
					rest = st.Path[1:]
				}
				if from == to || !plyChanged(ctx, t, st.Ply) {
					do(js(`document.getElementById("error").textContent = ""`))
					for _, sq := range rest {
						do(clickSq(sq))
					}
					require.True(t, plyChanged(ctx, t, st.Ply), "the move %v was not played: %s", st.Path,
						eval[string](t, ctx, `JSON.stringify(window.damka.state) + " error=" + document.getElementById("error").textContent`))
				}
			}
			require.True(t, analysed)
			require.Greater(t, st.Ply, 4)
			// The evaluation graph: a point for each ply damka or the
			// analysis scored, damka's moves included.
			points := eval[int](t, ctx, `document.getElementById("graphline").getAttribute("points").split(" ").filter(p => p).length`)
			require.Greater(t, points, st.Ply/4, "points of the evaluation graph after %d plies", st.Ply)
			t.Logf("%s: %d plies, %s, %d graph points, %.1fs", variant, st.Ply, st.Result, points, time.Since(start).Seconds())
		})
	}
}

// checkEditor edits a position, sets a FEN, flips the board and saves and
// loads the game as PDN.
func checkEditor(t *testing.T, ctx context.Context) {
	t.Helper()
	// The position editor: an empty board, a white man and a black king.
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#variant`), "russian"),
		chromedp.Click(chromedp.CSS(`#btn-new`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-variant="russian"][data-ply="0"]`)),
		chromedp.Click(chromedp.CSS(`#btn-edit`)),
		chromedp.Click(chromedp.CSS(`#btn-clear`)),
		clickSq(22),
		clickSq(9), clickSq(9), clickSq(9), clickSq(9),
		chromedp.SetValue(chromedp.CSS(`#edit-side`), "W"),
		chromedp.Click(chromedp.CSS(`#btn-edit-done`)),
	)
	waitFor(t, ctx, `!window.damka.editing && window.damka.state.board[9] === "B"`)
	board := eval[[]string](t, ctx, `window.damka.state.board`)
	for sq, pc := range board {
		switch sq {
		case 22:
			require.Equal(t, "w", pc)
		case 9:
			require.Equal(t, "B", pc)
		default:
			require.Empty(t, pc, "square %d", sq)
		}
	}
	// FEN in and out.
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#fen`), "B:W21,22:B10"),
		chromedp.Click(chromedp.CSS(`#btn-fen`)),
	)
	// Black to move: damka answers, and the FEN field shows the position.
	waitFor(t, ctx, `window.damka.state.played.length === 1 && window.damka.state.fen.startsWith("W:Wa3,c3:B")`)
	require.Equal(t, eval[string](t, ctx, `window.damka.state.fen`), eval[string](t, ctx, `document.getElementById("fen").value`))

	// Flip: Black's side at the bottom, square 32 first.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-flip`)))
	require.Equal(t, "32", eval[string](t, ctx, `document.querySelector("#board .dark").dataset.sq`))
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-flip`)))
	require.Equal(t, "1", eval[string](t, ctx, `document.querySelector("#board .dark").dataset.sq`))

	// PDN out (the text also lands in the box) and back in.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-save`)))
	waitFor(t, ctx, `document.getElementById("pdn").value.includes('[Event "damka gui"]')`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-new`)))
	waitFor(t, ctx, `window.damka.state.played.length === 0`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-pdn-load`)))
	waitFor(t, ctx, `window.damka.state.played.length === 1 && window.damka.state.fen.startsWith("W:Wa3,c3:B")`)

	// A game of another variant loaded while editing leaves the editor:
	// its board was the Russian one.
	runIn(t, ctx,
		chromedp.Click(chromedp.CSS(`#btn-edit`)),
		js(`document.getElementById("pdn").value = '[GameType "20"]\n1. 32-28 19-23 *'`),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
	)
	waitFor(t, ctx, `window.damka.state.variant === "international" && window.damka.state.played.length === 2`)
	require.False(t, eval[bool](t, ctx, `!!window.damka.editing`), "the editor stays open on a board of another variant")
	require.Equal(t, 50, eval[int](t, ctx, `document.querySelectorAll("#board .dark").length`))
	require.True(t, eval[bool](t, ctx, `document.getElementById("pdn-games").hidden`), "a text of one game offers no choice")

	// A text of two games: the first is loaded and the page says so; the
	// second is chosen from the list of games by their players.
	runIn(t, ctx,
		js(`document.getElementById("pdn").value = '[GameType "25"]\n[White "Ann"]\n[Black "Bob"]\n1. c3-d4 *\n\n[GameType "25"]\n[White "Cid"]\n[Black "Dan"]\n1. a3-b4 h6-g5 *'`),
		chromedp.Click(chromedp.CSS(`#btn-pdn-load`)),
	)
	// Black is damka's: the loaded game goes on with its move.
	waitFor(t, ctx, `window.damka.state.variant === "russian" && window.damka.state.played.length >= 1 && window.damka.state.played[0] === "c3-d4" && !document.getElementById("pdn-games").hidden`)
	require.Equal(t, "loaded game 1 of the 2 games in the text; the game's GameType tag says russian: the board is now russian", eval[string](t, ctx, `document.getElementById("status").textContent`))
	require.Equal(t, []string{"1. Ann - Bob", "2. Cid - Dan"}, eval[[]string](t, ctx, `[...document.getElementById("pdn-game").options].map(o => o.textContent)`))
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#pdn-game`), "2"),
		js(`document.getElementById("pdn-game").dispatchEvent(new Event("change"))`),
	)
	waitFor(t, ctx, `window.damka.state.played.length === 2 && window.damka.state.played[0].startsWith("a3")`)
}

// checkTypedMoveAndStatus types moves: a refused one stays in the box to be
// corrected, a played one leaves it. A note in the status bar (level set)
// goes with the next action.
func checkTypedMoveAndStatus(t *testing.T, ctx context.Context) {
	t.Helper()
	newGame(t, ctx, "russian", "human", "human")
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#move-text`), "c3-c4"),
		chromedp.Click(chromedp.CSS(`#btn-move`)),
	)
	waitFor(t, ctx, `document.getElementById("error").textContent.includes("c3-c4")`)
	require.Equal(t, "c3-c4", eval[string](t, ctx, `document.getElementById("move-text").value`), "the refused move is kept")
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#move-text`), "c3-d4"),
		chromedp.Click(chromedp.CSS(`#btn-move`)),
	)
	waitFor(t, ctx, `window.damka.state.played.length === 1 && document.getElementById("move-text").value === ""`)
	require.Empty(t, eval[string](t, ctx, `document.getElementById("error").textContent`))

	connStatus := []string{"connected", "in this browser (wasm)"}
	require.Contains(t, connStatus, eval[string](t, ctx, `document.getElementById("status").textContent`))
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-level`)))
	waitFor(t, ctx, `document.getElementById("status").textContent === "level set"`)
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-undo`)))
	require.Contains(t, connStatus, eval[string](t, ctx, `document.getElementById("status").textContent`), "the note goes with the next action")
	waitFor(t, ctx, `window.damka.state.played.length === 0`)
}

// checkNarrow shows the page at a phone's width: nothing sticks out to the
// right (every button reachable without scrolling sideways).
func checkNarrow(t *testing.T, ctx context.Context) {
	t.Helper()
	runIn(t, ctx, chromedp.EmulateViewport(320, 700))
	defer runIn(t, ctx, chromedp.EmulateViewport(1000, 800))
	wide := eval[string](t, ctx, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5).map(e => e.id || e.tagName).join(" ")`)
	require.Empty(t, wide, "wider than the window at 320 px")
	require.LessOrEqual(t, eval[int](t, ctx, `document.documentElement.scrollWidth`), 320)
}

// newGame starts a new game of variant with the given sides (a person or
// damka), no clock and no ballot. The fields are set and the messages sent
// in one script: every state the page receives sets the side and FEN
// fields from the server's game, so a state arriving between setting a
// field and sending it would send the old value.
func newGame(t *testing.T, ctx context.Context, variant, white, black string) {
	t.Helper()
	// The new game's state is the one with another game number: the state
	// before it may already match, and a later one would then overwrite
	// what the test types next (the FEN field).
	game := eval[int](t, ctx, `window.damka.state ? window.damka.state.game : -1`)
	runIn(t, ctx, js(fmt.Sprintf(`const el = id => document.getElementById(id);
		el("ck-base").value = "0";
		el("ck-inc").value = "0";
		el("btn-clock").click();
		el("side-white").value = %q;
		el("side-black").value = %q;
		el("side-black").dispatchEvent(new Event("change"));
		el("variant").value = %q;
		el("ballot").checked = false;
		el("btn-new").click()`, white, black, variant)))
	waitFor(t, ctx, fmt.Sprintf(`window.damka.state.game !== %d && window.damka.state.variant === %q && window.damka.state.played.length === 0 && window.damka.state.white === %q && window.damka.state.black === %q && !window.damka.state.clock.timed`, game, variant, white, black))
}

// sqNamed returns the number of the square the page names name.
func sqNamed(t *testing.T, ctx context.Context, name string) int {
	t.Helper()
	sq := eval[int](t, ctx, fmt.Sprintf(`(window.damka.state.squares.find(s => s.name === %q) || {sq: 0}).sq`, name))
	require.NotZero(t, sq, "square %s", name)
	return sq
}

// checkNotation checks the board's edges: files and ranks on the 8x8
// boards of Russian and Brazilian (turned with the board), square numbers
// on English's and international's.
func checkNotation(t *testing.T, ctx context.Context) {
	t.Helper()
	texts := func(sel string) string {
		return eval[string](t, ctx, `[...document.querySelectorAll("#board `+sel+`")].map(e => e.textContent).join(" ")`)
	}
	for _, c := range []struct {
		variant   string
		algebraic bool
		squares   int
	}{{"russian", true, 32}, {"brazilian", true, 32}, {"english", false, 32}, {"international", false, 50}} {
		newGame(t, ctx, c.variant, "human", "human")
		require.Equal(t, c.algebraic, eval[bool](t, ctx, `window.damka.state.algebraic`), c.variant)
		if c.algebraic {
			require.Equal(t, "a b c d e f g h", texts(".edge.file"), c.variant)
			require.Equal(t, "8 7 6 5 4 3 2 1", texts(".edge.rank"), c.variant)
			require.Empty(t, texts(".num"), c.variant)
			runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-flip`)))
			require.Equal(t, "h g f e d c b a", texts(".edge.file"), c.variant+" flipped")
			require.Equal(t, "1 2 3 4 5 6 7 8", texts(".edge.rank"), c.variant+" flipped")
			runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-flip`)))
			continue
		}
		require.Empty(t, texts(".edge"), c.variant)
		var want []string
		for sq := 1; sq <= c.squares; sq++ {
			want = append(want, fmt.Sprint(sq))
		}
		require.Equal(t, strings.Join(want, " "), texts(".num"), c.variant)
		for sq := 1; sq <= c.squares; sq++ {
			require.Equal(t, fmt.Sprint(sq), eval[string](t, ctx, fmt.Sprintf(`document.querySelector("#sq-%d .num").textContent`, sq)), c.variant)
		}
	}
}

// checkCaptureRoute plays an English man's capture with two routes to the
// same square (over the men to its left or those to its right, both ending
// two rows up), each chosen by its squares, with a take back between them.
// English men capture forward only, so neither route goes on.
func checkCaptureRoute(t *testing.T, ctx context.Context) {
	t.Helper()
	newGame(t, ctx, "english", "human", "human")
	type square struct{ Sq, Row, Col int }
	at := map[[2]int]int{}
	origin := [2]int{}
	for _, s := range eval[[]square](t, ctx, `window.damka.state.squares`) {
		at[[2]int{s.Row, s.Col}] = s.Sq
		if s.Row == 5 && s.Col >= 2 && s.Col <= 5 && origin == ([2]int{}) {
			origin = [2]int{s.Row, s.Col}
		}
	}
	sq := func(dr, dc int) int {
		n, ok := at[[2]int{origin[0] + dr, origin[1] + dc}]
		require.True(t, ok, "no dark square %d,%d from %v", dr, dc, origin)
		return n
	}
	from, to := sq(0, 0), sq(-4, 0)
	left := []int{sq(-1, -1), sq(-3, -1)}
	right := []int{sq(-1, 1), sq(-3, 1)}
	fen := fmt.Sprintf("W:W%d:B%d,%d,%d,%d", from, left[0], left[1], right[0], right[1])
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#fen`), fen),
		chromedp.Click(chromedp.CSS(`#btn-fen`)),
	)
	waitFor(t, ctx, `window.damka.state.played.length === 0 && window.damka.state.board.filter(p => p).length === 5`)
	require.Equal(t, 2, eval[int](t, ctx, fmt.Sprintf(`window.damka.state.moves.filter(m => m.path[0] === %d && m.path[m.path.length-1] === %d).length`, from, to)),
		"two routes from %d to %d in %s: %s", from, to, fen, eval[string](t, ctx, `JSON.stringify(window.damka.state.moves)`))
	for _, route := range []struct {
		via        int
		gone, kept []int
	}{{sq(-2, -2), left, right}, {sq(-2, 2), right, left}} {
		// The destination alone is not enough: the page asks for the way.
		runIn(t, ctx, clickSq(from), clickSq(to))
		waitFor(t, ctx, `document.getElementById("error").textContent.includes("several routes")`)
		require.Equal(t, 0, eval[int](t, ctx, `window.damka.state.played.length`))
		runIn(t, ctx, clickSq(route.via))
		waitFor(t, ctx, `window.damka.state.played.length === 1`)
		board := eval[[]string](t, ctx, `window.damka.state.board`)
		require.Equal(t, "w", board[to], "via %d", route.via)
		for _, s := range append([]int{from}, route.gone...) {
			require.Empty(t, board[s], "via %d: square %d", route.via, s)
		}
		for _, s := range route.kept {
			require.Equal(t, "b", board[s], "via %d: square %d", route.via, s)
		}
		// Take back: the position before the capture again.
		runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-undo`)))
		waitFor(t, ctx, `window.damka.state.played.length === 0`)
	}
}

// checkClocksAndTakeBack plays against damka at strength 1 under a clock
// of 1 minute + 2 s: both clocks shown and running, then a take back to
// the person's move.
func checkClocksAndTakeBack(t *testing.T, ctx context.Context) {
	t.Helper()
	newGame(t, ctx, "russian", "human", "damka")
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#set-strength`), "1"),
		js(`document.getElementById("set-strength").dispatchEvent(new Event("change"))`),
	)
	waitFor(t, ctx, `document.getElementById("set-strength").value === "1"`)
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#ck-base`), "1"),
		chromedp.SetValue(chromedp.CSS(`#ck-inc`), "2"),
		chromedp.Click(chromedp.CSS(`#btn-clock`)),
	)
	waitFor(t, ctx, `window.damka.state.clock.timed`)
	clock := func(side string) string {
		return eval[string](t, ctx, `document.getElementById("time-`+side+`").textContent`)
	}
	require.Equal(t, "white (human)", eval[string](t, ctx, `document.getElementById("who-white").textContent`))
	require.Equal(t, "black (damka)", eval[string](t, ctx, `document.getElementById("who-black").textContent`))
	require.Equal(t, "1:00", clock("black"))
	require.True(t, eval[bool](t, ctx, `document.getElementById("clock-white").classList.contains("tomove")`))
	// White's clock runs on the page while the person thinks.
	waitFor(t, ctx, `document.getElementById("time-white").textContent === "0:59"`)
	for ply := 0; ply < 4; ply += 2 {
		waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d && window.damka.state.busy === ""`, ply))
		path := eval[[]int](t, ctx, `window.damka.state.moves[0].path`)
		runIn(t, ctx, clickSq(path[0]))
		for _, sq := range path[1:] {
			runIn(t, ctx, clickSq(sq))
		}
		// damka answers under its clock: its time goes down, the person's
		// gets the increment.
		waitFor(t, ctx, fmt.Sprintf(`window.damka.state.played.length === %d && window.damka.state.busy === ""`, ply+2))
	}
	require.Empty(t, eval[string](t, ctx, `window.damka.state.result`))
	for _, side := range []string{"white", "black"} {
		ms := eval[int](t, ctx, `window.damka.state.clock.`+side)
		require.Less(t, ms, 64_000, side)
		require.Greater(t, ms, 30_000, side)
		require.Regexp(t, `^[01]:[0-5][0-9]$`, clock(side), side)
	}
	require.Less(t, eval[int](t, ctx, `window.damka.state.clock.black`), 64_000, "damka's clock ran")
	// Take back: to the person's last move, both plies.
	runIn(t, ctx, chromedp.Click(chromedp.CSS(`#btn-undo`)))
	waitFor(t, ctx, `window.damka.state.played.length === 2 && window.damka.state.side === "white"`)
	runIn(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#set-strength`), "10"),
		js(`document.getElementById("set-strength").dispatchEvent(new Event("change"))`),
	)
	waitFor(t, ctx, `document.getElementById("set-strength").value === "10"`)
}

// checkBallot starts a new international game from a random 3-move ballot.
func checkBallot(t *testing.T, ctx context.Context) {
	t.Helper()
	newGame(t, ctx, "international", "human", "human")
	runIn(t, ctx,
		js(`document.getElementById("ballot").checked = true`),
		chromedp.Click(chromedp.CSS(`#btn-new`)),
	)
	waitFor(t, ctx, `window.damka.state.variant === "international" && window.damka.state.played.length === 3`)
	require.Equal(t, 2, eval[int](t, ctx, `document.querySelectorAll("#movelist li").length`), "moves 1 and 2 of the ballot")
	runIn(t, ctx, js(`document.getElementById("ballot").checked = false`))
}

// clickSq clicks the middle of square sq with the mouse. The page draws
// the board again after each message, so the click goes to the square's
// place rather than to a DOM node that may be gone by then.
func clickSq(sq int) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		xy, err := chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const e = document.getElementById("sq-%d"); e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, sq))(ctx, tg)
		if err != nil {
			return err
		}
		_, err = chromedp.MouseClickXY(xy[0], xy[1])(ctx, tg)
		return err
	})
}

// dragSq drags the piece on square from to square to with the mouse:
// pressed on from, moved there in steps, released.
func dragSq(from, to int) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		center := func(sq int) ([]float64, error) {
			return chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const e = document.getElementById("sq-%d"); e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, sq))(ctx, tg)
		}
		a, err := center(from)
		if err != nil {
			return err
		}
		b, err := center(to)
		if err != nil {
			return err
		}
		left := chromedp.Button("left")
		if _, err := chromedp.MouseEvent(chromedp.MousePressed, a[0], a[1], left, chromedp.ClickCount(1))(ctx, tg); err != nil {
			return err
		}
		const steps = 5
		for i := 1; i <= steps; i++ {
			f := float64(i) / steps
			if _, err := chromedp.MouseEvent(chromedp.MouseMoved, a[0]+f*(b[0]-a[0]), a[1]+f*(b[1]-a[1]), left)(ctx, tg); err != nil {
				return err
			}
		}
		_, err = chromedp.MouseEvent(chromedp.MouseReleased, b[0], b[1], left, chromedp.ClickCount(1))(ctx, tg)
		return err
	})
}

// plyChanged waits a little for the page's ply to move on from ply.
func plyChanged(ctx context.Context, t *testing.T, ply int) bool {
	t.Helper()
	for range 100 {
		if eval[int](t, ctx, `window.damka.state.played.length`) != ply {
			return true
		}
		if eval[string](t, ctx, `document.getElementById("error").textContent`) != "" {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// js runs a JavaScript expression for its effect.
func js(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Evaluate[int]("(() => { "+expr+"; return 0; })()")(ctx, tg)
		return err
	})
}

// eval returns the value of a JavaScript expression.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, expr)
	return v
}

// writeSmallPNG writes a screenshot as a paletted PNG of its 256 most
// frequent colours (each pixel its nearest), compressed best: a few tens
// of KiB for docs/.
func writeSmallPNG(file string, data []byte) error {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return err
	}
	b := img.Bounds()
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	cols := make([]color.RGBA, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool { return count[cols[i]] > count[cols[j]] })
	pal := make(color.Palette, 0, 256)
	for _, c := range cols[:min(256, len(cols))] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return err
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// wasmFolder writes what make wasm writes into a temporary directory:
// damka.wasm built for js/wasm, the page's files, the wasm folder's own
// files (cmd/damka-wasm/static) and Go's wasm_exec.js.
func wasmFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gobin, err := exec.LookPath("go")
	require.NoError(t, err)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	build := exec.Command(gobin, "build", "-o", filepath.Join(dir, "damka.wasm"), "./cmd/damka-wasm")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building damka.wasm: %s", out)
	page, err := fs.Sub(static, "static")
	require.NoError(t, err)
	require.NoError(t, os.CopyFS(dir, page))
	own := filepath.Join(root, "cmd", "damka-wasm", "static")
	ents, err := os.ReadDir(own)
	require.NoError(t, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(own, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
	}
	goroot, err := exec.Command(gobin, "env", "GOROOT").Output()
	require.NoError(t, err)
	var runner []byte
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		if runner, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), sub, "wasm_exec.js")); err == nil {
			break
		}
	}
	require.NoError(t, err, "wasm_exec.js of the Go distribution")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wasm_exec.js"), runner, 0o644))
	// damka.wasm.gz, as make wasm writes it.
	wasm, err := os.ReadFile(filepath.Join(dir, "damka.wasm"))
	require.NoError(t, err)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err = zw.Write(wasm)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "damka.wasm.gz"), gz.Bytes(), 0o644))
	return dir
}

// TestBrowserWasm is the page with no server: the wasm folder served by a
// plain static file server, damka.wasm in a Web Worker. No external
// engines are offered; every check of checkPage, with no console error.
func TestBrowserWasm(t *testing.T) {
	bin := requireChromium(t)
	began := time.Now()
	dir := wasmFolder(t)
	built := time.Since(began)
	var mu sync.Mutex
	var served []string
	files := FileServer(os.DirFS(dir))
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served = append(served, r.URL.Path)
		mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	defer hs.Close()
	ctx, _, consoleErrors := openBrowser(t, bin, 5*time.Minute)
	openPage(t, ctx, hs.URL+"/")
	loaded := time.Since(began)
	// The worker loaded damka.wasm.gz (not damka.wasm), telling the page
	// how far it was; the loading indicator is gone.
	mu.Lock()
	require.Contains(t, served, "/damka.wasm.gz")
	require.NotContains(t, served, "/damka.wasm")
	mu.Unlock()
	require.Greater(t, eval[int](t, ctx, `Number(document.body.dataset.wasmLoaded || 0)`), 1<<20, "bytes of damka.wasm the page was told of")
	require.False(t, eval[bool](t, ctx, `document.getElementById("loading").getClientRects().length > 0`), "the loading indicator stays")
	require.Equal(t, "in this browser (wasm)", eval[string](t, ctx, `document.getElementById("status").textContent`))
	require.Equal(t, []string{"human", "damka"}, eval[[]string](t, ctx, `[...document.getElementById("side-black").options].map(o => o.value)`),
		"no external engines without a server")
	checkPage(t, ctx, 200, "")
	require.Empty(t, consoleErrors(), "console errors and exceptions")
	t.Logf("wasm browser test: %.1fs (damka.wasm built in %.1fs, page ready at %.1fs)",
		time.Since(began).Seconds(), built.Seconds(), loaded.Seconds())
}
