// index.go: material slices, the colour flip and the dense index of the
// positions of one slice.

package egdb

import (
	"fmt"
	"math/bits"

	"github.com/damka-draughts/damka/engine"
)

// MaxPieces is the most pieces of a slice this package indexes (each of
// the four counts of a Material is below 8, and their sum at most this).
const MaxPieces = 7

// Material is a material slice: the numbers of white men, white kings,
// black men and black kings. Tables store positions with White to move;
// a position with Black to move is looked up colour-flipped (see flip), in
// the slice Material.Flip.
type Material struct {
	WM, WK, BM, BK uint8
}

// Pieces returns the number of pieces of m.
func (m Material) Pieces() int { return int(m.WM) + int(m.WK) + int(m.BM) + int(m.BK) }

// Men returns the number of men of m (both colours).
func (m Material) Men() int { return int(m.WM) + int(m.BM) }

// Flip returns the slice with the colours exchanged.
func (m Material) Flip() Material { return Material{WM: m.BM, WK: m.BK, BM: m.WM, BK: m.WK} }

// KingsOnly reports whether m has no men: such slices store distances
// (see the package comment).
func (m Material) KingsOnly() bool { return m.WM == 0 && m.BM == 0 }

// String writes m as its four counts, white men, white kings, black men,
// black kings: "0201" is two white kings against one black king.
func (m Material) String() string { return fmt.Sprintf("%d%d%d%d", m.WM, m.WK, m.BM, m.BK) }

// code is m's index into the per-variant slot array (3 bits a count).
func (m Material) code() int { return int(m.WM) | int(m.WK)<<3 | int(m.BM)<<6 | int(m.BK)<<9 }

// numCodes is the size of the slot array of one variant.
const numCodes = 1 << 12

// ParseMaterial reads the four-digit form of Material.String.
func ParseMaterial(s string) (Material, error) {
	if len(s) != 4 {
		return Material{}, fmt.Errorf("material %q: want four digits (white men, white kings, black men, black kings)", s)
	}
	var c [4]uint8
	for i := range 4 {
		if s[i] < '0' || s[i] > '7' {
			return Material{}, fmt.Errorf("material %q: digit %d is not 0..7", s, i+1)
		}
		c[i] = s[i] - '0'
	}
	m := Material{c[0], c[1], c[2], c[3]}
	if m.Pieces() > MaxPieces {
		return Material{}, fmt.Errorf("material %q: %d pieces, more than %d", s, m.Pieces(), MaxPieces)
	}
	return m, nil
}

// MaterialOf returns the material of p as White, Black (not normalised).
func MaterialOf(p *engine.Position) Material {
	wk := bits.OnesCount64(p.Pieces[engine.White] & p.Kings)
	bk := bits.OnesCount64(p.Pieces[engine.Black] & p.Kings)
	return Material{
		WM: uint8(bits.OnesCount64(p.Pieces[engine.White]) - wk), WK: uint8(wk),
		BM: uint8(bits.OnesCount64(p.Pieces[engine.Black]) - bk), BK: uint8(bk),
	}
}

// geometry is what the index and the unmove generator need of a board.
type geometry struct {
	n      int     // playable squares: 32 or 50
	rowLen int     // playable squares per row: 4 or 5
	bitsN  uint    // bits of the padded layout: 35 or 54
	mask   uint64  // playable bits of the padded layout
	up     [2]uint // right shifts of a step toward square 1 (NW, NE)
	down   [2]uint // left shifts of a step toward the last square (SW, SE)
	flying bool    // kings fly (every variant but English)
}

// geometries of the two boards, from the engine's square numbering.
var boardGeom [2]geometry

func init() {
	for _, v := range []engine.VariantID{engine.English, engine.International} {
		r := v.Rules()
		g := &boardGeom[r.Board]
		g.n, g.rowLen = r.Squares, r.RowLen
		for s := 1; s <= r.Squares; s++ {
			g.mask |= engine.SquareBit(v, engine.Square(s))
		}
		g.bitsN = uint(64 - bits.LeadingZeros64(g.mask))
		k := uint(r.RowLen)
		g.up = [2]uint{k + 1, k}
		g.down = [2]uint{k, k + 1}
	}
}

// geomOf returns the geometry of v's board and whether its kings fly.
func geomOf(v engine.VariantID) (*geometry, bool) {
	return &boardGeom[v.Board()], v.Rules().FlyingKings
}

// dense packs the padded layout into n contiguous bits (square s at bit
// s-1): the ghost bit after every second row is squeezed out.
func (g *geometry) dense(x uint64) uint64 {
	w := uint(2 * g.rowLen)
	m := uint64(1)<<w - 1
	var d uint64
	for i := uint(0); i*w < uint(g.n); i++ {
		d |= (x >> (i * (w + 1)) & m) << (i * w)
	}
	return d
}

// padded is the inverse of dense.
func (g *geometry) padded(d uint64) uint64 {
	w := uint(2 * g.rowLen)
	m := uint64(1)<<w - 1
	var x uint64
	for i := uint(0); i*w < uint(g.n); i++ {
		x |= (d >> (i * w) & m) << (i * (w + 1))
	}
	return x
}

// flipBits turns a padded bitboard half a turn: square s becomes square
// n+1-s. The padded layout is symmetric, so this is a bit reversal.
func (g *geometry) flipBits(x uint64) uint64 { return bits.Reverse64(x) >> (64 - g.bitsN) }

// flip returns p turned half a turn with the colours exchanged: the same
// game situation seen from the other side (the rules of every variant are
// symmetric so). The key is not maintained: tables never read it.
func (g *geometry) flip(p *engine.Position) engine.Position {
	return engine.Position{
		Pieces: [2]uint64{g.flipBits(p.Pieces[engine.Black]), g.flipBits(p.Pieces[engine.White])},
		Kings:  g.flipBits(p.Kings),
		Side:   p.Side ^ 1,
		V:      p.V,
	}
}

// binom[n][k] is n choose k.
var binom [64][MaxPieces + 2]uint64

func init() {
	for n := range binom {
		binom[n][0] = 1
		for k := 1; k < len(binom[n]); k++ {
			if n > 0 {
				binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
			}
		}
	}
}

// rankFree is the colex rank of the set d (dense bits) among the squares
// not in occ: each element's position counts only the free squares below
// it.
func rankFree(d, occ uint64) uint64 {
	var r uint64
	i := 1
	for ; d != 0; d &= d - 1 {
		p := bits.TrailingZeros64(d)
		p -= bits.OnesCount64(occ & (uint64(1)<<p - 1))
		r += binom[p][i]
		i++
	}
	return r
}

// unrankFree is the inverse of rankFree: the k-element set of rank r over
// the free squares (not in occ) of an n-square board, as dense bits.
func unrankFree(r uint64, k, n int, occ uint64) uint64 {
	// Positions among the free squares, largest first: the largest p with
	// C(p, i) <= r, by binary search below the previous one.
	var d uint64
	hi := n - bits.OnesCount64(occ) // exclusive bound of p
	for i := k; i >= 1; i-- {
		lo := i - 1 // C(i-1, i) = 0 <= r
		for lo+1 < hi {
			mid := (lo + hi) / 2
			if binom[mid][i] <= r {
				lo = mid
			} else {
				hi = mid
			}
		}
		r -= binom[lo][i]
		d |= selectFree(lo, occ)
		hi = lo
	}
	return d
}

// selectFree returns the bit of the p-th (0-based) square not in occ:
// square p moved up past every occupied square at or below it.
func selectFree(p int, occ uint64) uint64 {
	s := p
	for b := occ; b != 0; b &= b - 1 {
		if bits.TrailingZeros64(b) > s {
			break
		}
		s++
	}
	return uint64(1) << s
}

// slice describes the index of one material slice on one board. Index
// layout (mixed radix, most significant first): white men over the n-k
// squares off White's crowning row, black men over the n-k squares off
// Black's (k = row length), white kings over the squares the men leave
// free, black kings over the squares left after those. An index whose men
// overlap is invalid (stored as "don't care").
type slice struct {
	m                  Material
	g                  *geometry
	nWM, nBM, nWK, nBK uint64
	size               uint64
}

// newSlice returns the index description of m on g.
func newSlice(m Material, g *geometry) slice {
	menSq := g.n - g.rowLen
	s := slice{m: m, g: g,
		nWM: binom[menSq][m.WM], nBM: binom[menSq][m.BM],
		nWK: binom[g.n-m.Men()][m.WK], nBK: binom[g.n-m.Men()-int(m.WK)][m.BK]}
	s.size = s.nWM * s.nBM * s.nWK * s.nBK
	return s
}

// index returns the index of p (White to move, of material s.m). It does
// not allocate.
func (s *slice) index(p *engine.Position) uint64 {
	g := s.g
	w := g.dense(p.Pieces[engine.White])
	b := g.dense(p.Pieces[engine.Black])
	k := g.dense(p.Kings)
	wm, bm := w&^k, b&^k
	wk, bk := w&k, b&k
	iwm := rankFree(wm>>uint(g.rowLen), 0)
	ibm := rankFree(bm, 0)
	men := wm | bm
	iwk := rankFree(wk, men)
	ibk := rankFree(bk, men|wk)
	return ((iwm*s.nBM+ibm)*s.nWK+iwk)*s.nBK + ibk
}

// position returns the position of index i (White to move) and whether
// the index is valid (the men do not overlap).
func (s *slice) position(i uint64, v engine.VariantID) (engine.Position, bool) {
	g := s.g
	ibk := i % s.nBK
	i /= s.nBK
	iwk := i % s.nWK
	i /= s.nWK
	ibm := i % s.nBM
	iwm := i / s.nBM
	menSq := g.n - g.rowLen
	wm := unrankFree(iwm, int(s.m.WM), menSq, 0) << uint(g.rowLen)
	bm := unrankFree(ibm, int(s.m.BM), menSq, 0)
	if wm&bm != 0 {
		return engine.Position{}, false
	}
	men := wm | bm
	wk := unrankFree(iwk, int(s.m.WK), g.n, men)
	bk := unrankFree(ibk, int(s.m.BK), g.n, men|wk)
	p := engine.Position{
		Pieces: [2]uint64{g.padded(wm | wk), g.padded(bm | bk)},
		Kings:  g.padded(wk | bk),
		Side:   engine.White,
		V:      v,
	}
	return p, true
}
