// rows.go: the pattern indices of a whole board from one table lookup a
// row. A region's base-3 index is a sum over its rows of each row's digits
// times a power of 9 (4x4 regions: two squares a row) or of 81 (row bands:
// four squares a row), so every row's digit groups, for every left square
// a region may start at, are looked up once and packed as 16-bit lanes of
// one word; adding four rows' words with their powers gives the indices of
// all the regions along a row at once (the sums never carry into the next
// lane: an index is below PatternSize < 1<<16).

package eval

import "unsafe"

// rowLanes is one row's digit groups for the viewer's pieces o and the
// opponent's p (the row's squares as bits, square 1 of the row lowest):
// pairs lane j is the digits of the row's squares j and j+1 (d(j) + 3
// d(j+1), d 1 for the viewer's piece and 2 for the opponent's), quads lane
// j the digits of squares j to j+3 (d(j) + 3 d(j+1) + 9 d(j+2) + 27
// d(j+3)).
type rowLanes struct {
	pairs uint64 // 4 lanes of 16 bits (rows of 5 squares; 3 used on rows of 4)
	quads uint64 // 2 lanes of 16 bits (rows of 5 squares; 1 used on rows of 4)
}

// rowTable is rowLanes for every row of up to 5 squares: index o<<5 | p.
var rowTable = func() (t [1 << 10]rowLanes) {
	digit := func(o, p uint, i int) uint64 {
		switch {
		case o>>i&1 != 0:
			return 1
		case p>>i&1 != 0:
			return 2
		}
		return 0
	}
	for o := range uint(32) {
		for p := range uint(32) {
			if o&p != 0 {
				continue // a square holds one piece
			}
			var l rowLanes
			for j := range 4 {
				l.pairs |= (digit(o, p, j) + 3*digit(o, p, j+1)) << (16 * j)
			}
			for j := range 2 {
				var q uint64
				for i := 3; i >= 0; i-- {
					q = 3*q + digit(o, p, j+i)
				}
				l.quads |= q << (16 * j)
			}
			t[o<<5|p] = l
		}
	}
	return t
}()

// lane returns 16-bit lane j of x.
func lane(x uint64, j uint) int { return int(x >> (16 * j) & 0xFFFF) }

// weightAt returns entry i of the pattern table that starts at base
// (Weights.board's first entry). The callers' indices are below the
// table's length by construction: a region's offset plus a lane, which is
// below PatternSize (TestEvaluateMatchesFeatures checks every region's
// index against the trainer's), so the hot loops go without bounds checks.
func weightAt(base unsafe.Pointer, i int) (mg, eg int) {
	a := (*[2]int16)(unsafe.Add(base, uintptr(i)*4))
	return int(a[0]), int(a[1])
}

// patterns8x8 sums the region weights of tab (Weights.board) on the 8x8
// board for White's pieces own and Black's opp (square sets): the 15 4x4
// regions, then the 7 row bands when tab has them (feature set 4). The
// indices are those of index8x8 and indexBand.
func patterns8x8(tab [][2]int16, own, opp uint64) (mg, eg int) {
	const regions = 15
	if len(tab) < regions*PatternSize {
		panic("eval: pattern table shorter than its regions")
	}
	var rows [8]rowLanes
	for r := range rows {
		rows[r] = rowTable[(own>>(4*r)&15)<<5|opp>>(4*r)&15]
	}
	base := unsafe.Pointer(unsafe.SliceData(tab))
	for r0 := 0; r0 < 5; r0++ {
		x := rows[r0].pairs + 9*rows[r0+1].pairs + 81*rows[r0+2].pairs + 729*rows[r0+3].pairs
		o := 3 * r0 * PatternSize
		am, ae := weightAt(base, o+lane(x, 0))
		bm, be := weightAt(base, o+PatternSize+lane(x, 1))
		cm, ce := weightAt(base, o+2*PatternSize+lane(x, 2))
		mg += am + bm + cm
		eg += ae + be + ce
	}
	if len(tab) >= (regions+7)*PatternSize {
		for r := 0; r < 7; r++ {
			am, ae := weightAt(base, (regions+r)*PatternSize+lane(rows[r].quads+81*rows[r+1].quads, 0))
			mg += am
			eg += ae
		}
	}
	return mg, eg
}

// patterns10x10 is patterns8x8 for the 10x10 board: 28 4x4 regions, then
// 18 row bands when tab has them (the indices of index10x10 and
// indexBand10x10).
func patterns10x10(tab [][2]int16, own, opp uint64) (mg, eg int) {
	const regions = 28
	if len(tab) < regions*PatternSize {
		panic("eval: pattern table shorter than its regions")
	}
	var rows [10]rowLanes
	for r := range rows {
		rows[r] = rowTable[(own>>(5*r)&31)<<5|opp>>(5*r)&31]
	}
	base := unsafe.Pointer(unsafe.SliceData(tab))
	for r0 := 0; r0 < 7; r0++ {
		x := rows[r0].pairs + 9*rows[r0+1].pairs + 81*rows[r0+2].pairs + 729*rows[r0+3].pairs
		o := 4 * r0 * PatternSize
		am, ae := weightAt(base, o+lane(x, 0))
		bm, be := weightAt(base, o+PatternSize+lane(x, 1))
		cm, ce := weightAt(base, o+2*PatternSize+lane(x, 2))
		dm, de := weightAt(base, o+3*PatternSize+lane(x, 3))
		mg += am + bm + cm + dm
		eg += ae + be + ce + de
	}
	if len(tab) >= (regions+18)*PatternSize {
		for r := 0; r < 9; r++ {
			x := rows[r].quads + 81*rows[r+1].quads
			o := (regions + 2*r) * PatternSize
			am, ae := weightAt(base, o+lane(x, 0))
			bm, be := weightAt(base, o+PatternSize+lane(x, 1))
			mg += am + bm
			eg += ae + be
		}
	}
	return mg, eg
}
