//go:build !linux

// tt_other.go: no huge-page advice outside Linux.

package search

func adviseHugePages([]uint64Word) {}
