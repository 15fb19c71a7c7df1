// tools.go: what the command line tools need of a DB: the best move, the
// verification of every slice and the per-slice statistics.

package egdb

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/damka-draughts/damka/engine"
)

// BestMove returns a best move of p by the tables (the fastest win or the
// longest loss where distances are stored) with its value and distance
// for the side to move (as Probe), and ok: false when p has no legal move
// or a successor has no table.
func (db *DB) BestMove(p *engine.Position) (m engine.Move, v Value, dist int, ok bool) {
	var list engine.MoveList
	p.Generate(&list)
	if list.N == 0 {
		return engine.Move{}, Loss, 0, false
	}
	v, dist = Loss, -1
	known := true
	for k := 0; k < list.N; k++ {
		c := p.Play(list.Moves[k])
		cv, cd, ck, cok := lookup(db, &c)
		if !cok {
			return engine.Move{}, Draw, -1, false
		}
		known = known && ck
		if mv, md := -cv, cd+1; k == 0 || better(mv, md, v, dist) {
			m, v, dist = list.Moves[k], mv, md
		}
	}
	if !known || v == Draw {
		dist = -1
	}
	return m, v, dist, true
}

// VerifyResult is the verification of one slice.
type VerifyResult struct {
	Variant    engine.VariantID
	Material   Material
	Checked    uint64     // stored entries checked (no capture pending)
	Wrong      uint64     // entries that disagree, all of them
	Mismatches []Mismatch // the first ones found (at most the limit given)
	// Err, when set, says why the slice could not be checked: its own file
	// or the file of a slice its moves lead to is damaged, unreadable or
	// missing; it names that file and what is wrong with it. Checked and
	// Wrong are then 0, and Cause is the slice whose file is at fault.
	Err   error
	Cause Material
}

// Verify checks every slice of v in db (see the package comment: each
// stored value must be the best over the position's moves, with captures
// resolved, and each distance one more than the best successor's), the
// slices in dependency order, calling fn after each. A non-empty only
// restricts the check to those slices (each must be in db); the others are
// still read as successors. A slice that cannot be checked (its file, or
// one it needs, damaged or missing) is reported through fn with Err set,
// and the others are still checked. The error is a slice of only that db
// lacks, or ctx ending; mismatches are reported through fn.
func (db *DB) Verify(ctx context.Context, v engine.VariantID, threads, limit int, only []Material, fn func(VerifyResult)) error {
	want := make(map[Material]bool, len(only))
	for _, m := range only {
		if !db.Has(v, m) {
			return fmt.Errorf("slice %s of %s is not in the database", m, v)
		}
		want[m] = true
	}
	for _, m := range Materials(v, MaxPieces) {
		if !db.Has(v, m) || (len(want) > 0 && !want[m]) {
			continue
		}
		if err := db.sliceError(v, m); err != nil {
			fn(VerifyResult{Variant: v, Material: m, Err: fmt.Errorf("slice %s of %s: %w", m, v, err), Cause: m})
			continue
		}
		src := &watchSource{db: db}
		n, wrong, bad, err := verifySlice(ctx, src, v, m, threads, limit)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			cause := m
			if f := src.miss.Load(); f != nil {
				if ferr := db.sliceError(v, *f); ferr != nil {
					cause = *f
					err = fmt.Errorf("slice %s of %s not checked: its moves lead to slice %s, which cannot be used: %w", m, v, *f, ferr)
				}
			}
			fn(VerifyResult{Variant: v, Material: m, Err: err, Cause: cause})
			continue
		}
		fn(VerifyResult{Variant: v, Material: m, Checked: n, Wrong: wrong, Mismatches: bad})
	}
	return ctx.Err()
}

// watchSource is a DB as a source that remembers the first slice it could
// not read, so that a failed check names the file at fault.
type watchSource struct {
	db   *DB
	miss atomic.Pointer[Material] // the first slice not read
}

// code implements source.
func (w *watchSource) code(v engine.VariantID, m Material, i uint64) (uint8, bool, bool) {
	c, dtm, ok := w.db.code(v, m, i)
	if !ok {
		f := m
		w.miss.CompareAndSwap(nil, &f)
	}
	return c, dtm, ok
}

// Stats returns the header and size of every slice of v in db, loading
// each; slices that fail to load are left out and their errors returned.
func (db *DB) Stats(v engine.VariantID) ([]SliceStat, []error) {
	var out []SliceStat
	var errs []error
	for _, m := range Materials(v, MaxPieces) {
		s := &db.slots[v][m.code()]
		if !s.present() {
			continue
		}
		before := len(db.Errors())
		if _, _, ok := db.code(v, m, 0); !ok {
			errs = append(errs, db.Errors()[before:]...)
			continue
		}
		t := s.t.Load()
		out = append(out, SliceStat{Header: t.h, Bytes: int64(headerSize + len(t.index) + len(t.data) + 4)})
	}
	return out, errs
}
