package match

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
)

func englishFEN(t *testing.T, fen string) *engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(engine.English, fen)
	require.NoError(t, err, fen)
	return &p
}

// TestAdjudicateEGDB: the embedded set's values, for the side to move; a
// win longer than the 40-move rule leaves, or one without a distance
// close to the rule, is not adjudicated.
func TestAdjudicateEGDB(t *testing.T) {
	db := egdb.Default()
	// Two kings against one, Black to move: lost in 30 plies.
	p := englishFEN(t, "B:WK1,K2:BK32")
	res, detail := adjudicateEGDB(db, p, engine.DrawState{})
	assert.Equal(t, engine.WhiteWins, res)
	assert.Equal(t, "endgame database: Black to move loses in 30 plies (material 0201; the draw rules leave 80 plies)", detail)
	// White to move there: a win in 33.
	res, detail = adjudicateEGDB(db, englishFEN(t, "W:WK1,K2:BK32"), engine.DrawState{Reversible: 10, Balance: 10})
	assert.Equal(t, engine.WhiteWins, res)
	assert.Contains(t, detail, "White to move wins in 33 plies")
	assert.Contains(t, detail, "leave 70 plies")
	// The other way round: Black's two kings.
	res, _ = adjudicateEGDB(db, englishFEN(t, "W:WK32:BK1,K2"), engine.DrawState{})
	assert.Equal(t, engine.BlackWins, res)
	// The 40-move rule (80 plies without a man move) leaves 30: a win in
	// 30 is not a win under it; in 31 it is.
	res, _ = adjudicateEGDB(db, p, engine.DrawState{Reversible: 50, Balance: 50})
	assert.Equal(t, engine.Ongoing, res)
	res, _ = adjudicateEGDB(db, p, engine.DrawState{Reversible: 49, Balance: 50})
	assert.Equal(t, engine.WhiteWins, res)
	// King against king: a draw, whatever the counters.
	res, detail = adjudicateEGDB(db, englishFEN(t, "W:WK1:BK32"), engine.DrawState{Reversible: 79})
	assert.Equal(t, engine.Draw, res)
	assert.Equal(t, "endgame database: White to move draws (material 0101)", detail)
	// A slice with men (no distance): trusted while the rule leaves 20
	// plies or more.
	q := englishFEN(t, "B:W9,K1:B20")
	res, detail = adjudicateEGDB(db, q, engine.DrawState{Reversible: 60})
	assert.Equal(t, engine.WhiteWins, res)
	assert.Contains(t, detail, "Black to move loses (win/draw/loss table: no distance)")
	res, _ = adjudicateEGDB(db, q, engine.DrawState{Reversible: 61})
	assert.Equal(t, engine.Ongoing, res)
	// Too many pieces, or no database.
	res, _ = adjudicateEGDB(db, englishFEN(t, "B:W21,22,23:B9,10,11"), engine.DrawState{})
	assert.Equal(t, engine.Ongoing, res)
	res, _ = adjudicateEGDB(nil, p, engine.DrawState{})
	assert.Equal(t, engine.Ongoing, res)
}

// TestDrawRulePlies: the plies left by each variant's move-count rules.
func TestDrawRulePlies(t *testing.T) {
	eng := englishFEN(t, "W:WK1,K2:BK32")
	assert.Equal(t, 80, engine.DrawState{}.PliesToRule(eng))
	assert.Equal(t, 1, engine.DrawState{Reversible: 79}.PliesToRule(eng))
	assert.Equal(t, 0, engine.DrawState{Reversible: 90}.PliesToRule(eng))
	// Russian: three kings against one, 15 moves from the balance.
	ru, err := engine.ParseFEN(engine.Russian, "W:WK1,K2,K3:BK32")
	require.NoError(t, err)
	assert.Equal(t, 20, engine.DrawState{Reversible: 0, Balance: 10}.PliesToRule(&ru))
	// A man on each side, no king: nothing in 1024 plies at a standstill
	// but the 40-move rule, which counts man moves out.
	assert.Equal(t, 80, engine.DrawState{}.PliesToRule(englishFEN(t, "W:W30:B1")))
}

// TestMatchEGDBAdjudication: with the embedded set, two kings against one
// end as a win for the two kings after the first move, a king against a
// king as a draw, with Termination "egdb adjudication" in the PDN.
func TestMatchEGDBAdjudication(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	ops := []openings.Opening{
		{Name: "2K-1K", Start: *englishFEN(t, "W:WK1,K2:BK32")},
		{Name: "1K-1K", Start: *englishFEN(t, "W:WK1:BK32")},
	}
	var pdn bytes.Buffer
	sum, err := Run(context.Background(), Config{
		Variant: engine.English, Openings: ops, Limits: Limits{MoveTime: 100 * time.Millisecond},
		Engines: [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(fake, "b", "-seed", "5")},
		EGDB:    egdb.Default(), TimeMargin: time.Second, PDN: &pdn,
	})
	require.NoError(t, err)
	require.Equal(t, 4, sum.Played)
	games := pdnGames(t, pdn.Bytes(), engine.English)
	require.Len(t, games, 4)
	for i, r := range sum.Results {
		assert.Equal(t, TermEGDBRule, r.Termination, r.Detail)
		assert.Equal(t, 1, r.Plies, "adjudicated after the first move")
		assert.Equal(t, -1, r.Loser, "not a fault")
		assert.Equal(t, TermEGDBRule, games[i].Tag("Termination"))
		assert.Equal(t, r.Detail, games[i].Tag("TerminationDetail"))
		switch r.Job.Opening.Name {
		case "2K-1K":
			assert.Equal(t, engine.WhiteWins, r.Result)
			assert.Regexp(t, `^endgame database: Black to move loses in \d+ plies \(material 0201; the draw rules leave 79 plies\)$`, r.Detail)
		case "1K-1K":
			assert.Equal(t, engine.Draw, r.Result)
			assert.Equal(t, "endgame database: Black to move draws (material 0101)", r.Detail)
		default:
			t.Fatalf("opening %q", r.Job.Opening.Name)
		}
	}
	assert.Equal(t, 1, sum.Stats.Wins)
	assert.Equal(t, 1, sum.Stats.Losses)
	assert.Equal(t, 2, sum.Stats.Draws)

	// Without the database the same games play on past the first move.
	sum, err = Run(context.Background(), Config{
		Variant: engine.English, Openings: ops[1:], Limits: Limits{MoveTime: 100 * time.Millisecond},
		Engines:  [2]EngineSpec{fakeEngine(fake, "a"), fakeEngine(fake, "b")},
		MaxPlies: 6, TimeMargin: time.Second,
	})
	require.NoError(t, err)
	for _, r := range sum.Results {
		assert.NotEqual(t, TermEGDBRule, r.Termination)
		assert.Greater(t, r.Plies, 1)
	}
}

// TestMatchEGDBAdjudicationDXP: the database adjudicates DXP engines'
// games too (they report no scores), and the DXP engine is told the
// result (GAMEEND) and plays the next game.
func TestMatchEGDBAdjudicationDXP(t *testing.T) {
	dir := t.TempDir()
	hubFake := goBuild(t, dir, "fakeengine", "./testdata/fakeengine")
	dxpFake := goBuild(t, dir, "fakedxp", "./testdata/fakedxp")
	start, err := engine.ParseFEN(engine.International, "W:WK46:BK1")
	require.NoError(t, err)
	var pdn bytes.Buffer
	sum, err := Run(context.Background(), Config{
		Variant: engine.International, Openings: []openings.Opening{{Name: "1K-1K", Start: start}},
		Limits: Limits{MoveTime: 100 * time.Millisecond},
		Engines: [2]EngineSpec{fakeEngine(hubFake, "hub"),
			{Name: "dxp", Proto: ProtoDXP, Command: []string{dxpFake, "-port", "{port}", "-seed", "5"}}},
		EGDB: egdb.Default(), TimeMargin: time.Second, PDN: &pdn, HandshakeTimeout: 10 * time.Second,
	})
	require.NoError(t, err)
	require.Equal(t, 2, sum.Played)
	// Flying kings: White's king may land on a diagonal of Black's and be
	// taken, so the value depends on the move played.
	re := regexp.MustCompile(`^endgame database: Black to move (draws|wins in 1 ply|loses in \d+ plies) \(material 0101`)
	for _, r := range sum.Results {
		assert.Equal(t, TermEGDBRule, r.Termination, r.Detail)
		assert.Equal(t, 1, r.Plies)
		m := re.FindStringSubmatch(r.Detail)
		require.NotNil(t, m, r.Detail)
		want := map[string]engine.Result{"d": engine.Draw, "w": engine.BlackWins, "l": engine.WhiteWins}[m[1][:1]]
		assert.Equal(t, want, r.Result, r.Detail)
	}
	assert.Empty(t, sum.Faults[0])
	assert.Empty(t, sum.Faults[1])
}
