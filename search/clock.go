// clock.go: the search's clock. Go's time.Now is the default; a host
// whose runtime clock is coarse can give a finer monotonic one (SetClock).
// Under wine, Go's clock on Windows reads the shared user data page that
// wine refreshes only now and then: it lagged QueryPerformanceCounter by
// up to 40 ms and moved in steps of up to 72 ms on a busy machine, enough
// to overrun a 50 ms move several times over.

package search

import (
	"sync/atomic"
	"time"
)

// hostClock is a clock set by SetClock and the readings that tie it to
// Go's time: at Go time base the clock read offset.
type hostClock struct {
	read   func() time.Duration
	base   time.Time
	offset time.Duration
}

var clock atomic.Pointer[hostClock]

// SetClock makes read the clock of every search's time limits and of the
// times it reports: read returns a monotonic time (any origin) and is
// called from the search goroutines, about every 256 nodes, so it must be
// safe for concurrent use, fast and allocation-free. nil restores Go's
// time.Now. Times before the call and after it are comparable.
func SetClock(read func() time.Duration) {
	if read == nil {
		clock.Store(nil)
		return
	}
	base := now()
	clock.Store(&hostClock{read: read, base: base, offset: read()})
}

// now returns the search clock's time: time.Now, or a time of the clock
// set by SetClock expressed as a time.Time.
func now() time.Time {
	c := clock.Load()
	if c == nil {
		return time.Now()
	}
	return c.base.Add(c.read() - c.offset)
}

// since returns the search clock's time elapsed since t.
func since(t time.Time) time.Duration { return now().Sub(t) }
