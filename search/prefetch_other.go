//go:build !amd64 && !arm64

package search

import "unsafe"

// prefetch is a no-op where the search has no prefetch instruction
// (prefetch_asm.go says what it does elsewhere).
func prefetch(addr unsafe.Pointer) {}
