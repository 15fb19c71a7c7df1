// clear.go: emptying the transposition table in the background, on all
// CPUs, so that a new game on a large table does not hold the caller up;
// and mapping a new table's memory in the background while it is used.

package search

import (
	"runtime"
	"sync"
	"sync/atomic"
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
func startClear(t *table) *tableClear {
	if len(t.words)*8 <= syncClearBytes {
		clear(t.words)
		return nil
	}
	return startParts(t.words, func(part []uint64Word, _ *atomic.Bool) { zeroWords(part) }, testClearGate)
}

// startPrefault makes the kernel map every memory page of the new table t
// (with huge pages, compacting memory if it must) in the background on
// GOMAXPROCS goroutines, instead of page by page as the first searches
// touch it: a fresh 64 MiB table cost a quarter of the nodes of a 0.1 s
// search, and now and then a stall of 0.1 s. Searches may use t meanwhile
// (touchWords never changes a word), so nobody waits for it; a clear or a
// resize stops it first (Engine.stopPrefault).
func startPrefault(t *table) *tableClear {
	return startParts(t.words, touchWords, nil)
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

// startParts runs fn over words in clearStep pieces on up to GOMAXPROCS
// goroutines; fn is given the run's abort flag, which is also checked
// between pieces. The run is done when they all are and gate, if not nil,
// is closed (tests).
func startParts(words []uint64Word, fn func([]uint64Word, *atomic.Bool), gate chan struct{}) *tableClear {
	c := &tableClear{done: make(chan struct{})}
	n := max(1, min(runtime.GOMAXPROCS(0), len(words)/clearStep))
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
		if gate != nil {
			<-gate
		}
		close(c.done)
	}()
	return c
}

// finishClear waits for the table clear Clear started, if any. e.mu is
// held.
func (e *Engine) finishClear() {
	if e.clearing != nil {
		<-e.clearing.done
		e.clearing = nil
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
// e.mu is held.
func (e *Engine) stopPrefault() {
	if e.prefault != nil {
		e.prefault.abort.Store(true)
		<-e.prefault.done
		e.prefault = nil
	}
}
