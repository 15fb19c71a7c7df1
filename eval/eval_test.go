package eval

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

func mustFEN(t testing.TB, v engine.VariantID, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err, fen)
	return p
}

// mirror turns the board half round and swaps the colours: the side to move
// of the result stands exactly as the side to move of p.
func mirror(p *engine.Position) engine.Position {
	n := engine.Square(p.V.Rules().Squares)
	q := engine.Position{V: p.V, Side: p.Side.Opp()}
	for sq := engine.Square(1); sq <= n; sq++ {
		switch p.PieceAt(sq) {
		case engine.WhiteMan:
			q.SetPiece(n+1-sq, engine.BlackMan)
		case engine.BlackMan:
			q.SetPiece(n+1-sq, engine.WhiteMan)
		case engine.WhiteKing:
			q.SetPiece(n+1-sq, engine.BlackKing)
		case engine.BlackKing:
			q.SetPiece(n+1-sq, engine.WhiteKing)
		}
	}
	return q
}

// randomPositions plays random games and returns every position on the way.
func randomPositions(v engine.VariantID, games int, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []engine.Position
	var l engine.MoveList
	for g := 0; g < games; g++ {
		p := engine.StartPosition(v)
		for ply := 0; ply < 200; ply++ {
			p.Generate(&l)
			if l.N == 0 {
				break
			}
			out = append(out, p)
			p = p.Play(l.Moves[rng.IntN(l.N)])
		}
	}
	return out
}

func TestEvaluateIsColourSymmetric(t *testing.T) {
	for _, v := range engine.AllVariants() {
		for _, p := range randomPositions(v, 20, uint64(v)+1) {
			q := mirror(&p)
			require.Equal(t, Evaluate(&p), Evaluate(&q), "%v %s", v, p.FEN())
		}
	}
}

func TestStartPositionIsBalanced(t *testing.T) {
	for _, v := range engine.AllVariants() {
		p := engine.StartPosition(v)
		// Only the side to move's learned tempo bonus remains.
		assert.InDelta(t, 0, Evaluate(&p), 30, v.String())
	}
}

// TestMaterialDominates: in quiet positions of random games (no capture
// for either side) where White is two men ahead or more, by what the
// pieces are worth to the evaluation, White stands better.
func TestMaterialDominates(t *testing.T) {
	for _, v := range engine.AllVariants() {
		man, king := pieceValues(v)
		checked := 0
		for _, p := range randomPositions(v, 10, 99) {
			wm, wk := p.Count(engine.White)
			bm, bk := p.Count(engine.Black)
			diff := (wm-bm)*man + (wk-bk)*king
			q := p
			q.Side = q.Side.Opp()
			if diff < 2*man || bm+bk == 0 || p.HasCapture() || q.HasCapture() {
				continue
			}
			checked++
			s := Evaluate(&p)
			if p.Side == engine.Black {
				s = -s
			}
			assert.Positive(t, s, "%v %s", v, p.FEN())
		}
		assert.Positive(t, checked, v.String())
	}
}

// pieceValues returns what a man and a king of v are worth to the
// embedded evaluation, in centi-men: the mean change of White's score when
// a white man is taken off, or a white king put on an empty square, in
// the positions of random games where neither side has a capture before
// or after. The weights spread material over the dense terms and the
// patterns, so no single weight is a piece's value.
func pieceValues(v engine.VariantID) (man, king int) {
	white := func(p *engine.Position) int {
		s := Evaluate(p)
		if p.Side == engine.Black {
			s = -s
		}
		return s
	}
	quiet := func(p *engine.Position) bool {
		q := *p
		q.Side = q.Side.Opp()
		return !p.HasCapture() && !q.HasCapture()
	}
	n := engine.Square(v.Rules().Squares)
	var menSum, menN, kingSum, kingN int
	for _, p := range randomPositions(v, 10, 31) {
		if !quiet(&p) {
			continue
		}
		wm, wk := p.Count(engine.White)
		bm, bk := p.Count(engine.Black)
		if wm+wk < 3 || bm+bk < 3 {
			continue
		}
		base := white(&p)
		for sq := engine.Square(1); sq <= n; sq++ {
			q := p
			switch p.PieceAt(sq) {
			case engine.WhiteMan:
				q.SetPiece(sq, engine.NoPiece)
				if quiet(&q) {
					menSum += base - white(&q)
					menN++
				}
			case engine.NoPiece:
				q.SetPiece(sq, engine.WhiteKing)
				if quiet(&q) {
					kingSum += white(&q) - base
					kingN++
				}
			}
		}
	}
	return menSum / max(menN, 1), kingSum / max(kingN, 1)
}

func TestKingValues(t *testing.T) {
	for _, v := range engine.AllVariants() {
		man, king := pieceValues(v)
		assert.InDelta(t, 200, man, 150, v.String())
		assert.Greater(t, king, man, v.String())
	}
}

func TestRussianThreeKingsAgainstOne(t *testing.T) {
	// The lone black king on d4 (18) holds the long diagonal: a draw.
	held := mustFEN(t, engine.Russian, "W:WK2,K3,K6:BK18")
	// Off the diagonal, with White on it: a win.
	lost := mustFEN(t, engine.Russian, "W:WK2,K3,K18:BK6")
	sh, sl := Evaluate(&held), Evaluate(&lost)
	assert.Less(t, abs(sh), 60, "held: %d", sh)
	assert.Greater(t, sl, 200, "lost: %d", sl)
	// Two kings against one are a draw wherever they stand.
	two := mustFEN(t, engine.Russian, "W:WK2,K3:BK6")
	assert.Less(t, abs(Evaluate(&two)), 60)
	// King against king.
	one := mustFEN(t, engine.Russian, "B:WK2:BK6")
	assert.Less(t, abs(Evaluate(&one)), 20)
}

func TestEnglishKingEndings(t *testing.T) {
	equal := mustFEN(t, engine.English, "W:WK10,K11:BK22,K23")
	assert.Less(t, abs(Evaluate(&equal)), 20)
	up := mustFEN(t, engine.English, "W:WK10,K11:BK23")
	assert.Greater(t, Evaluate(&up), 100)
	// Closer kings are better for the stronger side.
	far := mustFEN(t, engine.English, "W:WK29,K30:BK4")
	near := mustFEN(t, engine.English, "W:WK11,K12:BK4")
	assert.Greater(t, Evaluate(&near), Evaluate(&far))
}

func TestRunawayMan(t *testing.T) {
	// White man on 9 (b6) with nothing in front; a black man far away.
	free := mustFEN(t, engine.Russian, "W:W9,30:B12,16")
	// The same with a black man in its way.
	stopped := mustFEN(t, engine.Russian, "W:W9,30:B12,2")
	assert.Greater(t, Evaluate(&free), Evaluate(&stopped))
}

func TestTradingWhenAhead(t *testing.T) {
	// A man up with more pieces traded off scores higher.
	many := mustFEN(t, engine.Russian, "W:W21,22,23,24,25,26,27:B1,2,3,4,5,6")
	few := mustFEN(t, engine.Russian, "W:W21,22,23:B1,2")
	assert.Greater(t, Evaluate(&few)-200, Evaluate(&many)-400)
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	ps := randomPositions(engine.International, 2, 5)
	ps = append(ps, randomPositions(engine.Russian, 2, 5)...)
	allocs := testing.AllocsPerRun(10, func() {
		for i := range ps {
			Evaluate(&ps[i])
		}
	})
	assert.Zero(t, allocs)
}

func popc(x uint64) int { return bits.OnesCount64(x) }

func BenchmarkEvaluate(b *testing.B) {
	for _, v := range engine.AllVariants() {
		ps := randomPositions(v, 10, 3)
		b.Run(v.String(), func(b *testing.B) {
			i := 0
			for b.Loop() {
				Evaluate(&ps[i])
				i++
				if i == len(ps) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkEvaluateFeatureSet compares the evaluation of set-3 weights
// (4x4 regions only) with set-4 weights (with the row bands) on the same
// positions: the cost of the bands.
func BenchmarkEvaluateFeatureSet(b *testing.B) {
	for _, v := range []engine.VariantID{engine.English, engine.International} {
		ps := randomPositions(v, 10, 3)
		w4 := NewWeights(v)
		w3 := NewWeights(v)
		w3.Set = 3
		w3.Pattern = w3.Pattern[:regionsOf(v, 3)*PatternSize]
		w3.Prepare()
		for _, w := range []*Weights{w3, w4} {
			b.Run(fmt.Sprintf("%v/set%d", v, w.Set), func(b *testing.B) {
				i := 0
				for b.Loop() {
					w.Evaluate(&ps[i])
					i++
					if i == len(ps) {
						i = 0
					}
				}
			})
		}
	}
}

func TestCanMoveMatchesRules(t *testing.T) {
	var l engine.MoveList
	for _, v := range engine.AllVariants() {
		for _, p := range randomPositions(v, 30, 77) {
			if p.HasCapture() {
				continue
			}
			assert.Equal(t, p.CountMoves(&l, false) > 0, CanMove(&p), "%v %s", v, p.FEN())
		}
		blocked := mustFEN(t, engine.English, "W:W29:B25,22")
		assert.False(t, CanMove(&blocked))
	}
}

// TestEveryVariantHasWeights checks that each variant of the engine's rules
// table has its row here: weights, bridge squares on the guarding side's
// back rank, and a geometry built from the variant's own board and rules.
func TestEveryVariantHasWeights(t *testing.T) {
	for _, v := range engine.AllVariants() {
		r := v.Rules()
		w := Default(v)
		require.NotNil(t, w, "%s: no embedded weights", v)
		assert.Equal(t, v, w.V)
		g := geomOf(v)
		assert.Equal(t, r.BoardSize, g.size, "%s board size", v)
		assert.Equal(t, r.Board.Info().Men, g.men, "%s men", v)
		assert.Equal(t, r.FlyingKings, g.flying, "%s flying kings", v)
		assert.Equal(t, g.board, g.half[engine.White]|g.half[engine.Black], "%s halves", v)
		assert.Zero(t, g.half[engine.White]&g.half[engine.Black], "%s halves", v)
		assert.Equal(t, bits.OnesCount64(g.board)/2, bits.OnesCount64(g.half[engine.White]), "%s halves", v)
	}
}

// TestSetTwoDenseFeatures checks the dense features of feature set 2: the
// move (opposition) by the system rule, and the king squares.
func TestSetTwoDenseFeatures(t *testing.T) {
	dense := func(v engine.VariantID, fen string) [NumDense]int16 {
		var f Features
		p := mustFEN(t, v, fen)
		ExtractFeatures(&p, &f)
		return f.Dense
	}
	for _, c := range []struct {
		fen  string
		move int16 // White's minus Black's: +1 White has the move
	}{
		{"W:WK29:BK1", 1},         // White to move, 1 piece (29) on White's system: odd, White has it
		{"W:WK28:BK1", -1},        // none on White's system: Black has it
		{"B:WK29:BK1", -1},        // Black to move, 1 piece (1) on Black's system: Black has it
		{"B:WK29:BK5", 1},         // 5 and 29 are White's system: none on Black's, White has it
		{"W:W22,29:B1,10", -1},    // men count too: 22 and 29 on White's system, even
		{"W:WK29,K30:BK1", 0},     // unequal material: nobody
		{"W:W29,30,31:B1,2,3", 1}, // three each, all three of White's on its system
	} {
		assert.Equal(t, c.move, dense(engine.English, c.fen)[DenseMove], c.fen)
	}
	d := dense(engine.English, "W:WK5,K14,K29:BK3,K12")
	assert.EqualValues(t, 2-1, d[DenseKingEdge], "kings on files a and h: 5, 29 against 12")
	assert.EqualValues(t, 1, d[DenseKingCentre], "14 is central")
	assert.EqualValues(t, 1, d[DenseKingCorner], "5 is a double-corner square (1, 5, 28, 32), 3 is not")
	assert.Equal(t, "move", DenseName(DenseMove))
	assert.Equal(t, "king-corner", DenseName(DenseKingCorner))
}

// TestKingMovesMatchesRays: kingMoves (an occluded fill) counts the same
// moves as sliding every king step by step, on random positions of every
// variant with the pieces read as kings, flying and short.
func TestKingMovesMatchesRays(t *testing.T) {
	slide := func(g *geometry, k, empty uint64, flying bool) int {
		n := 0
		for b := k; b != 0; b &= b - 1 {
			sq := uint64(1) << bits.TrailingZeros64(b)
			for d := range 4 {
				s := sq
				for {
					switch d {
					case 0:
						s >>= g.upLeft
					case 1:
						s >>= g.upRight
					case 2:
						s <<= g.upLeft
					default:
						s <<= g.upRight
					}
					if s&empty == 0 {
						break
					}
					n++
					if !flying {
						break
					}
				}
			}
		}
		return n
	}
	for _, v := range engine.AllVariants() {
		g := geomOf(v)
		for _, p := range randomPositions(v, 20, 11) {
			empty := g.board &^ (p.Pieces[0] | p.Pieces[1])
			for c := range 2 {
				for _, flying := range []bool{false, true} {
					require.Equal(t, slide(g, p.Pieces[c], empty, flying), g.kingMoves(p.Pieces[c], empty, flying), "%v %s", v, p.FEN())
				}
			}
		}
	}
}
