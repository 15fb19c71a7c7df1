// tt_linux.go: huge pages for the transposition table on Linux.

package search

import (
	"syscall"
	"unsafe"
)

// madvHugepage is Linux's MADV_HUGEPAGE.
const madvHugepage = 14

// adviseHugePages asks the kernel to back words with transparent huge pages
// (the default THP mode "madvise" only does so on request): a probe then
// rarely misses the TLB. Failure is harmless and ignored.
func adviseHugePages(words []uint64Word) {
	if len(words) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
	_ = syscall.Madvise(b, madvHugepage)
}
