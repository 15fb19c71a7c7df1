// build.go: the generator. Slices are solved in pairs (a slice and its
// colour flip, which its quiet moves lead into) by retrograde analysis
// over a bucket queue ordered by distance, pairs in dependency order.

package egdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/damka-draughts/damka/engine"
)

// BuildOptions configure Build.
type BuildOptions struct {
	Variant engine.VariantID
	Pieces  int    // build every slice of 2..Pieces pieces (at most MaxPieces)
	Dir     string // output directory; slices already there (and sound) are kept
	Threads int    // worker goroutines for the forward pass (below 1: 1)
	// Shard and Shards split the slices of exactly Pieces pieces into
	// Shards disjoint parts; this build makes part Shard (0-based) and
	// whatever it depends on that Dir lacks. Shards 0 or 1: everything.
	Shard, Shards int
	// Progress, if not nil, is called now and then, from the worker
	// goroutines (possibly at once), with the positions done and the
	// total of the slices this build solves.
	Progress func(done, total uint64)
	// Logf, if not nil, receives one line per slice.
	Logf func(format string, args ...any)
}

// SliceStat reports one slice of a build.
type SliceStat struct {
	Header
	Bytes   int64         // file size
	Elapsed time.Duration // time to solve its pair (0 when it was on disk)
	Built   bool          // false: it was already in Dir
}

// Materials returns the slices of 2..pieces pieces (each side at least one
// piece) of variant v's board in dependency order: fewer pieces first,
// then fewer men; a slice and its flip are next to each other.
func Materials(v engine.VariantID, pieces int) []Material {
	g, _ := geomOf(v)
	menSq := g.n - g.rowLen
	var ms []Material
	for wm := 0; wm <= pieces; wm++ {
		for wk := 0; wm+wk <= pieces; wk++ {
			for bm := 0; wm+wk+bm <= pieces; bm++ {
				for bk := 0; wm+wk+bm+bk <= pieces; bk++ {
					if wm+wk == 0 || bm+bk == 0 || wm > menSq || bm > menSq {
						continue
					}
					ms = append(ms, Material{uint8(wm), uint8(wk), uint8(bm), uint8(bk)})
				}
			}
		}
	}
	key := func(m Material) [3]int {
		f := m.Flip()
		return [3]int{m.Pieces(), m.Men(), min(m.code(), f.code())*numCodes + max(m.code(), f.code())}
	}
	slices.SortFunc(ms, func(a, b Material) int {
		ka, kb := key(a), key(b)
		for i := range ka {
			if ka[i] != kb[i] {
				return ka[i] - kb[i]
			}
		}
		return a.code() - b.code()
	})
	return ms
}

// memSource holds the finished slices of a build, one code per index.
type memSource struct {
	v      engine.VariantID
	tables [numCodes][]byte
}

func (s *memSource) code(v engine.VariantID, m Material, i uint64) (uint8, bool, bool) {
	t := s.tables[m.code()]
	if v != s.v || t == nil || i >= uint64(len(t)) {
		return 0, false, false
	}
	return t[i], m.KingsOnly(), true
}

// Build generates the tables of opts.Variant up to opts.Pieces pieces into
// opts.Dir, one file per slice (FileName), and returns a report per slice.
// A slice whose file is already there and sound is read instead of built,
// so an interrupted build resumes where it stopped. Files are written
// under a temporary name and renamed, so that a reader (or another shard
// writing the same slice) never sees half a file. The result does not
// depend on Threads.
func Build(ctx context.Context, o BuildOptions) ([]SliceStat, error) {
	if o.Variant >= engine.NumVariants {
		return nil, fmt.Errorf("unknown variant %d", o.Variant)
	}
	if o.Pieces < 2 || o.Pieces > MaxPieces {
		return nil, fmt.Errorf("pieces %d out of range 2..%d", o.Pieces, MaxPieces)
	}
	if o.Shards <= 1 {
		o.Shards, o.Shard = 1, 0
	}
	if o.Shard < 0 || o.Shard >= o.Shards {
		return nil, fmt.Errorf("shard %d out of range 0..%d", o.Shard, o.Shards-1)
	}
	o.Threads = max(o.Threads, 1)
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ms := Materials(o.Variant, o.Pieces)
	need := shardSet(ms, o.Pieces, o.Shard, o.Shards)
	src := &memSource{v: o.Variant}
	g, _ := geomOf(o.Variant)

	// Pairs to solve: those whose files are missing or unsound.
	var todo []Material
	var total uint64
	stats := map[Material]*SliceStat{}
	for _, m := range ms {
		if !need[m] || stats[m] != nil {
			continue
		}
		pair := pairOf(m)
		ok := true
		for _, pm := range pair {
			st, codes, err := readSlice(o.Dir, o.Variant, pm)
			if err != nil {
				if !errors.Is(err, os.ErrNotExist) {
					logf("rebuilding %s: %v", FileName(o.Variant, pm), err)
				}
				ok = false
				break
			}
			src.tables[pm.code()] = codes
			stats[pm] = st
		}
		if !ok {
			for _, pm := range pair {
				delete(stats, pm)
				src.tables[pm.code()] = nil
				stats[pm] = &SliceStat{} // placeholder: solved below
			}
			todo = append(todo, m)
			for _, pm := range pair {
				total += newSlice(pm, g).size
			}
		}
	}
	var done atomic.Uint64
	for _, m := range todo {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		ps := newPairSolver(src, o.Variant, m, o.Threads)
		if err := ps.solve(ctx, func(n uint64) {
			d := done.Add(n)
			if o.Progress != nil {
				o.Progress(d, total)
			}
		}); err != nil {
			return nil, err
		}
		el := time.Since(start)
		for t, pm := range ps.ms {
			codes, err := ps.codes(t)
			if err != nil {
				return nil, err
			}
			b, h, err := encodeFile(o.Variant, pm, codes)
			if err != nil {
				return nil, err
			}
			if err := writeAtomic(filepath.Join(o.Dir, FileName(o.Variant, pm)), b); err != nil {
				return nil, err
			}
			src.tables[pm.code()] = codes
			stats[pm] = &SliceStat{Header: h, Bytes: int64(len(b)), Elapsed: el, Built: true}
			logf("%s: %d positions, %d wins %d draws %d losses, %d bytes, %.2fs",
				FileName(o.Variant, pm), h.Positions, h.Wins, h.Draws, h.Losses, len(b), el.Seconds())
		}
	}
	var out []SliceStat
	for _, m := range ms {
		if st := stats[m]; st != nil {
			out = append(out, *st)
		}
	}
	return out, nil
}

// pairOf returns m and its flip (m alone when they are equal).
func pairOf(m Material) []Material {
	if f := m.Flip(); f != m {
		return []Material{m, f}
	}
	return []Material{m}
}

// shardOwn returns the pairs of exactly pieces pieces that part shard (of
// shards) makes: every shards-th pair, by ordinal in dependency order,
// each pair as its first slice.
func shardOwn(ms []Material, pieces, shard, shards int) []Material {
	var own []Material
	ord := 0
	seen := map[Material]bool{}
	for _, m := range ms {
		if m.Pieces() != pieces || seen[m] {
			continue
		}
		for _, pm := range pairOf(m) {
			seen[pm] = true
		}
		if ord%shards == shard {
			own = append(own, m)
		}
		ord++
	}
	return own
}

// shardSet returns the slices part shard (of shards) needs: its own pairs
// (shardOwn) and everything they depend on, which is every slice of fewer
// pieces and the pairs of the same pieces reached by promotions.
func shardSet(ms []Material, pieces, shard, shards int) map[Material]bool {
	need := map[Material]bool{}
	var add func(m Material)
	add = func(m Material) {
		if need[m] {
			return
		}
		for _, pm := range pairOf(m) {
			need[pm] = true
		}
		for _, pm := range pairOf(m) {
			if pm.WM > 0 {
				add(Material{pm.WM - 1, pm.WK + 1, pm.BM, pm.BK})
			}
		}
	}
	for _, m := range ms {
		if m.Pieces() < pieces {
			add(m)
		}
	}
	for _, m := range shardOwn(ms, pieces, shard, shards) {
		add(m)
	}
	return need
}

// readSlice reads and checks the file of slice m in dir and expands it.
func readSlice(dir string, v engine.VariantID, m Material) (*SliceStat, []byte, error) {
	name := filepath.Join(dir, FileName(v, m))
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, err
	}
	t, err := parseFile(name, b)
	if err != nil {
		return nil, nil, err
	}
	if t.h.Variant != v || t.h.Material != m {
		return nil, nil, corrupt(name, "holds %s %s", t.h.Variant, t.h.Material)
	}
	return &SliceStat{Header: t.h, Bytes: int64(len(b))}, t.decodeAll(), nil
}

// writeAtomic writes b to name through a temporary file and a rename.
func writeAtomic(name string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), name)
}

// Position states of the solver.
const (
	stUnknown = iota
	stWin
	stLoss
	stDraw
)

// Position flags of the solver.
const (
	fInvalid = 1 << iota // the men overlap: no position
	fCapture             // a capture is pending: value from the capture search, not stored
	fExtWin              // a promotion wins (dist: the shortest such win)
	fExtDraw             // a promotion draws
	fDone                // value final and passed on to the predecessors
)

// pairSolver solves a slice and its flip together: the index space is the
// first slice's indexes followed by the second's.
type pairSolver struct {
	src     *memSource
	v       engine.VariantID
	g       *geometry
	flying  bool
	ms      []Material
	sl      []slice
	base    []uint64 // first global index of each slice
	n       uint64
	dtm     bool
	threads int

	state []uint8
	flags []uint8
	cnt   []uint8  // quiet moves within the pair whose value is not yet a win for the opponent
	dist  []uint16 // final distance; before that, the promotion's win or longest loss
}

func newPairSolver(src *memSource, v engine.VariantID, m Material, threads int) *pairSolver {
	g, fly := geomOf(v)
	ps := &pairSolver{src: src, v: v, g: g, flying: fly, ms: pairOf(m), dtm: m.KingsOnly(), threads: threads}
	for _, pm := range ps.ms {
		s := newSlice(pm, g)
		ps.sl = append(ps.sl, s)
		ps.base = append(ps.base, ps.n)
		ps.n += s.size
	}
	return ps
}

// locate splits a global index into slice number and index.
func (ps *pairSolver) locate(gi uint64) (int, uint64) {
	if len(ps.base) > 1 && gi >= ps.base[1] {
		return 1, gi - ps.base[1]
	}
	return 0, gi
}

// entry is one bucket queue element: a global index and, in bit 63, a loss.
type entry uint64

const entryLoss = entry(1) << 63

// solve runs the forward pass (in parallel) and the retrograde pass.
func (ps *pairSolver) solve(ctx context.Context, progress func(uint64)) error {
	n := ps.n
	ps.state = make([]uint8, n)
	ps.flags = make([]uint8, n)
	ps.cnt = make([]uint8, n)
	ps.dist = make([]uint16, n)

	const chunk = 1 << 14
	var next atomic.Uint64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range ps.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			list := new(engine.MoveList)
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n || ctx.Err() != nil {
					return
				}
				hi := min(lo+chunk, n)
				for gi := lo; gi < hi; gi++ {
					if err := ps.forward(gi, list); err != nil {
						errOnce.Do(func() { firstErr = err })
						next.Store(n)
						return
					}
				}
				progress(hi - lo)
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return ps.retrograde(ctx)
}

// retrograde runs the retrograde pass over the forward pass's results:
// the seeds, then the queue in distance order. It returns ctx's error
// when ctx is done before the queue is empty.
func (ps *pairSolver) retrograde(ctx context.Context) error {
	n := ps.n
	// Seeds, in index order (the result must not depend on the threads).
	var buckets [][]entry
	push := func(gi uint64, loss bool, d int) {
		if !ps.dtm {
			d = 0 // without distances one FIFO queue does
		}
		for len(buckets) <= d {
			buckets = append(buckets, nil)
		}
		e := entry(gi)
		if loss {
			e |= entryLoss
		}
		buckets[d] = append(buckets[d], e)
	}
	for gi := uint64(0); gi < n; gi++ {
		f := ps.flags[gi]
		switch {
		case f&fInvalid != 0:
		case f&fCapture != 0:
			if s := ps.state[gi]; s == stWin || s == stLoss {
				push(gi, s == stLoss, int(ps.dist[gi]))
			}
		case f&fExtWin != 0:
			push(gi, false, int(ps.dist[gi]))
		case ps.cnt[gi] == 0:
			if f&fExtDraw != 0 {
				ps.state[gi] = stDraw
			} else {
				push(gi, true, int(ps.dist[gi]))
			}
		}
	}

	// The queue is run in batches: the predecessors of a batch's entries
	// (decoding, unmoving, indexing: most of the work) are found in
	// parallel, then applied one entry after the other in queue order,
	// exactly as one thread would, so the result does not depend on the
	// threads.
	pb := newPredBatcher(ps)
	for d := 0; d < len(buckets); d++ {
		for j := 0; j < len(buckets[d]); {
			if err := ctx.Err(); err != nil {
				return err // a stopped build resumes at this pair
			}
			ents := buckets[d][j:min(j+predBatch, len(buckets[d]))]
			j += len(ents)
			pb.run(ents)
			for k, e := range ents {
				gi := uint64(e &^ entryLoss)
				if ps.flags[gi]&fDone != 0 {
					continue
				}
				if ps.state[gi] == stUnknown {
					ps.state[gi] = stWin
					if e&entryLoss != 0 {
						ps.state[gi] = stLoss
					}
					ps.dist[gi] = uint16(d)
				}
				ps.flags[gi] |= fDone
				st := ps.state[gi]
				dd := int(ps.dist[gi])
				if !ps.dtm {
					dd = 0
				}
				for _, h := range pb.preds(k) {
					if ps.flags[h]&(fCapture|fInvalid) != 0 || ps.state[h] != stUnknown {
						continue
					}
					if st == stLoss {
						ps.state[h] = stWin
						ps.dist[h] = uint16(min(dd+1, 1<<16-1))
						push(h, false, dd+1)
						continue
					}
					ps.cnt[h]--
					if ps.cnt[h] != 0 || ps.flags[h]&fExtWin != 0 {
						continue
					}
					if ps.flags[h]&fExtDraw != 0 {
						ps.state[h] = stDraw
						continue
					}
					push(h, true, max(dd+1, int(ps.dist[h])))
				}
			}
		}
		buckets[d] = nil
		if d > 1<<15 {
			return fmt.Errorf("slice %s of %s: distances beyond %d plies", ps.ms[0], ps.v, 1<<15)
		}
	}
	return nil
}

// predBatch is the number of queue entries whose predecessors are found
// together.
const predBatch = 1 << 14

// predBatcher finds the predecessors of a batch of queue entries on the
// solver's threads: thread t takes a contiguous part of the batch and
// writes its predecessors to its own buffer.
type predBatcher struct {
	ps    *pairSolver
	parts []predPart
	per   int // entries per part
}

// predPart is one thread's share of a batch.
type predPart struct {
	lo    int      // first entry of the part
	off   []int32  // predecessors of entry lo+k: preds[off[k]:off[k+1]]
	preds []uint64 // the predecessors' global indexes
}

func newPredBatcher(ps *pairSolver) *predBatcher {
	return &predBatcher{ps: ps, parts: make([]predPart, ps.threads)}
}

// run finds the predecessors of every entry of ents not yet done.
func (b *predBatcher) run(ents []entry) {
	b.per = (len(ents) + len(b.parts) - 1) / len(b.parts)
	var wg sync.WaitGroup
	for t := range b.parts {
		part := &b.parts[t]
		part.lo = min(t*b.per, len(ents))
		hi := min(part.lo+b.per, len(ents))
		work := func() {
			var buf [512]uint64
			part.off = append(part.off[:0], 0)
			part.preds = part.preds[:0]
			for _, e := range ents[part.lo:hi] {
				gi := uint64(e &^ entryLoss)
				if b.ps.flags[gi]&fDone == 0 {
					n := b.ps.predecessors(gi, &buf)
					part.preds = append(part.preds, buf[:n]...)
				}
				part.off = append(part.off, int32(len(part.preds)))
			}
		}
		if t == len(b.parts)-1 {
			work()
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	wg.Wait()
}

// preds returns the predecessors of entry k of the last batch run.
func (b *predBatcher) preds(k int) []uint64 {
	part := &b.parts[k/b.per]
	i := k - part.lo
	return part.preds[part.off[i]:part.off[i+1]]
}

// forward examines position gi: its capture value, or its moves.
func (ps *pairSolver) forward(gi uint64, list *engine.MoveList) error {
	t, i := ps.locate(gi)
	p, ok := ps.sl[t].position(i, ps.v)
	if !ok {
		ps.flags[gi] = fInvalid
		return nil
	}
	if p.HasCapture() {
		v, d, _, ok := lookupCaptures(ps.src, &p, nil)
		if !ok {
			return fmt.Errorf("slice %s of %s: a capture leads to a slice not built", ps.ms[t], ps.v)
		}
		ps.flags[gi] = fCapture
		switch v {
		case Win:
			ps.state[gi] = stWin
		case Loss:
			ps.state[gi] = stLoss
		default:
			ps.state[gi] = stDraw
		}
		ps.dist[gi] = uint16(min(d, 1<<16-1))
		return nil
	}
	p.Generate(list)
	var f uint8
	cnt := 0
	extWin, extLoss := 1<<16-1, 0
	for k := 0; k < list.N; k++ {
		m := list.Moves[k]
		if m.Flags&engine.FlagCrown == 0 {
			cnt++
			continue
		}
		c := p.Play(m)
		cv, cd, _, ok := lookup(ps.src, &c)
		if !ok {
			return fmt.Errorf("slice %s of %s: a promotion leads to a slice not built", ps.ms[t], ps.v)
		}
		switch -cv {
		case Win:
			f |= fExtWin
			extWin = min(extWin, cd+1)
		case Draw:
			f |= fExtDraw
		default:
			extLoss = max(extLoss, cd+1)
		}
	}
	if cnt > 255 {
		return fmt.Errorf("slice %s of %s: %d quiet moves in one position", ps.ms[t], ps.v, cnt)
	}
	ps.flags[gi] = f
	ps.cnt[gi] = uint8(cnt)
	if f&fExtWin != 0 {
		ps.dist[gi] = uint16(extWin)
	} else {
		ps.dist[gi] = uint16(min(extLoss, 1<<16-1))
	}
	return nil
}

// predecessors writes into out the global indexes of the positions (of
// the other slice of the pair, White to move after normalising) from which
// a quiet move that does not crown leads to position gi, and returns how
// many. Black moved last in gi: a black king steps (or flies) back, a
// black man steps back toward square 1.
func (ps *pairSolver) predecessors(gi uint64, out *[512]uint64) int {
	t, i := ps.locate(gi)
	p, _ := ps.sl[t].position(i, ps.v)
	g := ps.g
	empty := g.mask &^ (p.Pieces[0] | p.Pieces[1])
	pt := len(ps.ms) - 1 - t // the slice of the predecessors
	n := 0
	emit := func(from, to uint64) {
		q := p
		q.Pieces[engine.Black] ^= from | to
		if q.Kings&from != 0 {
			q.Kings ^= from | to
		}
		q.Side = engine.Black
		r := g.flip(&q)
		out[n] = ps.base[pt] + ps.sl[pt].index(&r)
		n++
	}
	black := p.Pieces[engine.Black]
	for b := black; b != 0; b &= b - 1 {
		from := b & -b
		if p.Kings&from != 0 {
			for dir := range 4 {
				sq := from
				for {
					if dir < 2 {
						sq >>= g.up[dir]
					} else {
						sq <<= g.down[dir-2]
					}
					if sq&empty == 0 {
						break
					}
					emit(from, sq)
					if !ps.flying {
						break
					}
				}
			}
			continue
		}
		for dir := range 2 {
			if sq := from >> g.up[dir]; sq&empty != 0 {
				emit(from, sq)
			}
		}
	}
	return n
}

// codes returns the stored codes of slice t of the pair.
func (ps *pairSolver) codes(t int) ([]byte, error) {
	s := ps.sl[t]
	out := make([]byte, s.size)
	for i := range out {
		gi := ps.base[t] + uint64(i)
		if ps.flags[gi]&(fInvalid|fCapture) != 0 {
			out[i] = codeDontCare
			continue
		}
		switch ps.state[gi] {
		case stWin, stLoss:
			v := Win
			if ps.state[gi] == stLoss {
				v = Loss
			}
			d := int(ps.dist[gi])
			if ps.dtm && d > maxDTM {
				return nil, fmt.Errorf("slice %s of %s: distance %d beyond %d plies", ps.ms[t], ps.v, d, maxDTM)
			}
			out[i] = encodeCode(v, d, ps.dtm)
		default:
			out[i] = encodeCode(Draw, 0, ps.dtm)
		}
	}
	return out, nil
}
