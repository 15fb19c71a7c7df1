package match

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
)

func TestParseAdjudicationRules(t *testing.T) {
	d, err := ParseDrawRule("movenumber=40,movecount=8,score=0.1")
	require.NoError(t, err)
	assert.Equal(t, DrawRule{MoveNumber: 40, MoveCount: 8, Score: 0.1}, d)
	assert.Equal(t, "movenumber=40,movecount=8,score=0.1", d.String())
	d, err = ParseDrawRule("movecount=3,score=0")
	require.NoError(t, err)
	assert.Equal(t, DrawRule{MoveCount: 3}, d)
	r, err := ParseResignRule("movecount=3,score=5")
	require.NoError(t, err)
	assert.Equal(t, ResignRule{MoveCount: 3, Score: 5}, r)
	for _, bad := range []string{"", "movecount=0,score=1", "movecount=2", "movecount=2,score=x", "movecount=1.5,score=1", "moves=3,score=1", "movecount=2,score=-1", "movecount=2,score=NaN"} {
		_, err := ParseDrawRule(bad)
		assert.Error(t, err, "draw %q", bad)
		_, err = ParseResignRule(bad)
		assert.Error(t, err, "resign %q", bad)
	}
	_, err = ParseResignRule("movecount=2,score=0")
	assert.ErrorContains(t, err, "more than 0")
	_, err = ParseResignRule("movenumber=3,movecount=2,score=1")
	assert.ErrorContains(t, err, `"movenumber=3" is not key=value with a key of movecount, score`)
	// A key given twice is refused, not silently the last one.
	_, err = ParseDrawRule("movenumber=10,movenumber=11,movecount=1,score=1")
	assert.ErrorContains(t, err, "movenumber= given twice")
	_, err = ParseResignRule("movecount=2,score=3,score=4")
	assert.ErrorContains(t, err, "score= given twice")
}

// TestAdjudicator: the runs of the rules count plies in a row; a ply
// without a score or out of the band starts them again.
func TestAdjudicator(t *testing.T) {
	a := adjudicator{resign: &ResignRule{MoveCount: 2, Score: 3}}
	// White's engine says -3 (White lost), Black's says +3 (from its own
	// view: White lost). Ply 4 would fire, but ply 3 has no score.
	seq := []struct {
		side  engine.Color
		score float64
	}{{engine.White, -3}, {engine.Black, 3}, {engine.White, math.NaN()}, {engine.Black, 3}, {engine.White, -4}, {engine.Black, 5}, {engine.White, -3}}
	for i, s := range seq {
		res, term, detail := a.after(s.side, s.score, i+1)
		if i < len(seq)-1 {
			require.Equal(t, engine.Ongoing, res, "ply %d", i+1)
			continue
		}
		assert.Equal(t, engine.BlackWins, res)
		assert.Equal(t, TermResignRule, term)
		assert.Contains(t, detail, "both engines scored White lost by 3 men or more for 2 moves each")
	}
	// One engine alone thinking it is lost is not enough.
	a = adjudicator{resign: &ResignRule{MoveCount: 1, Score: 3}}
	res, _, _ := a.after(engine.White, -9, 1)
	assert.Equal(t, engine.Ongoing, res)
	res, _, _ = a.after(engine.Black, -9, 2) // Black thinks it is lost too
	assert.Equal(t, engine.Ongoing, res)

	d := adjudicator{draw: &DrawRule{MoveNumber: 3, MoveCount: 1, Score: 0.2}}
	for ply, want := range []engine.Result{engine.Ongoing, engine.Ongoing, engine.Ongoing, engine.Ongoing, engine.Ongoing, engine.Draw} {
		sc := 0.1
		if ply == 2 {
			sc = 0.3 // out of the band: the run starts again
		}
		res, _, _ := d.after(engine.Color(ply%2), sc, ply+1)
		assert.Equal(t, want, res, "ply %d", ply+1)
	}
}

// TestMatchAdjudication: the draw and resign rules end games at the ply
// they should, with their own Termination in the PDN; out of the band the
// games play on.
func TestMatchAdjudication(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops, err := openings.Load("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	ops = ops[:2] // bare positions: every ply is an engine's
	run := func(a, b []string, draw *DrawRule, resign *ResignRule, maxPlies int) (Summary, []*pdn.Game) {
		var pdn bytes.Buffer
		sum, err := Run(context.Background(), Config{
			Variant: engine.Russian, Openings: ops, Limits: Limits{MoveTime: 100 * time.Millisecond},
			Engines: [2]EngineSpec{fakeEngine(fake, "a", a...), fakeEngine(fake, "b", b...)},
			Draw:    draw, Resign: resign, MaxPlies: maxPlies, TimeMargin: time.Second, PDN: &pdn,
		})
		require.NoError(t, err)
		require.Equal(t, 4, sum.Played)
		return sum, pdnGames(t, pdn.Bytes(), engine.Russian)
	}

	// A thinks it is lost from its 3rd move on, B agrees: 4 plies in a row
	// from ply 5, whoever moves first.
	sum, games := run([]string{"-seed", "1", "-scores", "0,0,-4"}, []string{"-seed", "2", "-scores", "0,0,4"}, nil, &ResignRule{MoveCount: 2, Score: 3}, 0)
	for i, r := range sum.Results {
		assert.Equal(t, TermResignRule, r.Termination, r.Detail)
		assert.Equal(t, 8, r.Plies)
		assert.Equal(t, 0.0, r.AScore())
		assert.Equal(t, -1, r.Loser, "not a fault")
		assert.Equal(t, TermResignRule, games[i].Tag("Termination"))
		assert.Contains(t, games[i].Tag("TerminationDetail"), "resign rule (movecount=2,score=3)")
	}
	assert.Equal(t, 4, sum.Stats.Losses)
	assert.Empty(t, sum.Faults[0])

	// Both near zero from the start: the draw rule waits for move 5.
	sum, games = run([]string{"-scores", "0.1"}, []string{"-scores", "-0.1"}, &DrawRule{MoveNumber: 5, MoveCount: 2, Score: 0.2}, nil, 0)
	for i, r := range sum.Results {
		assert.Equal(t, TermDrawRule, r.Termination, r.Detail)
		assert.Equal(t, 10, r.Plies)
		assert.Equal(t, engine.Draw, r.Result)
		assert.Equal(t, TermDrawRule, games[i].Tag("Termination"))
	}

	// Out of the band, or no scores at all: no adjudication (the move cap
	// ends these games).
	for _, args := range [][]string{{"-scores", "0.5"}, nil} {
		sum, _ = run(args, args, &DrawRule{MoveCount: 1, Score: 0.2}, &ResignRule{MoveCount: 1, Score: 3}, 12)
		for _, r := range sum.Results {
			assert.NotEqual(t, TermDrawRule, r.Termination)
			assert.NotEqual(t, TermResignRule, r.Termination)
		}
	}
}
