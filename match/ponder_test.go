package match

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// recorded returns the lines each fake engine process read, one slice per
// process (the -record directory's files).
func recorded(t *testing.T, dir string) [][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	require.NoError(t, err)
	var out [][]string
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, strings.Split(strings.TrimSpace(string(data)), "\n"))
	}
	return out
}

// commands drops the pings (and pos's own ping) from lines, which leaves
// the search cycle: pos, level, go, ponder-hit, stop.
func commands(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l != "ping" {
			out = append(out, l)
		}
	}
	return out
}

// TestMatchPonderFake: an engine that ponders with the right expected
// reply gets pos (its move and the reply), its level, go ponder and then
// ponder-hit; its time before the hit is not charged, so pondering 300 ms
// (while the opponent thinks) at 0.1 s a move loses nothing on time. With
// a wrong expected reply it gets stop, then the real position and go
// think, and the stopped search's answer is never played. Two games at
// once, each with its own engines.
func TestMatchPonderFake(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	ops = ops[1:] // two openings: 4 games
	for _, c := range []struct {
		name string
		hit  bool
	}{{"hit", true}, {"miss", false}} {
		t.Run(c.name, func(t *testing.T) {
			rec := t.TempDir()
			args := []string{"-seed", "1", "-ponder", "-predict", "2", "-record", rec}
			if !c.hit {
				args = append(args, "-mispredict")
			}
			a := fakeEngine(fake, "ponderer", args...)
			a.Limits = Limits{MoveTime: 100 * time.Millisecond}
			b := fakeEngine(fake, "slow", "-seed", "2", "-delay", "300ms")
			b.Limits = Limits{MoveTime: time.Second}
			var pdnOut bytes.Buffer
			sum, err := Run(context.Background(), Config{
				Variant: engine.Russian, Engines: [2]EngineSpec{a, b}, Openings: ops,
				Ponder: true, Concurrency: 2, MaxPlies: 6,
				TimeMargin: 100 * time.Millisecond, PDN: &pdnOut,
			})
			require.NoError(t, err)
			assert.Equal(t, 4, sum.Played)
			assert.Empty(t, sum.Faults[0], "no faults: %v", sum.Results)
			assert.Empty(t, sum.Faults[1])
			assert.Equal(t, map[string]int{TermAdjudication: 4}, sum.Terminations)
			assert.Zero(t, sum.Ponders[1], "the slow engine has no ponder parameter")
			require.Positive(t, sum.Ponders[0])
			if c.hit {
				// Every expected reply was played; the ponder search of a
				// game's last move is stopped with the game.
				assert.GreaterOrEqual(t, sum.PonderHits[0], sum.Ponders[0]-sum.Played, "every expected reply was played")
				assert.Positive(t, sum.PonderHits[0])
				assert.Less(t, sum.Longest[0], 250*time.Millisecond, "the time before ponder-hit is not charged")
			} else {
				assert.Zero(t, sum.PonderHits[0])
			}
			assert.Len(t, pdnGames(t, pdnOut.Bytes(), engine.Russian), 4)

			procs := recorded(t, rec)
			require.Len(t, procs, 2, "one ponderer per worker")
			ponders, hits := 0, 0
			for _, lines := range procs {
				cmds := commands(lines)
				assert.Contains(t, cmds, "set-param name=ponder value=true")
				for i, l := range cmds {
					if l != "go ponder" {
						continue
					}
					ponders++
					require.GreaterOrEqual(t, i, 2)
					assert.True(t, strings.HasPrefix(cmds[i-2], "pos "), "%q", cmds[i-2:i+1])
					assert.Equal(t, "level move-time=0.100", cmds[i-1])
					require.Greater(t, len(cmds), i+1, "the ponder search is ended")
					if cmds[i+1] == "ponder-hit" {
						hits++
						continue
					}
					assert.Equal(t, "stop", cmds[i+1])
					// A stop ends a ponder search after a reply it did not
					// expect, or at the end of the game (the opponent's
					// move reached --max-plies).
					if gameEnd := len(cmds) == i+2 || cmds[i+2] == "new-game" || cmds[i+2] == "quit"; !gameEnd {
						assert.False(t, c.hit, "a stop only at the end of a game: %q", cmds[i:])
						require.Greater(t, len(cmds), i+4)
						assert.True(t, strings.HasPrefix(cmds[i+2], "pos "), cmds[i+2])
						assert.Equal(t, "level move-time=0.100", cmds[i+3])
						assert.Equal(t, "go think", cmds[i+4])
					}
				}
			}
			assert.Equal(t, sum.PonderHits[0], hits)
			assert.Equal(t, sum.Ponders[0], ponders)
		})
	}
}

// TestMatchPonderNoParam: with --ponder an engine without a ponder
// parameter plays without pondering (one warning for the match), and one
// with ponder=false is not asked to.
func TestMatchPonderNoParam(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	ops = ops[1:]
	rec := t.TempDir()
	off := false
	a := fakeEngine(fake, "plain", "-seed", "1", "-record", rec)
	b := fakeEngine(fake, "declined", "-seed", "2", "-ponder", "-predict", "1")
	b.Ponder = &off
	var log bytes.Buffer
	sum, err := Run(context.Background(), Config{
		Variant: engine.Russian, Engines: [2]EngineSpec{a, b}, Openings: ops,
		Limits: Limits{MoveTime: 50 * time.Millisecond}, Ponder: true, Concurrency: 2, MaxPlies: 6,
		TimeMargin: 600 * time.Millisecond, Log: zerolog.New(&log).Level(zerolog.WarnLevel),
	})
	require.NoError(t, err)
	assert.Equal(t, 4, sum.Played)
	assert.Empty(t, sum.Faults[0])
	assert.Empty(t, sum.Faults[1])
	assert.Equal(t, [2]int{}, sum.Ponders)
	assert.Equal(t, 1, strings.Count(log.String(), "no ponder parameter"), log.String())
	assert.Contains(t, log.String(), `"engine":"plain"`)
	for _, lines := range recorded(t, rec) {
		for _, l := range lines {
			assert.NotContains(t, l, "ponder")
		}
	}
}

// TestMatchPonderDamka plays two games between two damka engines with
// --ponder: no faults, and the summary counts ponder searches and hits.
func TestMatchPonderDamka(t *testing.T) {
	damka := goBuild(t, t.TempDir(), "damka", "github.com/damka-draughts/damka/cmd/damka")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	opts := []hubclient.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "8"}, {Name: "book", Value: "false"}}
	var pdnOut bytes.Buffer
	sum, err := Run(context.Background(), Config{
		Variant: engine.Russian, Openings: ops[:1], Limits: Limits{MoveTime: 50 * time.Millisecond},
		Engines: [2]EngineSpec{
			{Name: "damkaA", Command: []string{damka}, Options: opts},
			{Name: "damkaB", Command: []string{damka, "hub"}, Options: opts},
		},
		Ponder: true, MaxPlies: 20, TimeMargin: time.Second, PDN: &pdnOut,
	})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Played)
	assert.Empty(t, sum.Faults[0], "%v", sum.Results)
	assert.Empty(t, sum.Faults[1], "%v", sum.Results)
	for e := range 2 {
		assert.Positive(t, sum.Ponders[e], "engine %d", e)
		assert.LessOrEqual(t, sum.PonderHits[e], sum.Ponders[e])
	}
	t.Logf("ponder hits %d/%d and %d/%d in %s", sum.PonderHits[0], sum.Ponders[0], sum.PonderHits[1], sum.Ponders[1], sum.Wall)
	assert.Positive(t, sum.PonderHits[0]+sum.PonderHits[1], "damka expects its own replies")
	games := pdnGames(t, pdnOut.Bytes(), engine.Russian)
	require.Len(t, games, 2)
	for _, g := range games {
		assert.Empty(t, g.Tag("Ponder"), "the PDN records no ponder setting")
	}
}

// TestMatchPonderDXP: with --ponder the Hub engine ponders while a DXP
// engine thinks, and the DXP engine, which cannot, plays as usual (one
// warning).
func TestMatchPonderDXP(t *testing.T) {
	dir := t.TempDir()
	hubFake := goBuild(t, dir, "fakeengine", "./testdata/fakeengine")
	dxpFake := goBuild(t, dir, "fakedxp", "./testdata/fakedxp")
	ops, err := openings.Load("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	var log bytes.Buffer
	sum, err := Run(context.Background(), Config{
		Variant: engine.International, Openings: ops[:1], Limits: Limits{MoveTime: 100 * time.Millisecond},
		Engines: [2]EngineSpec{fakeEngine(hubFake, "hub", "-seed", "3", "-ponder", "-predict", "5"),
			{Name: "dxp", Proto: ProtoDXP, Command: []string{dxpFake, "-port", "{port}", "-seed", "5"}}},
		Ponder: true, MaxPlies: 10, TimeMargin: time.Second, HandshakeTimeout: 10 * time.Second,
		Log: zerolog.New(&log).Level(zerolog.WarnLevel),
	})
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Played)
	assert.Empty(t, sum.Faults[0], "%v", sum.Results)
	assert.Empty(t, sum.Faults[1], "%v", sum.Results)
	assert.Positive(t, sum.Ponders[0])
	assert.Zero(t, sum.Ponders[1])
	assert.Equal(t, 1, strings.Count(log.String(), "DXP has no pondering"), log.String())
}
