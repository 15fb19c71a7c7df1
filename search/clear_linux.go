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
	if len(words) == 0 || uintptr(unsafe.Pointer(&words[0]))%(pageWords*8) != 0 || syscall.Getpagesize() != pageWords*8 {
		clear(words)
		return
	}
	var vec [mincoreChunk]byte
	for lo := 0; lo < len(words); lo += mincoreChunk * pageWords {
		hi := min(lo+mincoreChunk*pageWords, len(words))
		if mincore(words[lo:hi], vec[:]) != nil {
			clear(words[lo:])
			return
		}
		for k := 0; lo+k*pageWords < hi; k++ {
			if vec[k]&1 != 0 {
				clear(words[lo+k*pageWords : min(lo+(k+1)*pageWords, hi)])
			}
		}
	}
}

// mincore sets vec[k] bit 0 when the k-th memory page of words (which
// start on a page) is mapped; vec needs a byte a page.
func mincore(words []uint64Word, vec []byte) error {
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&words[0])), uintptr(len(words)*8), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		return errno
	}
	return nil
}
