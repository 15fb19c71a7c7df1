// mmap_linux.go: slice files are mapped read-only, so that the page cache
// is shared by every thread and process and only the blocks probed are read.

package egdb

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps name read-only and returns its bytes and the unmap call.
func mapFile(name string) ([]byte, func() error, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() < headerSize || st.Size() > 1<<40 {
		b, err := os.ReadFile(name) // too short to be sound: parseFile says why
		return b, nil, err
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", name, err)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
