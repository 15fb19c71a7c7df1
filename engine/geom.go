// geom.go: the padded bitboard layouts of the 8x8 and 10x10 boards.

package engine

// Color is a side: White or Black.
type Color uint8

// The two sides. White sits at the bottom of the diagram (high square numbers)
// and its men move toward square 1.
const (
	White Color = 0
	Black Color = 1
)

// Opp returns the other colour.
func (c Color) Opp() Color { return c ^ 1 }

// Name returns "White" or "Black", as PDN tags and messages name the sides.
func (c Color) Name() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// String returns "W" or "B".
func (c Color) String() string {
	if c == White {
		return "W"
	}
	return "B"
}

// Square is a playable square in the variant's own numbering, 1..32 on 8x8
// and 1..50 on 10x10 (see docs/rules.md). Zero is "none".
type Square uint8

// Padded layouts. A board of R rows with K playable squares per row is laid
// out row after row with one unused "ghost" bit after every second row, so
// that every diagonal step is a constant shift and a step off the board lands
// on a ghost bit or outside the board mask:
//
//	8x8:   bits 0-7, 9-16, 18-25, 27-34 (35 bits); steps -5 (NW), -4 (NE), +4 (SW), +5 (SE)
//	10x10: bits 0-9, 11-20, 22-31, 33-42, 44-53 (54 bits); steps -6, -5, +5, +6
//
// Internal bit i of the 0-based square index s is s + s/(2K). White men move
// toward bit 0 (right shifts), Black men toward the high bits (left shifts).
const (
	nw8x8 = 5 // shift right by this for a step up-left (toward square 1)
	ne8x8 = 4 // shift right for up-right
	sw8x8 = 4 // shift left for down-left
	se8x8 = 5 // shift left for down-right

	board8x8      uint64 = 0xFF | 0xFF<<9 | 0xFF<<18 | 0xFF<<27
	promoWhite8x8 uint64 = 0xF       // squares 1-4
	promoBlack8x8 uint64 = 0xF << 31 // squares 29-32
	maxRay8x8            = 7         // longest diagonal run in steps

	nw10x10 = 6
	ne10x10 = 5
	sw10x10 = 5
	se10x10 = 6

	board10x10      uint64 = 0x3FF | 0x3FF<<11 | 0x3FF<<22 | 0x3FF<<33 | 0x3FF<<44
	promoWhite10x10 uint64 = 0x1F       // squares 1-5
	promoBlack10x10 uint64 = 0x1F << 49 // squares 46-50
	maxRay10x10            = 9
)

// Direction indexes for the ray tables: up-left, up-right, down-left, down-right.
const (
	dirNW = iota
	dirNE
	dirSW
	dirSE
)

// reverseDir maps a direction to its opposite.
var reverseDir = [4]int{dirSE, dirSW, dirNE, dirNW}

// perpDirs maps a direction to the two directions at right angles to it.
var perpDirs = [4][2]int{{dirNE, dirSW}, {dirNW, dirSE}, {dirNW, dirSE}, {dirNE, dirSW}}

// maxSquares is the most playable squares of any board.
const maxSquares = 50

// bitOfSquare and squareOfBit convert between square numbers and internal
// bits, per board.
var (
	bitOfSquare [numBoards][maxSquares + 1]uint8
	squareOfBit [numBoards][64]Square
)

func init() {
	for g := range boards {
		k := boards[g].RowLen
		for s := 0; s < boards[g].Squares; s++ {
			b := s + s/(2*k)
			bitOfSquare[g][s+1] = uint8(b)
			squareOfBit[g][b] = Square(s + 1)
		}
	}
}

// boardMask returns the mask of playable bits for v.
func boardMask(v VariantID) uint64 { return boards[v.Board()].mask }

// promoMask returns the bits of the row where colour c crowns.
func promoMask(v VariantID, c Color) uint64 { return boards[v.Board()].promo[c&1] }

// SquareBit returns the internal bitboard bit of square sq in variant v, or
// 0 when sq is out of range.
func SquareBit(v VariantID, sq Square) uint64 {
	if sq == 0 || int(sq) > v.Rules().Squares {
		return 0
	}
	return 1 << bitOfSquare[v.Board()][sq]
}

// squareAt returns the square number of internal bit b.
func squareAt(v VariantID, b uint8) Square { return squareOfBit[v.Board()][b] }

// bitAt returns the internal bit index of square sq (1-based, in range).
func bitAt(v VariantID, sq Square) uint8 { return bitOfSquare[v.Board()][sq] }

// SquareRowCol returns the 0-based row (0 = top, Black's back rank) and
// column (0 = file a) of square sq on the variant's board.
func SquareRowCol(v VariantID, sq Square) (row, col int) {
	k := v.Rules().RowLen
	s := int(sq) - 1
	row = s / k
	col = 2 * (s % k)
	if row%2 == 0 {
		col++
	}
	return row, col
}

// SquareFromRowCol returns the square at 0-based row and column, or 0 when
// that is off the board or a light square.
func SquareFromRowCol(v VariantID, row, col int) Square {
	r := v.Rules()
	if row < 0 || col < 0 || row >= r.BoardSize || col >= r.BoardSize {
		return 0
	}
	if (row+col)%2 == 0 { // light square: dark squares have row+col odd
		return 0
	}
	return Square(row*r.RowLen + col/2 + 1)
}

// FillRight returns the pieces k (internal bits) and the squares of empty
// they slide over by steps of a right shift by s (a diagonal step of the
// board's layout, the constants above), without branches: an occluded
// fill that grows the runs of empty squares 1, 2, 4 and 4 steps at a time
// (11 steps, more than any diagonal). A constant s is folded in where it
// is inlined.
func FillRight(k, empty uint64, s uint) uint64 {
	k |= empty & (k >> s)
	empty &= empty >> s
	k |= empty & (k >> (2 * s))
	empty &= empty >> (2 * s)
	k |= empty & (k >> (4 * s))
	return k | empty&(k>>(4*s))
}

// FillLeft is FillRight for steps of a left shift by s.
func FillLeft(k, empty uint64, s uint) uint64 {
	k |= empty & (k << s)
	empty &= empty << s
	k |= empty & (k << (2 * s))
	empty &= empty << (2 * s)
	k |= empty & (k << (4 * s))
	return k | empty&(k<<(4*s))
}
