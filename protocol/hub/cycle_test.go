package hub

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// goAndCollect sends lines ending in a go and returns the info lines and
// the done line that answer it.
func (hs *hubSession) goAndCollect(lines ...string) (infos []string, done string) {
	hs.t.Helper()
	hs.infos = nil
	hs.send(lines...)
	done = hs.expect("~done.*")
	return hs.infos, done
}

var (
	infoPV   = regexp.MustCompile(`pv="([^" ]+)`)
	infoDeep = regexp.MustCompile(`^info depth=(\d+) `)
)

// TestInfoShowsMovePlayed: the last info line before done
// shows the move played, also when the search stopped in an iteration
// that had found a better move than the last completed one (node limits
// with one thread stop at reproducible points; some of these do).
func TestInfoShowsMovePlayed(t *testing.T) {
	hs := startSession(t, testConfig())
	changed := 0
	for n := 1000; n <= 12000; n += 1000 {
		infos, done := hs.goAndCollect("new-game", "pos", fmt.Sprintf("level nodes=%d", n), "go think")
		require.NotEmpty(t, infos, "nodes=%d", n)
		move := strings.Fields(strings.TrimPrefix(done, "done move="))[0]
		last := infos[len(infos)-1]
		m := infoPV.FindStringSubmatch(last)
		require.NotNil(t, m, last)
		assert.Equal(t, move, m[1], "nodes=%d: the last info shows the move played", n)
		if len(infos) > 1 {
			prev := infoPV.FindStringSubmatch(infos[len(infos)-2])
			if prev != nil && prev[1] != move && infoDeep.FindStringSubmatch(last)[1] != infoDeep.FindStringSubmatch(infos[len(infos)-2])[1] {
				changed++
			}
		}
	}
	assert.Positive(t, changed, "no search changed its mind in an unfinished iteration: the test tests nothing")
	hs.finish()
}

// TestNewGameOnBigTableAnswersAtOnce: new-game right after a
// 4 GiB hash is set, and after a search on a large table, does not hold
// the session up: ping is answered at once, and the next search (which
// waits for the table to be empty) still answers.
func TestNewGameOnBigTableAnswersAtOnce(t *testing.T) {
	hs := startSession(t, testConfig())
	if !raceEnabled { // under the race detector allocating 4 GiB alone can take 20 s
		hs.send("set-param name=hash value=4096", "init")
		hs.expect("ready")
		start := time.Now()
		hs.send("new-game", "ping")
		hs.expect("pong")
		assert.Less(t, time.Since(start), 2*time.Second, "new-game on an unused 4 GiB table")
	}

	// A used table of 256 MiB is cleared in the background.
	hs.send("set-param name=hash value=256", "pos", "level depth=4", "go think")
	hs.expect("~done move=.*")
	start := time.Now()
	hs.send("new-game", "ping")
	hs.expect("pong")
	assert.Less(t, time.Since(start), 2*time.Second, "new-game on a used 256 MiB table")
	hs.send("pos", "level depth=4", "go think")
	hs.expect("~done move=.*")
	hs.finish()
}

// TestSearchAfterNewGameRepeats: new-game (a cleared table, in the
// background for a table this size) makes the same search repeat node for
// node.
func TestSearchAfterNewGameRepeats(t *testing.T) {
	hs := startSession(t, testConfig(), player.SetHash, "64")
	first, d1 := hs.goAndCollect("new-game", "pos", "level depth=7", "go think")
	second, d2 := hs.goAndCollect("new-game", "pos", "level depth=7", "go think")
	assert.Equal(t, d1, d2)
	strip := func(infos []string) (out []string) {
		for _, l := range infos {
			f := strings.Fields(l)
			out = append(out, f[1]+" "+f[2]+" "+f[3]) // depth, score, nodes
		}
		return out
	}
	assert.Equal(t, strip(first), strip(second))
	hs.finish()
}

// TestPonderHitAtOnce: a ponder-hit right after go ponder,
// before the search can have set up, ends the ponder search (it is never
// lost).
func TestPonderHitAtOnce(t *testing.T) {
	hs := startSession(t, testConfig())
	for i := 0; i < 20; i++ {
		hs.send("pos", "level move-time=0.02", "go ponder", "ponder-hit")
		hs.expect("~done move=.*")
	}
	hs.send("pos", "level move-time=0.02", "go ponder", "stop")
	hs.expect("~done move=.*")
	hs.finish()
}

// TestParamLimitsAreTheSearchLimits: the ranges a GUI is
// told are the ones the search applies.
func TestParamLimitsAreTheSearchLimits(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("hub")
	var lines []string
	for {
		l := hs.expect("~.*")
		if l == "wait" {
			break
		}
		lines = append(lines, l)
	}
	out := strings.Join(lines, "\n")
	assert.Contains(t, out, fmt.Sprintf("param name=threads value=1 type=int min=1 max=%d", search.MaxThreads))
	assert.Contains(t, out, fmt.Sprintf("param name=hash value=4 type=int min=1 max=%d", search.MaxHashMiB))
	assert.Contains(t, out, fmt.Sprintf("param name=book-margin value=%d type=int min=0 max=%d", search.DefaultBookMargin, search.MaxBookMargin))
	hs.send(fmt.Sprintf("set-param name=threads value=%d", search.MaxThreads+1))
	hs.expect(fmt.Sprintf("error message=\"set-param threads: value %d out of range 1..%d (kept 1)\"", search.MaxThreads+1, search.MaxThreads))
	hs.send(fmt.Sprintf("set-param name=hash value=%d", search.MaxHashMiB+1))
	hs.expect(fmt.Sprintf("error message=\"set-param hash: value %d out of range 1..%d (kept 4)\"", search.MaxHashMiB+1, search.MaxHashMiB))
	hs.finish()
}
