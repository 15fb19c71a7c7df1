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

// pairsTable and quadsTable hold one row's digit groups for the viewer's
// pieces o and the opponent's p (the row's squares as bits, square 1 of
// the row lowest), at index o<<5 | p: pairs lane j is the digits of the
// row's squares j and j+1 (d(j) + 3 d(j+1), d 1 for the viewer's piece and
// 2 for the opponent's), 4 lanes on rows of 5 squares (3 used on rows of
// 4); quads lane j the digits of squares j to j+3 (d(j) + 3 d(j+1) + 9
// d(j+2) + 27 d(j+3)), 2 lanes on rows of 5 (1 used on rows of 4).
var pairsTable, quadsTable = func() (pairs, quads [1 << 10]uint64) {
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
			var pr, qd uint64
			for j := range 4 {
				pr |= (digit(o, p, j) + 3*digit(o, p, j+1)) << (16 * j)
			}
			for j := range 2 {
				var q uint64
				for i := 3; i >= 0; i-- {
					q = 3*q + digit(o, p, j+i)
				}
				qd |= q << (16 * j)
			}
			pairs[o<<5|p], quads[o<<5|p] = pr, qd
		}
	}
	return pairs, quads
}()

// rowIndex is the index of row r (of rowLen squares) of the square sets
// own and opp in pairsTable and quadsTable.
func rowIndex(own, opp uint64, r, rowLen uint) uint64 {
	m := uint64(1)<<rowLen - 1
	return (own>>(rowLen*r)&m)<<5 | opp>>(rowLen*r)&m
}

// regionLanes returns the indices of the 4x4 regions of four rows as
// lanes, from the rows' pairs a (the top row) to d, by Horner's rule
// (times 9 is a shift and an add).
func regionLanes(a, b, c, d uint64) uint64 { return a + 9*(b+9*(c+9*d)) }

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
	r0, r1, r2, r3 := rowIndex(own, opp, 0, 4), rowIndex(own, opp, 1, 4), rowIndex(own, opp, 2, 4), rowIndex(own, opp, 3, 4)
	r4, r5, r6, r7 := rowIndex(own, opp, 4, 4), rowIndex(own, opp, 5, 4), rowIndex(own, opp, 6, 4), rowIndex(own, opp, 7, 4)
	p := [8]uint64{pairsTable[r0], pairsTable[r1], pairsTable[r2], pairsTable[r3],
		pairsTable[r4], pairsTable[r5], pairsTable[r6], pairsTable[r7]}
	base := unsafe.Pointer(unsafe.SliceData(tab))
	for r := range 5 {
		x := regionLanes(p[r], p[r+1], p[r+2], p[r+3])
		o := 3 * r * PatternSize
		am, ae := weightAt(base, o+lane(x, 0))
		bm, be := weightAt(base, o+PatternSize+lane(x, 1))
		cm, ce := weightAt(base, o+2*PatternSize+lane(x, 2))
		mg += am + bm + cm
		eg += ae + be + ce
	}
	if len(tab) >= (regions+7)*PatternSize {
		q := [8]uint64{quadsTable[r0], quadsTable[r1], quadsTable[r2], quadsTable[r3],
			quadsTable[r4], quadsTable[r5], quadsTable[r6], quadsTable[r7]}
		for r := range 7 {
			am, ae := weightAt(base, (regions+r)*PatternSize+lane(q[r]+81*q[r+1], 0))
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
	// The rows' pairs, unrolled: constant shifts, no array.
	p0 := pairsTable[rowIndex(own, opp, 0, 5)]
	p1 := pairsTable[rowIndex(own, opp, 1, 5)]
	p2 := pairsTable[rowIndex(own, opp, 2, 5)]
	p3 := pairsTable[rowIndex(own, opp, 3, 5)]
	p4 := pairsTable[rowIndex(own, opp, 4, 5)]
	p5 := pairsTable[rowIndex(own, opp, 5, 5)]
	p6 := pairsTable[rowIndex(own, opp, 6, 5)]
	p7 := pairsTable[rowIndex(own, opp, 7, 5)]
	p8 := pairsTable[rowIndex(own, opp, 8, 5)]
	p9 := pairsTable[rowIndex(own, opp, 9, 5)]
	x := [7]uint64{regionLanes(p0, p1, p2, p3), regionLanes(p1, p2, p3, p4), regionLanes(p2, p3, p4, p5),
		regionLanes(p3, p4, p5, p6), regionLanes(p4, p5, p6, p7), regionLanes(p5, p6, p7, p8), regionLanes(p6, p7, p8, p9)}
	base := unsafe.Pointer(unsafe.SliceData(tab))
	for r, x := range x {
		o := 4 * r * PatternSize
		am, ae := weightAt(base, o+lane(x, 0))
		bm, be := weightAt(base, o+PatternSize+lane(x, 1))
		cm, ce := weightAt(base, o+2*PatternSize+lane(x, 2))
		dm, de := weightAt(base, o+3*PatternSize+lane(x, 3))
		mg += am + bm + cm + dm
		eg += ae + be + ce + de
	}
	if len(tab) >= (regions+18)*PatternSize {
		var q [10]uint64
		for r := range q {
			q[r] = quadsTable[rowIndex(own, opp, uint(r), 5)]
		}
		for r := range 9 {
			x := q[r] + 81*q[r+1]
			o := (regions + 2*r) * PatternSize
			am, ae := weightAt(base, o+lane(x, 0))
			bm, be := weightAt(base, o+PatternSize+lane(x, 1))
			mg += am + bm
			eg += ae + be
		}
	}
	return mg, eg
}
