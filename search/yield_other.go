//go:build !js

package search

// yieldHost does nothing: goroutines are preempted and run in parallel
// (see yield_js.go).
func yieldHost() {}
