// net.go: DXP's TCP layer: default port, listening with SO_REUSEADDR,
// connecting, and shutting the sending half of a connection down.

package dxpwire

import (
	"context"
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

// Shutdown closes the sending half of c when it can (TCP FIN: the peer
// reads the end of the stream after all our messages); it does nothing for
// a connection without CloseWrite. Errors are ignored: the connection is
// about to be closed.
func Shutdown(c io.Closer) {
	if cw, ok := c.(closeWriter); ok {
		_ = cw.CloseWrite()
	}
}
