//go:build linux

package search

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/engine"
)

// residentPages counts the memory pages of the table words (aligned to a
// huge page by newTable) that are mapped, with mincore(2).
func residentPages(t *testing.T, words []uint64Word) (resident, total int) {
	t.Helper()
	page := os.Getpagesize()
	base := unsafe.Pointer(&words[0])
	require.Zero(t, uintptr(base)%uintptr(page), "the table starts on a page")
	n := len(words) * 8
	vec := make([]byte, (n+page-1)/page)
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(base), uintptr(n), uintptr(unsafe.Pointer(&vec[0])))
	require.Zero(t, errno, "mincore")
	for _, v := range vec {
		if v&1 != 0 {
			resident++
		}
	}
	return resident, len(vec)
}

// TestTableStaysMapped: SetOptions waits for a new table's pages to be
// mapped (or for prefaultWait), and a background Clear empties the table
// by writing it, so that its pages stay mapped: pages handed back to the
// kernel were faulted in again by the next game's searches, which stalled
// them.
func TestTableStaysMapped(t *testing.T) {
	saved := syncClearBytes
	syncClearBytes = 0 // the background clear, as for a large table
	defer func() { syncClearBytes = saved }()

	begin := time.Now()
	e := New(Options{Threads: 1, HashMiB: 8})
	waited := time.Since(begin)
	select {
	case <-e.prefault.done:
	default:
		assert.GreaterOrEqual(t, waited, prefaultWait, "New returned before the prefault was done or its wait was up")
		<-e.prefault.done
	}
	res, total := residentPages(t, e.tt.words)
	require.Equal(t, total, res, "pages mapped after the prefault")

	g := engine.NewGame(engine.StartPosition(engine.Russian))
	e.SearchGame(context.Background(), g, Limits{Depth: 8}, nil)
	e.Clear()
	require.NotNil(t, e.clearing, "the clear runs in the background")
	e.mu.Lock()
	e.finishClear()
	e.mu.Unlock()
	res, total = residentPages(t, e.tt.words) // before reading the words, which maps them
	assert.Equal(t, total, res, "pages mapped after Clear")
	for i := range e.tt.words {
		require.Zero(t, e.tt.words[i].Load(), "word %d after Clear", i)
	}
}
