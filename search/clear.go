// clear.go: emptying the transposition table in the background, on all
// CPUs, so that a new game on a large table does not hold the caller up;
// and mapping a new table's memory before and while it is used.

package search

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// syncClearBytes is the table size up to which Clear empties the table at
// once instead of in the background (a variable for the tests).
var syncClearBytes = 32 << 20

// clearStep is the number of table words one goroutine zeroes between
// checks for an abandoned clear (8 MiB).
const clearStep = 1 << 20

// testClearGate, when not nil, holds a background clear back from
// finishing until it is closed (tests only).
var testClearGate chan struct{}

// tableClear is a clear of a table running in the background.
type tableClear struct {
	done  chan struct{} // closed when the table is empty (or the clear abandoned)
	abort atomic.Bool   // the table is dropped: stop clearing it
}

// startClear empties t: at once when it is small (the result is then nil),
// else in the background on GOMAXPROCS goroutines. Nothing may use t until
// the clear is done (Engine.finishClear).
//
// The words are written, not handed back to the kernel with
// madvise(MADV_DONTNEED), which is quicker for the clear itself: the pages
// stay mapped (as huge pages), where discarded ones were faulted in again
// by the next game's first searches, each fault waiting for the kernel to
// find and zero a huge page (compacting memory if it must). Those stalls
// made 0.1 s moves take up to 0.35 s (Hub, 64 MiB, a loaded machine).
// Only mapped pages are written (clearMapped): the others read as zeros,
// and writing them would fault them in, which took 7 s for the half-mapped
// 1 GiB table of a first game; Engine.Clear has the prefault map them
// afterwards, beside the search.
func startClear(t *table) *tableClear {
	if len(t.words)*8 <= syncClearBytes {
		clearMapped(t.words)
		return nil
	}
	return startParts(t, runtime.GOMAXPROCS(0), func(part []uint64Word, _ *atomic.Bool) { clearMapped(part) }, testClearGate)
}

// startPrefault makes the kernel map every memory page of the new table t
// (with huge pages, compacting memory if it must) in the background on one
// goroutine (more took the CPU from a first search on a large table),
// instead of page by page as the first searches
// touch it: a fresh 64 MiB table cost a quarter of the nodes of a 0.1 s
// search, and now and then a stall of 0.1 s. SetOptions waits for it, at
// most prefaultWait; after that, searches use t while it runs (touchWords
// never changes a word). A clear or a resize stops it first
// (Engine.stopPrefault).
func startPrefault(t *table) *tableClear {
	return startParts(t, 1, touchWords, nil)
}

// prefaultWait is how long SetOptions waits for a new table's prefault
// before it returns (the rest goes on in the background): a search that
// touches a page still being mapped can wait in the kernel for longer
// than its move time (a fresh 64 MiB table, 0.1 s moves: 3 searches in 30
// stalled, at 0.15 to 0.18 s), while the prefault of a large table on a
// fragmented machine can take seconds (14 s once for 1 GiB here), too long
// to hold a front end up for.
const prefaultWait = time.Second

// awaitPrefault waits for the running prefault to finish, at most limit.
// e.mu is held.
func (e *Engine) awaitPrefault(limit time.Duration) {
	if e.prefault == nil {
		return
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-e.prefault.done:
	case <-t.C:
	}
}

// pageWords is the number of table words in the smallest memory page.
const pageWords = 4096 / 8

// touchWords writes to every 4 KiB page of words without changing it: a
// compare-and-swap of 0 by 0 is a write access (the page is mapped) that
// leaves an entry a search stored there alone. It returns early once abort
// is set.
func touchWords(words []uint64Word, abort *atomic.Bool) {
	for i := 0; i < len(words); i += pageWords {
		if abort.Load() {
			return
		}
		words[i].CompareAndSwap(0, 0)
	}
}

// startParts runs fn over t's words in clearStep pieces on up to procs
// goroutines; fn is given the run's abort flag, which is also checked
// between pieces. The run is done when they all are and gate, if not nil,
// is closed (tests). It keeps t alive until then: an abandoned run may
// still write words that t's finalizer would unmap.
func startParts(t *table, procs int, fn func([]uint64Word, *atomic.Bool), gate chan struct{}) *tableClear {
	words := t.words
	c := &tableClear{done: make(chan struct{})}
	n := max(1, min(procs, len(words)/clearStep))
	per := (len(words) + n - 1) / n
	var wg sync.WaitGroup
	for lo := 0; lo < len(words); lo += per {
		part := words[lo:min(lo+per, len(words))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(part) > 0 && !c.abort.Load() {
				k := min(len(part), clearStep)
				fn(part[:k], &c.abort)
				part = part[k:]
			}
		}()
	}
	go func() {
		wg.Wait()
		runtime.KeepAlive(t)
		if gate != nil {
			<-gate
		}
		close(c.done)
	}()
	return c
}

// finishClear waits for the table clear Clear started, if any, then starts
// the prefault again if Clear stopped an unfinished one. e.mu is held.
func (e *Engine) finishClear() {
	if e.clearing != nil {
		<-e.clearing.done
		e.clearing = nil
	}
	if e.refault {
		e.refault = false
		e.prefault = startPrefault(e.tt)
	}
}

// abandonClear stops the running table clear, if any, without waiting:
// the table it empties is being dropped. e.mu is held.
func (e *Engine) abandonClear() {
	if e.clearing != nil {
		e.clearing.abort.Store(true)
		e.clearing = nil
	}
}

// stopPrefault ends the background prefault of the table, if any, and
// waits for its goroutines: the table is about to be cleared or dropped.
// It reports whether the prefault had not finished. e.mu is held.
func (e *Engine) stopPrefault() bool {
	if e.prefault == nil {
		return false
	}
	unfinished := false
	select {
	case <-e.prefault.done:
	default:
		unfinished = true
	}
	e.prefault.abort.Store(true)
	<-e.prefault.done
	e.prefault = nil
	return unfinished
}
