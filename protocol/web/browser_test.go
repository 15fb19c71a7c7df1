//go:build !js

package web

import (
	"bytes"
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
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// The browser test drives the page in headless Chromium. It skips when no
// Chromium is installed, unless DAMKA_GUI_REQUIRE is set (make test-gui);
// DAMKA_GUI_SHOTS=DIR writes a screenshot of each variant there
// (gui-russian.png, ...). DAMKA_CHROMIUM names the browser's binary.

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
	ctx, cancelT := context.WithTimeout(ctx, timeout)
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

func TestBrowserGames(t *testing.T) {
	bin := requireChromium(t)
	began := time.Now()
	_, hs := newTestServer(t, Config{Version: "test"})
	ctx, do, consoleErrors := openBrowser(t, bin, 3*time.Minute)

	do(
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#sq-1`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-connected="true"]`)),
		js(`document.querySelectorAll("details").forEach(d => d.open = true)`),
	)
	shots := os.Getenv("DAMKA_GUI_SHOTS")
	for i, variant := range []string{"russian", "english", "brazilian", "international"} {
		t.Run(variant, func(t *testing.T) {
			do := func(steps ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				require.NoError(t, chromedp.Do(ctx, steps...))
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
				chromedp.SetValue(chromedp.CSS(`#lv-nodes`), "200"),
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
			require.Greater(t, st.Ply, 4)
			t.Logf("%s: %d plies, %s, %.1fs", variant, st.Ply, st.Result, time.Since(start).Seconds())
		})
	}

	// The position editor: an empty board, a white man and a black king.
	var board []string
	do(
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
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`!window.damka.editing && window.damka.state.board[9] === "B"`))
	require.NoError(t, err)
	board = eval[[]string](t, ctx, `window.damka.state.board`)
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
	do(
		chromedp.SetValue(chromedp.CSS(`#fen`), "B:W21,22:B10"),
		chromedp.Click(chromedp.CSS(`#btn-fen`)),
	)
	// Black to move: damka answers, and the FEN field shows the position.
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.damka.state.played.length === 1 && window.damka.state.fen.startsWith("W:Wa3,c3:B")`))
	require.NoError(t, err)

	// Flip: Black's side at the bottom, square 32 first.
	do(chromedp.Click(chromedp.CSS(`#btn-flip`)))
	require.Equal(t, "32", eval[string](t, ctx, `document.querySelector("#board .dark").dataset.sq`))
	do(chromedp.Click(chromedp.CSS(`#btn-flip`)))
	require.Equal(t, "1", eval[string](t, ctx, `document.querySelector("#board .dark").dataset.sq`))

	// PDN out (the text also lands in the box) and back in.
	do(chromedp.Click(chromedp.CSS(`#btn-pdn-save`)))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("pdn").value.includes('[Event "damka gui"]')`))
	require.NoError(t, err)
	do(chromedp.Click(chromedp.CSS(`#btn-new`)))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.damka.state.played.length === 0`))
	require.NoError(t, err)
	do(chromedp.Click(chromedp.CSS(`#btn-pdn-load`)))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.damka.state.played.length === 1 && window.damka.state.fen.startsWith("W:Wa3,c3:B")`))
	require.NoError(t, err)

	require.Empty(t, consoleErrors(), "console errors and exceptions")
	t.Logf("browser test: %.1fs", time.Since(began).Seconds())
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
	return dir
}

// TestBrowserWasm is the page with no server: the wasm folder served by a
// plain static file server, damka.wasm in a Web Worker. A short game by
// clicks against damka, an analysis stopped, no external engines offered
// and no console error.
func TestBrowserWasm(t *testing.T) {
	bin := requireChromium(t)
	began := time.Now()
	dir := wasmFolder(t)
	built := time.Since(began)
	hs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer hs.Close()
	ctx, do, consoleErrors := openBrowser(t, bin, 2*time.Minute)

	do(
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-connected="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#sq-1`)),
		js(`document.querySelectorAll("details").forEach(d => d.open = true)`),
	)
	loaded := time.Since(began)
	require.Equal(t, []string{"human", "damka"}, eval[[]string](t, ctx, `[...document.getElementById("side-black").options].map(o => o.value)`),
		"no external engines without a server")
	do(
		chromedp.SetValue(chromedp.CSS(`#lv-movetime`), "0"),
		chromedp.SetValue(chromedp.CSS(`#lv-nodes`), "300"),
		chromedp.Click(chromedp.CSS(`#btn-level`)),
		chromedp.SetValue(chromedp.CSS(`#variant`), "international"),
		chromedp.Click(chromedp.CSS(`#btn-new`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-variant="international"][data-ply="0"]`)),
	)
	analysed := false
	var st pageState
	for turn := 0; ; turn++ {
		require.Less(t, turn, 3000, "the game does not go on")
		st = eval[pageState](t, ctx, readState)
		require.Empty(t, st.Error, "the page shows an error")
		if st.Result != "" || st.Ply >= 12 {
			break
		}
		if st.Busy != "" || !st.Human || len(st.Path) < 2 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if !analysed && st.Ply >= 4 {
			// An analysis runs until Stop: the search must let the worker
			// read the stop.
			analysed = true
			do(
				chromedp.Click(chromedp.CSS(`#btn-analyse`)),
				chromedp.WaitVisible(chromedp.CSS(`#lines tbody tr:nth-child(1)`)),
				chromedp.WaitVisible(chromedp.CSS(`body[data-busy="analyse"]`)),
				chromedp.Sleep(300*time.Millisecond),
				chromedp.Click(chromedp.CSS(`#btn-stop`)),
				chromedp.WaitVisible(chromedp.CSS(`body[data-busy=""]`)),
			)
			require.Positive(t, eval[int](t, ctx, `document.querySelectorAll("#lines tbody tr").length`))
		}
		from, to := st.Path[0], st.Path[len(st.Path)-1]
		rest := st.Path
		if from != to {
			do(clickSq(from), clickSq(to))
			rest = st.Path[1:]
		}
		if from == to || !plyChanged(ctx, t, st.Ply) {
			do(js(`document.getElementById("error").textContent = ""`))
			for _, sq := range rest {
				do(clickSq(sq))
			}
			require.True(t, plyChanged(ctx, t, st.Ply), "the move %v was not played", st.Path)
		}
	}
	require.True(t, analysed)
	require.GreaterOrEqual(t, st.Ply, 12)

	require.Empty(t, consoleErrors(), "console errors and exceptions")
	t.Logf("wasm browser test: %.1fs (damka.wasm built in %.1fs, page ready at %.1fs)",
		time.Since(began).Seconds(), built.Seconds(), loaded.Seconds())
}
