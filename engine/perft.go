// perft.go: perft, the leaf-node count used to prove move generation exact.

package engine

import (
	"sync"
	"sync/atomic"
)

// MaxPerftDepth bounds the depth accepted by Perft.
const MaxPerftDepth = 64

// perftStack is the per-ply move lists of one perft walk, allocated once.
type perftStack [MaxPerftDepth]MoveList

func perftRec(p *Position, depth int, paths bool, st *perftStack, ply int) uint64 {
	list := &st[ply]
	if depth == 1 {
		return uint64(p.CountMoves(list, paths))
	}
	if paths {
		p.GeneratePaths(list)
	} else {
		p.Generate(list)
	}
	var n uint64
	for i := 0; i < list.N; i++ {
		np := p.Play(list.Moves[i])
		n += perftRec(&np, depth-1, paths, st, ply+1)
	}
	return n
}

// Perft returns the number of leaf nodes at depth plies from p; with paths
// false duplicate capture paths count once (distinct moves), with paths true
// every capture path counts (the "keep duplicates" column of
// shared/spec/rules.md section 4). Draw rules are ignored. Depth 0 gives 1;
// depths above MaxPerftDepth are clamped.
func Perft(p Position, depth int, paths bool) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > MaxPerftDepth {
		depth = MaxPerftDepth
	}
	st := new(perftStack)
	return perftRec(&p, depth, paths, st, 0)
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

// PerftParallel is Perft spread over threads goroutines: the moves two plies
// below the root are shared out as jobs. threads < 1 counts as 1. The result
// equals Perft's.
func PerftParallel(p Position, depth int, paths bool, threads int) uint64 {
	if threads <= 1 || depth < 3 {
		return Perft(p, depth, paths)
	}
	gen := func(q *Position, l *MoveList) {
		if paths {
			q.GeneratePaths(l)
		} else {
			q.Generate(l)
		}
	}
	var root MoveList
	gen(&p, &root)
	var jobs []Position
	for _, m := range root.Slice() {
		q := p.Play(m)
		var l MoveList
		gen(&q, &l)
		for _, m2 := range l.Slice() {
			jobs = append(jobs, q.Play(m2))
		}
	}
	var next atomic.Int64
	var total atomic.Uint64
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := new(perftStack)
			var sum uint64
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					break
				}
				sum += perftRec(&jobs[i], depth-2, paths, st, 0)
			}
			total.Add(sum)
		}()
	}
	wg.Wait()
	return total.Load()
}
