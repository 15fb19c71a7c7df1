// perft.go: perft, the leaf-node count used to prove move generation exact.

package engine

// MaxPerftDepth bounds the depth accepted by Perft.
const MaxPerftDepth = 64

// perftStack is the per-ply move lists and positions of one perft walk,
// allocated once so that the walk itself allocates nothing.
type perftStack struct {
	lists [MaxPerftDepth]MoveList
	pos   [MaxPerftDepth + 1]Position
}

func perftRec(st *perftStack, t *PerftTable, ply, depth int, paths bool) uint64 {
	p := &st.pos[ply]
	list := &st.lists[ply]
	if depth == 1 {
		return uint64(p.CountMoves(list, paths))
	}
	if t != nil {
		if n, ok := t.probe(p.Key, depth); ok {
			return n
		}
	}
	var n uint64
	if depth == 2 { // the children are only counted, on bitboards
		if boardOf[p.V.slot()] == Board10x10 {
			n = perftTwo10x10(p, list, &st.lists[ply+1], paths)
		} else {
			n = perftTwo8x8(p, list, &st.lists[ply+1], paths)
		}
	} else {
		if paths {
			p.GeneratePaths(list)
		} else {
			p.Generate(list)
		}
		child := &st.pos[ply+1]
		for i := 0; i < list.N; i++ {
			if t != nil {
				p.PlayInto(child, list.Moves[i])
			} else { // no table: the key is not needed
				*child = *p
				child.applyBoard(list.Moves[i])
			}
			n += perftRec(st, t, ply+1, depth-1, paths)
		}
	}
	if t != nil {
		t.store(p.Key, depth, n)
	}
	return n
}

// Perft returns the number of leaf nodes at depth plies from p; with paths
// false duplicate capture paths count once (distinct moves), with paths true
// every capture path counts (the "keep duplicates" column of
// docs/rules.md "Perft"). Draw rules are ignored. Depth 0 gives 1;
// depths above MaxPerftDepth are clamped.
func Perft(p Position, depth int, paths bool) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > MaxPerftDepth {
		depth = MaxPerftDepth
	}
	st := new(perftStack)
	st.pos[0] = p
	return perftRec(st, nil, 0, depth, paths)
}

// DivideEntry is one root move of a perft divide and its leaf count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// PerftDivide returns, for each root move of p (distinct moves, or every
// path when paths is true), the perft count at depth-1 below it.
func PerftDivide(p Position, depth int, paths bool) []DivideEntry {
	var list MoveList
	if paths {
		p.GeneratePaths(&list)
	} else {
		p.Generate(&list)
	}
	out := make([]DivideEntry, 0, list.N)
	for _, m := range list.Slice() {
		out = append(out, DivideEntry{Move: m, Nodes: Perft(p.Play(m), depth-1, paths)})
	}
	return out
}
