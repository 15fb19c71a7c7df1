// net.go: DXP's TCP layer: default port, listening with SO_REUSEADDR,
// connecting, and closing a connection with a shutdown first.

package dxp

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"time"
)

// DefaultPort is DXP's TCP port.
const DefaultPort = 27531

// HostPort returns addr with DefaultPort added when it has no port: ""
// and ":" become ":27531", "host" becomes "host:27531", "[::1]" becomes
// "[::1]:27531"; an address with a port is returned as is.
func HostPort(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err == nil {
		if addr[len(addr)-1] == ':' {
			return addr + strconv.Itoa(DefaultPort)
		}
		return addr
	}
	host := addr
	if len(host) >= 2 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	return net.JoinHostPort(host, strconv.Itoa(DefaultPort))
}

// Listen opens a TCP listener on addr (see HostPort; IPv4 or IPv6) with
// SO_REUSEADDR set, so that a program restarted at once can listen on the
// same port again while old connections are in TIME_WAIT.
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	lc := net.ListenConfig{Control: reuseAddr}
	return lc.Listen(ctx, "tcp", HostPort(addr))
}

// Dial connects to a DXP program at addr (see HostPort), giving up after
// timeout (0: no limit other than ctx's).
func Dial(ctx context.Context, addr string, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{Timeout: timeout}
	return d.DialContext(ctx, "tcp", HostPort(addr))
}

// closeWriter is a connection whose sending half can be shut down alone
// (*net.TCPConn).
type closeWriter interface {
	CloseWrite() error
}

// shutdown closes the sending half of c when it can (TCP FIN: the peer
// reads the end of the stream after all our messages).
func shutdown(c io.Closer) {
	if cw, ok := c.(closeWriter); ok {
		_ = cw.CloseWrite()
	}
}

// isClosedErr reports whether err is the error of reading a connection
// that was closed on this side or reset (not a protocol fault).
func isClosedErr(err error) bool {
	return errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)
}
