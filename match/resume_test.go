package match

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
)

// resumeConfig is a small match of the fake engines (deterministic moves):
// n openings, shuffled, two games at once.
func resumeConfig(t *testing.T, n int) Config {
	t.Helper()
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load(testfiles.Path(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian)
	require.NoError(t, err)
	return Config{
		Variant: engine.Russian, Openings: ops[:n], Seed: 5, Limits: Limits{Depth: 1}, MaxPlies: 60, Concurrency: 2,
		Engines: [2]EngineSpec{fakeEngine(fake, "A", "-seed", "1"), fakeEngine(fake, "B", "-seed", "2")},
	}
}

// runToFile runs cfg appending its games to the file name.
func runToFile(t *testing.T, ctx context.Context, cfg Config, name string) (Summary, error) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	require.NoError(t, err)
	defer f.Close()
	cfg.PDN = f
	return Run(ctx, cfg)
}

// gameSet lists the games of a match PDN file by Round, Opening, colours
// and result, sorted.
func gameSet(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	var out []string
	for _, g := range pdnGames(t, data, engine.Russian) {
		out = append(out, strings.Join([]string{g.Tag("Round"), g.Tag("Opening"), g.Tag("White"), g.Tag("Black"), g.Result}, " "))
	}
	sort.Strings(out)
	return out
}

// records returns the game records of a match PDN file.
func records(t *testing.T, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return splitRecords(data)
}

// resume continues the match of cfg in the file name and returns its summary
// and what ResumeFile found.
func resume(t *testing.T, cfg Config, name string) (Summary, Resumed) {
	t.Helper()
	r, err := ResumeFile(name, cfg)
	require.NoError(t, err)
	cfg.Played = r.Games
	sum, err := runToFile(t, context.Background(), cfg, name)
	require.NoError(t, err)
	return sum, r
}

// TestResumeEqualsStraightRun: a match interrupted after some games (by
// cancelling it, or by a file cut off mid-game) and resumed ends with the
// statistics, terminations, faults and games of the same match played
// straight through, though with two games at once the games found are
// not a prefix of the schedule.
func TestResumeEqualsStraightRun(t *testing.T) {
	cfg := resumeConfig(t, 8)
	dir := t.TempDir()
	full := filepath.Join(dir, "full.pdn")
	straight, err := runToFile(t, context.Background(), cfg, full)
	require.NoError(t, err)
	require.Equal(t, 16, straight.Played)
	want := gameSet(t, full)
	require.Len(t, want, 16)

	check := func(t *testing.T, sum Summary, name string, kept int) {
		assertSameStats(t, straight.Stats, sum.Stats)
		assert.Equal(t, straight.Terminations, sum.Terminations)
		assert.Equal(t, straight.Faults, sum.Faults)
		assert.Equal(t, 16, sum.Played)
		assert.Equal(t, kept, sum.Resumed)
		assert.Len(t, sum.Results, 16-kept, "only the missing games are played")
		assert.Equal(t, want, gameSet(t, name))
	}

	t.Run("cancelled", func(t *testing.T) {
		part := filepath.Join(dir, "cancelled.pdn")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := cfg
		c.Progress = func(p Progress) {
			if p.Played >= 5 {
				cancel()
			}
		}
		first, err := runToFile(t, ctx, c, part)
		require.ErrorIs(t, err, context.Canceled)
		require.Less(t, first.Played, 16)
		sum, r := resume(t, cfg, part)
		assert.Empty(t, r.Torn)
		assert.Len(t, r.Games, first.Played)
		check(t, sum, part, first.Played)
	})

	t.Run("torn", func(t *testing.T) {
		recs := records(t, full)
		require.Len(t, recs, 16)
		part := filepath.Join(dir, "torn.pdn")
		kept := bytes.Join(recs[:6], nil)
		require.NoError(t, os.WriteFile(part, append(bytes.Clone(kept), recs[6][:len(recs[6])/2]...), 0o644))
		sum, r := resume(t, cfg, part)
		assert.Contains(t, r.Torn, part)
		assert.Contains(t, r.Torn, "game 7")
		assert.EqualValues(t, len(kept), r.Size)
		assert.Len(t, r.Games, 6)
		check(t, sum, part, 6)
	})

	t.Run("finished", func(t *testing.T) {
		sum, r := resume(t, cfg, full)
		assert.Empty(t, r.Torn)
		check(t, sum, full, 16)
	})
}

// TestResumeTornLastGame: a file cut anywhere inside its last record keeps
// the games before it, is cut back to their end (so that the next game
// starts a record of its own), and the dropped game is named with the
// file; a file cut at a record's end loses nothing.
func TestResumeTornLastGame(t *testing.T) {
	cfg := resumeConfig(t, 2)
	name := filepath.Join(t.TempDir(), "m.pdn")
	_, err := runToFile(t, context.Background(), cfg, name)
	require.NoError(t, err)
	recs := records(t, name)
	require.Len(t, recs, 4)
	kept := bytes.Join(recs[:3], nil)
	last := recs[3]
	for _, cut := range []int{1, 10, len(last) / 2, len(last) - 2, len(last) - 1} {
		require.NoError(t, os.WriteFile(name, append(bytes.Clone(kept), last[:cut]...), 0o644))
		r, err := ResumeFile(name, cfg)
		require.NoError(t, err, "cut at %d", cut)
		assert.Len(t, r.Games, 3, "cut at %d", cut)
		assert.Contains(t, r.Torn, name+": game 4 (line ")
		assert.Contains(t, r.Torn, "dropped")
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.Equal(t, kept, data, "cut at %d: the file ends with the last complete game", cut)
	}
	r, err := ResumeFile(name, cfg)
	require.NoError(t, err)
	assert.Empty(t, r.Torn)
	assert.Len(t, r.Games, 3)

	r, err = ResumeFile(filepath.Join(t.TempDir(), "none.pdn"), cfg)
	require.NoError(t, err, "no file: the match starts from its beginning")
	assert.Empty(t, r.Games)
}

// TestResumeRefusesOtherMatch: the file of another match (other engines,
// variant, seed, time control or shard) is refused with an error naming
// the file and the game, and left as it was, torn last game included; Run
// refuses such games too.
func TestResumeRefusesOtherMatch(t *testing.T) {
	cfg := resumeConfig(t, 2)
	name := filepath.Join(t.TempDir(), "m.pdn")
	_, err := runToFile(t, context.Background(), cfg, name)
	require.NoError(t, err)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString("[Event \"damka match\"]\n[Site")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	before, err := os.ReadFile(name)
	require.NoError(t, err)

	cases := []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Engines[1].Name = "C" }, "different engines"},
		{func(c *Config) { c.Engines[0], c.Engines[1] = c.Engines[1], c.Engines[0] }, "different engines"},
		{func(c *Config) { c.Variant = engine.Brazilian }, "a russian game, this match is brazilian"},
		{func(c *Config) { c.Seed = 6 }, "played with --seed 5, this match has seed 6"},
		{func(c *Config) { c.Limits = Limits{Depth: 2} }, `the file's game has TimeControl "depth=1", this match's game has TimeControl "depth=2" (different limits)`},
		{func(c *Config) { c.Shard, c.Shards = 2, 2 }, "not a game of this match's schedule (2 openings x 1 rounds, shard 2/2)"},
		{func(c *Config) { c.Openings = []Opening{c.Openings[1], c.Openings[0]} }, "a different seed or openings file"},
	}
	for _, c := range cases {
		other := cfg
		c.change(&other)
		_, err := ResumeFile(name, other)
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), "match: resume "+name+": game 1 (line 1, Round ")
		assert.Contains(t, err.Error(), c.want)
		after, rerr := os.ReadFile(name)
		require.NoError(t, rerr)
		assert.Equal(t, before, after, "a refused file is left as it was")
	}

	r, err := ResumeFile(name, cfg)
	require.NoError(t, err)
	other := cfg
	other.Engines[1].Name = "C"
	other.Played = r.Games
	_, err = Run(context.Background(), other)
	assert.ErrorContains(t, err, "match: played games: game 1 (line 1, Round ")

	twice := cfg
	twice.Played = append(r.Games, r.Games[0])
	_, err = Run(context.Background(), twice)
	assert.ErrorContains(t, err, "appears twice")
}

// failingFile is a PDN file whose write of the game after the first ok
// ones writes half its bytes and fails as a full disk does.
type failingFile struct {
	*os.File
	ok int
}

func (f *failingFile) Write(p []byte) (int, error) {
	if f.ok == 0 {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, syscall.ENOSPC
	}
	f.ok--
	return f.File.Write(p)
}

// TestMatchPDNWriteError: a failed write of a game stops the match at once
// with an error naming the file, the summary counts the games the file
// holds (not the one whose write failed), and the file keeps the games
// written before it, whole (the half-written record is cut off), ready to
// be resumed.
func TestMatchPDNWriteError(t *testing.T) {
	cfg := resumeConfig(t, 2)
	cfg.Concurrency = 1
	name := filepath.Join(t.TempDir(), "m.pdn")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	require.NoError(t, err)
	defer f.Close()
	cfg.PDN = &failingFile{File: f, ok: 2}
	sum, err := Run(context.Background(), cfg)
	require.Error(t, err)
	assert.True(t, errors.Is(err, syscall.ENOSPC), "%v", err)
	assert.Contains(t, err.Error(), "match: writing PDN file "+name+": ")
	assert.Equal(t, 2, sum.Played)
	assert.Len(t, sum.Results, 2)
	recs := records(t, name)
	assert.Len(t, recs, 2)
	r, err := ResumeFile(name, cfg)
	require.NoError(t, err)
	assert.Empty(t, r.Torn)
	assert.Len(t, r.Games, 2)

	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer full.Close()
		cfg.PDN = full
		_, err := Run(context.Background(), cfg)
		assert.ErrorContains(t, err, "match: writing PDN file /dev/full: ")
	}
}

// TestResumeNamesTimeControls: a file whose games were played under other
// limits than the resumed match's is refused with a message naming both
// sides' time controls as they are, whether each has one TimeControl tag
// (the engines' limits alike) or WhiteTimeControl and BlackTimeControl (an
// engine with limits of its own): never an empty "".
func TestResumeNamesTimeControls(t *testing.T) {
	ops, err := openings.Load(testfiles.Path(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian)
	require.NoError(t, err)
	movetime := func(ms int) Limits { return Limits{MoveTime: time.Duration(ms) * time.Millisecond} }
	own := movetime(100)
	base := Config{
		Variant: engine.Russian, Openings: ops[:1], Limits: movetime(50),
		Engines: [2]EngineSpec{{Name: "A", Command: []string{"a"}}, {Name: "B", Command: []string{"b"}}},
	}
	// played returns the first game of cfg's schedule as Run records it.
	played := func(cfg Config) *pdn.Game {
		j := scheduleJobs(&cfg)[0] // 1.1.1: A has White
		require.True(t, j.AWhite())
		g := pdn.NewGame(cfg.Variant, j.Opening.Start)
		g.Result, g.Line = "1-0", 1
		for _, tag := range [][2]string{{"Round", j.RoundTag()}, {"White", "A"}, {"Black", "B"}, {"Opening", j.Opening.Name}, {SeedTag, "0"}} {
			g.SetTag(tag[0], tag[1])
		}
		wl, bl := cfg.EngineLimits(0), cfg.EngineLimits(1)
		if wl == bl {
			g.SetTag("TimeControl", wl.String())
		} else {
			g.SetTag("WhiteTimeControl", wl.String())
			g.SetTag("BlackTimeControl", bl.String())
		}
		return g
	}
	withOwn := base
	withOwn.Engines[0].Limits = own
	faster := base
	faster.Limits = movetime(200)
	cases := []struct {
		name        string
		file, run   Config
		want, want2 string
	}{
		{"alike, then A with its own", base, withOwn,
			`the file's game has TimeControl "movetime=0.05"`,
			`this match's game has WhiteTimeControl "movetime=0.1" and BlackTimeControl "movetime=0.05" (different limits)`},
		{"A with its own, then alike", withOwn, faster,
			`the file's game has WhiteTimeControl "movetime=0.1" and BlackTimeControl "movetime=0.05"`,
			`this match's game has TimeControl "movetime=0.2" (different limits)`},
		{"alike, another move time", base, faster,
			`the file's game has TimeControl "movetime=0.05"`,
			`this match's game has TimeControl "movetime=0.2" (different limits)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := played(c.file)
			_, err := checkPlayed(&c.file, []*pdn.Game{g})
			require.NoError(t, err, "the file's own match takes its game")
			_, err = checkPlayed(&c.run, []*pdn.Game{g})
			require.Error(t, err)
			assert.Contains(t, err.Error(), `game 1 (line 1, Round "1.1.1"): `)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), c.want2)
			assert.NotContains(t, err.Error(), `""`)
		})
	}
}
