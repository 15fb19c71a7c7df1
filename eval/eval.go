// Package eval is damka's static evaluation: a fast, bitboard-only score of
// a draughts position in centi-men (a man is worth 100) from the side to
// move's point of view, with per-variant weights kept in one table
// (weights below) and endgame knowledge for the common king endings.
//
// The search calls Evaluate only in quiet positions: when the side to move
// has a capture the position is resolved by the quiescence search first.
package eval

import (
	"fmt"
	"math/bits"

	"damka/engine"
)

// Weights are the evaluation weights of one variant, in centi-men. They are
// kept in one table, indexed by engine.VariantID (see For); a new variant
// is a row there and one in bridgeSquares.
type Weights struct {
	Man  int // value of a man; the unit, 100
	King int // value of a king

	// AdvOpen and AdvEnd give a man's bonus by the number of rows it has
	// advanced from its own back rank (index 0 = still on the back rank),
	// with many men on the board and with few; the two are blended by the
	// number of men left.
	AdvOpen [10]int
	AdvEnd  [10]int

	Centre    int // per man on the central squares
	Edge      int // per man on the side files (usually negative)
	BackRank  int // per man on its own back rank while the opponent has no king
	Bridge    int // extra per man on the key back-rank squares (bridgeMask)
	ManMob    int // per non-capturing man move
	KingMob   int // per non-capturing king move
	Blocked   int // per man with no forward move (locked formations; negative)
	Runaway   int // a man that no enemy piece can stop from crowning, minus RunStep per row still to go
	RunStep   int
	Trade     int // when ahead, bonus scaled by how many pieces have been traded off
	KingDiag  int // king on the long diagonal (flying-king endings)
	KingChase int // winning king endings: per step that the strong kings are closer to the weak king
}

// flyingKing8x8 are the numbers of the 8x8 flying-king variants (Russian
// and Brazilian).
var flyingKing8x8 = Weights{
	Man: 100, King: 260,
	AdvOpen: [10]int{0, 0, 1, 3, 6, 10, 18, 0},
	AdvEnd:  [10]int{0, 2, 6, 12, 20, 30, 45, 0},
	Centre:  6, Edge: -4, BackRank: 6, Bridge: 6,
	ManMob: 2, KingMob: 2, Blocked: -4,
	Runaway: 120, RunStep: 12, Trade: 40, KingDiag: 20, KingChase: 4,
}

// weights is the one place holding every variant's numbers, one row per
// variant (TestEveryVariantHasWeights fails for a variant without a row).
var weights = [engine.NumVariants]Weights{
	engine.Russian: flyingKing8x8,
	engine.English: {
		Man: 100, King: 140,
		AdvOpen: [10]int{0, 0, 1, 2, 4, 7, 12, 0},
		AdvEnd:  [10]int{0, 2, 5, 9, 14, 20, 28, 0},
		Centre:  6, Edge: -3, BackRank: 8, Bridge: 10,
		ManMob: 2, KingMob: 3, Blocked: -3,
		Runaway: 30, RunStep: 3, Trade: 40, KingDiag: 0, KingChase: 5,
	},
	engine.Brazilian: flyingKing8x8, // same board and pieces as Russian; the rules differ in movegen
	engine.International: {
		Man: 100, King: 300,
		AdvOpen: [10]int{0, 0, 1, 2, 4, 6, 9, 13, 20, 0},
		AdvEnd:  [10]int{0, 2, 4, 7, 11, 16, 22, 30, 42, 0},
		Centre:  5, Edge: -3, BackRank: 5, Bridge: 4,
		ManMob: 2, KingMob: 2, Blocked: -3,
		Runaway: 140, RunStep: 12, Trade: 40, KingDiag: 20, KingChase: 4,
	},
}

// For returns the weights of variant v (a copy; the table is not changed).
func For(v engine.VariantID) Weights { return weights[v] }

// DrawDivisor is the factor by which Evaluate shrinks the score of an
// ending it knows to be a draw, so that the search still prefers the
// better side of a draw but treats it as worth about 0.
const DrawDivisor = 16

// bridgeSquares[v][c] are the back-rank squares colour c guards first: in
// English the bridge (1 and 3 for Black, 30 and 32 for White); on the
// other boards the middle back-rank squares.
var bridgeSquares = [engine.NumVariants][2][]engine.Square{
	engine.Russian:       {{30, 31}, {2, 3}},
	engine.English:       {{30, 32}, {1, 3}},
	engine.Brazilian:     {{30, 31}, {2, 3}},
	engine.International: {{47, 48, 49}, {2, 3, 4}},
}

// bridgeMask[v][c] is bridgeSquares[v][c] as a bitboard.
var bridgeMask = makeBridgeMasks()

func makeBridgeMasks() (m [engine.NumVariants][2]uint64) {
	for v := range engine.NumVariants {
		for c := range 2 {
			for _, s := range bridgeSquares[v][c] {
				m[v][c] |= engine.SquareBit(v, s)
			}
		}
	}
	return m
}

// The per-square man table, bit-sliced: manPlanes[v][menLeft][c][back][k]
// holds the squares whose value has bit k set, so a side's table sum is
// sum_k popcount(men & plane_k) << k. Values are stored plus manOffset to
// keep them non-negative. back selects the table with the back-rank terms
// (used while the opponent has no king).
const (
	planeBits = 8
	manOffset = 32
)

// maxMen bounds the men per side at the start of any variant (20 on 10x10):
// the man tables have one row per number of men left, 0..2*maxMen.
const maxMen = 20

type manPlaneSet [2*maxMen + 1][2][2][planeBits]uint64

// Table is a full set of weights, one Weights per variant, with the man
// tables derived from them. The package's own table (used by Evaluate) is
// built from the weights above; NewTable makes others for experiments.
type Table struct {
	w      [engine.NumVariants]Weights
	planes [engine.NumVariants]manPlaneSet
}

// std is the table Evaluate uses.
var std = mustTable(weights)

func mustTable(w [engine.NumVariants]Weights) *Table {
	t, err := NewTable(w)
	if err != nil {
		panic(err)
	}
	return t
}

// NewTable returns a table for the weights w (one per variant, indexed by
// VariantID). It fails when a man's per-square value (advancement, centre,
// edge, back rank) falls outside 0..255 once offset by 32.
func NewTable(w [engine.NumVariants]Weights) (*Table, error) {
	t := &Table{w: w}
	for v := range engine.NumVariants {
		if err := buildPlanes(v, &t.w[v], &t.planes[v]); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Weights returns the weights of variant v in t.
func (t *Table) Weights(v engine.VariantID) Weights { return t.w[v] }

func buildPlanes(v engine.VariantID, w *Weights, planes *manPlaneSet) error {
	g := geomOf(v)
	mm := g.men
	if mm > maxMen {
		return fmt.Errorf("eval: %v starts with %d men a side, more than the tables' %d", v, mm, maxMen)
	}
	for left := 0; left <= 2*mm; left++ {
		for c := engine.White; c <= engine.Black; c++ {
			backRow := 0
			if c == engine.White {
				backRow = g.size - 1
			}
			for back := 0; back < 2; back++ {
				for b := 0; b < 64; b++ {
					if g.board&(1<<b) == 0 {
						continue
					}
					row := int(g.row[b])
					adv := row
					if c == engine.White {
						adv = g.size - 1 - row
					}
					val := (w.AdvOpen[adv]*left + w.AdvEnd[adv]*(2*mm-left)) / (2 * mm)
					if g.centre&(1<<b) != 0 {
						val += w.Centre
					}
					if g.edge&(1<<b) != 0 {
						val += w.Edge
					}
					if back == 1 {
						if row == backRow {
							val += w.BackRank
						}
						if bridgeMask[v][c]&(1<<b) != 0 {
							val += w.Bridge
						}
					}
					val += manOffset
					if val < 0 || val >= 1<<planeBits {
						return fmt.Errorf("eval: %v man value %d on bit %d out of range", v, val-manOffset, b)
					}
					for k := 0; k < planeBits; k++ {
						if val&(1<<k) != 0 {
							planes[left][c][back][k] |= 1 << b
						}
					}
				}
			}
		}
	}
	return nil
}

// side is one colour's counts and masks gathered for the evaluation.
type side struct {
	men, kings   uint64
	nMen, nKings int
}

// Evaluate returns the static score of p in centi-men from the side to
// move's point of view: positive when the side to move stands better.
// Positions without men and kings for a side are not expected (the search
// scores them as lost first). It allocates nothing.
func Evaluate(p *engine.Position) int { return std.Evaluate(p) }

// Evaluate is the package's Evaluate with t's weights.
func (t *Table) Evaluate(p *engine.Position) int {
	v := p.V
	w := &t.w[v]
	g := geomOf(v)
	flying := g.flying

	var s [2]side
	for c := 0; c < 2; c++ {
		s[c].kings = p.Pieces[c] & p.Kings
		s[c].men = p.Pieces[c] &^ p.Kings
		s[c].nMen = bits.OnesCount64(s[c].men)
		s[c].nKings = bits.OnesCount64(s[c].kings)
	}
	empty := g.board &^ (p.Pieces[0] | p.Pieces[1])
	menLeft := s[0].nMen + s[1].nMen // 0 .. 2*maxMen

	var score [2]int
	for c := engine.White; c <= engine.Black; c++ {
		me, op := &s[c], &s[c^1]
		sc := me.nMen*w.Man + me.nKings*w.King
		men := me.men
		if men != 0 {
			// Advancement (blended between the opening and ending tables by
			// the men left), centre, edge and, while the opponent has no
			// king, back rank: one table per square, summed bit-sliced.
			back := 0
			if op.nKings == 0 {
				back = 1
			}
			pl := &t.planes[v][menLeft][c][back]
			sum := 0
			for k := 0; k < planeBits; k++ {
				sum += bits.OnesCount64(men&pl[k]) << k
			}
			sc += sum - manOffset*me.nMen
			l, r := g.forward(men, c)
			l &= empty
			r &= empty
			sc += w.ManMob * (bits.OnesCount64(l) + bits.OnesCount64(r))
			// Men with no forward step at all (locked).
			var movable uint64
			if c == engine.White {
				movable = l<<g.upLeft | r<<g.upRight
			} else {
				movable = l>>g.upLeft | r>>g.upRight
			}
			sc += w.Blocked * bits.OnesCount64(men&^movable)

			// Runaway men: nothing of the opponent's in the cone ahead.
			if op.nKings == 0 {
				enemy := op.men
				for b := men & g.half[c]; b != 0; b &= b - 1 {
					i := bits.TrailingZeros64(b)
					if g.cone[c][i]&enemy == 0 {
						togo := int(g.row[i])
						if c == engine.Black {
							togo = g.size - 1 - togo
						}
						sc += w.Runaway - w.RunStep*togo
					}
				}
			}
		}
		if me.kings != 0 {
			sc += w.KingMob * g.kingMoves(me.kings, empty, flying)
		}
		score[c] = sc
	}

	total := score[engine.White] - score[engine.Black]
	total = endgame(p, w, g, &s, total, flying)
	if p.Side == engine.Black {
		return -total
	}
	return total
}

// endgame applies the ending knowledge to total (White's view): it scales
// known draws toward 0 and gives the stronger side reasons to make
// progress.
func endgame(p *engine.Position, w *Weights, g *geometry, s *[2]side, total int, flying bool) int {
	wMat := s[0].nMen*w.Man + s[0].nKings*w.King
	bMat := s[1].nMen*w.Man + s[1].nKings*w.King
	diff := wMat - bMat
	strong := engine.White
	if diff < 0 {
		strong = engine.Black
		diff = -diff
	}
	weak := strong ^ 1
	st, wk := &s[strong], &s[weak]
	sign := 1
	if strong == engine.Black {
		sign = -1
	}

	if s[0].nMen+s[1].nMen == 0 {
		return sign * kingsOnly(w, g, st, wk, sign*total, flying)
	}

	// A side with a king against men only holds a flying-king ending it is
	// at most one man behind in.
	if flying && (s[0].nKings == 0) != (s[1].nKings == 0) {
		// Kings on one side only: men at most one man ahead rarely beat a
		// flying king.
		adv := bMat - wMat // the men's side's lead
		if s[1].nKings > 0 {
			adv = -adv
		}
		if adv >= 0 && adv <= w.Man {
			total /= 2
		}
	}
	if diff >= w.Man {
		// Ahead: trading down brings the win closer.
		mm := g.men
		pieces := st.nMen + st.nKings + wk.nMen + wk.nKings
		total += sign * w.Trade * (2*mm - pieces) / (2 * mm)
	}
	return total
}

// kingsOnly scores an ending with kings only on the board; t is the score
// from the strong side's view and so is the result.
func kingsOnly(w *Weights, g *geometry, st, wk *side, t int, flying bool) int {
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
func chase(w *Weights, g *geometry, strong, weak uint64) int {
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
