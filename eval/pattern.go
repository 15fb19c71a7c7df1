// pattern.go: the learned evaluation's features. A position is read from
// each side's point of view (Black's through the board turned by 180
// degrees, colours swapped) as
//
//   - patterns: every 4x4 region of the board (8 playable squares: 2 per row
//     over 4 rows) read as a base-3 number, each square empty (0), the
//     viewer's piece (1) or the opponent's piece (2), square 1 of the region
//     lowest; a king counts as a piece of its colour (feature set 3 on;
//     sets 1 and 2 read kings as empty squares). From feature set 4 on
//     there are also row bands, 8 squares of two adjacent rows read the
//     same way: on 8x8 the whole width (7 bands, where a region sees half
//     of it), on 10x10 the left or right 4 squares of each row (18 bands);
//   - dense terms: counts such as men, kings, mobility and runaway men.
//
// Every feature has a middlegame and an endgame weight, blended by the men
// left on the board. The score is the sum of White's view minus Black's.

package eval

import (
	"math/bits"

	"github.com/damka-draughts/damka/engine"
)

// FeatureSet is the version of the feature layout below; a weights file
// records the version it was trained for, and is evaluated with that
// layout (Weights.Set). Set 2 appended dense features to set 1 (a set-1
// file reads with them at 0); set 3 reads kings into the patterns as pieces
// of their colour, where sets 1 and 2 read them as empty squares; set 4
// adds the row bands as regions after the 4x4 ones. Any other set is
// refused (ParseWeights).
const FeatureSet = 4

// kingPatternsFrom is the first feature set whose patterns hold kings.
const kingPatternsFrom = 3

// bandPatternsFrom is the first feature set with row bands (both boards).
const bandPatternsFrom = 4

// PatternSize is the number of weights of one region's table: 3^8.
const PatternSize = 6561

// The dense features, in weights-file order. Each is a count from one
// side's point of view; the score uses White's count minus Black's.
const (
	DenseMen      = iota // men
	DenseKings           // kings
	DenseManMob          // non-capturing man steps
	DenseKingMob         // non-capturing king moves (flying kings: every square of the ray)
	DenseBlocked         // men without a forward step
	DenseRunaway         // men that no enemy man can stop (only while the opponent has no king)
	DenseRunSteps        // rows those runaway men still have to go
	DenseTempo           // rows all men have advanced from their own back rank
	DenseBalance         // |men on the left half - men on the right half|
	DenseKingDiag        // kings on the long diagonal
	DenseTrade           // when ahead in pieces: the pieces traded off (2*men at start - pieces)
	DenseToMove          // 1 for the side to move
	// Feature set 2:
	DenseMove       // 1 for the side that has the move (opposition) when both have as many pieces
	DenseKingEdge   // kings on the edge files
	DenseKingCentre // kings on the central squares
	DenseKingCorner // kings on the double-corner squares
	// Every set (files written before it read it as 0, numDenseV2):
	DenseKingFirst // 1 for a side with a king (its first king is worth more than the others)
	NumDense
)

// numDenseV2 is the dense features of the files of feature sets 2 to 4
// written before DenseKingFirst: such a file reads with it at 0.
const numDenseV2 = DenseKingFirst

// NumDenseV1 is the dense features of feature set 1 (the first NumDenseV1
// of this set): a set-1 weights file reads with the others at 0.
const NumDenseV1 = DenseToMove + 1

// denseNames name the dense features for files and reports.
var denseNames = [NumDense]string{"men", "kings", "man-mobility", "king-mobility", "blocked", "runaway",
	"runaway-steps", "tempo", "balance", "king-long-diagonal", "trade", "to-move",
	"move", "king-edge", "king-centre", "king-corner", "first-king"}

// DenseName returns the name of dense feature f ("men", "kings", ...).
func DenseName(f int) string { return denseNames[f] }

// WeightShift: weights are stored in 1/16 of a centi-man (a man is worth
// about 1600); the score is their blended sum shifted right by 4.
const WeightShift = 4

// patternGeom is one board's region layout.
type patternGeom struct {
	rowLen  int  // playable squares per row (4 or 5)
	rows    int  // rows (8 or 10)
	regions int  // 4x4 regions: (rows-3) * (rowLen-1)
	bands   int  // row bands of feature set 4: rows-1 on 8x8, 2*(rows-1) on 10x10
	squares uint // 32 or 50
}

// Regions returns the number of pattern regions of variant v's board in
// FeatureSet: 15 4x4 regions and 7 row bands on 8x8 (22), 28 4x4 regions
// and 18 row bands on 10x10 (46).
func Regions(v engine.VariantID) int { return regionsOf(v, FeatureSet) }

// regionsOf is Regions for feature set set: sets before 4 have no bands.
func regionsOf(v engine.VariantID, set uint8) int {
	pg := &patternGeoms[v]
	if set >= bandPatternsFrom {
		return pg.regions + pg.bands
	}
	return pg.regions
}

var patternGeoms = makePatternGeoms()

func makePatternGeoms() (pg [engine.NumVariants]patternGeom) {
	for v := range engine.NumVariants {
		r := v.Rules()
		k := r.RowLen
		g := patternGeom{rowLen: k, rows: r.BoardSize, squares: uint(r.Squares)}
		g.regions = (g.rows - 3) * (k - 1)
		g.bands = (g.rows - 1) * (k - 3) // 8x8: one band a row pair; 10x10: two
		pg[v] = g
	}
	return pg
}

// base3 maps 8 bits (a region's squares of one colour) to their base-3
// value with digits 0 and 1.
var base3 = func() (t [256]uint16) {
	for b := range 256 {
		v, p := 0, 1
		for i := range 8 {
			if b&(1<<i) != 0 {
				v += p
			}
			p *= 3
		}
		t[b] = uint16(v)
	}
	return t
}()

// compact returns the square set (bit s-1 = square s) of the internal
// bitboard b: the padded layouts' ghost bits removed.
func compact(v engine.VariantID, b uint64) uint64 {
	if v.Rules().BoardSize == 8 {
		return b&0xFF | b>>1&0xFF00 | b>>2&0xFF0000 | b>>3&0xFF000000
	}
	const r = 0x3FF
	return b&r | b>>1&(r<<10) | b>>2&(r<<20) | b>>3&(r<<30) | b>>4&(r<<40)
}

// turn returns the square set s seen from the other side: square n+1-q for
// every square q.
func turn(s uint64, n uint) uint64 { return bits.Reverse64(s) >> (64 - n) }

// base3x2 is base3 doubled: the opponent's digits.
var base3x2 = func() (t [256]uint16) {
	for i, x := range base3 {
		t[i] = 2 * x
	}
	return t
}()

// index8x8 returns the base-3 index of the 8x8 region at top row r0 and
// left square j (within a row) of c, the viewer's men in the low 32 bits
// and the opponent's in the high 32 (square sets). The two folds pack
// each colour's 2x4 squares into a byte, both colours at once.
func index8x8(c uint64, r0, j uint) int {
	x := c >> (4*r0 + j) & 0x0000333300003333
	x = (x | x>>2) & 0x00000F0F00000F0F
	x = (x | x>>4) & 0x000000FF000000FF
	return int(base3[uint8(x)]) + int(base3x2[uint8(x>>32)])
}

// index10x10 is index8x8 on the 10x10 board (5 squares a row), for the
// viewer's men own and the opponent's opp (square sets).
func index10x10(own, opp uint64, r0, j uint) int {
	const m = 0x18C63 // 2 squares in each of 4 rows of 5
	sh := 5*r0 + j
	x := own>>sh&m | (opp>>sh&m)<<32
	x = (x | x>>3) & 0x00003C0F00003C0F
	x = (x | x>>6) & 0x000000FF000000FF
	return int(base3[uint8(x)]) + int(base3x2[uint8(x>>32)])
}

// indexBand returns the base-3 index of the 8x8 row band of rows r and
// r+1 (squares 4r+1 to 4r+8) for the viewer's pieces own and the
// opponent's opp (square sets).
func indexBand(own, opp uint64, r uint) int {
	return int(base3[uint8(own>>(4*r))]) + int(base3x2[uint8(opp>>(4*r))])
}

// indexBand10x10 returns the base-3 index of the 10x10 row band of rows r
// and r+1, squares j to j+3 of each (j 0 or 1), for the viewer's pieces
// own and the opponent's opp (square sets).
func indexBand10x10(own, opp uint64, r, j uint) int {
	sh := 5*r + j
	x, y := own>>sh, opp>>sh
	return int(base3[uint8(x&0xF|x>>1&0xF0)]) + int(base3x2[uint8(y&0xF|y>>1&0xF0)])
}

// regionIndexes fills idx with the index of every region of feature set
// set, in region order (the 4x4 regions, then the row bands), for the
// viewer's pieces own and the opponent's opp.
func (g *patternGeom) regionIndexes(own, opp uint64, set uint8, idx *[MaxRegions]uint16) {
	i := 0
	for r0 := uint(0); r0 <= uint(g.rows-4); r0++ {
		for j := uint(0); j < uint(g.rowLen-1); j++ {
			if g.rowLen == 4 {
				idx[i] = uint16(index8x8(own|opp<<32, r0, j))
			} else {
				idx[i] = uint16(index10x10(own, opp, r0, j))
			}
			i++
		}
	}
	if set < bandPatternsFrom {
		return
	}
	for r := uint(0); r < uint(g.rows-1); r++ {
		if g.rowLen == 4 {
			idx[i] = uint16(indexBand(own, opp, r))
			i++
			continue
		}
		for j := uint(0); j < 2; j++ {
			idx[i] = uint16(indexBand10x10(own, opp, r, j))
			i++
		}
	}
}

// Features is one position's features as the trainer reads them: the
// pattern index of every region from White's view and from Black's, the
// dense counts of both views (White's minus Black's), the men left (the
// phase) and the factor the endgame rules scale the score by.
type Features struct {
	White, Black [MaxRegions]uint16 // per region, the base-3 index (< PatternSize)
	Regions      int                // regions used (Regions(v))
	Dense        [NumDense]int16    // White's count minus Black's
	MenLeft      int                // men of both sides: 2*Men() = middlegame, 0 = endgame
	Men          int                // men a side at the start (12 or 20)
	Scale        int                // the endgame rules' divisor of the score (1, 2) or 0: not a linear score
	// Drawish holds the drawish-material divisors of the score when White
	// is ahead (index 0) and when Black is ahead (1): 1, 2 or 8 (see
	// Divisor).
	Drawish [2]int
}

// Divisor returns what the linear score total (White's view, any unit) of
// the position whose features f holds is divided by: the larger of Scale
// and the drawish-material divisor of the side total puts ahead. f.Scale
// must not be 0.
func (f *Features) Divisor(total float64) int {
	return Divisor(f.Scale, f.Drawish, total)
}

// Divisor is Features.Divisor's rule on its parts: scale (Features.Scale,
// not 0), or drawish's divisor (Features.Drawish) for the side the sign
// of total puts ahead when that is larger.
func Divisor[T int | float64](scale int, drawish [2]int, total T) int {
	d := 1
	switch {
	case total > 0:
		d = drawish[0]
	case total < 0:
		d = drawish[1]
	}
	return max(scale, d)
}

// MaxRegions bounds Regions over the variants (46, on 10x10).
const MaxRegions = 46

// ExtractFeatures fills f with p's features in the layout of FeatureSet,
// the one damka train fits by default. It allocates nothing.
func ExtractFeatures(p *engine.Position, f *Features) { extractFeatures(p, f, FeatureSet) }

// ExtractFeaturesSet is ExtractFeatures in the layout of feature set set
// (a Trainable set; the caller checks).
func ExtractFeaturesSet(p *engine.Position, f *Features, set uint8) { extractFeatures(p, f, set) }

// Trainable reports whether damka train can fit weights of feature set
// set: 3 (the 4x4 regions with kings) to FeatureSet.
func Trainable(set uint8) bool { return set >= kingPatternsFrom && set <= FeatureSet }

// RegionsOf is Regions for feature set set (a Trainable set): set 3 has
// the 4x4 regions alone, 15 on 8x8 and 28 on 10x10.
func RegionsOf(v engine.VariantID, set uint8) int { return regionsOf(v, set) }

// extractFeatures is ExtractFeatures in the layout of feature set set.
func extractFeatures(p *engine.Position, f *Features, set uint8) {
	v := p.V
	pg := &patternGeoms[v]
	g := geomOf(v)
	f.Regions = regionsOf(v, set)
	var men [2]uint64
	for c := range 2 {
		men[c] = compact(v, patternPieces(p, engine.Color(c), set))
	}
	wOwn, wOpp := men[engine.White], men[engine.Black]
	bOwn, bOpp := turn(men[engine.Black], pg.squares), turn(men[engine.White], pg.squares)
	pg.regionIndexes(wOwn, wOpp, set, &f.White)
	pg.regionIndexes(bOwn, bOpp, set, &f.Black)
	var d [2][NumDense]int
	var s [2]side
	denseCounts(p, g, &s, &d)
	for k := range NumDense {
		f.Dense[k] = int16(d[0][k] - d[1][k])
	}
	f.Men = g.men
	f.MenLeft = s[0].nMen + s[1].nMen
	f.Scale = endgameScale(p, g, &s)
	f.Drawish = drawishDivisors(g, &s)
}

// patternPieces returns colour c's pieces that the patterns of feature
// set set read (internal bitboard): all of them from set 3 on, else its
// men.
func patternPieces(p *engine.Position, c engine.Color, set uint8) uint64 {
	if set >= kingPatternsFrom {
		return p.Pieces[c]
	}
	return p.Pieces[c] &^ p.Kings
}

// sidesOf fills s with each colour's men and kings in p.
func sidesOf(p *engine.Position, s *[2]side) {
	for c := range 2 {
		s[c].kings = p.Pieces[c] & p.Kings
		s[c].men = p.Pieces[c] &^ p.Kings
		s[c].nMen = bits.OnesCount64(s[c].men)
		s[c].nKings = bits.OnesCount64(s[c].kings)
	}
}

// sideCounts is one colour's dense counts that depend on its own pieces
// (and the board), not on the two sides' balance: each is the count of
// the dense feature of the same name.
type sideCounts struct {
	manMob, blocked, tempo, balance, runaway, runSteps  int
	kingEdge, kingCentre, kingCorner, kingMob, kingDiag int
}

// countSide fills k (zero) with colour c's sideCounts, me its pieces, op
// the opponent's, empty the empty squares.
func (g *geometry) countSide(c engine.Color, me, op *side, empty uint64, k *sideCounts) {
	if men := me.men; men != 0 {
		l, r := g.forward(men, c)
		l &= empty
		r &= empty
		k.manMob = bits.OnesCount64(l) + bits.OnesCount64(r)
		var movable uint64
		if c == engine.White {
			movable = l<<g.upLeft | r<<g.upRight
		} else {
			movable = l>>g.upLeft | r>>g.upRight
		}
		k.blocked = bits.OnesCount64(men &^ movable)
		pl := &g.advPlanes[c]
		k.tempo = bits.OnesCount64(men&pl[0]) + bits.OnesCount64(men&pl[1])<<1 +
			bits.OnesCount64(men&pl[2])<<2 + bits.OnesCount64(men&pl[3])<<3
		k.balance = abs(2*bits.OnesCount64(men&g.leftHalf) - me.nMen)
		if op.nKings == 0 {
			for b := men & g.half[c]; b != 0; b &= b - 1 {
				i := bits.TrailingZeros64(b)
				if g.cone[c][i]&op.men == 0 {
					togo := int(g.row[i])
					if c == engine.Black {
						togo = g.size - 1 - togo
					}
					k.runaway++
					k.runSteps += togo
				}
			}
		}
	}
	if kings := me.kings; kings != 0 {
		k.kingEdge = bits.OnesCount64(kings & g.edge)
		k.kingCentre = bits.OnesCount64(kings & g.centre)
		k.kingCorner = bits.OnesCount64(kings & (g.corner2[0] | g.corner2[1]))
		k.kingMob = g.kingMoves(kings, empty, g.flying)
		if g.flying {
			k.kingDiag = bits.OnesCount64(kings & g.longDiag)
		}
	}
}

// denseCounts fills s with each side's pieces and d with each side's
// dense counts.
func denseCounts(p *engine.Position, g *geometry, s *[2]side, d *[2][NumDense]int) {
	sidesOf(p, s)
	empty := g.board &^ (p.Pieces[0] | p.Pieces[1])
	pieces := s[0].nMen + s[0].nKings + s[1].nMen + s[1].nKings
	// The move: with as many pieces on each side, the side to move has it
	// when an odd number of pieces stand on its system.
	if s[0].nMen+s[0].nKings == s[1].nMen+s[1].nKings {
		stm := p.Side
		if bits.OnesCount64((p.Pieces[0]|p.Pieces[1])&g.system[stm])&1 == 0 {
			stm ^= 1
		}
		d[stm][DenseMove] = 1
	}
	for c := engine.White; c <= engine.Black; c++ {
		me, op := &s[c], &s[c^1]
		dc := &d[c]
		dc[DenseMen] = me.nMen
		dc[DenseKings] = me.nKings
		if c == p.Side {
			dc[DenseToMove] = 1
		}
		if diff := me.nMen + me.nKings - op.nMen - op.nKings; diff > 0 {
			dc[DenseTrade] = 2*g.men - pieces
		}
		var k sideCounts
		g.countSide(c, me, op, empty, &k)
		dc[DenseManMob], dc[DenseBlocked], dc[DenseTempo] = k.manMob, k.blocked, k.tempo
		dc[DenseBalance], dc[DenseRunaway], dc[DenseRunSteps] = k.balance, k.runaway, k.runSteps
		dc[DenseKingEdge], dc[DenseKingCentre], dc[DenseKingCorner] = k.kingEdge, k.kingCentre, k.kingCorner
		dc[DenseKingMob], dc[DenseKingDiag] = k.kingMob, k.kingDiag
		dc[DenseKingFirst] = min(me.nKings, 1)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// endgameScale is the divisor the endgame rules apply to the linear score
// of p: 0 when no man is left (kingsOnly scores those), 2 for a flying-king
// ending with kings on one side only where the men's side is at most one
// man ahead, else 1.
func endgameScale(p *engine.Position, g *geometry, s *[2]side) int {
	if s[0].nMen+s[1].nMen == 0 {
		return 0
	}
	if g.flying && (s[0].nKings == 0) != (s[1].nKings == 0) {
		k, m := 0, 1 // the kings' side and the men-only side
		if s[1].nKings > 0 {
			k, m = 1, 0
		}
		// The men's lead in men, counting a king as kingEquiv men.
		lead := s[m].nMen - s[k].nMen - kingEquiv*s[k].nKings
		if lead >= 0 && lead <= 1 {
			return 2
		}
	}
	return 1
}

// drawishDivisors returns the drawish-material divisors of a 10x10
// position with men, for White ahead and for Black ahead: a side ahead
// that faces a king with material that rarely wins has its score divided
// by 8 when it has 3 pieces or fewer, by 2 when both sides have as many
// kings and their men differ by one at most; else (and on 8x8) by 1.
func drawishDivisors(g *geometry, s *[2]side) [2]int {
	d := [2]int{1, 1}
	if g.size < 10 {
		return d
	}
	for c := range 2 {
		a, b := &s[c], &s[c^1]
		switch {
		case b.nKings == 0:
		case a.nMen+a.nKings <= 3:
			d[c] = 8
		case a.nKings == b.nKings && a.nMen-b.nMen <= 1 && b.nMen-a.nMen <= 1:
			d[c] = 2
		}
	}
	return d
}

// kingEquiv is how many men a flying king counts for in endgameScale.
const kingEquiv = 3
