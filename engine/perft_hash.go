// perft_hash.go: perft with a shared transposition table and several threads.

package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// PerftOptions configures PerftWith.
type PerftOptions struct {
	Paths   bool // count every capture path ("keep duplicates") instead of distinct moves
	Threads int  // worker goroutines; < 1 means 1
	HashMiB int  // size of the perft hash table in MiB; 0 disables it

	// Table, when not nil, is used instead of a new HashMiB table, so that
	// runs at increasing depths share their counts. It must only be used
	// with one Paths setting and one variant.
	Table *PerftTable
}

// PerftTable is a lockless hash table of subtree counts that can be kept
// across PerftWith calls (see PerftOptions.Table); safe for concurrent use.
// Each entry is two atomic words: check = key ^ depthKey ^ count and count, so a torn pair from
// two writers fails the key check instead of returning a wrong count.
type PerftTable struct {
	entries []perftEntry
	mask    uint64
}

type perftEntry struct {
	check atomic.Uint64
	count atomic.Uint64
}

// perftDepthKey separates the counts of one position at different depths.
var perftDepthKey [MaxPerftDepth + 1]uint64

func init() {
	s := uint64(0x2545F4914F6CDD1D)
	for i := range perftDepthKey {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		perftDepthKey[i] = s
	}
}

// NewPerftTable returns an empty perft hash table of about mib MiB (rounded
// down to a power of two entries of 16 bytes; at least one entry).
func NewPerftTable(mib int) *PerftTable {
	n := uint64(mib) << 20 / 16
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &PerftTable{entries: make([]perftEntry, size), mask: size - 1}
}

func (t *PerftTable) probe(key uint64, depth int) (uint64, bool) {
	k := key ^ perftDepthKey[depth]
	e := &t.entries[k&t.mask]
	c := e.count.Load()
	if e.check.Load()^c == k && c != 0 {
		return c, true
	}
	return 0, false
}

func (t *PerftTable) store(key uint64, depth int, count uint64) {
	k := key ^ perftDepthKey[depth]
	e := &t.entries[k&t.mask]
	e.count.Store(count)
	e.check.Store(k ^ count)
}

// PerftWith returns the number of leaf nodes at depth plies from p, as Perft
// does, using opts.Threads goroutines and, when opts.HashMiB > 0, a shared
// hash table of subtree counts keyed by Zobrist key and depth (a 64-bit key
// collision could in principle miscount; none is expected below 2^32
// entries). Threads split the root's grandchildren; with a hash table they
// also share transpositions.
func PerftWith(p Position, depth int, opts PerftOptions) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > MaxPerftDepth {
		depth = MaxPerftDepth
	}
	threads := max(opts.Threads, 1)
	threads = min(threads, 4*runtime.NumCPU()+64)
	table := opts.Table
	if table == nil && opts.HashMiB > 0 {
		table = NewPerftTable(opts.HashMiB)
	}
	walk := func(st *perftStack, q Position, d int) uint64 {
		st.pos[0] = q
		return perftRec(st, table, 0, d, opts.Paths)
	}
	if threads == 1 || depth < 3 {
		return walk(new(perftStack), p, depth)
	}
	jobs := perftJobs(p, opts.Paths)
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
				sum += walk(st, jobs[i], depth-2)
			}
			total.Add(sum)
		}()
	}
	wg.Wait()
	return total.Load()
}

// perftJobs returns the positions two plies below p, one per move pair.
func perftJobs(p Position, paths bool) []Position {
	var root, l MoveList
	if paths {
		p.GeneratePaths(&root)
	} else {
		p.Generate(&root)
	}
	var jobs []Position
	for _, m := range root.Slice() {
		q := p.Play(m)
		if paths {
			q.GeneratePaths(&l)
		} else {
			q.Generate(&l)
		}
		for _, m2 := range l.Slice() {
			jobs = append(jobs, q.Play(m2))
		}
	}
	return jobs
}
