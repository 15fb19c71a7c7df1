//go:build !unix

// reuse_other.go: no SO_REUSEADDR where it does not mean "rebind after
// TIME_WAIT" (on Windows it would let another program steal the port).

package dxpwire

import "syscall"

// reuseAddr leaves the socket as it is.
func reuseAddr(network, address string, c syscall.RawConn) error { return nil }
