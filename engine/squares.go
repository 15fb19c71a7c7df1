// squares.go: positions as square sets (bit s-1 is square s), the board's
// own numbering, for formats that must stay readable when the internal
// bitboard layout changes (damka's binary game records, CheckerBoard's
// board arrays).

package engine

import (
	"fmt"
	"math/bits"
)

// SquareAt returns the square number (1-based, the variant's numbering) of
// internal bit b (0..63, a bit of Position.Pieces or Move.From/To) in
// variant v. A bit off the board gives 0.
func SquareAt(v VariantID, b uint8) Square { return squareAt(v, b) }

// SquareSet returns the square set of the internal bitboard b in variant v:
// bit s-1 is set for each square s whose internal bit is set in b (bits off
// the board are dropped). Move.Captured of v gives the captured squares.
func SquareSet(v VariantID, b uint64) uint64 {
	var s uint64
	for ; b != 0; b &= b - 1 {
		if sq := squareAt(v, uint8(bits.TrailingZeros64(b))); sq != 0 {
			s |= 1 << (sq - 1)
		}
	}
	return s
}

// Squares returns p's pieces as square sets (bit s-1 is square s): White's,
// Black's and the kings of either colour.
func (p *Position) Squares() (white, black, kings uint64) {
	for c, dst := range [2]*uint64{&white, &black} {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			i := uint8(bits.TrailingZeros64(b))
			s := uint64(1) << (squareAt(p.V, i) - 1)
			*dst |= s
			if p.Kings&(1<<i) != 0 {
				kings |= s
			}
		}
	}
	return white, black, kings
}

// PositionFromSquares builds the position of variant v with the pieces of
// the square sets white, black and kings (bit s-1 is square s) and side to
// move. It fails when a set names a square off the board, a square is both
// white and black, or a king stands on no piece.
func PositionFromSquares(v VariantID, white, black, kings uint64, side Color) (Position, error) {
	n := v.Rules().Squares
	all := uint64(1)<<n - 1
	switch {
	case (white|black|kings)&^all != 0:
		return Position{}, fmt.Errorf("square set has squares above %d", n)
	case white&black != 0:
		return Position{}, fmt.Errorf("square %d is both white and black", bits.TrailingZeros64(white&black)+1)
	case kings&^(white|black) != 0:
		return Position{}, fmt.Errorf("king on empty square %d", bits.TrailingZeros64(kings&^(white|black))+1)
	case side > Black:
		return Position{}, fmt.Errorf("side to move %d", side)
	}
	p := Position{V: v, Side: side}
	for s := white | black; s != 0; s &= s - 1 {
		i := bits.TrailingZeros64(s)
		b := uint64(1) << bitAt(v, Square(i+1))
		if white&(1<<i) != 0 {
			p.Pieces[White] |= b
		} else {
			p.Pieces[Black] |= b
		}
		if kings&(1<<i) != 0 {
			p.Kings |= b
		}
	}
	p.Key = p.ComputeKey()
	return p, nil
}
