// movesort.go: legal moves in the order a reader looks for them.

package engine

import "slices"

// SortMoves sorts ms, legal moves of p, into notation order: by the squares
// of their paths (Path: the origin, then each landing square), compared by
// number in the Numeric notation (English, international: 9-13 before
// 10-14 before 12-16) and by file, then rank, in the Algebraic one
// (Russian, Brazilian: a3-b4 before c3-b4 before c3-d4). Moves with the
// same path are ordered by their captured pieces. The sort is
// deterministic for a given set of moves, whatever order they came in.
func SortMoves(p *Position, ms []Move) {
	if len(ms) < 2 {
		return
	}
	algebraic := p.V < numVariants && variants[p.V].Notation == Algebraic
	keys := make(map[Move][]int, len(ms))
	for _, m := range ms {
		path := p.Path(m)
		k := make([]int, len(path))
		for i, sq := range path {
			k[i] = int(sq)
			if algebraic {
				row, col := SquareRowCol(p.V, sq)
				k[i] = col*100 + variants[p.V].BoardSize - row
			}
		}
		keys[m] = k
	}
	slices.SortStableFunc(ms, func(a, b Move) int {
		if c := slices.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		switch {
		case a.Captured < b.Captured:
			return -1
		case a.Captured > b.Captured:
			return 1
		}
		return 0
	})
}

// SortedMoves returns the legal moves of p (Generate: duplicate capture
// paths once) in SortMoves order.
func (p *Position) SortedMoves() []Move {
	var list MoveList
	p.Generate(&list)
	ms := slices.Clone(list.Slice())
	SortMoves(p, ms)
	return ms
}
