// clear.go: emptying the transposition table in the background, on all
// CPUs, so that a new game on a large table does not hold the caller up.

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
	words := t.words
	if len(words)*8 <= syncClearBytes {
		clear(words)
		return nil
	}
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
				zeroWords(part[:k])
				part = part[k:]
			}
		}()
	}
	gate := testClearGate
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
