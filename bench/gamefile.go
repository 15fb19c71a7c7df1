// gamefile.go: what `damka selfplay` and `damka label` share: a game file
// opened for appending and resumed, games worked on in parallel and
// written in order, and shards (the I-th of N parts of a run).

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// ErrResume is wrapped by SelfPlay's and Label's error when the existing
// Out cannot be resumed: it is not a game file, holds another variant's
// games or games of other settings (another note), has a damaged record
// before its end, or its games are not the ones the run would write there
// (out of order, another shard's).
var ErrResume = errors.New("cannot resume")

// gameFile names a game file to append to and what its existing games
// must be.
type gameFile struct {
	cmd     string // the command, prefixed to errors: "selfplay"
	path    string
	variant engine.VariantID
	note    string // the header's note of a new file
	// same tells whether an existing file's note names the same settings
	// as note; nil: the notes must be equal.
	same func(fileNote string) bool
	// check, if not nil, tells why the k-th (0-based) record of an
	// existing file is not the one the run writes there; nil: it is.
	check func(k int, rec *pdn.Record) error
}

// open opens the file for appending: a new file gets a header; an existing
// one is read to its last whole record (a torn tail is cut off, a torn
// header starts the file again), its records checked and counted. It
// returns the file, the writer appending to it and the number of records
// kept.
func (gf gameFile) open() (*os.File, *pdn.RecordWriter, int, error) {
	fail := func(f *os.File, format string, a ...any) (*os.File, *pdn.RecordWriter, int, error) {
		if f != nil {
			f.Close()
		}
		return nil, nil, 0, fmt.Errorf(gf.cmd+": "+format, a...)
	}
	f, err := os.OpenFile(gf.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fail(nil, "%w", err)
	}
	gr, err := pdn.NewRecordReader(f)
	if errors.Is(err, pdn.ErrTruncatedHeader) {
		// A new (empty) file, or a run stopped while writing the header:
		// no game to keep, so the file starts with a header, as a torn
		// last record is cut off.
		if err := f.Truncate(0); err != nil {
			return fail(f, "resume %s: %w", gf.path, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fail(f, "resume %s: %w", gf.path, err)
		}
		gw, err := pdn.NewRecordWriter(f, gf.variant, gf.note)
		if err == nil {
			err = gw.Flush()
		}
		if err != nil {
			return fail(f, "%s: %w", gf.path, err)
		}
		return f, gw, 0, nil
	}
	if err != nil {
		return fail(f, "%w %s: %w", ErrResume, gf.path, err)
	}
	if gr.Variant() != gf.variant {
		return fail(f, "%w %s: the file holds %v games, not %v", ErrResume, gf.path, gr.Variant(), gf.variant)
	}
	same := gf.same
	if same == nil {
		same = func(n string) bool { return n == gf.note }
	}
	if !same(gr.Note()) {
		return fail(f, "%w %s: its games were played by %q, not %q (other settings)", ErrResume, gf.path, gr.Note(), gf.note)
	}
	n := 0
	for {
		rec, err := gr.Next()
		if err == io.EOF || errors.Is(err, pdn.ErrTruncatedRecord) {
			break
		}
		if err != nil {
			return fail(f, "%w %s: %w", ErrResume, gf.path, err)
		}
		if gf.check != nil {
			if err := gf.check(n, rec); err != nil {
				return fail(f, "%w %s: %w", ErrResume, gf.path, err)
			}
		}
		n++
	}
	if err := f.Truncate(gr.Offset()); err != nil {
		return fail(f, "resume %s: %w", gf.path, err)
	}
	if _, err := f.Seek(gr.Offset(), io.SeekStart); err != nil {
		return fail(f, "resume %s: %w", gf.path, err)
	}
	return f, pdn.AppendRecordWriter(f, gf.variant), n, nil
}

// runOrdered runs the jobs that feed sends on threads workers at once and
// hands their results to write in the order the jobs were sent (the
// results that finish early wait), so that what is written does not depend
// on threads. Each worker is made by newWorker (its own search engine) and
// returns ok false when ctx stopped it inside a job. feed sends jobs with
// send until send returns false (ctx is done) and returns nil when it has
// no more, or an error: the jobs sent before it are still done and
// written, and runOrdered returns it. runOrdered returns nil when every
// job is written or ctx is done (what was written is kept), or the first
// error of write or feed, after the feeder and the workers have ended.
func runOrdered[J, R any](ctx context.Context, threads int, feed func(send func(J) bool) error,
	newWorker func() func(context.Context, J) (R, bool), write func(R) error) error {
	type job struct {
		seq int
		j   J
	}
	type result struct {
		seq int
		r   R
		ok  bool
	}
	ctx, cancel := context.WithCancel(ctx)
	jobs := make(chan job)
	out := make(chan result, threads)
	feedErr := make(chan error, 1)
	fed := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { // stop and wait for the feeder and the workers
		cancel()
		wg.Wait()
		<-fed
	}()
	go func() {
		defer close(fed)
		defer close(jobs)
		seq := 0
		feedErr <- feed(func(j J) bool {
			select {
			case jobs <- job{seq, j}:
				seq++
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWorker()
			for j := range jobs {
				r, ok := work(ctx, j.j)
				select {
				case out <- result{j.seq, r, ok}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()

	pending := map[int]R{}
	next := 0
	for {
		var g result
		var open bool
		select {
		case g, open = <-out:
		case <-ctx.Done():
			return nil
		}
		if !open { // the workers are gone: every job is done, or ctx is
			select {
			case err := <-feedErr:
				return err
			case <-ctx.Done():
				return nil
			}
		}
		if !g.ok { // stopped inside the job: ctx is done
			continue
		}
		pending[g.seq] = g.r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if err := write(r); err != nil {
				return err
			}
			next++
		}
	}
}

// checkShard checks a shard's number i of n (0 and 0: the whole run, 1 of
// 1) and returns it.
func checkShard(cmd string, i, n int) (int, int, error) {
	if i == 0 && n == 0 {
		return 1, 1, nil
	}
	if n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("%s: shard %d of %d (want 1 <= shard <= shards)", cmd, i, n)
	}
	return i, n, nil
}

// shardLen returns how many of the numbers 0 to total-1 shard i of n
// holds: those k with k mod n = i-1.
func shardLen(total, i, n int) int {
	if total < i {
		return 0
	}
	return (total - i + n) / n
}
