package hub

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubwire"
	"github.com/damka-draughts/damka/search"
)

// cappedSearcher is a real search engine whose table and thread count are
// held small, so that a fuzzed set-param cannot make the test allocate
// gigabytes.
type cappedSearcher struct{ *search.Engine }

func capOptions(o search.Options) search.Options {
	return search.Options{Threads: min(o.Threads, 2), HashMiB: min(o.HashMiB, 2)}
}

func (c cappedSearcher) SetOptions(o search.Options) { c.Engine.SetOptions(capOptions(o)) }

// answers are the commands an engine may write.
var answers = map[string]bool{"id": true, "param": true, "wait": true, "ready": true, "info": true,
	"done": true, "pong": true, "error": true}

// FuzzSession feeds arbitrary input to a session: Run must not panic nor
// hang, must end cleanly at the end of input, must write only well-formed
// answers, and must answer every go line (before any quit) with exactly
// one done.
func FuzzSession(f *testing.F) {
	seeds := []string{
		"hub\ninit\npos\nlevel depth=2\ngo think\n",
		"pos pos=" + startRussian + " moves=\"22-18 11-15\"\nlevel nodes=100\ngo ponder\nponder-hit\n",
		"set-param name=variant value=international\npos pos=" + startIntl + "\ngo analyze\nping\nstop\n",
		"go\ngo think ponder\nlevel depth=x\npos pos=Wbad\n\"x\nquit\ngo think\n",
		"set-param name=variant value=english\npos moves=\"11-15 24-19 15x24\"\nlevel move-time=0.001\ngo think\r\n",
		"level time=0.01 inc=0.001 moves=3\ngo think\nstop\nstop\nping\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		cfg := testConfig()
		cfg.Player = testPlayer(t, player.Config{NewSearcher: func(o search.Options) player.Searcher { return cappedSearcher{search.New(capOptions(o))} }})
		var out bytes.Buffer
		errc := make(chan error, 1)
		go func() { errc <- Run(context.Background(), strings.NewReader(input), &out, cfg) }()
		select {
		case err := <-errc:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatalf("Run did not end within 30 s on %q", input)
		}
		gos := 0
		for _, line := range strings.Split(input, "\n") {
			if len(line) > hubwire.MaxLineBytes {
				continue
			}
			l, err := hubwire.ParseLine(line)
			if err != nil {
				continue
			}
			if l.Command == "quit" {
				break
			}
			if l.Command == "go" {
				gos++
			}
		}
		dones := 0
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line == "" && out.Len() == 0 {
				break
			}
			l, err := hubwire.ParseLine(line)
			require.NoError(t, err, "bad output line %q", line)
			require.True(t, answers[l.Command], "unknown answer %q", line)
			if l.Command == "done" {
				dones++
			}
		}
		require.Equal(t, gos, dones, "go lines and done answers for %q:\n%s", input, out.String())
	})
}

// TestSessionEveryVariant: a search of the start position of every variant
// answers a legal move and ponder move in full Hub form.
func TestSessionEveryVariant(t *testing.T) {
	for _, v := range engine.AllVariants() {
		p := engine.StartPosition(v)
		hs := startSession(t, testConfig())
		hs.send("set-param name=variant value="+v.String(), "pos pos="+p.HubPosition(), "level depth=2", "go think")
		got := hs.expect("~done move=\\S+ ponder=\\S+")
		checkDone(t, &p, got)
		hs.finish()
	}
}
