// clear_linux.go: emptying table memory by handing its pages back to the
// kernel, which maps zero pages in their place.

package search

import (
	"syscall"
	"unsafe"
)

// zeroWords sets words to zero. The whole pages among them are discarded
// with madvise(MADV_DONTNEED) (private anonymous memory reads as zeros
// afterwards, and the table's resident memory shrinks until it is used
// again), which is much faster than writing them; the rest, or all of it
// if the kernel refuses, is cleared by writing.
func zeroWords(words []uint64Word) {
	if len(words) == 0 {
		return
	}
	page := uintptr(syscall.Getpagesize())
	base := uintptr(unsafe.Pointer(&words[0]))
	end := base + uintptr(len(words))*8
	lo, hi := (base+page-1)&^(page-1), end&^(page-1)
	if hi <= lo {
		clear(words)
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[(lo-base)/8])), hi-lo)
	if syscall.Madvise(b, syscall.MADV_DONTNEED) != nil {
		clear(words)
		return
	}
	clear(words[:(lo-base)/8])
	clear(words[(hi-base)/8:])
}
