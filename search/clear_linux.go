// clear_linux.go: emptying only the mapped pages of table memory, found
// with mincore(2).

package search

import (
	"syscall"
	"unsafe"
)

// mincoreChunk is the number of 4 KiB pages clearMapped asks mincore about
// at a time (4 MiB of table, a 1 KiB vector on the stack).
const mincoreChunk = 1024

// clearMapped sets words to zero, writing only the pages that are mapped:
// a page never touched reads as zeros, and writing it would fault it in.
// Where mincore fails (or the words do not start on a page), it writes
// them all.
func clearMapped(words []uint64Word) {
	const page = 4096
	if len(words) == 0 || uintptr(unsafe.Pointer(&words[0]))%page != 0 || syscall.Getpagesize() != page {
		clear(words)
		return
	}
	var vec [mincoreChunk]byte
	per := page / 8 // words a page
	for lo := 0; lo < len(words); lo += mincoreChunk * per {
		hi := min(lo+mincoreChunk*per, len(words))
		n := (hi - lo + per - 1) / per
		_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&words[lo])), uintptr((hi-lo)*8), uintptr(unsafe.Pointer(&vec[0])))
		if errno != 0 {
			clear(words[lo:])
			return
		}
		for k := range n {
			if vec[k]&1 != 0 {
				clear(words[lo+k*per : min(lo+(k+1)*per, hi)])
			}
		}
	}
}
