//go:build js

package search

import "time"

// yieldEvery is how long a search runs between two pauses in the js/wasm
// build.
const yieldEvery = 50 * time.Millisecond

// lastYield is when a search last paused (js/wasm runs one goroutine at a
// time, on one thread).
var lastYield time.Time

// yieldHost pauses the search for a moment every yieldEvery. Go's js/wasm
// runtime never preempts a running goroutine and hands control to the
// browser only when every goroutine waits: without the pause a search would
// hold the Web Worker until it ends, and neither a stop (the context's
// AfterFunc) nor the reports (the session's writer) would get through.
// Called every 256 nodes by every worker.
func yieldHost() {
	if now := time.Now(); now.Sub(lastYield) >= yieldEvery {
		time.Sleep(time.Millisecond)
		lastYield = time.Now()
	}
}
