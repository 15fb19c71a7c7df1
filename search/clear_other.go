//go:build !linux

// clear_other.go: emptying table memory by writing zeros.

package search

// zeroWords sets words to zero.
func zeroWords(words []uint64Word) { clear(words) }
