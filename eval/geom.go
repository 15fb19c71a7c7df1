// geom.go: board masks and shift constants of the engine's padded bitboard
// layouts, derived once from the engine's public square API.

package eval

import (
	"math/bits"

	"github.com/damka-draughts/damka/engine"
)

// geometry holds the masks of one variant's board, in the engine's internal
// bit layout (engine.SquareBit), and the rules the evaluation reads from the
// engine's rules table. Row 0 is the top row (Black's back rank), column 0
// is file a.
type geometry struct {
	size    int          // 8 or 10
	layout  engine.Board // the engine's board (its count of king moves is the mobility term)
	men     int          // men per side in the start position (12 or 20)
	flying  bool         // flying kings (the variant's FlyingKings)
	board   uint64       // all playable bits
	upLeft  uint         // right shift for a step toward row 0 and column 0 (White's forward-left)
	upRight uint         // right shift for a step toward row 0 and higher columns
	rowMask [10]uint64
	// leftHalf: files a to the middle; advPlanes[c][k]: the squares where a
	// man of colour c has advanced a number of rows with bit k set.
	leftHalf  uint64
	advPlanes [2][4]uint64
	half      [2]uint64 // half[c]: the half of the board nearer colour c's crowning row
	row       [64]int8
	col       [64]int8
	centre    uint64 // the central squares
	edge      uint64 // files a and the last file
	// cone[c][b]: the squares ahead of a man of colour c on bit b from which an
	// enemy piece could still stop it crowning (rows ahead, |dcol| <= drow).
	cone     [2][64]uint64
	longDiag uint64    // the long diagonal a1-h8 (8x8) or 46-5 (10x10)
	double   uint64    // the two diagonals next to the double corners
	corner2  [2]uint64 // the double-corner pairs (8x8: 1,5 and 28,32)
	// system[c]: the rows an even number of rows from colour c's back
	// rank (8x8 White: squares 5-8, 13-16, 21-24, 29-32), whose pieces
	// tell who has the move (opposition).
	system [2]uint64
}

// geoms holds each variant's geometry, indexed by VariantID. They are built
// in a variable initialiser, so every init function can use them.
var geoms = makeGeoms()

func makeGeoms() (g [engine.NumVariants]geometry) {
	for v := range engine.NumVariants {
		initGeometry(&g[v], v)
	}
	return g
}

func geomOf(v engine.VariantID) *geometry { return &geoms[v] }

func bitOf(v engine.VariantID, sq engine.Square) int {
	return bits.TrailingZeros64(engine.SquareBit(v, sq))
}

func initGeometry(g *geometry, v engine.VariantID) {
	r := v.Rules()
	g.size = r.BoardSize
	g.layout = r.Board
	g.men = r.Board.Info().Men
	g.flying = r.FlyingKings
	n := g.size
	at := func(row, col int) int {
		sq := engine.SquareFromRowCol(v, row, col)
		if sq == 0 {
			return -1
		}
		return bitOf(v, sq)
	}
	for sq := 1; sq <= r.Squares; sq++ {
		b := bitOf(v, engine.Square(sq))
		row, col := engine.SquareRowCol(v, engine.Square(sq))
		g.board |= 1 << b
		g.row[b] = int8(row)
		g.col[b] = int8(col)
		g.rowMask[row] |= 1 << b
		if col < n/2 {
			g.leftHalf |= 1 << b
		}
		for k := range 4 {
			if (n-1-row)&(1<<k) != 0 {
				g.advPlanes[engine.White][k] |= 1 << b
			}
			if row&(1<<k) != 0 {
				g.advPlanes[engine.Black][k] |= 1 << b
			}
		}
		// The half of the board a man must still cross: the runaway test
		// looks only at men already there.
		if row < n/2 {
			g.half[engine.White] |= 1 << b
		} else {
			g.half[engine.Black] |= 1 << b
		}
		if col == 0 || col == n-1 {
			g.edge |= 1 << b
		}
		if (n-1-row)%2 == 0 {
			g.system[engine.White] |= 1 << b
		} else {
			g.system[engine.Black] |= 1 << b
		}
		if (row == n/2-1 || row == n/2) && col >= 2 && col <= n-3 {
			g.centre |= 1 << b
		}
		if row+col == n-1 {
			g.longDiag |= 1 << b
		}
		if row-col == 1 || col-row == 1 {
			g.double |= 1 << b
		}
		// Shifts: every diagonal step must be a constant bit offset.
		if u := at(row-1, col-1); u >= 0 {
			setShift(&g.upLeft, uint(b-u))
		}
		if u := at(row-1, col+1); u >= 0 {
			setShift(&g.upRight, uint(b-u))
		}
	}
	g.corner2[0] = 1<<at(0, 1) | 1<<at(1, 0)         // b8 and a7 (10x10: b10, a9)
	g.corner2[1] = 1<<at(n-1, n-2) | 1<<at(n-2, n-1) // g1 and h2 (10x10: i1, j2)
	for b := 0; b < 64; b++ {
		if g.board&(1<<b) == 0 {
			continue
		}
		for o := 0; o < 64; o++ {
			if g.board&(1<<o) == 0 {
				continue
			}
			dc := int(g.col[o]) - int(g.col[b])
			if dc < 0 {
				dc = -dc
			}
			if dr := int(g.row[b]) - int(g.row[o]); dr > 0 && dc <= dr {
				g.cone[engine.White][b] |= 1 << o
			}
			if dr := int(g.row[o]) - int(g.row[b]); dr > 0 && dc <= dr {
				g.cone[engine.Black][b] |= 1 << o
			}
		}
	}
}

func setShift(s *uint, d uint) {
	if *s != 0 && *s != d {
		panic("eval: engine bit layout has no constant diagonal shift")
	}
	*s = d
}

// forward returns the squares that the men in m of colour c step onto, one
// bitboard per diagonal (unmasked: the caller ands with the empty squares).
func (g *geometry) forward(m uint64, c engine.Color) (uint64, uint64) {
	if c == engine.White {
		return m >> g.upLeft, m >> g.upRight
	}
	return m << g.upLeft, m << g.upRight
}

// kingMoves counts the non-capturing moves of the kings k over empty
// squares (engine.CountKingQuietMoves on g's board).
func (g *geometry) kingMoves(k, empty uint64, flying bool) int {
	return engine.CountKingQuietMoves(g.layout, k, empty, flying)
}

// distance is the number of king steps between bits a and b, ignoring
// obstacles (the larger of the row and column distances).
func (g *geometry) distance(a, b int) int {
	dr := int(g.row[a]) - int(g.row[b])
	dc := int(g.col[a]) - int(g.col[b])
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	return max(dr, dc)
}

// CanMove reports whether the side to move in p has a non-capturing move: a
// man with an empty square ahead or a king with an empty neighbour. When p
// has no capture pending, that is whether it has any legal move; the
// quiescence search uses it to tell a lost position from a quiet one.
func CanMove(p *engine.Position) bool {
	g := geomOf(p.V)
	us := p.Side
	empty := g.board &^ (p.Pieces[0] | p.Pieces[1])
	men := p.Pieces[us] &^ p.Kings
	l, r := g.forward(men, us)
	if (l|r)&empty != 0 {
		return true
	}
	k := p.Pieces[us] & p.Kings
	return (k>>g.upLeft|k>>g.upRight|k<<g.upLeft|k<<g.upRight)&empty != 0
}
