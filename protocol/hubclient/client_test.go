package hubclient

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hub"
	"github.com/damka-draughts/damka/protocol/hubwire"
)

// testPlayer returns a player with one thread, a 4 MiB table and no book,
// so that searches are reproducible and sessions start fast.
func testPlayer(t *testing.T) *player.Player {
	t.Helper()
	p := player.New(player.Config{})
	for _, kv := range [][2]string{{player.SetThreads, "1"}, {player.SetHash, "4"}, {player.SetBook, "false"}} {
		require.NoError(t, p.Set(kv[0], kv[1]), "%s=%s", kv[0], kv[1])
	}
	return p
}

// pipeClient connects a client to damka's own Hub engine (hub.Run)
// in-process over pipes.
func pipeClient(t *testing.T) (*Client, chan error) {
	t.Helper()
	toEngR, toEngW := io.Pipe()
	fromEngR, fromEngW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		cfg := hub.Config{Name: "damka", Version: "test", Author: "the damka authors", Player: testPlayer(t)}
		err := hub.Run(context.Background(), toEngR, fromEngW, cfg)
		fromEngW.Close()
		errc <- err
	}()
	c := New(fromEngR, toEngW, zerolog.Nop())
	t.Cleanup(func() {
		toEngW.Close()
		toEngR.Close()
		fromEngR.Close()
	})
	return c, errc
}

// requireHubMove parses text, a move in p, and requires it legal and in
// the full Hub form.
func requireHubMove(t *testing.T, p *engine.Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	require.NoError(t, err, "move %q in %s", text, p.HubPosition())
	require.Equal(t, p.FormatMove(m, engine.FormatHub), text, "not the full Hub form")
	return m
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestClientHandshake(t *testing.T) {
	c, errc := pipeClient(t)
	ctx := ctxT(t)
	id, params, err := c.Handshake(ctx, Setting{Name: "variant", Value: "english"}, Setting{Name: "hash", Value: "8"})
	require.NoError(t, err)
	assert.Equal(t, Identity{Name: "damka", Version: "test", Author: "the damka authors"}, id)
	require.Len(t, params, len(player.Settings()))
	assert.Equal(t, Param{Name: "variant", Value: "russian", Type: "enum",
		Values: []string{"russian", "english", "brazilian", "international"}}, params[0])
	assert.Equal(t, Param{Name: "threads", Value: "1", Type: "int", Min: "1", Max: "256"}, params[1])
	assert.Equal(t, Param{Name: "eval-file", Value: "", Type: "string"}, params[8])
	assert.Equal(t, Param{Name: "egdb-path", Value: "", Type: "string"}, params[9])
	assert.Equal(t, Param{Name: "book-file", Value: "", Type: "string"}, params[5])

	// The settings took effect.
	_, params, err = c.Hello(ctx)
	require.NoError(t, err)
	assert.Equal(t, "english", params[0].Value)
	assert.Equal(t, "8", params[2].Value)

	// An IfDeclared setting goes to an engine that declared its
	// parameter and is left out for one that did not.
	_, params, err = c.Handshake(ctx, Setting{Name: "ponder", Value: "true", IfDeclared: true},
		Setting{Name: "no-such-param", Value: "1", IfDeclared: true})
	require.NoError(t, err, "the undeclared parameter is not sent")
	_, params, err = c.Hello(ctx)
	require.NoError(t, err)
	p, ok := declared(params, "ponder")
	require.True(t, ok)
	assert.Equal(t, "true", p.Value)

	// A refused setting fails the handshake, naming the engine's reason.
	_, _, err = c.Handshake(ctx, Setting{Name: "hash", Value: "0"}, Setting{Name: "tt-size", Value: "20"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "set-param hash: value 0 out of range")
	assert.Contains(t, err.Error(), "unknown parameter 'tt-size'")

	require.NoError(t, c.Close(ctx))
	assert.NoError(t, <-errc)
}

func TestClientThink(t *testing.T) {
	c, errc := pipeClient(t)
	ctx := ctxT(t)
	_, _, err := c.Handshake(ctx)
	require.NoError(t, err)

	g := engine.NewGame(engine.StartPosition(engine.Russian))
	for ply := 0; ply < 6; ply++ {
		require.NoError(t, c.SetGame(ctx, g))
		require.NoError(t, c.SetLevel(Level{Depth: 3}))
		var infos []Info
		d, err := c.Think(ctx, 10*time.Second, func(in Info) { infos = append(infos, in) })
		require.NoError(t, err)
		require.NotEmpty(t, infos)
		last := infos[len(infos)-1]
		assert.LessOrEqual(t, last.Depth, 3)
		for _, f := range []string{"depth", "score", "nodes", "time", "nps", "pv"} {
			assert.True(t, last.Has[f], "info without %s: %s", f, last.Line)
		}
		assert.Empty(t, d.Errors)
		p := g.Position()
		m := requireHubMove(t, &p, d.Move)
		if d.Ponder != "" {
			next := p.Play(m)
			requireHubMove(t, &next, d.Ponder)
		}
		g.Play(m)
	}

	// A refused position fails SetPosition with the engine's reason.
	err = c.SetPosition(ctx, "Wxyz", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad position")
	err = c.SetPosition(ctx, "", []string{"22-18", "11-15", "18-14"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad move 3 of 3")

	require.NoError(t, c.Close(ctx))
	assert.NoError(t, <-errc)
}

func TestClientPonderAnalyzeStop(t *testing.T) {
	c, _ := pipeClient(t)
	ctx := ctxT(t)
	_, _, err := c.Handshake(ctx)
	require.NoError(t, err)

	// Ponder, then ponder-hit: the search ends under its limits.
	require.NoError(t, c.SetPosition(ctx, "", []string{"22-18"}))
	require.NoError(t, c.SetLevel(Level{Time: 2 * time.Second, Inc: 10 * time.Millisecond}))
	s, err := c.Go(Ponder)
	require.NoError(t, err)
	assert.ErrorIs(t, c.Ping(ctx), ErrSearching)
	require.NoError(t, s.Ping())
	require.NoError(t, s.PonderHit())
	d, err := s.Wait(ctx, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, d.Move)

	// Analyze until stop.
	require.NoError(t, c.SetPosition(ctx, "", nil))
	s, err = c.Go(Analyze)
	require.NoError(t, err)
	got := make(chan Info, 1000)
	go func() {
		time.Sleep(20 * time.Millisecond)
		assert.NoError(t, s.Stop())
		assert.NoError(t, s.Stop()) // once only
	}()
	d, err = s.Wait(ctx, func(in Info) { got <- in })
	require.NoError(t, err)
	assert.NotEmpty(t, d.Move)
	assert.NotEmpty(t, got)

	// A go on a finished game: the error comes with the done.
	require.NoError(t, c.SetPosition(ctx, "Webeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", nil))
	d, err = c.Think(ctx, time.Second, nil)
	require.NoError(t, err)
	assert.Empty(t, d.Move)
	require.Len(t, d.Errors, 1)
	assert.Contains(t, d.Errors[0], "no legal move")
	require.NoError(t, c.Close(ctx))
}

// TestClientDeadline: a search with no limit is stopped when the client's
// deadline passes, and the engine answers within the grace.
func TestClientDeadline(t *testing.T) {
	c, _ := pipeClient(t)
	ctx := ctxT(t)
	require.NoError(t, c.SetPosition(ctx, "", nil))
	start := time.Now()
	d, err := c.Think(ctx, 50*time.Millisecond, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, d.Move)
	assert.Less(t, time.Since(start), DefaultStopGrace)
	require.NoError(t, c.Close(ctx))
}

// TestClientHungStream: an engine that never answers is given up on after
// the deadline and the grace.
func TestClientHungStream(t *testing.T) {
	toEngR, toEngW := io.Pipe()
	fromEngR, fromEngW := io.Pipe()
	defer fromEngW.Close()
	go io.Copy(io.Discard, toEngR) // reads everything, answers nothing
	c := newClient(fromEngR, toEngW, zerolog.Nop(), 30*time.Millisecond)
	go c.read(fromEngR)
	ctx := ctxT(t)
	_, err := c.Think(ctx, 30*time.Millisecond, nil)
	assert.ErrorIs(t, err, ErrEngineHung)
	// Kill closed the engine's input.
	_, werr := io.WriteString(toEngW, "ping\n")
	assert.Error(t, werr)

	// An engine whose output ends is reported as exited.
	c2, errc := pipeClient(t)
	require.NoError(t, c2.Send("quit"))
	assert.NoError(t, <-errc)
	err = c2.Ping(ctx)
	assert.ErrorIs(t, err, ErrEngineExited)
}

// The helper process: a Hub engine that answers the handshake and then
// never answers a search and ignores quit and end of input.
func TestMain(m *testing.M) {
	if os.Getenv("DAMKA_HUB_HUNG_ENGINE") == "1" {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			switch strings.Fields(sc.Text() + " x")[0] {
			case "hub":
				fmt.Println("id name=hung\nwait")
			case "init":
				fmt.Println("ready")
			}
		}
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestClientKillsHungProcess: a real engine process that stops answering
// is killed after the deadline and the grace, and Close does not hang.
func TestClientKillsHungProcess(t *testing.T) {
	ctx := ctxT(t)
	c, err := Start(ctx, Options{
		Path: os.Args[0], Args: []string{"-test.run=^$"},
		Env:       append(os.Environ(), "DAMKA_HUB_HUNG_ENGINE=1"),
		StopGrace: 100 * time.Millisecond,
	})
	require.NoError(t, err)
	id, _, err := c.Handshake(ctx)
	require.NoError(t, err)
	assert.Equal(t, "hung", id.Name)
	start := time.Now()
	_, err = c.Think(ctx, 100*time.Millisecond, nil)
	assert.ErrorIs(t, err, ErrEngineHung)
	assert.Less(t, time.Since(start), 5*time.Second)
	select {
	case <-c.Exited():
	case <-time.After(10 * time.Second):
		require.FailNow(t, "the hung engine was not killed")
	}
	assert.Error(t, c.ExitErr(), "killed")

	// Close kills an engine that ignores quit.
	c, err = Start(ctx, Options{
		Path: os.Args[0], Args: []string{"-test.run=^$"},
		Env:       append(os.Environ(), "DAMKA_HUB_HUNG_ENGINE=1"),
		StopGrace: 100 * time.Millisecond,
	})
	require.NoError(t, err)
	_, _, err = c.Handshake(ctx)
	require.NoError(t, err)
	assert.ErrorIs(t, c.Close(ctx), ErrEngineHung)

	_, err = Start(ctx, Options{Path: "/nonexistent/engine"})
	assert.Error(t, err)
}

func TestLevelLine(t *testing.T) {
	cases := []struct {
		l    Level
		want string
	}{
		{Level{Depth: 5}, "level depth=5"},
		{Level{Nodes: 1000, MoveTime: 1500 * time.Millisecond}, "level nodes=1000 move-time=1.500"},
		{Level{Moves: 40, Time: 90 * time.Second, Inc: 500 * time.Millisecond}, "level moves=40 time=90.000 inc=0.500"},
		{Level{Inc: time.Second}, "level time=0.000 inc=1.000"},
		{Level{SendMoves: true, Time: time.Second}, "level moves=0 time=1.000"},
		{Level{Infinite: true}, "level infinite"},
	}
	for _, c := range cases {
		l, ok := c.l.Line()
		assert.True(t, ok)
		assert.Equal(t, c.want, l.String())
	}
	_, ok := Level{}.Line()
	assert.False(t, ok)
}

func TestParseInfo(t *testing.T) {
	l, err := hubwire.ParseLine(`info depth=12 mean-depth=10.5 score=-0.25 nodes=123456 time=1.500 nps=0.1 pv="32-28 19-23" extra=1 depth2=x`)
	require.NoError(t, err)
	in := parseInfo(l)
	assert.Equal(t, 12, in.Depth)
	assert.Equal(t, 10.5, in.MeanDepth)
	assert.Equal(t, -0.25, in.Score)
	assert.Equal(t, uint64(123456), in.Nodes)
	assert.Equal(t, 1500*time.Millisecond, in.Time)
	assert.Equal(t, 0.1, in.NPS)
	assert.Equal(t, []string{"32-28", "19-23"}, in.PV)
	bad, err := hubwire.ParseLine("info depth=x score=y")
	require.NoError(t, err)
	in = parseInfo(bad)
	assert.False(t, in.Has["depth"])
	assert.False(t, in.Has["score"])
}

// nopCloser is a WriteCloser that discards what the client sends.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestClientLineTooLong: an engine line over hubwire.MaxLineBytes is not
// kept in memory, and what the log says is what happens. A line of another
// kind than the one waited for (a 32 MB line in the handshake, a 10 MB info line
// in a search) is logged as skipped and the wait goes on to the engine's
// answer; the answer waited for over the limit (a done line) fails the wait
// with ErrLineTooLong as soon as the limit is passed (not at the newline),
// is logged as lost, and the client reads the lines after it.
func TestClientLineTooLong(t *testing.T) {
	outR, outW := io.Pipe()
	t.Cleanup(func() { outR.Close(); outW.Close() })
	var log logjson.Buffer
	c := New(outR, nopCloser{io.Discard}, zerolog.New(&log))
	ctx := ctxT(t)
	// long writes n bytes of a line starting with head, without its newline.
	long := func(head string, n int) error {
		if _, err := io.WriteString(outW, head); err != nil {
			return err
		}
		chunk := []byte(strings.Repeat("x", 64<<10))
		for k := len(head); k < n; k += len(chunk) {
			if _, err := outW.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	}

	const huge = 32 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	go func() {
		_, _ = io.WriteString(outW, "id name=fake\n")
		if long("", huge) == nil {
			_, _ = io.WriteString(outW, "\nwait\n")
		}
	}()
	id, _, err := c.Hello(ctx)
	require.NoError(t, err, "the long line is skipped; wait follows it")
	assert.Equal(t, "fake", id.Name)
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "the long line was not kept")
	assert.Contains(t, log.String(), `"line":2,"max":1048576,"starts":"xxxx`)
	assert.Contains(t, log.String(), `"message":"hub client: engine line too long, skipped"`)

	// A 10 MB info line in a search: skipped, and the done after it is
	// the search's answer.
	go func() {
		if long("info depth=3 pv=", 10<<20) == nil {
			_, _ = io.WriteString(outW, "\ninfo depth=4 score=0.5\ndone move=32-28\n")
		}
	}()
	s, err := c.Go(Think)
	require.NoError(t, err)
	var infos []Info
	d, err := s.Wait(ctx, func(in Info) { infos = append(infos, in) })
	require.NoError(t, err)
	assert.Equal(t, "32-28", d.Move)
	require.Len(t, infos, 1, "the long info line is not passed on")
	assert.Equal(t, 4, infos[0].Depth)
	assert.Equal(t, 2, strings.Count(log.String(), "engine line too long, skipped"))
	assert.NotContains(t, log.String(), "lost")

	// A done line over the limit: the search fails at once.
	rest := make(chan struct{})
	go func() {
		if long("done move=32-28 pv=", huge) == nil {
			<-rest // the newline only after the client has given up the line
			_, _ = io.WriteString(outW, "\npong\n")
		}
	}()
	s, err = c.Go(Think)
	require.NoError(t, err)
	_, err = s.Wait(ctx, nil)
	require.ErrorIs(t, err, ErrLineTooLong)
	assert.Contains(t, err.Error(), fmt.Sprintf("waiting for done: hub engine line too long: line 7 is over %d bytes (starts \"done move=32-28 pv=xxx", hubwire.MaxLineBytes))
	assert.Contains(t, log.String(), `"want":"done","line":7,"max":1048576,"starts":"done move=32-28 pv=xxx`)
	assert.Contains(t, log.String(), `"message":"hub client: engine line too long: the answer waited for is lost"`)
	assert.Equal(t, 2, strings.Count(log.String(), "engine line too long, skipped"), "the lost answer is not logged as skipped")
	close(rest)
	require.NoError(t, c.Ping(ctx), "the rest of the long line is skipped; the next lines arrive")
}

// TestClientKillLoggedOnce: an engine that does not answer stop is killed
// once, and its kill is logged once (at error level, with the reason);
// the kill that the caller adds (the match runner restarts the engine) is
// not logged again. A session given up (the search's context cancelled,
// then Abort) stops the engine without a warning.
func TestClientKillLoggedOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sleep(1)")
	}
	start := func(log io.Writer) *Client {
		c, err := Start(ctxT(t), Options{Path: "sleep", Args: []string{"60"}, StopGrace: 50 * time.Millisecond,
			Log: zerolog.New(log).Level(zerolog.InfoLevel)})
		require.NoError(t, err)
		t.Cleanup(c.Kill)
		return c
	}
	var log logjson.Buffer
	c := start(&log)
	_, err := c.Think(ctxT(t), 20*time.Millisecond, nil)
	require.ErrorIs(t, err, ErrEngineHung)
	c.Kill()
	<-c.Exited()
	c.Kill()
	assert.Equal(t, 1, strings.Count(log.String(), "killing the engine"), log.String())
	assert.Contains(t, log.String(), `"level":"error","pid":`)
	assert.Contains(t, log.String(), `"reason":"no done within 50ms after stop","message":"hub client: killing the engine"`)
	assert.Equal(t, 1, strings.Count(log.String(), "search deadline passed, sending stop"))

	var quiet logjson.Buffer
	c = start(&quiet)
	ctx, cancel := context.WithCancel(ctxT(t))
	s, err := c.Go(Think)
	require.NoError(t, err)
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err = s.Wait(ctx, nil)
	require.ErrorIs(t, err, ErrEngineHung)
	c.Abort()
	<-c.Exited()
	assert.NotContains(t, quiet.String(), `"level":"warn"`)
	assert.NotContains(t, quiet.String(), `"level":"error"`)
}

// scriptedEngine answers the client's lines with answer(line) over pipes:
// a fake engine of another dialect.
func scriptedEngine(t *testing.T, answer func(line string) []string) *Client {
	t.Helper()
	toEngR, toEngW := io.Pipe()
	fromEngR, fromEngW := io.Pipe()
	go func() {
		defer fromEngW.Close()
		sc := bufio.NewScanner(toEngR)
		for sc.Scan() {
			for _, l := range answer(sc.Text()) {
				if _, err := io.WriteString(fromEngW, l+"\n"); err != nil {
					return
				}
			}
		}
	}()
	t.Cleanup(func() { toEngW.Close(); toEngR.Close(); fromEngR.Close() })
	return New(fromEngR, toEngW, zerolog.Nop())
}

// scan20 answers as Scan 2.0's `scan hub` does: name/author/country lines
// and wait (no id, no param), set-param ignored, and `error bad position`
// (no message=) for a Hub 2 pos.
func scan20(line string) []string {
	switch strings.Fields(line + " x")[0] {
	case "hub":
		return []string{"name Scan 2.0", "author Fabien Letouzey", "country France", "wait"}
	case "init":
		return []string{"init eval", "ready"}
	case "pos":
		return []string{"error bad position"}
	case "ping":
		return []string{"pong"}
	}
	return nil
}

// TestClientRefusesLegacyHub: an engine that answers hub as Scan 2.0 does
// is refused with ErrNotHub2 naming the missing id line, before any
// set-param; an error line without message= is reported whole.
func TestClientRefusesLegacyHub(t *testing.T) {
	ctx := ctxT(t)
	c := scriptedEngine(t, scan20)
	_, _, err := c.Handshake(ctx, Setting{Name: "variant", Value: "international"})
	require.ErrorIs(t, err, ErrNotHub2)
	assert.Contains(t, err.Error(), "no `id` line before `wait`")
	assert.Contains(t, err.Error(), `"name Scan 2.0"`)

	// The error line without message= is kept whole.
	err = c.SetPosition(ctx, "", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the engine refused the position: error bad position")
}

// TestClientVariantNotDeclared: a Hub 2 engine without a variant parameter
// is refused for an 8x8 variant, and plays international without the
// set-param (which it would answer with an error line).
func TestClientVariantNotDeclared(t *testing.T) {
	ctx := ctxT(t)
	var sent []string
	tenByTen := func(line string) []string {
		sent = append(sent, line)
		switch strings.Fields(line + " x")[0] {
		case "hub":
			return []string{"id name=tenbyten version=1", "param name=threads value=1 type=int min=1 max=4", "wait"}
		case "set-param":
			if strings.Contains(line, "name=variant") {
				return []string{`error message="unknown parameter 'variant'"`}
			}
		case "init":
			return []string{"ready"}
		}
		return nil
	}
	c := scriptedEngine(t, tenByTen)
	_, _, err := c.Handshake(ctx, Setting{Name: "variant", Value: "russian"})
	require.ErrorIs(t, err, ErrNotHub2)
	assert.Contains(t, err.Error(), "declared no `variant` parameter")
	assert.Contains(t, err.Error(), "russian")

	c = scriptedEngine(t, tenByTen)
	sent = nil
	id, _, err := c.Handshake(ctx, Setting{Name: "variant", Value: "international"}, Setting{Name: "threads", Value: "1"})
	require.NoError(t, err)
	assert.Equal(t, "tenbyten", id.Name)
	assert.Equal(t, []string{"hub", "set-param name=threads value=1", "init"}, sent)

	// An enum that lacks the variant is refused for 8x8 too.
	c = scriptedEngine(t, func(line string) []string {
		if strings.HasPrefix(line, "hub") {
			return []string{"id name=scan3", `param name=variant value=normal type=enum values="normal killer bt frisian losing"`, "wait"}
		}
		if line == "init" {
			return []string{"ready"}
		}
		return nil
	})
	_, _, err = c.Handshake(ctx, Setting{Name: "variant", Value: "english"})
	require.ErrorIs(t, err, ErrNotHub2)
	assert.Contains(t, err.Error(), "has no value english")
}
