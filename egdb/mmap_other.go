//go:build !linux

// mmap_other.go: without a tested mapping, slice files are read whole.

package egdb

import "os"

// mapFile reads name whole.
func mapFile(name string) ([]byte, func() error, error) {
	b, err := os.ReadFile(name)
	return b, nil, err
}
