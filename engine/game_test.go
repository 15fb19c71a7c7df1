package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustFEN(t *testing.T, v VariantID, fen string) Position {
	t.Helper()
	p, err := ParseFEN(v, fen)
	require.NoError(t, err, fen)
	return p
}

func mustMove(t *testing.T, p Position, text string) Move {
	t.Helper()
	m, err := p.ParseMove(text)
	require.NoError(t, err, text)
	return m
}

func TestResultStrings(t *testing.T) {
	assert.Equal(t, "*", Ongoing.String())
	assert.Equal(t, "1-0", WhiteWins.String())
	assert.Equal(t, "0-1", BlackWins.String())
	assert.Equal(t, "1/2-1/2", Draw.String())
	// English files put Black's (the first mover's) score first.
	assert.Equal(t, "0-1", WhiteWins.PDN(English))
	assert.Equal(t, "1-0", BlackWins.PDN(English))
	assert.Equal(t, "1-0", WhiteWins.PDN(Russian))
	assert.Equal(t, "1-0", WhiteWins.PDN(International))
	for _, v := range AllVariants() {
		for _, r := range []Result{Ongoing, WhiteWins, BlackWins, Draw} {
			back, err := ParseResult(v, r.PDN(v))
			require.NoError(t, err)
			assert.Equal(t, r, back)
		}
	}
	r, err := ParseResult(International, "2-0")
	require.NoError(t, err)
	assert.Equal(t, WhiteWins, r)
	r, err = ParseResult(Russian, "1-1")
	require.NoError(t, err)
	assert.Equal(t, Draw, r)
	r, err = ParseResult(English, "0-2")
	require.NoError(t, err)
	assert.Equal(t, WhiteWins, r)
	_, err = ParseResult(Russian, "0-0")
	assert.Error(t, err)
	_, err = ParseResult(Russian, "draw")
	assert.ErrorContains(t, err, `"draw"`)
	for r := ReasonNone; r < numReasons; r++ {
		assert.NotEmpty(t, r.String())
		assert.NotContains(t, r.String(), "reason(")
	}
	assert.Equal(t, "reason(200)", Reason(200).String())
}

func TestGamePlayUndo(t *testing.T) {
	start := StartPosition(Russian)
	g := NewGame(start)
	assert.Equal(t, 0, g.Ply())
	assert.Equal(t, []uint64{start.Key}, g.Keys())
	for _, s := range []string{"c3-d4", "f6-e5", "d4:f6", "g7:e5"} {
		p := g.Position()
		g.Play(mustMove(t, p, s))
	}
	assert.Equal(t, 4, g.Ply())
	require.Len(t, g.Keys(), 5)
	for i := 0; i <= 4; i++ {
		p := g.PositionAt(i)
		assert.Equal(t, p.ComputeKey(), g.Keys()[i])
	}
	assert.Equal(t, DrawState{}, g.DrawState(), "a capture resets both counters")
	assert.Len(t, g.Moves(), 4)
	for g.Undo() {
	}
	assert.Equal(t, 0, g.Ply())
	assert.Equal(t, start, g.Position())
	assert.Equal(t, start, g.Start())
	assert.False(t, g.Undo())
	assert.Len(t, g.Keys(), 1)
}

func TestGamePlayChecked(t *testing.T) {
	p := StartPosition(English)
	g := NewGame(p)
	require.NoError(t, g.PlayChecked(mustMove(t, p, "11-15")))
	// A move legal for the other side (White's 22-18 is legal for White, and
	// it is White's turn now): fine. Then the same again is illegal.
	q := g.Position()
	m := mustMove(t, q, "22-18")
	require.NoError(t, g.PlayChecked(m))
	err := g.PlayChecked(m)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrIllegalMove))
	assert.Equal(t, 2, g.Ply(), "an illegal move changes nothing")
	err = g.PlayChecked(Move{From: 200, To: 201})
	assert.ErrorIs(t, err, ErrIllegalMove)
}

func TestNoLegalMoveLoses(t *testing.T) {
	cases := []struct {
		v      VariantID
		fen    string
		result Result
		reason Reason
	}{
		// Black's only man on 28 is blocked by the white man on 32.
		{English, "B:W32:B28", WhiteWins, NoLegalMove},
		{English, "W:W:B1,2", BlackWins, NoPieces},
		{Russian, "W:Wa1:Bb2,c3", BlackWins, NoLegalMove},
		{Russian, "B:Wa1:B", WhiteWins, NoPieces},
		{International, "W:W46:B41,37", BlackWins, NoLegalMove},
		{Brazilian, "B:WKa1:B", WhiteWins, NoPieces},
	}
	for _, c := range cases {
		g := NewGame(mustFEN(t, c.v, c.fen))
		r, why := g.Result()
		assert.Equal(t, c.result, r, c.fen)
		assert.Equal(t, c.reason, why, c.fen)
	}
	// Capturing the last piece wins.
	g := NewGame(mustFEN(t, English, "W:W22:B18"))
	r, _ := g.Result()
	assert.Equal(t, Ongoing, r)
	g.Play(mustMove(t, g.Position(), "22x15"))
	r, why := g.Result()
	assert.Equal(t, WhiteWins, r)
	assert.Equal(t, NoPieces, why)
}

func TestGameSetResult(t *testing.T) {
	g := NewGame(StartPosition(Russian))
	g.SetResult(BlackWins, Resignation)
	r, why := g.Result()
	assert.Equal(t, BlackWins, r)
	assert.Equal(t, Resignation, why)
	g.Play(mustMove(t, g.Position(), "c3-d4"))
	r, why = g.Result()
	assert.Equal(t, Ongoing, r)
	assert.Equal(t, ReasonNone, why)
}

// shuffle plays the moves texts in turn, cycling, n plies.
func shuffle(t *testing.T, g *Game, n int, texts ...string) {
	t.Helper()
	for i := 0; i < n; i++ {
		g.Play(mustMove(t, g.Position(), texts[i%len(texts)]))
	}
}

func TestThreefoldRepetition(t *testing.T) {
	for _, c := range []struct {
		v     VariantID
		fen   string
		moves []string
	}{
		{Russian, "W:WKa1,e1:BKa7,d8", []string{"a1-b2", "a7-b8", "b2-a1", "b8-a7"}},
		{English, "B:WK32,21:BK1,12", []string{"1-5", "32-28", "5-1", "28-32"}},
		{International, "W:WK46,36:BK1,16", []string{"46-41", "1-6", "41-46", "6-1"}},
	} {
		g := NewGame(mustFEN(t, c.v, c.fen))
		for ply := 1; ply <= 8; ply++ {
			shuffle(t, g, 1, c.moves[(ply-1)%4])
			r, why := g.Result()
			wantReps := 1 + ply/4 // the start recurs at plies 4 and 8, the others 4 plies later
			assert.Equal(t, wantReps, g.Repetitions(), "%s ply %d", c.v, ply)
			if ply < 8 {
				assert.Equal(t, Ongoing, r, "%s ply %d", c.v, ply)
			} else {
				assert.Equal(t, Draw, r, "%s ply %d", c.v, ply)
				assert.Equal(t, Repetition, why)
			}
		}
		// Take one move back: no longer threefold.
		require.True(t, g.Undo())
		r, _ := g.Result()
		assert.Equal(t, Ongoing, r)
	}
}

func TestRepetitionNeedsSameSideToMove(t *testing.T) {
	// Same pieces, other side to move: different keys, not a repetition.
	a := mustFEN(t, Russian, "W:WKa1:BKh8")
	b := mustFEN(t, Russian, "B:WKa1:BKh8")
	assert.NotEqual(t, a.Key, b.Key)
	assert.False(t, samePlacement(&a, &b))
}

func TestRepetitionWindow(t *testing.T) {
	// The repetition window ends at the last man move: a man move makes
	// every older position unreachable, so after it the count restarts.
	g := NewGame(mustFEN(t, Russian, "W:WKa1,e1:BKa7,d8"))
	shuffle(t, g, 4, "a1-b2", "a7-b8", "b2-a1", "b8-a7")
	assert.Equal(t, 2, g.Repetitions())
	g.Play(mustMove(t, g.Position(), "e1-d2"))
	assert.Equal(t, uint16(0), g.DrawState().Reversible)
	assert.Equal(t, 1, g.Repetitions())
	shuffle(t, g, 4, "a7-b8", "a1-b2", "b8-a7", "b2-a1")
	assert.Equal(t, 2, g.Repetitions())
}

func TestKeyRepetitions(t *testing.T) {
	assert.Equal(t, 0, KeyRepetitions(nil, 0))
	assert.Equal(t, 1, KeyRepetitions([]uint64{7}, 0))
	keys := []uint64{1, 2, 3, 4, 1, 2, 3, 4, 1}
	assert.Equal(t, 3, KeyRepetitions(keys, 8))
	assert.Equal(t, 3, KeyRepetitions(keys, 100), "the window stops at the start")
	assert.Equal(t, 2, KeyRepetitions(keys, 7), "the first occurrence is outside the window")
	assert.Equal(t, 1, KeyRepetitions(keys, 3))
	// Same key, other side to move (odd distance): not counted.
	assert.Equal(t, 1, KeyRepetitions([]uint64{5, 5}, 1))
	// Agrees with Game.Repetitions on a real shuffle.
	g := NewGame(mustFEN(t, Russian, "W:WKa1,e1:BKa7,d8"))
	for i := 0; i < 9; i++ {
		shuffle(t, g, 1, []string{"a1-b2", "a7-b8", "b2-a1", "b8-a7"}[i%4])
		assert.Equal(t, g.Repetitions(), KeyRepetitions(g.Keys(), g.DrawState().Reversible))
	}
	allocs := testing.AllocsPerRun(100, func() { _ = KeyRepetitions(keys, 8) })
	assert.Zero(t, allocs)
}

func TestDrawStateUpdate(t *testing.T) {
	p := mustFEN(t, Russian, "W:WKa1,c3,h6:BKh8,d6,b6")
	var d DrawState
	// King move: both counters go up.
	d = d.Update(&p, mustMove(t, p, "a1-b2"))
	assert.Equal(t, DrawState{Reversible: 1, Balance: 1}, d)
	// Man move: reversible resets, balance goes on.
	d = d.Update(&p, mustMove(t, p, "c3-d4"))
	assert.Equal(t, DrawState{Reversible: 0, Balance: 2}, d)
	// Crowning: both reset.
	d = DrawState{Reversible: 7, Balance: 9}
	q := mustFEN(t, Russian, "W:Wh6:Bd6")
	assert.Equal(t, DrawState{Reversible: 0, Balance: 10}, d.Update(&q, mustMove(t, q, "h6-g7")))
	q = mustFEN(t, Russian, "W:Wg7:Bd6")
	d = d.Update(&q, mustMove(t, q, "g7-h8"))
	assert.Equal(t, DrawState{}, d)
	// Capture by a king: both reset.
	d = DrawState{Reversible: 7, Balance: 9}
	q = mustFEN(t, Russian, "W:WKa1:Bc3,h8")
	d = d.Update(&q, mustMove(t, q, "a1:d4"))
	assert.Equal(t, DrawState{}, d)
	// Counters saturate.
	d = DrawState{Reversible: maxCounter, Balance: maxCounter}
	d = d.Update(&p, mustMove(t, p, "a1-b2"))
	assert.Equal(t, DrawState{Reversible: maxCounter, Balance: maxCounter}, d)
}

// TestDrawRuleThresholds checks every rule of rules.md section 6 at its
// threshold: one ply short of N moves each is no draw, 2N plies is.
func TestDrawRuleThresholds(t *testing.T) {
	type counter uint8
	const (
		rev counter = iota // the rule counts Reversible (Balance kept at least as high)
		bal                // the rule counts Balance (Reversible kept at 0)
	)
	cases := []struct {
		name  string
		v     VariantID
		fen   string
		which counter
		moves int
		want  Reason
	}{
		{"russian kings only", Russian, "W:WKa1,c3:BKh8,f6", rev, RussianKingsOnlyMoves, NoProgress},
		{"russian 3 kings v 1", Russian, "W:WKa1,Kc1,Ke1:BKh8", bal, RussianThreeKingsMoves, ThreeKingsVsOne},
		{"russian 4 kings v 1", Russian, "B:WKa1,Kc1,Ke1,Kg1:BKh8", bal, RussianThreeKingsMoves, ThreeKingsVsOne},
		{"russian 3 kings and a man v 1", Russian, "W:WKa1,Kc1,Ke1,c3:BKh8", bal, RussianThreeKingsMoves, ThreeKingsVsOne},
		{"russian black 3 kings v 1", Russian, "W:WKa1:BKh8,Kf8,Kd8", bal, RussianThreeKingsMoves, ThreeKingsVsOne},
		{"russian 4 pieces", Russian, "W:WKa1,c3:BKh8,f6", bal, RussianEnding45Moves, PieceCountEnding},
		{"russian 5 pieces", Russian, "W:WKa1,c3,e3:BKh8,f6", bal, RussianEnding45Moves, PieceCountEnding},
		{"russian 6 pieces", Russian, "W:WKa1,c3,e3:BKh8,f6,d6", bal, RussianEnding67Moves, PieceCountEnding},
		{"russian 7 pieces", Russian, "W:WKa1,c3,e3,g3:BKh8,f6,d6", bal, RussianEnding67Moves, PieceCountEnding},
		{"english 40 moves", English, "W:WK1,K2:BK32,K31", rev, EnglishNoProgressMoves, NoProgress},
		{"english 40 moves with men", English, "W:W21,K2:B12,K31", rev, EnglishNoProgressMoves, NoProgress},
		{"international kings only", International, "W:WK46,K47,31:BK5,20", rev, InternationalKingsOnlyMoves, NoProgress},
		{"international 3 kings v 1", International, "W:WK46,K47,K48:BK5", bal, InternationalThreeVsOneMoves, ThreeKingsVsOne},
		{"international 2 kings and a man v 1", International, "W:WK46,K47,31:BK5", bal, InternationalThreeVsOneMoves, ThreeKingsVsOne},
		{"international king and 2 men v 1", International, "B:WK46,31,32:BK5", bal, InternationalThreeVsOneMoves, ThreeKingsVsOne},
		{"international black 3 v 1", International, "W:WK46:BK5,K4,13", bal, InternationalThreeVsOneMoves, ThreeKingsVsOne},
		{"international 2 kings v 1", International, "W:WK46,K47:BK5", bal, InternationalSmallEndingMoves, SmallEnding},
		{"international king and man v 1", International, "W:WK46,31:BK5", bal, InternationalSmallEndingMoves, SmallEnding},
		{"international king v king", International, "W:WK46:BK5", bal, InternationalSmallEndingMoves, SmallEnding},
		{"brazilian kings only", Brazilian, "W:WKa1,c3:BKh8,f6", rev, InternationalKingsOnlyMoves, NoProgress},
		{"brazilian 3 v 1", Brazilian, "W:WKa1,Kc1,e1:BKh8", bal, InternationalThreeVsOneMoves, ThreeKingsVsOne},
		{"brazilian 2 v 1", Brazilian, "W:WKa1,e1:BKh8", bal, InternationalSmallEndingMoves, SmallEnding},
	}
	for _, c := range cases {
		p := mustFEN(t, c.v, c.fen)
		n := uint16(2 * c.moves)
		var below, at DrawState
		if c.which == rev {
			below, at = DrawState{Reversible: n - 1, Balance: n - 1}, DrawState{Reversible: n, Balance: n}
		} else {
			below, at = DrawState{Balance: n - 1}, DrawState{Balance: n}
		}
		assert.Equal(t, ReasonNone, below.Reason(&p), "%s: one ply short", c.name)
		assert.False(t, below.IsDraw(&p), c.name)
		assert.Equal(t, c.want, at.Reason(&p), "%s: at %d plies", c.name, n)
		assert.True(t, at.IsDraw(&p), c.name)
	}
}

// TestDrawRuleNonCases checks positions the special rules must not draw.
func TestDrawRuleNonCases(t *testing.T) {
	big := DrawState{Balance: 1000} // Reversible 0: a man just moved
	for _, c := range []struct {
		v   VariantID
		fen string
	}{
		{Russian, "W:WKa1,Kc1,e1:BKh8"},            // 2 kings and a man: not rule 2; 4 pieces but...
		{Russian, "W:WKa1,c1,e1:Bh8,f8"},           // no black king: rule 4 needs kings on both sides
		{Russian, "W:WKa1,c3,e3,g3:BKh8,f6,d6,b6"}, // 8 pieces: no rule
		{Russian, "W:WKa1,Kc1:BKh8"},               // 3 pieces: no piece-count rule
		{English, "W:WK1,K2,K3:BK32"},              // English has only the 40-move rule
		{International, "W:WK46,K47,K48,K49:BK5"},  // 4 pieces against 1: no rule
		{International, "W:W46,47,48:BK5"},         // 3 men: not in the rule
		{International, "W:WK46,K47,K48:B5"},       // the lone piece is a man
		{International, "W:WK46,K47:BK5,K4"},       // 2 against 2
		{Brazilian, "W:Wa1,c1,e1:BKh8"},            // 3 men
	} {
		p := mustFEN(t, c.v, c.fen)
		r := big.Reason(&p)
		if c.fen == "W:WKa1,Kc1,e1:BKh8" {
			// Rule 4 (4 pieces, kings on both sides) applies after 30 moves.
			assert.Equal(t, PieceCountEnding, r, c.fen)
			assert.Equal(t, ReasonNone, DrawState{Balance: 2*RussianEnding45Moves - 1}.Reason(&p))
			continue
		}
		assert.Equal(t, ReasonNone, r, "%s %s", c.v, c.fen)
	}
}

// quietWalk extends g by n plies of non-capturing, non-crowning moves that
// never repeat a position, never give the opponent a capture and keep the
// game Ongoing before the last ply. When manEvery > 0 a man move is
// preferred once Reversible reaches manEvery. It fails the test when no
// such line exists.
func quietWalk(t *testing.T, g *Game, n, manEvery int) {
	t.Helper()
	seen := map[uint64]bool{}
	for _, k := range g.Keys() {
		seen[k] = true
	}
	budget := 200000
	var dfs func(left int) bool
	dfs = func(left int) bool {
		if left == 0 {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		p := g.Position()
		var list MoveList
		p.Generate(&list)
		preferMen := manEvery > 0 && int(g.DrawState().Reversible) >= manEvery
		for pass := 0; pass < 2; pass++ {
			for _, m := range list.Slice() {
				man := p.Kings&(uint64(1)<<m.From) == 0
				if m.Captured != 0 || m.Crowns() || (man == preferMen) != (pass == 0) {
					continue
				}
				next := p.Play(m)
				if seen[next.Key] || next.HasCapture() {
					continue
				}
				g.Play(m)
				if left > 1 {
					if r, _ := g.Result(); r != Ongoing {
						g.Undo()
						continue
					}
				}
				seen[next.Key] = true
				if dfs(left - 1) {
					return true
				}
				delete(seen, next.Key)
				g.Undo()
			}
		}
		return false
	}
	start := g.Position()
	require.True(t, dfs(n), "no quiet line of %d plies from %s", n, start.FEN())
}

// TestDrawRulesInPlay plays real quiet lines and checks each rule draws at
// exactly its count, not one ply before.
func TestDrawRulesInPlay(t *testing.T) {
	cases := []struct {
		name     string
		v        VariantID
		fen      string
		plies    int
		manEvery int
		want     Reason
	}{
		{"russian 3 kings v 1, 15 moves", Russian, "W:WKd8,Kc1,Kg1:BKh2", 2 * RussianThreeKingsMoves, 0, ThreeKingsVsOne},
		{"russian kings only, 15 moves", Russian, "W:WKa1,Kc1:BKh8,Kf8", 2 * RussianKingsOnlyMoves, 0, NoProgress},
		{"russian 5 pieces, 30 moves", Russian, "W:WKa1,c1,e1:BKh8,f8", 2 * RussianEnding45Moves, 20, PieceCountEnding},
		{"russian 7 pieces, 60 moves", Russian, "W:WKh2,a1,c1,e1:BKa7,b8,d8", 2 * RussianEnding67Moves, 20, PieceCountEnding},
		{"english 40 moves", English, "B:WK32,K28:BK1,K5", 2 * EnglishNoProgressMoves, 0, NoProgress},
		{"international kings only, 25 moves", International, "W:WK46,K47:BK5,K4", 2 * InternationalKingsOnlyMoves, 0, NoProgress},
		{"international 3 v 1, 16 moves", International, "W:WK3,K38,K42:BK6", 2 * InternationalThreeVsOneMoves, 0, ThreeKingsVsOne},
		{"international 2 v 1, 5 moves", International, "W:WK42,K50:BK15", 2 * InternationalSmallEndingMoves, 0, SmallEnding},
		{"brazilian 3 v 1, 16 moves", Brazilian, "B:WKb4,Ke3,Kg1:BKg7", 2 * InternationalThreeVsOneMoves, 0, ThreeKingsVsOne},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewGame(mustFEN(t, c.v, c.fen))
			quietWalk(t, g, c.plies, c.manEvery)
			r, why := g.Result()
			assert.Equal(t, Draw, r)
			assert.Equal(t, c.want, why)
			assert.Equal(t, c.plies, g.Ply())
			require.True(t, g.Undo())
			r, why = g.Result()
			assert.Equal(t, Ongoing, r, "one ply short: %s", why)
		})
	}
}

func TestRussianThreeKingsBalanceRestarts(t *testing.T) {
	// The 15 moves count from when the balance arose: a crowning that makes
	// the third king restarts the count.
	g := NewGame(mustFEN(t, Russian, "W:We7,Kf6,Kf4:BKc1"))
	quietWalk(t, g, 10, 0) // only the kings can move without crowning
	assert.Equal(t, DrawState{Reversible: 10, Balance: 10}, g.DrawState())
	p := g.Position()
	require.Equal(t, White, p.Side)
	var list MoveList
	p.Generate(&list)
	crowned := false
	for _, m := range list.Slice() {
		next := p.Play(m)
		if m.Crowns() && m.Captured == 0 && !next.HasCapture() {
			g.Play(m)
			crowned = true
			break
		}
	}
	require.True(t, crowned, "e7 cannot crown safely in %s", p.FEN())
	assert.Equal(t, DrawState{}, g.DrawState())
	quietWalk(t, g, 2*RussianThreeKingsMoves, 0)
	r, why := g.Result()
	assert.Equal(t, Draw, r)
	assert.Equal(t, ThreeKingsVsOne, why)
	require.True(t, g.Undo())
	r, _ = g.Result()
	assert.Equal(t, Ongoing, r, "29 plies after the crowning")
}

func TestDrawStateAllocs(t *testing.T) {
	p := mustFEN(t, Russian, "W:WKa1,Kc1,Ke1:BKh8")
	m := mustMove(t, p, "a1-b2")
	q := p.Play(m)
	var d DrawState
	allocs := testing.AllocsPerRun(100, func() {
		d = d.Update(&p, m)
		_ = d.Reason(&q)
		_ = d.IsDraw(&q)
	})
	assert.Zero(t, allocs)
}

func TestGameAllocs(t *testing.T) {
	g := NewGame(mustFEN(t, Russian, "W:WKa1,Kc1,Ke1:BKh8"))
	m := mustMove(t, g.Position(), "a1-b2")
	allocs := testing.AllocsPerRun(100, func() {
		g.Play(m)
		_, _ = g.Result()
		_ = g.Repetitions()
		g.Undo()
	})
	assert.Zero(t, allocs)
}
