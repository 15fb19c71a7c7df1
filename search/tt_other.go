//go:build !linux

// tt_other.go: no huge-page advice outside Linux.

package search

func adviseHugePages([]uint64Word) {}

// mapWords returns n zeroed table words on the Go heap, and nil: the
// mapping of tt_linux.go is Linux only.
func mapWords(n int) ([]uint64Word, []byte) { return make([]uint64Word, n), nil }

// unmap does nothing: there is no mapping outside Linux.
func (t *table) unmap() {}
