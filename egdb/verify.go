// verify.go: the consistency check of stored values against a one-ply
// search over the tables.

package egdb

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/damka-draughts/damka/engine"
)

// Mismatch is one stored value that disagrees with the best value over the
// position's moves.
type Mismatch struct {
	Material Material
	Index    uint64
	FEN      string // the position, White to move
	Stored   string // stored value ("win 7", "draw")
	Searched string // the one-ply search's value
}

// String describes the mismatch.
func (m Mismatch) String() string {
	return fmt.Sprintf("slice %s index %d (%s): stored %s, one-ply search %s", m.Material, m.Index, m.FEN, m.Stored, m.Searched)
}

// verifySlice checks every stored entry of slice m of v in src: its value
// (and distance in a distance slice) must be the best over its moves, each
// successor looked up with captures resolved; a position without moves is
// a loss in 0. It returns the number of entries checked, the number that
// disagree, and the first of those (at most limit).
func verifySlice(ctx context.Context, src source, v engine.VariantID, m Material, threads, limit int) (checked, wrong uint64, first []Mismatch, err error) {
	g, _ := geomOf(v)
	s := newSlice(m, g)
	// A quiet move keeps the material: its successor, White to move after
	// the flip, is in m's flipped slice, and the capture positions there
	// are reached from many positions of m. Each is resolved once.
	memo, err := newCaptureMemo(ctx, src, v, m.Flip(), threads)
	if err != nil {
		return 0, 0, nil, err
	}
	var nChecked, nWrong atomic.Uint64
	var mu sync.Mutex
	var bad []Mismatch
	var firstErr error
	fail := func(err error) bool {
		mu.Lock()
		firstErr = err
		mu.Unlock()
		return false
	}
	parallelIndices(ctx, s.size, threads, func() func(uint64) bool {
		list := new(engine.MoveList)
		lists := new(captureLists)
		return func(i uint64) bool {
			p, ok := s.position(i, v)
			if !ok || p.HasCapture() {
				return true
			}
			c, dtm, ok := src.code(v, m, i)
			if !ok {
				return fail(fmt.Errorf("slice %s of %s not available", m, v))
			}
			sv, sd := decodeCode(c, dtm)
			bv, bd, ok := bestMove(src, &p, list, lists[:], memo)
			if !ok {
				return fail(fmt.Errorf("slice %s of %s: a successor's slice is not available", m, v))
			}
			nChecked.Add(1)
			if sv != bv || (dtm && sv != Draw && sd != bd) {
				nWrong.Add(1)
				mu.Lock()
				if len(bad) < limit {
					p.Key = p.ComputeKey()
					bad = append(bad, Mismatch{Material: m, Index: i, FEN: p.FEN(),
						Stored: valueText(sv, sd, dtm), Searched: valueText(bv, bd, dtm)})
				}
				mu.Unlock()
			}
			return true
		}
	})
	return nChecked.Load(), nWrong.Load(), bad, firstErr
}

// bestMove is the one-ply search: the best value over p's moves (p has
// no capture pending), each successor looked up (lists and memo as for
// lookupIn).
func bestMove(src source, p *engine.Position, list *engine.MoveList, lists []engine.MoveList, memo *captureMemo) (Value, int, bool) {
	p.Generate(list)
	if list.N == 0 {
		return Loss, 0, true
	}
	bv, bd := Loss, -1
	for k := 0; k < list.N; k++ {
		c := p.Play(list.Moves[k])
		cv, cd, _, ok := lookupIn(src, &c, lists, memo)
		if !ok {
			return Draw, 0, false
		}
		if v, d := -cv, cd+1; better(v, d, bv, bd) {
			bv, bd = v, d
		}
	}
	return bv, bd, true
}

// valueText writes a value and, with distances, its distance.
func valueText(v Value, d int, dtm bool) string {
	if dtm && v != Draw {
		return fmt.Sprintf("%s %d", v, d)
	}
	return v.String()
}

// captureMemo holds the capture-resolved value of every capture position
// of one slice (White to move), by index: lookupCaptures run once for each.
type captureMemo struct {
	m    Material
	s    slice
	vals []uint32 // memoPresent | memoKnown | (value+1)<<16 | distance; 0: not a capture position
}

// The bits of a captureMemo entry.
const (
	memoPresent = 1 << 31
	memoKnown   = 1 << 30
)

// memoUnpack is the inverse of memoPack.
func memoUnpack(e uint32) (Value, int, bool, bool) {
	return Value(int(e>>16&3) - 1), int(e & 0xffff), e&memoKnown != 0, true
}

// memoPack packs a lookup result (d fits 16 bits: a distance below 2^16).
func memoPack(v Value, d int, known bool) uint32 {
	e := uint32(memoPresent) | uint32(int(v)+1)<<16 | uint32(min(max(d, 0), 0xffff))
	if known {
		e |= memoKnown
	}
	return e
}

// newCaptureMemo resolves every capture position of slice m of v on threads
// goroutines. The error is a capture whose slices src lacks, or ctx ending.
func newCaptureMemo(ctx context.Context, src source, v engine.VariantID, m Material, threads int) (*captureMemo, error) {
	g, _ := geomOf(v)
	mc := &captureMemo{m: m, s: newSlice(m, g)}
	mc.vals = make([]uint32, mc.s.size)
	var failed atomic.Bool
	parallelIndices(ctx, mc.s.size, threads, func() func(uint64) bool {
		lists := new(captureLists)
		return func(i uint64) bool {
			p, ok := mc.s.position(i, v)
			if !ok || !p.HasCapture() {
				return true
			}
			cv, cd, ck, cok := lookupCaptures(src, &p, lists[:])
			if !cok {
				failed.Store(true)
				return false
			}
			mc.vals[i] = memoPack(cv, cd, ck)
			return true
		}
	})
	if failed.Load() {
		return nil, fmt.Errorf("slice %s of %s: a capture leads to a slice not available", m, v)
	}
	return mc, ctx.Err()
}

// parallelIndices calls a body for every index 0..size-1, in chunks, on
// threads goroutines; each goroutine gets its own body (and scratch) from
// newBody. It returns when all are done, ctx ends, or a body returns false.
func parallelIndices(ctx context.Context, size uint64, threads int, newBody func() func(uint64) bool) {
	const chunk = 1 << 14
	var next atomic.Uint64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range max(threads, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := newBody()
			for {
				lo := next.Add(chunk) - chunk
				if lo >= size || ctx.Err() != nil || stop.Load() {
					return
				}
				for i := lo; i < min(lo+chunk, size); i++ {
					if !body(i) {
						stop.Store(true)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
