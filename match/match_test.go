package match

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// goBuild builds the package pkg into dir/name and returns the path.
func goBuild(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	bin := filepath.Join(dir, name)
	out, err := exec.Command(goTool, "build", "-o", bin, pkg).CombinedOutput()
	require.NoError(t, err, "go build %s: %s", pkg, out)
	return bin
}

// fakeEngine returns an engine description running the fake engine with
// args.
func fakeEngine(bin, name string, args ...string) EngineSpec {
	return EngineSpec{Name: name, Command: append([]string{bin}, args...)}
}

// pdnGames reads back the games written to buf.
func pdnGames(t *testing.T, buf []byte, v engine.VariantID) []*pdn.Game {
	t.Helper()
	games, err := ReadPDN(bytes.NewReader(buf), v)
	require.NoError(t, err)
	return games
}

// TestMatchFaults: an engine that plays an illegal move, one that crashes,
// one that hangs and one that overruns its clock each lose every game with
// that reason, the crashed and hung ones are restarted, and the match
// plays its whole schedule. An engine killed is logged once per kill: a
// hung one once per game, one that exited by itself never.
func TestMatchFaults(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	ops = ops[1:] // two openings: 4 games
	cases := []struct {
		mode   string
		bad    int // 0: A misbehaves, 1: B
		limits Limits
		want   string
		detail string
		grace  time.Duration // the stop grace
	}{
		{"illegal", 0, Limits{MoveTime: 50 * time.Millisecond}, TermIllegal, `played "1-2"`, time.Second},
		{"crash", 1, Limits{MoveTime: 50 * time.Millisecond}, TermCrash, "exited", time.Second},
		{"hang", 0, Limits{MoveTime: 50 * time.Millisecond}, TermHang, "did not answer", 300 * time.Millisecond},
		// The slow engine answers past its clock but within the stop grace.
		{"slow", 1, Limits{Base: 400 * time.Millisecond, Inc: 20 * time.Millisecond}, TermTime, "used", 3 * time.Second},
		{"hang", 1, Limits{Depth: 3}, TermHang, "did not answer", 300 * time.Millisecond},
		// An unreadable done line loses at once, the line quoted.
		{"nul", 1, Limits{MoveTime: 50 * time.Millisecond}, TermIllegal, `unreadable answer`, 3 * time.Second},
		{"esc", 0, Limits{MoveTime: 50 * time.Millisecond}, TermIllegal, `\x1b[0m"`, 3 * time.Second},
		{"del", 1, Limits{Depth: 3}, TermIllegal, `\x7f"`, 3 * time.Second},
		{"quote", 0, Limits{MoveTime: 50 * time.Millisecond}, TermIllegal, `"done move=\"`, 3 * time.Second},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %s", c.mode, c.limits), func(t *testing.T) {
			var specs [2]EngineSpec
			// The margin is wide enough that the good engine, which
			// answers at once, never flags on a loaded machine; the slow
			// one sleeps past its time by more than the margin.
			specs[c.bad] = fakeEngine(fake, "bad", "-mode", c.mode, "-at", "2", "-seed", "7", "-over", "1200ms")
			specs[1-c.bad] = fakeEngine(fake, "good", "-seed", "3")
			var pdn, out bytes.Buffer
			var log logjson.Buffer
			sum, err := Run(context.Background(), Config{
				Variant: engine.Russian, Engines: specs, Openings: ops, Limits: c.limits,
				TimeMargin: 600 * time.Millisecond, StopGrace: c.grace,
				HangTimeout: 400 * time.Millisecond, PDN: &pdn, Out: &out,
				Log: zerolog.New(&log).Level(zerolog.WarnLevel),
			})
			require.NoError(t, err)
			kills := strings.Count(log.String(), "killing the engine")
			switch c.mode {
			case "hang":
				assert.Equal(t, 4, kills, "one kill a game, logged once: %s", log.String())
			case "crash":
				assert.Zero(t, kills, "an engine that exited is not killed: %s", log.String())
			default:
				assert.LessOrEqual(t, kills, 4, log.String())
			}
			assert.Equal(t, 4, sum.Played, "the match goes on after each fault")
			assert.Equal(t, 4, sum.Faults[c.bad][c.want], "%v", sum.Faults)
			assert.Empty(t, sum.Faults[1-c.bad])
			for _, r := range sum.Results {
				assert.Equal(t, c.bad, r.Loser)
				assert.Equal(t, c.want, r.Termination)
				assert.Contains(t, r.Detail, c.detail)
				assert.Contains(t, r.Detail, "bad")
				// The bad engine misbehaves at its second move: after 2
				// plies when it moves first, else after 3.
				badColour := engine.Black
				if r.Job.AWhite() == (c.bad == 0) {
					badColour = engine.White
				}
				want := 3
				if r.Job.Opening.Position().Side == badColour {
					want = 2
				}
				assert.Equal(t, want, r.Plies, "%s", r.Job.RoundTag())
			}
			if c.bad == 0 {
				assert.Equal(t, 4, sum.Stats.Losses)
			} else {
				assert.Equal(t, 4, sum.Stats.Wins)
			}
			games := pdnGames(t, pdn.Bytes(), engine.Russian)
			require.Len(t, games, 4)
			for _, g := range games {
				assert.Equal(t, c.want, g.Tag("Termination"))
				loser := g.Tag("White")
				if g.Result == "1-0" {
					loser = g.Tag("Black")
				}
				assert.Equal(t, "bad", loser)
			}
			assert.Equal(t, 4, strings.Count(out.String(), c.want))
		})
	}
}

// TestMatchEngineKilled: an engine killed (SIGKILL) in mid-search loses
// the game as a crash, the fault names the engine and its line names the
// game, the engine is restarted and the match plays its whole schedule;
// the PDN file holds every game, whole, and reads back.
func TestMatchEngineKilled(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	ops = ops[1:] // two openings: 4 games
	name := filepath.Join(t.TempDir(), "m.pdn")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	require.NoError(t, err)
	defer f.Close()
	var out bytes.Buffer
	cfg := Config{
		Variant: engine.Russian, Openings: ops, Limits: Limits{MoveTime: 50 * time.Millisecond},
		TimeMargin: 600 * time.Millisecond, PDN: f, Out: &out,
		Engines: [2]EngineSpec{
			fakeEngine(fake, "good", "-seed", "3"),
			fakeEngine(fake, "victim", "-mode", "kill", "-at", "2", "-seed", "7"),
		},
	}
	sum, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, 4, sum.Played, "the match goes on after each kill")
	assert.Equal(t, map[string]int{TermCrash: 4}, sum.Faults[1])
	assert.Equal(t, 4, sum.Stats.Wins)
	for _, r := range sum.Results {
		assert.Equal(t, 1, r.Loser)
		assert.Equal(t, TermCrash, r.Termination)
		assert.Contains(t, r.Detail, "victim exited while", r.Job.RoundTag())
		assert.Contains(t, r.Detail, "signal: killed", r.Job.RoundTag())
		assert.Contains(t, out.String(), " "+r.Job.RoundTag()+" ", "the game's line names it")
	}
	assert.Equal(t, 4, strings.Count(out.String(), "good wins (crash: victim exited while searching"), out.String())

	data, err := os.ReadFile(name)
	require.NoError(t, err)
	games := pdnGames(t, data, engine.Russian)
	require.Len(t, games, 4)
	for _, g := range games {
		assert.Equal(t, TermCrash, g.Tag("Termination"))
		assert.Contains(t, g.Tag("TerminationDetail"), "victim")
	}
	r, err := ResumeFile(name, cfg)
	require.NoError(t, err)
	assert.Empty(t, r.Torn)
	assert.Len(t, r.Games, 4, "every game whole")
}

// TestMatchStartFailure: an engine that cannot start fails the match before
// any game.
func TestMatchStartFailure(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	_, err = Run(context.Background(), Config{
		Variant: engine.Russian, Openings: ops, Limits: Limits{Depth: 1},
		Engines: [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(filepath.Join(t.TempDir(), "nothing"), "b")},
	})
	assert.ErrorContains(t, err, "engine b")
	_, err = Run(context.Background(), Config{
		Variant: engine.Russian, Openings: ops, Limits: Limits{Depth: 1},
		Engines: [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(fake, "a")},
	})
	assert.ErrorContains(t, err, "both engines are named")
	_, err = Run(context.Background(), Config{
		Variant: engine.Russian, Openings: ops,
		Engines: [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(fake, "b")},
	})
	assert.ErrorContains(t, err, "no search limit")

	// An engine of an older Hub dialect (Scan 2.0's `scan hub`) and a Hub 2
	// engine without a variant parameter in a Russian match: refused
	// before any game, naming what was missing.
	for _, c := range []struct{ mode, msg string }{
		{"scan20", "no `id` line before `wait`"},
		{"novariant", "declared no `variant` parameter"},
	} {
		var out bytes.Buffer
		sum, err := Run(context.Background(), Config{
			Variant: engine.Russian, Openings: ops, Limits: Limits{Depth: 1}, Out: &out,
			Engines: [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(fake, "b", "-mode", c.mode)},
		})
		require.ErrorIs(t, err, ErrStart, c.mode)
		require.ErrorIs(t, err, hubclient.ErrNotHub2, c.mode)
		assert.ErrorContains(t, err, "engine b", c.mode)
		assert.ErrorContains(t, err, c.msg, c.mode)
		assert.Zero(t, sum.Played, c.mode)
		assert.Empty(t, out.String(), c.mode)
	}
}

// TestMatchDamka plays a small damka-against-damka match in every variant
// through the real binary: every game legal and read back from the PDN,
// ended by the rules (or the move cap), the statistics equal to those
// recomputed from the PDN, and `damka pdn check` happy with the file.
func TestMatchDamka(t *testing.T) {
	dir := t.TempDir()
	damka := goBuild(t, dir, "damka", "github.com/damka-draughts/damka/cmd/damka")
	load := func(file string, v engine.VariantID) []Opening {
		ops, err := openings.Load(file, v)
		require.NoError(t, err)
		return ops[:2]
	}
	cases := []struct {
		v      engine.VariantID
		ops    []Opening
		limits Limits
	}{
		{engine.English, load(testfiles.Path(t, "acf_3move_ballots.tsv"), engine.English), Limits{Depth: 3}},
		{engine.Russian, load(testfiles.Path(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian), Limits{Nodes: 2000}},
		{engine.Brazilian, load(testfiles.Path(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Brazilian), Limits{Depth: 3}},
		{engine.International, load("testdata/openings_international.pdn", engine.International), Limits{Depth: 2}},
	}
	for _, c := range cases {
		t.Run(c.v.String(), func(t *testing.T) {
			pdnFile := filepath.Join(dir, c.v.String()+".pdn")
			f, err := os.OpenFile(pdnFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			require.NoError(t, err)
			defer f.Close()
			a := EngineSpec{Name: "damkaA", Command: []string{damka}, Options: []hubclient.Setting{{Name: "hash", Value: "8"}}}
			b := EngineSpec{Name: "damkaB", Command: []string{damka, "hub"}, Options: []hubclient.Setting{{Name: "threads", Value: "1"}}}
			sum, err := Run(context.Background(), Config{
				Variant: c.v, Engines: [2]EngineSpec{a, b}, Openings: c.ops, Limits: c.limits,
				Concurrency: 2, MaxPlies: 300, PDN: f,
			})
			require.NoError(t, err)
			require.Equal(t, 4, sum.Played)
			for i := range sum.Faults {
				assert.Empty(t, sum.Faults[i], "no engine faults")
			}
			data, err := os.ReadFile(pdnFile)
			require.NoError(t, err)
			games := pdnGames(t, data, engine.Russian)
			require.Len(t, games, 4)
			for _, g := range games {
				assert.Equal(t, c.v, g.Variant)
				want, err := engine.ParseResult(g.Variant, g.Result)
				require.NoError(t, err)
				res, why := g.Game().Result()
				switch g.Tag("Termination") {
				case TermNormal:
					assert.Equal(t, want, res, "the rules end the game where the PDN does")
					assert.Equal(t, why.String(), g.Tag("TerminationDetail"))
				case TermAdjudication:
					assert.Equal(t, engine.Draw, want)
					assert.Equal(t, engine.Ongoing, res)
				default:
					t.Errorf("termination %q", g.Tag("Termination"))
				}
				assert.Equal(t, c.limits.String(), g.Tag("TimeControl"))
			}
			ms, err := MergeGames(games, "")
			require.NoError(t, err)
			assert.Equal(t, "damkaA", ms.EngineA)
			assert.Equal(t, "damkaB", ms.EngineB)
			assertSameStats(t, sum.Stats, ms.Stats)
			assert.Equal(t, sum.Terminations, ms.Terminations)
			assert.Equal(t, 2, ms.Stats.Pairs())

			out, err := exec.Command(damka, "pdn", "check", pdnFile).CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Equal(t, "games=4 ok=4 bad=0\n", string(out))
		})
	}
}

// assertSameStats compares two Stats, NaN equal to NaN.
func assertSameStats(t *testing.T, want, got Stats) {
	t.Helper()
	assert.Equal(t, want.Line(&DefaultSPRT), got.Line(&DefaultSPRT))
	assert.Equal(t, want.Penta, got.Penta)
	assert.Equal(t, fmt.Sprint(want), fmt.Sprint(got))
}

// TestShardsAndMerge: the shards of a schedule are disjoint and make up
// the whole, and merging the shards' PDN gives the numbers of one run (the
// fake engines play deterministic moves, so the games are the same).
func TestShardsAndMerge(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load(testfiles.Path(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian)
	require.NoError(t, err)
	ops = ops[:5]
	cfg := Config{
		Variant: engine.Russian, Openings: ops, Rounds: 2, Seed: 11, Limits: Limits{Depth: 1}, MaxPlies: 60,
		Engines:     [2]EngineSpec{fakeEngine(fake, "A", "-seed", "1"), fakeEngine(fake, "B", "-seed", "2")},
		Concurrency: 2,
	}
	var full bytes.Buffer
	c := cfg
	c.PDN = &full
	whole, err := Run(context.Background(), c)
	require.NoError(t, err)
	require.Equal(t, 20, whole.Played)
	fullGames := pdnGames(t, full.Bytes(), engine.Russian)

	var shardGames []*pdn.Game
	var shardRounds []string
	for i := 1; i <= 3; i++ {
		var buf bytes.Buffer
		c := cfg
		c.Shard, c.Shards, c.PDN = i, 3, &buf
		s, err := Run(context.Background(), c)
		require.NoError(t, err)
		gs := pdnGames(t, buf.Bytes(), engine.Russian)
		assert.Len(t, gs, s.Played)
		for _, g := range gs {
			shardRounds = append(shardRounds, g.Tag("Round")+" "+g.Tag("Opening")+" "+g.Result)
		}
		shardGames = append(shardGames, gs...)
	}
	var fullRounds []string
	for _, g := range fullGames {
		fullRounds = append(fullRounds, g.Tag("Round")+" "+g.Tag("Opening")+" "+g.Result)
	}
	sort.Strings(fullRounds)
	sort.Strings(shardRounds)
	assert.Equal(t, fullRounds, shardRounds, "the shards' games are the full schedule's, each once, with the same results")

	merged, err := MergeGames(shardGames, "")
	require.NoError(t, err)
	assertSameStats(t, whole.Stats, merged.Stats)
	assert.Equal(t, 10, merged.Stats.Pairs())
	again, err := MergeGames(fullGames, "A")
	require.NoError(t, err)
	assertSameStats(t, whole.Stats, again.Stats)

	_, err = MergeGames(append(shardGames, shardGames[0]), "")
	assert.ErrorContains(t, err, "appears twice")
	_, err = MergeGames(shardGames, "C")
	assert.ErrorContains(t, err, "neither is engine A")
}

// TestSPRTStopsMatch: against an engine that loses every game the SPRT
// accepts H1 once MinSPRTPairs pairs are complete and the match stops early.
func TestSPRTStopsMatch(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load(testfiles.Path(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian)
	require.NoError(t, err)
	var progress []Progress
	sum, err := Run(context.Background(), Config{
		Variant: engine.Russian, Openings: ops[:MinSPRTPairs+5], Limits: Limits{Depth: 1}, SPRT: &DefaultSPRT,
		Engines:  [2]EngineSpec{fakeEngine(fake, "A"), fakeEngine(fake, "B", "-mode", "illegal")},
		Progress: func(p Progress) { progress = append(progress, p) },
	})
	require.NoError(t, err)
	assert.Equal(t, AcceptH1, sum.Decision)
	assert.Less(t, sum.Played, 2*(MinSPRTPairs+5))
	assert.GreaterOrEqual(t, sum.Played, 2*MinSPRTPairs)
	_, hi := DefaultSPRT.Bounds()
	assert.GreaterOrEqual(t, sum.LLR, hi)
	require.Len(t, progress, sum.Played)
	assert.Equal(t, sum.Played, progress[len(progress)-1].Played)
	assert.Equal(t, 2*(MinSPRTPairs+5), progress[0].Total)
}

// TestGameLinePlayersInScoreOrder: the player named first is the one whose
// score the PDN result gives first (Black in English draughts).
func TestGameLinePlayersInScoreOrder(t *testing.T) {
	r := GameResult{White: "A", Black: "B", Result: engine.BlackWins}
	assert.Equal(t, "1-0", r.Result.PDN(engine.English))
	assert.Equal(t, "B (Black) - A (White)", r.Players(engine.English))
	assert.Equal(t, "B wins", r.Outcome())
	assert.Equal(t, "0-1", r.Result.PDN(engine.Russian))
	assert.Equal(t, "A (White) - B (Black)", r.Players(engine.Russian))
}

// TestMergeRefusesMixedVariants: games of two variants (the shards of two
// matches) are not merged into one set of statistics.
func TestMergeRefusesMixedVariants(t *testing.T) {
	text := `[Round "1.1.1"]
[White "A"]
[Black "B"]
[GameType "21"]
[Opening "x"]
1. 11-15 1-0

[Round "1.1.2"]
[White "B"]
[Black "A"]
[GameType "21"]
[Opening "x"]
1. 11-15 1-0

[Round "1.2.1"]
[White "A"]
[Black "B"]
[GameType "25"]
[Opening "y"]
1. c3-d4 1-0
`
	games, err := ReadPDN(strings.NewReader(text), engine.Russian)
	require.NoError(t, err)
	require.Len(t, games, 3)
	ms, err := MergeGames(games[:2], "")
	require.NoError(t, err)
	assert.Equal(t, 2, ms.Stats.Games)
	_, err = MergeGames(games, "")
	assert.ErrorContains(t, err, "game 3 (line 15, Round \"1.2.1\"): a russian game, game 1 is english")
	_, err = MergeGames(nil, "A")
	assert.EqualError(t, err, "merge: no games")
}

// A game whose movetext holds fewer plies than its PlyCount tag (a file
// copied while its match was still writing) is counted with its Result tag
// and named in Cut; whole games and games without the tag are not.
func TestMergeNamesCutGames(t *testing.T) {
	text := `[Round "1.1.1"]
[White "A"]
[Black "B"]
[Result "1-0"]
[GameType "21"]
[Opening "x"]
[PlyCount "2"]
1. 11-15 23-19 1-0

[Round "1.1.2"]
[White "B"]
[Black "A"]
[Result "1-0"]
[GameType "21"]
[Opening "x"]
[PlyCount "3"]
1. 11-15 23-19
`
	games, err := ReadPDN(strings.NewReader(text), engine.English)
	require.NoError(t, err)
	require.Len(t, games, 2)
	ms, err := MergeGames(games, "")
	require.NoError(t, err)
	assert.Equal(t, 2, ms.Stats.Games)
	assert.Equal(t, 0, ms.Stats.Draws, "the cut game counts by its Result tag, not as unfinished")
	assert.Equal(t, []string{`game 2 (line 10, Round "1.1.2"): PlyCount "3" but 2 plies in the movetext`}, ms.Cut)
	games[1].Tags = slices.DeleteFunc(games[1].Tags, func(tg pdn.Tag) bool { return tg.Name == "PlyCount" })
	ms, err = MergeGames(games, "")
	require.NoError(t, err)
	assert.Empty(t, ms.Cut)
}

// TestMatchPDNOpeningMoves: a match from a ballot deck whose names carry
// the opening's moves (pydraughts' JSON: "1-I cd4 ba5 dc5": FEN after
// them) records each game from the variant's start position with the
// opening's moves as the game's first moves, numbered from 1, as
// CheckerBoard and lidraughts read them: no FEN tag and no "1..." where
// the opening's moves belong.
func TestMatchPDNOpeningMoves(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	for _, c := range []struct {
		v     engine.VariantID
		deck  string
		moves string
	}{
		{engine.Russian, `{"all": {"1-I cd4 ba5 dc5": "B:Wa1,e3,g3,c5,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"}}`,
			"1. c3-d4 b6-a5 2. d4-c5 "},
		{engine.English, `{"all": {"001 09-13 21-17 05-09": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9"}}`,
			"1. 9-13 21-17 2. 5-9 "},
	} {
		ops, err := openings.Read(strings.NewReader(c.deck), ".json", c.v)
		require.NoError(t, err)
		var out bytes.Buffer
		_, err = Run(context.Background(), Config{
			Variant: c.v, Openings: ops, Limits: Limits{Depth: 1}, PDN: &out,
			Engines: [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(fake, "b")},
		})
		require.NoError(t, err)
		s := out.String()
		assert.NotContains(t, s, "[FEN ", c.v.String())
		assert.NotContains(t, s, "1...", c.v.String())
		assert.Equal(t, 2, strings.Count(s, "\n\n"+c.moves), "%s: %s", c.v, s)
		for _, g := range pdnGames(t, out.Bytes(), c.v) {
			assert.Equal(t, engine.StartPosition(c.v), g.Start)
			require.Greater(t, len(g.Moves), 3)
			assert.Equal(t, ops[0].Position().Pieces, g.Start.Play(g.Moves[0]).Play(g.Moves[1]).Play(g.Moves[2]).Pieces, c.v.String())
		}
	}
}

// TestMatchLongLines: an engine line over hubwire.MaxLineBytes, and what the
// log says of it, agree with the game's result. A 3 MB info line is
// logged as skipped and the game goes on to its end, no fault; a 3 MB done
// line (the engine's move lost) is logged as lost and loses the game as
// an "illegal move" whose detail says the answer was too long, not as a
// crash.
func TestMatchLongLines(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	ops = ops[1:] // two openings: 4 games
	run := func(mode string) (Summary, string) {
		var log logjson.Buffer
		sum, err := Run(context.Background(), Config{
			Variant: engine.Russian, Openings: ops, Limits: Limits{MoveTime: 50 * time.Millisecond},
			Engines: [2]EngineSpec{
				fakeEngine(fake, "long", "-mode", mode, "-at", "2", "-long", "3000000", "-seed", "7"),
				fakeEngine(fake, "good", "-seed", "3"),
			},
			TimeMargin: 600 * time.Millisecond, MaxPlies: 40, Concurrency: 2,
			Log: zerolog.New(&log).Level(zerolog.WarnLevel),
		})
		require.NoError(t, err)
		require.Equal(t, 4, sum.Played)
		return sum, log.String()
	}

	sum, log := run("longinfo")
	assert.Empty(t, sum.Faults[0], "%v", sum.Terminations)
	assert.Empty(t, sum.Faults[1])
	for _, r := range sum.Results {
		assert.Greater(t, r.Plies, 3, "%s: the game went on after the long line", r.Job.RoundTag())
		assert.Contains(t, []string{TermNormal, TermAdjudication}, r.Termination, r.Detail)
	}
	assert.Equal(t, 4, strings.Count(log, "engine line too long, skipped"), log)
	assert.NotContains(t, log, "engine fault")
	assert.NotContains(t, log, "killing the engine")

	sum, log = run("longdone")
	assert.Equal(t, map[string]int{TermIllegal: 4}, sum.Faults[0])
	for _, r := range sum.Results {
		assert.Equal(t, TermIllegal, r.Termination)
		assert.Contains(t, r.Detail, "long gave an answer over 1048576 bytes while searching: ")
		assert.Contains(t, r.Detail, `hub engine line too long: line `)
		assert.Contains(t, r.Detail, `(starts "done move=`)
	}
	assert.Equal(t, 4, strings.Count(log, "engine line too long: the answer waited for is lost"), log)
	assert.NotContains(t, log, "skipped")
	assert.Equal(t, 4, strings.Count(log, `"termination":"illegal move"`), log)
}
