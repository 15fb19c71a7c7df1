package hub

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubwire"
	"github.com/damka-draughts/damka/search"
)

// testConfig is the session configuration of the tests without its
// player: damka's identity. startSession gives it one; tests that call Run
// themselves set Player to a testPlayer.
func testConfig() Config {
	return Config{Name: "damka", Version: "test", Author: "the damka authors"}
}

// testSettings are the settings of the tests' players: one thread, a small
// table and no book, so that searches are reproducible and sessions start
// fast (TestBookMoves covers the book).
var testSettings = []string{player.SetThreads, "1", player.SetHash, "4", player.SetBook, "false"}

// testPlayer returns player.New(pc) with testSettings and then settings
// (name, value pairs) set.
func testPlayer(t testing.TB, pc player.Config, settings ...string) *player.Player {
	t.Helper()
	require.Zero(t, len(settings)%2, "settings are name, value pairs")
	p := player.New(pc)
	all := append(append([]string(nil), testSettings...), settings...)
	for i := 0; i < len(all); i += 2 {
		require.NoError(t, p.Set(all[i], all[i+1]), "%s=%s", all[i], all[i+1])
	}
	return p
}

// spy wraps a real search engine and records what each search was given.
type spy struct {
	*search.Engine
	mu    sync.Mutex
	calls []spyCall
}

type spyCall struct {
	pos     engine.Position
	history []uint64
	limits  search.Limits
}

func (s *spy) SearchJob(ctx context.Context, j *search.Job) search.Result {
	s.mu.Lock()
	s.calls = append(s.calls, spyCall{j.Position(), append([]uint64(nil), j.History()...), j.Limits()})
	s.mu.Unlock()
	return s.Engine.SearchJob(ctx, j)
}

func (s *spy) last(t *testing.T) spyCall {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.calls, "no search was started")
	return s.calls[len(s.calls)-1]
}

// hubSession is a Hub session run in-process over pipes.
type hubSession struct {
	t     *testing.T
	in    *io.PipeWriter
	out   chan string // output lines
	done  chan error  // Run's result
	spy   *spy
	infos []string // info lines seen so far
}

// startSession runs Run on pipes with cfg and a testPlayer (cfg.Log its
// log) with settings (name, value pairs) over testSettings, whose searcher
// is a spy around a real search engine.
func startSession(t *testing.T, cfg Config, settings ...string) *hubSession {
	t.Helper()
	require.Nil(t, cfg.Player, "startSession makes the player")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	hs := &hubSession{t: t, in: inW, out: make(chan string, 1024), done: make(chan error, 1)}
	cfg.Player = testPlayer(t, player.Config{Log: cfg.Log, NewSearcher: func(o search.Options) player.Searcher {
		hs.spy = &spy{Engine: search.New(o)}
		return hs.spy
	}}, settings...)
	go func() {
		err := Run(context.Background(), inR, outW, cfg)
		outW.Close()
		hs.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			hs.out <- sc.Text()
		}
		close(hs.out)
	}()
	t.Cleanup(func() {
		inW.Close()
		inR.Close()
		outR.Close()
	})
	return hs
}

// send writes lines to the engine's input.
func (hs *hubSession) send(lines ...string) {
	hs.t.Helper()
	for _, l := range lines {
		_, err := io.WriteString(hs.in, l+"\n")
		require.NoError(hs.t, err, "sending %q", l)
	}
}

// sendRaw writes s as it is (no line ending added).
func (hs *hubSession) sendRaw(s string) {
	hs.t.Helper()
	_, err := io.WriteString(hs.in, s)
	require.NoError(hs.t, err)
}

const waitLimit = 20 * time.Second

// next returns the next output line; info lines are checked, recorded and
// skipped unless wantInfo.
func (hs *hubSession) next(wantInfo bool) (string, bool) {
	hs.t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-hs.out:
			if !ok {
				return "", false
			}
			if strings.HasPrefix(l, "info ") || l == "info" {
				checkInfo(hs.t, l)
				hs.infos = append(hs.infos, l)
				if !wantInfo {
					continue
				}
			}
			return l, true
		case <-timer.C:
			require.FailNow(hs.t, "no output within "+waitLimit.String())
		}
	}
}

// expect reads the next non-info line and checks it: an exact text, or a
// regular expression for the whole line when want starts with "~".
func (hs *hubSession) expect(want string) string {
	hs.t.Helper()
	got, ok := hs.next(strings.HasPrefix(want, "~info") || strings.HasPrefix(want, "info"))
	require.True(hs.t, ok, "output ended, want %q", want)
	if re, isRE := strings.CutPrefix(want, "~"); isRE {
		require.Regexp(hs.t, regexp.MustCompile("^(?:"+re+")$"), got)
	} else {
		require.Equal(hs.t, want, got)
	}
	return got
}

// waitInfo reads info lines until one matches re; any other line fails.
func (hs *hubSession) waitInfo(re string) {
	hs.t.Helper()
	rx := regexp.MustCompile("^(?:" + re + ")$")
	for {
		got, ok := hs.next(true)
		require.True(hs.t, ok, "output ended, want info %q", re)
		require.True(hs.t, strings.HasPrefix(got, "info "), "want info %q, got %q", re, got)
		if rx.MatchString(got) {
			return
		}
	}
}

// finish closes the input and checks that Run returns nil with nothing
// more than info lines left unread.
func (hs *hubSession) finish() {
	hs.t.Helper()
	hs.in.Close()
	hs.end()
}

// end checks that the output ends (only info lines left) and Run returned nil.
func (hs *hubSession) end() {
	hs.t.Helper()
	for {
		l, ok := hs.next(false)
		if !ok {
			break
		}
		assert.Fail(hs.t, "unexpected output line", "%q", l)
	}
	select {
	case err := <-hs.done:
		assert.NoError(hs.t, err)
	case <-time.After(waitLimit):
		require.FailNow(hs.t, "Run did not return")
	}
}

var infoRE = regexp.MustCompile(`^info (?:multipv=[1-9]\d* )?depth=\d+ score=-?\d+\.\d\d nodes=\d+ time=\d+\.\d{3} nps=\d+\.\d(?: pv="[^"]+")?$`)

// checkInfo checks the form of an info line.
func checkInfo(t *testing.T, l string) {
	t.Helper()
	assert.Regexp(t, infoRE, l)
}

// transcript runs a session script. Lines:
//
//	> text     send text to the engine
//	< text     the next non-info output line is text
//	<~ re      the next non-info output line matches re (whole line)
//	<info re   read info lines until one matches re (whole line)
//	= hubpos   (with the variant) check done moves against this position
//	# ...      comment
//
// At the end the input is closed and the session must end cleanly. Every
// done line's move (and ponder move) must be a legal move in full Hub form
// of the position last set with "=".
func transcript(t *testing.T, script string) *hubSession {
	t.Helper()
	hs := startSession(t, testConfig())
	hs.play(script)
	hs.finish()
	return hs
}

// play runs the steps of a script on a session.
func (hs *hubSession) play(script string) {
	t := hs.t
	t.Helper()
	var check *engine.Position
	for _, raw := range strings.Split(script, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line == ">":
			hs.send("")
		case strings.HasPrefix(line, "> "):
			hs.send(line[2:])
		case strings.HasPrefix(line, "<info "):
			hs.waitInfo(line[6:])
		case strings.HasPrefix(line, "<~ "):
			got := hs.expect("~" + line[3:])
			checkDone(t, check, got)
		case strings.HasPrefix(line, "< "):
			got := hs.expect(line[2:])
			checkDone(t, check, got)
		case strings.HasPrefix(line, "= "):
			f := strings.Fields(line[2:])
			require.Len(t, f, 2, "= variant hubpos")
			v, err := engine.ParseVariant(f[0])
			require.NoError(t, err)
			p, err := engine.ParseHubPosition(v, f[1])
			require.NoError(t, err)
			check = &p
		default:
			require.FailNow(t, "bad script line", "%q", raw)
		}
	}
}

// checkDone checks that a done line's moves are legal in p, written in the
// full Hub form.
func checkDone(t *testing.T, p *engine.Position, got string) {
	t.Helper()
	if p == nil || !strings.HasPrefix(got, "done") {
		return
	}
	l, err := hubwire.ParseLine(got)
	require.NoError(t, err)
	mv, ok := l.Get("move")
	if !ok {
		return
	}
	m := requireHubMove(t, p, mv)
	if pm, ok := l.Get("ponder"); ok {
		next := p.Play(m)
		requireHubMove(t, &next, pm)
	}
}

// requireHubMove checks that text is a legal move of p in full Hub form.
func requireHubMove(t *testing.T, p *engine.Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	require.NoError(t, err, "move %q in %s", text, p.HubPosition())
	require.Equal(t, p.FormatMove(m, engine.FormatHub), text, "not the full Hub form")
	return m
}

// The answer to hub with the test configuration.
const helloRussian = `
< id name=damka version=test author="the damka authors"
< param name=variant value=russian type=enum values="russian english brazilian international"
< param name=threads value=1 type=int min=1 max=256
< param name=hash value=4 type=int min=1 max=16384
< param name=book value=false type=bool
< param name=book-margin value=10 type=int min=0 max=1000
< param name=book-file value="" type=string
< param name=ponder value=false type=bool
< param name=move-overhead value=10 type=int min=0 max=10000
< param name=eval-file value="" type=string
< param name=egdb-path value="" type=string
< param name=egdb-pieces value=7 type=int min=0 max=7
< param name=multipv value=1 type=int min=1 max=32
< param name=strength value=10 type=int min=1 max=10
< wait
`

const (
	startRussian = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
	startEnglish = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
	startIntl    = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
)

// lastHub returns the position of the last search as a Hub string.
func (s *spy) lastHub(t *testing.T) string {
	t.Helper()
	c := s.last(t)
	return c.pos.HubPosition()
}
