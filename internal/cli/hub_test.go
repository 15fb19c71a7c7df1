package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// rootWithInput runs the root command with args and stdin in, in-process.
func rootWithInput(t *testing.T, in string, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(strings.NewReader(in))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	err := root.Execute()
	return out.String(), err
}

// TestDefaultIsHubWithoutTerminal: damka without a subcommand speaks Hub
// when its input is not a terminal, as when a GUI starts it.
func TestDefaultIsHubWithoutTerminal(t *testing.T) {
	out, err := rootWithInput(t, "hub\ninit\nping\nquit\n")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	n := len(player.Settings()) // one param line per setting
	require.Len(t, lines, n+4, out)
	assert.True(t, strings.HasPrefix(lines[0], "id name=damka version="), lines[0])
	assert.Equal(t, []string{"wait", "ready", "pong"}, lines[n+1:])
	assert.Contains(t, out, "param name=book value=true type=bool\n", "the book is on by default")
	assert.False(t, isTerminal(strings.NewReader("")))
}

// TestHubCommand: `damka hub` with flags for the parameters' defaults, and
// its errors.
func TestHubCommand(t *testing.T) {
	out, err := rootWithInput(t, "hub\n", "hub", "--variant", "international", "--threads", "2", "--hash", "8")
	require.NoError(t, err)
	assert.Contains(t, out, "param name=variant value=international type=enum")
	assert.Contains(t, out, "param name=threads value=2 type=int")
	assert.Contains(t, out, "param name=hash value=8 type=int")

	for _, args := range [][]string{
		{"hub", "--variant", "chess"},
		{"hub", "--threads", "0"},
		{"hub", "--hash", "0"},
		{"hub", "extra"},
	} {
		_, _, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v", args)
	}
}

// TestHubDebugLog: --log-level debug logs every protocol line in and out,
// to the log (here a file), never to stdout.
func TestHubDebugLog(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "hub.log")
	out, err := rootWithInput(t, "ping\nfoo\n", "hub", "--log-level", "debug", "--log-file", logFile)
	require.NoError(t, err)
	assert.Equal(t, "pong\nerror message=\"bad command\"\n", out)
	log, err := os.ReadFile(logFile)
	require.NoError(t, err)
	for _, want := range []string{`"in":"ping"`, `"out":"pong"`, `"in":"foo"`, `"out":"error message=\"bad command\""`} {
		assert.Contains(t, string(log), want)
	}
}

// buildDamka builds the damka binary into dir and returns its path.
func buildDamka(t *testing.T, dir string) string {
	t.Helper()
	return buildPkg(t, dir, "damka", "../../cmd/damka")
}

// TestHubProcess runs real damka processes: the handshake and a search
// through the GUI-side client, then complete games between two damka
// processes over Hub in every variant, under a clock, checking every move
// and the clocks.
func TestHubProcess(t *testing.T) {
	bin := buildDamka(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	t.Run("handshake and search", func(t *testing.T) {
		var stderr bytes.Buffer
		c, err := hubclient.Start(ctx, hubclient.Options{Path: bin, Stderr: &stderr})
		require.NoError(t, err)
		id, params, err := c.Handshake(ctx, hubclient.Setting{Name: "variant", Value: "brazilian"})
		require.NoError(t, err)
		assert.Equal(t, "damka", id.Name)
		assert.Len(t, params, len(player.Settings()))
		require.NoError(t, c.SetPosition(ctx, "", []string{"c3-d4"}))
		require.NoError(t, c.SetLevel(hubclient.Level{Depth: 4}))
		d, err := c.Think(ctx, 30*time.Second, nil)
		require.NoError(t, err)
		p := engine.StartPosition(engine.Brazilian)
		m, err := p.ParseMove("c3-d4")
		require.NoError(t, err)
		p = p.Play(m)
		_, err = p.ParseMove(d.Move)
		assert.NoError(t, err, "%s", d.Move)
		require.NoError(t, c.Close(ctx))
		assert.Empty(t, stderr.String(), "warn-level logs on stderr")
	})

	clocks := []struct {
		v     engine.VariantID
		moves int
		time  time.Duration
		inc   time.Duration
	}{
		// Short clocks, but not so short that a busy 2-core CI machine
		// (other test binaries run in parallel) starves an engine past its
		// reserve: the test asserts no time loss.
		{engine.Russian, 0, 2 * time.Second, 40 * time.Millisecond},
		{engine.English, 20, 4 * time.Second, 0},
		{engine.Brazilian, 0, 1500 * time.Millisecond, 100 * time.Millisecond},
		{engine.International, 30, 3 * time.Second, 20 * time.Millisecond},
	}
	if !testing.Short() {
		for i := range clocks {
			clocks[i].time *= 10
			clocks[i].inc *= 5
		}
	}
	for _, cl := range clocks {
		t.Run("game "+cl.v.String(), func(t *testing.T) {
			playHubGame(ctx, t, bin, cl.v, cl.moves, cl.time, cl.inc)
		})
	}
}

// TestHubStdinClosedMidSearch: a real `damka hub` whose standard input
// closes in the middle of a search (the GUI died) stops the search,
// answers it and exits with status 0, without a panic or a hang.
func TestHubStdinClosedMidSearch(t *testing.T) {
	bin := buildDamka(t, t.TempDir())
	for _, threads := range []string{"1", "2"} {
		t.Run("threads "+threads, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "hub", "--threads", threads, "--hash", "16")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			_, err = io.WriteString(stdin, "hub\ninit\npos\ngo analyze\n")
			require.NoError(t, err)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() && !strings.HasPrefix(sc.Text(), "info ") {
			}
			require.NoError(t, stdin.Close(), "the search is running")
			var rest []string
			for sc.Scan() {
				rest = append(rest, sc.Text())
			}
			err = cmd.Wait()
			require.NoError(t, ctx.Err(), "damka hub did not exit within a minute of its input closing")
			require.NoError(t, err, "exit status; stderr: %s", stderr.String())
			require.NotEmpty(t, rest)
			assert.Regexp(t, `^done move=\S+`, rest[len(rest)-1], "the search is answered")
			assert.NotContains(t, stderr.String(), "panic")
		})
	}
}

// maxGamePlies ends a game that the draw rules have not ended (it has
// never been reached in testing; the draw rules end games much sooner).
const maxGamePlies = 600

// playHubGame plays one game between two damka processes under a clock of
// moves moves in t0 (0: sudden death) plus inc per move.
func playHubGame(ctx context.Context, t *testing.T, bin string, v engine.VariantID, moves int, t0, inc time.Duration) {
	var players [2]*hubclient.Client
	for i := range players {
		c, err := hubclient.Start(ctx, hubclient.Options{Path: bin})
		require.NoError(t, err)
		defer c.Close(context.Background())
		_, _, err = c.Handshake(ctx, hubclient.Setting{Name: "variant", Value: v.String()}, hubclient.Setting{Name: "hash", Value: "16"})
		require.NoError(t, err)
		require.NoError(t, c.NewGame())
		players[i] = c
	}
	g := engine.NewGame(engine.StartPosition(v))
	clock := [2]time.Duration{t0, t0}
	toGo := [2]int{moves, moves}
	var minLeft [2]time.Duration = clock
	var res engine.Result
	var why engine.Reason
	for {
		if res, why = g.Result(); res != engine.Ongoing || g.Ply() >= maxGamePlies {
			break
		}
		p := g.Position()
		side := p.Side
		c := players[side]
		require.NoError(t, c.SetGame(ctx, g))
		require.NoError(t, c.SetLevel(hubclient.Level{Moves: toGo[side], Time: clock[side], Inc: inc}))
		start := time.Now()
		d, err := c.Think(ctx, clock[side]+inc+time.Second, nil)
		used := time.Since(start)
		require.NoError(t, err, "ply %d", g.Ply())
		require.Empty(t, d.Errors, "ply %d", g.Ply())
		m, err := p.ParseMove(d.Move)
		require.NoError(t, err, "illegal move at ply %d in %s", g.Ply(), p.FEN())
		require.Equal(t, p.FormatMove(m, engine.FormatHub), d.Move, "move not in full Hub form")
		// Hub: time is the clock before this move's increment, which the
		// engine may already use.
		clock[side] += inc - used
		require.Greater(t, clock[side], time.Duration(0), "%s lost on time at ply %d (used %v)", side, g.Ply(), used)
		minLeft[side] = min(minLeft[side], clock[side])
		if moves > 0 {
			if toGo[side]--; toGo[side] == 0 {
				toGo[side] = moves
				clock[side] += t0
			}
		}
		g.Play(m)
	}
	if res == engine.Ongoing {
		why = engine.Adjudication
	}
	t.Logf("%s: %d plies, %s (%s); least time left %v / %v", v, g.Ply(), res.PDN(v), why, minLeft[0], minLeft[1])
	assert.NotEqual(t, engine.Adjudication, why, "the game did not end by the rules within %d plies", maxGamePlies)
	for _, c := range players {
		assert.NoError(t, c.Close(ctx))
	}
}

// TestHubVariantFromPosition: without --variant (damka alone or `damka
// hub`), a 51-character position selects international, as pydraughts'
// HubEngine expects; with --variant the variant is kept and the position
// refused.
func TestHubVariantFromPosition(t *testing.T) {
	intl := engine.StartPosition(engine.International)
	script := "pos pos=" + intl.HubPosition() + "\nlevel depth=1\ngo think\nhub\nquit\n"
	for _, args := range [][]string{nil, {"hub"}, {"hub", "--book=false"}} {
		out, err := rootWithInput(t, script, args...)
		require.NoError(t, err)
		assert.Regexp(t, `(?m)^done move=(31|32|33|34|35)-(26|27|28|29|30)`, out, "%v", args)
		assert.Contains(t, out, "param name=variant value=international type=enum", "%v", args)
	}
	out, err := rootWithInput(t, script, "hub", "--variant", "russian")
	require.NoError(t, err)
	assert.Contains(t, out, "51 characters is a 10x10 position")
	assert.Regexp(t, `(?m)^done$`, out)
	assert.Contains(t, out, "param name=variant value=russian type=enum")
}

// TestLogTimeMilliseconds: the time of every JSON log line has
// milliseconds, so that a debug Hub log can time a move.
func TestLogTimeMilliseconds(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "hub.log")
	_, err := rootWithInput(t, "ping\nping\n", "hub", "--log-level", "debug", "--log-file", logFile)
	require.NoError(t, err)
	data, err := os.ReadFile(logFile)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.NotEmpty(t, lines)
	stamp := regexp.MustCompile(`"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)"`)
	for _, l := range lines {
		assert.Regexp(t, stamp, l)
	}
}

// TestLogTimeMillisecondsConsole: the log on stderr (zerolog's console
// format) shows the milliseconds of each line's time, not .000.
func TestLogTimeMillisecondsConsole(t *testing.T) {
	at := time.Date(2026, 12, 3, 14, 40, 22, 789_000_000, time.Local)
	saved := zerolog.TimestampFunc
	zerolog.TimestampFunc = func() time.Time { return at }
	defer func() { zerolog.TimestampFunc = saved }()
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	stderr := os.Stderr
	os.Stderr = f
	_, err = rootWithInput(t, "ping\n", "hub", "--log-level", "debug")
	os.Stderr = stderr
	require.NoError(t, err)
	require.NoError(t, f.Close())
	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.NotEmpty(t, lines)
	for _, l := range lines {
		assert.True(t, strings.HasPrefix(l, "14:40:22.789 "), l)
	}
}

// TestHubBadEGDBFlag: a missing folder as --egdb or --egdb-path is bad
// input on every command that has the flag (exit 2, naming the flag and
// the path, nothing on standard output), not a logged line and a session
// with the embedded tables; the commands are found by walking the tree.
func TestHubBadEGDBFlag(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	// The arguments each command needs besides the flag; every command of
	// the tree with an --egdb or --egdb-path flag must be listed.
	needs := map[string][]string{
		"damka":            nil,
		"damka analyse":    {"--depth", "2"},
		"damka dxp":        {"--listen", "127.0.0.1:0", "--sessions", "1", "--variant", "russian"},
		"damka egdb probe": {"--fen", "W:W31:B1"},
		"damka gui":        {"--no-browser", "--listen", "127.0.0.1:0"},
		"damka hub":        nil,
		"damka match": {"--engine", "name=a", "cmd=true", "--engine", "name=b", "cmd=true", "--depth", "1",
			"--adjudicate", "egdb", "--openings", filepath.Join("..", "..", "openings", "decks", "russian-3ply.pdn")},
		"damka play":   nil,
		"damka review": {filepath.Join("..", "..", "testdata", "draughts", "russian_ussr_championship_X.pdn"), "--depth", "1", "--out", filepath.Join(t.TempDir(), "r.pdn")},
		"damka solve":  {filepath.Join("..", "..", "bench", "testdata", "solve_russian.epd"), "--depth", "1"},
		"damka train":  {"--epochs", "0", "--data", filepath.Join("..", "..", "learn", "games", "r0_brazilian.dkg.gz")},
	}
	tried := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, flag := range []string{"egdb", "egdb-path"} {
			if c.Flags().Lookup(flag) == nil {
				continue
			}
			path := c.CommandPath()
			args, ok := needs[path]
			if !assert.True(t, ok, "%s has --%s: add it to this test", path, flag) {
				continue
			}
			args = append(append(strings.Fields(path)[1:], args...), "--"+flag, missing)
			type result struct {
				out, errs string
				code      int
			}
			done := make(chan result, 1)
			go func() {
				out, errs, code := runCLI(args...)
				done <- result{out, errs, code}
			}()
			select {
			case r := <-done:
				assert.Equal(t, exitBadInput, r.code, "%v: %s", args, r.errs)
				assert.Empty(t, r.out, args)
				assert.Contains(t, r.errs, "--"+flag, args)
				assert.Contains(t, r.errs, missing, args)
			case <-time.After(30 * time.Second):
				t.Fatalf("%v: still running after 30 s (the missing folder was not refused)", args)
			}
			tried++
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	assert.GreaterOrEqual(t, tried, 19, "the commands with an --egdb or --egdb-path flag")
}
