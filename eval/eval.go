// Package eval is damka's static evaluation: a fast, bitboard-only score of
// a draughts position in centi-men (a man is worth 100) from the side to
// move's point of view. It is a learned pattern evaluation (pattern.go:
// 4x4 region patterns and dense terms, middlegame and endgame weights
// blended by the men left), with weights trained on damka's own games by
// `damka train` and embedded per variant (weights.go, weights/*.dkw), and
// hand rules for the endings with kings only.
//
// The search calls Evaluate only in quiet positions: when the side to move
// has a capture the position is resolved by the quiescence search first.
package eval

import (
	"math/bits"

	"github.com/damka-draughts/damka/engine"
)

// kingRules are the hand-set numbers of the king-only endings (kingsOnly),
// in centi-men; the learned weights do not cover positions without men.
type kingRules struct {
	KingMob   int // per non-capturing king move
	KingDiag  int // king on the long diagonal (flying-king endings)
	KingChase int // winning king endings: per step that the strong kings are closer to the weak king
}

var kingRulesOf = [engine.NumVariants]kingRules{
	engine.Russian:       {KingMob: 2, KingDiag: 20, KingChase: 4},
	engine.English:       {KingMob: 3, KingDiag: 0, KingChase: 5},
	engine.Brazilian:     {KingMob: 2, KingDiag: 20, KingChase: 4},
	engine.International: {KingMob: 2, KingDiag: 20, KingChase: 4},
}

// DrawDivisor is the factor by which Evaluate shrinks the score of an
// ending it knows to be a draw, so that the search still prefers the
// better side of a draw but treats it as worth about 0.
const DrawDivisor = 16

// side is one colour's counts and masks gathered for the evaluation.
type side struct {
	men, kings   uint64
	nMen, nKings int
}

// Evaluate returns the static score of p in centi-men from the side to
// move's point of view (positive: the side to move stands better) with the
// embedded weights of p's variant. Positions without men and kings for a
// side are not expected (the search scores them as lost first). It
// allocates nothing.
func Evaluate(p *engine.Position) int { return defaults[p.V].Evaluate(p) }

// Evaluate is the package's Evaluate with w's weights; p must be of w's
// variant. It computes what the trainer's features (ExtractFeatures) and
// w give, in one pass: the weighted dense counts without the table of
// counts, and no patterns in the endings of kings only, which the hand
// rules score.
func (w *Weights) Evaluate(p *engine.Position) int {
	v := p.V
	g := geomOf(v)
	var s [2]side
	sidesOf(p, &s)
	menLeft := s[0].nMen + s[1].nMen
	if menLeft == 0 {
		empty := g.board &^ (p.Pieces[0] | p.Pieces[1])
		mob := g.kingMoves(s[0].kings, empty, g.flying) - g.kingMoves(s[1].kings, empty, g.flying)
		total := kingsEnding(w, g, &s, mob)
		if p.Side == engine.Black {
			return -total
		}
		return total
	}
	mg, eg := w.denseScore(p, g, &s)
	own := compact(v, patternPieces(p, engine.White, w.Set))
	opp := compact(v, patternPieces(p, engine.Black, w.Set))
	var pm, pe int
	if patternGeoms[v].rowLen == 4 {
		pm, pe = patterns8x8(w.board, own, opp)
	} else {
		pm, pe = patterns10x10(w.board, own, opp)
	}
	mg += pm
	eg += pe
	full := 2 * g.men
	total := (mg*menLeft + eg*(full-menLeft)) / (full << WeightShift)
	if div := Divisor(endgameScale(p, g, &s), drawishDivisors(g, &s), total); div > 1 {
		total /= div
	}
	if p.Side == engine.Black {
		return -total
	}
	return total
}

// denseScore is the dense features' part of the middlegame and endgame
// sums of p (White's view, in weight units): each of denseCounts'
// counts, White's minus Black's, times its weight, without the table of
// counts. s holds both sides' pieces.
func (w *Weights) denseScore(p *engine.Position, g *geometry, s *[2]side) (mg, eg int) {
	wt := &w.Dense
	add := func(k, x int) {
		mg += x * int(wt[k][0])
		eg += x * int(wt[k][1])
	}
	add(DenseMen, s[0].nMen-s[1].nMen)
	add(DenseKings, s[0].nKings-s[1].nKings)
	sign := 1
	if p.Side == engine.Black {
		sign = -1
	}
	add(DenseToMove, sign)
	empty := g.board &^ (p.Pieces[0] | p.Pieces[1])
	n0, n1 := s[0].nMen+s[0].nKings, s[1].nMen+s[1].nKings
	switch {
	case n0 == n1:
		// The move: the side to move has it when an odd number of pieces
		// stand on its system.
		if bits.OnesCount64((p.Pieces[0]|p.Pieces[1])&g.system[p.Side])&1 == 0 {
			sign = -sign
		}
		add(DenseMove, sign)
	case n0 > n1:
		add(DenseTrade, 2*g.men-n0-n1)
	default:
		add(DenseTrade, n0+n1-2*g.men)
	}
	var a, b sideCounts
	g.countSide(engine.White, &s[0], &s[1], empty, &a)
	g.countSide(engine.Black, &s[1], &s[0], empty, &b)
	add(DenseManMob, a.manMob-b.manMob)
	add(DenseBlocked, a.blocked-b.blocked)
	add(DenseTempo, a.tempo-b.tempo)
	add(DenseBalance, a.balance-b.balance)
	add(DenseRunaway, a.runaway-b.runaway)
	add(DenseRunSteps, a.runSteps-b.runSteps)
	if s[0].kings|s[1].kings != 0 {
		add(DenseKingEdge, a.kingEdge-b.kingEdge)
		add(DenseKingCentre, a.kingCentre-b.kingCentre)
		add(DenseKingCorner, a.kingCorner-b.kingCorner)
		add(DenseKingMob, a.kingMob-b.kingMob)
		add(DenseKingDiag, a.kingDiag-b.kingDiag)
		add(DenseKingFirst, min(s[0].nKings, 1)-min(s[1].nKings, 1))
	}
	return mg, eg
}

// kingsEnding scores a position with kings only (no pattern applies and
// the training positions hold men): the learned endgame value of a king
// per king, the hand-set mobility term (kingRules.KingMob per move of
// mob, White's king moves minus Black's), then the hand rules of
// kingsOnly. White's view.
func kingsEnding(w *Weights, g *geometry, s *[2]side, mob int) int {
	r := &kingRulesOf[w.V]
	king := int(w.Dense[DenseKings][1]) >> WeightShift
	total := king*(s[0].nKings-s[1].nKings) + r.KingMob*mob
	strong := engine.White
	if s[1].nKings > s[0].nKings || s[1].nKings == s[0].nKings && total < 0 {
		strong = engine.Black
	}
	sign := 1
	if strong == engine.Black {
		sign = -1
	}
	return sign * kingsOnly(r, g, &s[strong], &s[strong^1], sign*total, g.flying)
}

func kingsOnly(w *kingRules, g *geometry, st, wk *side, t int, flying bool) int {
	ns, nw := st.nKings, wk.nKings
	if nw == 0 { // the search scores a side without pieces as lost
		return t
	}
	if flying {
		switch {
		case ns == nw || ns-nw == 1 && nw <= 2 || nw >= 2 && ns < 2*nw+1:
			return t / DrawDivisor
		case nw == 1 && ns <= 2:
			return t / DrawDivisor
		case nw == 1 && ns == 3:
			// 3 kings against 1: a draw while the lone king holds the long
			// diagonal; on the 10x10 board also a draw in general.
			if g.size >= 10 || wk.kings&g.longDiag != 0 {
				return t / DrawDivisor
			}
		}
		// A win to convert: take the long diagonal, keep the lone king off
		// the long diagonal and the double diagonals.
		if st.kings&g.longDiag != 0 {
			t += w.KingDiag
		}
		if wk.kings&g.double != 0 {
			t -= w.KingDiag / 2
		}
		return t + chase(w, g, st.kings, wk.kings)
	}
	// Short kings (English): equal king endings are draws; an extra king
	// wins by driving the weak kings out of the double corners.
	if ns <= nw {
		return t / DrawDivisor
	}
	if wk.kings&(g.corner2[0]|g.corner2[1]) != 0 {
		t -= 2 * w.KingChase
	}
	return t + chase(w, g, st.kings, wk.kings)
}

// chase rewards strong kings for standing close to the weak ones.
func chase(w *kingRules, g *geometry, strong, weak uint64) int {
	d := 0
	for b := weak; b != 0; b &= b - 1 {
		i := bits.TrailingZeros64(b)
		best := 99
		for k := strong; k != 0; k &= k - 1 {
			best = min(best, g.distance(i, bits.TrailingZeros64(k)))
		}
		d += best
	}
	return -w.KingChase * d
}
