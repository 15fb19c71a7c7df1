//go:build unix

// reuse_unix.go: SO_REUSEADDR on Unix listeners.

package dxpwire

import "syscall"

// reuseAddr is a net.ListenConfig Control function that sets SO_REUSEADDR
// on the socket before it is bound.
func reuseAddr(network, address string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	})
	if err != nil {
		return err
	}
	return serr
}
