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

// mapWords returns n zeroed table words mapped straight from the kernel
// (an anonymous private mapping) and that mapping, or, under the race
// detector (which does not track such memory) or when the mapping fails,
// words on the Go heap and nil. Fresh kernel pages need no zeroing: a
// heap allocation that reuses freed memory is zeroed by the runtime page
// by 4 KiB page before the huge-page advice, which took over 20 s for
// 4 GiB on a machine with slow page faults (set-param hash=4096 after a
// smaller table had been freed).
func mapWords(n int) ([]uint64Word, []byte) {
	if raceEnabled {
		return make([]uint64Word, n), nil
	}
	mem, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64Word, n), nil
	}
	return unsafe.Slice((*uint64Word)(unsafe.Pointer(&mem[0])), n), mem
}

// unmap releases t's mapping (t's finalizer: nothing uses t any more).
func (t *table) unmap() {
	if t.mem != nil {
		_ = syscall.Munmap(t.mem)
		t.mem, t.words = nil, nil
	}
}
