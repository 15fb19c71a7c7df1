package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/web"
	"github.com/damka-draughts/damka/search"
)

func TestGuiBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gui", "--no-browser", "--engine", "name=damka", "cmd=/bin/sh"}, `the name "damka" is taken`},
		{[]string{"gui", "--no-browser", "--engine", "name=A", "cmd=/bin/sh", "--engine", "name=A", "cmd=/bin/sh"}, `two engines are named "A"`},
		{[]string{"gui", "--no-browser", "--engine", "name=A", "proto=dxp"}, "no cmd="},
		{[]string{"gui", "--no-browser", "--engine", "name=A", "cmd=/bin/sh", "ponder=true"}, "ponder= is for damka match"},
		{[]string{"gui", "--no-browser", "--listen", "nonsense"}, "--listen nonsense"},
		{[]string{"gui", "--no-browser", "--threads", "0"}, "--threads"},
		{[]string{"gui", "extra"}, "unexpected arguments"},
		{[]string{"gui", "--no-browser", "--max-pages", "0"}, "--max-pages 0 out of range 1..1024"},
		{[]string{"gui", "--no-browser", "--max-pages", "5000"}, "--max-pages 5000 out of range 1..1024"},
		{[]string{"gui", "--no-browser", "--max-hash", "0"}, "--max-hash 0 out of range 1..16384"},
		{[]string{"gui", "--no-browser", "--max-threads", "0"}, "--max-threads 0 out of range 1..256"},
		{[]string{"gui", "--no-browser", "--max-threads", "257"}, "--max-threads 257 out of range 1..256"},
	} {
		out, errs, code := runCLI(c.args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.Contains(t, errs, c.want, c.args)
		assert.Empty(t, out, c.args)
	}
}

// TestGuiServes runs damka gui until its context ends: it prints the
// address, serves the page there and refuses another host name.
func TestGuiServes(t *testing.T) {
	cmd := &cobra.Command{}
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runGui(ctx, cmd, "127.0.0.1:0", "", guiLimits{pages: 2, hashMiB: 64, threads: 2}, false, func() (*player.Player, error) { return player.New(player.Config{}), nil }, nil)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(line, "damka gui: http://127.0.0.1:"), line)
	url := strings.TrimSpace(strings.TrimPrefix(line, "damka gui: "))
	resp, err := http.Get(url)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "app.js")
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("damka gui did not stop")
	}
}

// TestGuiToken: beyond loopback the printed address carries a random token
// and a request without it is refused; --token sets it, on loopback too.
func TestGuiToken(t *testing.T) {
	for _, c := range []struct{ listen, token string }{{"0.0.0.0:0", ""}, {"127.0.0.1:0", "s3cretTok3n"}} {
		cmd := &cobra.Command{}
		pr, pw := io.Pipe()
		cmd.SetOut(pw)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- runGui(ctx, cmd, c.listen, c.token, guiLimits{pages: 2, hashMiB: 64, threads: 2}, false, func() (*player.Player, error) { return player.New(player.Config{}), nil }, nil)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		require.NoError(t, err)
		url := strings.TrimSpace(strings.TrimPrefix(line, "damka gui: "))
		require.Regexp(t, `^http://127\.0\.0\.1:[0-9]+/\?token=[A-Za-z0-9]{8,}$`, url, c.listen)
		if c.token != "" {
			require.True(t, strings.HasSuffix(url, "?token="+c.token), url)
		}
		get := func(u string) int {
			resp, err := http.Get(u)
			require.NoError(t, err)
			resp.Body.Close()
			return resp.StatusCode
		}
		assert.Equal(t, http.StatusOK, get(url), c.listen)
		assert.Equal(t, http.StatusForbidden, get(strings.Split(url, "?")[0]), "%s: no token", c.listen)
		assert.Equal(t, http.StatusForbidden, get(strings.Split(url, "?")[0]+"?token=wrong"), "%s: a wrong token", c.listen)
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Fatal("damka gui did not stop")
		}
	}
}

// TestGuiExternalEngine plays a real damka Hub process (an --engine)
// against damka on the page, and checks that the process ends with the
// page.
func TestGuiExternalEngine(t *testing.T) {
	bin := buildDamka(t, t.TempDir())
	specs, err := guiEngines([][]string{{"name=ext", "cmd=" + bin + " hub", "option.hash=1"}})
	require.NoError(t, err)
	var mu sync.Mutex
	var started []*hubEngine
	playGuiGame(t, func(ctx context.Context, name string) (web.Engine, error) {
		require.Equal(t, "ext", name)
		h, err := startHubEngine(ctx, specs[0])
		if err == nil {
			mu.Lock()
			started = append(started, h)
			mu.Unlock()
		}
		return h, err
	})
	mu.Lock()
	require.Len(t, started, 1)
	h := started[0]
	mu.Unlock()
	select {
	case <-h.c.Exited():
	case <-time.After(20 * time.Second):
		t.Fatal("the engine process outlives the page")
	}
}

// TestGuiDXPEngine plays a real damka DXP process (an --engine with
// proto=dxp, started on a free port) against damka on the page, and checks
// that the process ends with the page.
func TestGuiDXPEngine(t *testing.T) {
	bin := buildDamka(t, t.TempDir())
	specs, err := guiEngines([][]string{{"name=ext", "proto=dxp",
		"cmd=" + bin + " dxp --listen 127.0.0.1:{port} --variant brazilian --depth 2 --hash 1"}})
	require.NoError(t, err)
	var mu sync.Mutex
	var started []*dxpEngine
	playGuiGame(t, func(ctx context.Context, name string) (web.Engine, error) {
		require.Equal(t, "ext", name)
		e, err := startGuiEngine(ctx, specs[0])
		if err == nil {
			mu.Lock()
			started = append(started, e.(*dxpEngine))
			mu.Unlock()
		}
		return e, err
	})
	mu.Lock()
	require.Len(t, started, 1)
	x := started[0]
	mu.Unlock()
	x.mu.Lock()
	exited, games := x.exited, x.games
	x.mu.Unlock()
	assert.Equal(t, 1, games, "one DXP game, its moves passed on")
	require.NotNil(t, exited)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("the engine process outlives the page")
	}
}

// playGuiGame plays the engine "ext" (white) against damka (black) at depth
// 1 in Brazilian draughts on a page of a server whose engines start, to the
// end of the game, checks the PDN and closes the page.
func playGuiGame(t *testing.T, start func(ctx context.Context, name string) (web.Engine, error)) {
	t.Helper()
	srv := web.New(web.Config{
		NewPlayer: func() (*player.Player, error) {
			p := player.New(player.Config{})
			return p, p.Set(player.SetHash, "1")
		},
		Engines:     []string{"ext"},
		StartEngine: start,
	})
	hs := httptest.NewServer(srv)
	defer srv.Close()
	defer hs.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {hs.URL}}})
	require.NoError(t, err)
	c.SetReadLimit(16 << 20)
	send := func(v any) {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.NoError(t, c.Write(ctx, websocket.MessageText, b))
	}
	send(map[string]any{"type": "level", "depth": 1})
	send(map[string]any{"type": "new", "variant": "brazilian"})
	send(map[string]any{"type": "sides", "white": "ext", "black": "damka"})
	var result string
	plies := 0
	for result == "" {
		_, data, err := c.Read(ctx)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(data, &m))
		require.NotEqual(t, "error", m["type"], "%v", m["message"])
		if m["type"] == "state" {
			result, _ = m["result"].(string)
			plies = len(m["played"].([]any))
		}
	}
	assert.Greater(t, plies, 10)
	send(map[string]any{"type": "pdn"})
	for {
		_, data, err := c.Read(ctx)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(data, &m))
		if m["type"] == "pdn" {
			assert.Contains(t, m["text"], `[White "ext"]`)
			assert.Contains(t, m["text"], `[Result "`+result+`"]`)
			break
		}
	}
	c.CloseNow()
}

// TestGuiDXPClock maps the page's limits onto a DXP game clock.
func TestGuiDXPClock(t *testing.T) {
	for _, c := range []struct {
		lim  search.Limits
		want int
	}{
		{search.Limits{Time: 5 * time.Minute}, 5},
		{search.Limits{Time: 3*time.Minute + time.Second, Inc: 2 * time.Second}, 5}, // 3:01 + 100 s
		{search.Limits{Time: time.Millisecond}, 1},
		{search.Limits{MoveTime: time.Second}, 1},
		{search.Limits{MoveTime: 10 * time.Second}, 9}, // 500 s
		{search.Limits{MoveTime: time.Hour}, 999},
		{search.Limits{Depth: 8}, dxpGuiMinutes},
		{search.Limits{Nodes: 1000}, dxpGuiMinutes},
	} {
		assert.Equal(t, c.want, dxpClock(c.lim), "%+v", c.lim)
	}
}

// TestGuiDXPNewGame drives a damka DXP process through dxpEngine: the
// opponent's moves continue the DXP game, a game taken back is a new one.
func TestGuiDXPNewGame(t *testing.T) {
	bin := buildDamka(t, t.TempDir())
	specs, err := guiEngines([][]string{{"name=ext", "proto=dxp",
		"cmd=" + bin + " dxp --listen 127.0.0.1:{port} --variant russian --depth 2 --hash 1"}})
	require.NoError(t, err)
	x := newDXPEngine(specs[0])
	t.Cleanup(func() { _ = x.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lim := search.Limits{MoveTime: 100 * time.Millisecond}
	g := engine.NewGame(engine.StartPosition(engine.Russian))
	for range 3 {
		mv, err := x.Think(ctx, g, lim)
		require.NoError(t, err)
		require.NoError(t, g.PlayChecked(mv))
		pos := g.Position()
		var l engine.MoveList
		pos.Generate(&l)
		require.NoError(t, g.PlayChecked(l.Slice()[0]))
	}
	assert.Equal(t, 1, x.games)
	g.Undo()
	g.Undo()
	g.Undo() // Black to move: the engine plays the other colour now
	mv, err := x.Think(ctx, g, lim)
	require.NoError(t, err)
	require.NoError(t, g.PlayChecked(mv))
	assert.Equal(t, 2, x.games)
	exited := x.exited
	require.NoError(t, x.Close())
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("the engine process outlives Close")
	}
}

// childProcesses returns the process ids whose parent is this test
// process (Linux /proc).
func childProcesses(t *testing.T) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var kids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so after the last ')'.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			kids = append(kids, pid)
		}
	}
	return kids
}

// TestGuiStopEndsEngines runs damka gui (runGui, as the command does) with
// a real Hub engine and a real DXP engine: a page closed while its engine
// thinks ends the engine's process, and stopping the server (Ctrl-C) with
// pages open, their engines started, leaves no process behind.
func TestGuiStopEndsEngines(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	bin := buildDamka(t, t.TempDir())
	require.Empty(t, childProcesses(t), "child processes before the test")
	specs, err := guiEngines([][]string{
		{"name=hub", "cmd=" + bin + " hub", "option.hash=1"},
		{"name=dxp", "proto=dxp", "cmd=" + bin + " dxp --listen 127.0.0.1:{port} --variant russian --hash 1"},
	})
	require.NoError(t, err)
	cmd := &cobra.Command{}
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() {
		done <- runGui(ctx, cmd, "127.0.0.1:0", "", guiLimits{pages: 16, hashMiB: 1024, threads: 4}, false, func() (*player.Player, error) {
			p := player.New(player.Config{})
			return p, p.Set(player.SetHash, "1")
		}, specs)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	url := strings.TrimSpace(strings.TrimPrefix(line, "damka gui: "))
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	// open connects a page whose engine plays White at 20 s a move from a
	// position out of the opening book, and waits until the engine's
	// process runs and thinks.
	open := func(engine string) *websocket.Conn {
		t.Helper()
		dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		before := len(childProcesses(t))
		c, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(url, "http")+"ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {strings.TrimSuffix(url, "/")}}})
		require.NoError(t, err)
		c.SetReadLimit(16 << 20)
		for _, m := range []map[string]any{
			{"type": "level", "movetime": 20000},
			{"type": "fen", "fen": "W:Wa1,c1,e1,b2,d2,f2,c3,e3,g3:Bb6,d6,f6,a7,c7,e7,b8,d8,h8"},
			{"type": "sides", "white": engine, "black": "human"},
		} {
			b, _ := json.Marshal(m)
			require.NoError(t, c.Write(dctx, websocket.MessageText, b))
		}
		for {
			_, data, err := c.Read(dctx)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(data, &m))
			require.NotEqual(t, "error", m["type"], "%v", m["message"])
			if m["type"] == "busy" && m["what"] == "think" {
				break
			}
		}
		require.Eventually(t, func() bool { return len(childProcesses(t)) == before+1 }, 20*time.Second, 20*time.Millisecond,
			"the %s engine's process starts", engine)
		// Still thinking a moment later: no move, no other message.
		moved := make(chan string, 1)
		go func() {
			_, data, err := c.Read(ctx)
			if err == nil {
				moved <- string(data)
			}
		}()
		select {
		case m := <-moved:
			t.Fatalf("the %s engine does not think: %s", engine, m)
		case <-time.After(500 * time.Millisecond):
		}
		return c
	}
	for _, engine := range []string{"hub", "dxp"} {
		c := open(engine)
		closed := time.Now()
		c.CloseNow()
		require.Eventually(t, func() bool { return len(childProcesses(t)) == 0 }, 20*time.Second, 20*time.Millisecond,
			"the %s engine of a closed page ends: %v", engine, childProcesses(t))
		// A DXP engine that serves further sessions is killed after
		// 2*dxpGuiStopGrace; a Hub engine quits at once.
		assert.Less(t, time.Since(closed), 3*time.Second, "the %s engine of a closed page ends soon", engine)
	}
	open("hub")
	open("dxp")
	require.Len(t, childProcesses(t), 2)
	stop() // Ctrl-C
	stopped := time.Now()
	select {
	case err := <-done:
		require.NoError(t, err)
		assert.Less(t, time.Since(stopped), 3*time.Second, "damka gui stops soon with engines thinking")
	case <-time.After(30 * time.Second):
		t.Fatal("damka gui did not stop")
	}
	assert.Empty(t, childProcesses(t), "processes left when damka gui has stopped")
}
