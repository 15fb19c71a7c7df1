//go:build !linux

// clear_other.go: emptying table memory where mincore is not used.

package search

// clearMapped sets words to zero (all of them: pages are not looked at).
func clearMapped(words []uint64Word) { clear(words) }
