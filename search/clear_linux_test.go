//go:build linux

package search

import (
	"context"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// residentPages counts the memory pages of the table words (aligned to a
// huge page by newTable) that are mapped, with mincore(2).
func residentPages(t *testing.T, words []uint64Word) (resident, total int) {
	t.Helper()
	page := os.Getpagesize()
	require.Zero(t, uintptr(unsafe.Pointer(&words[0]))%uintptr(page), "the table starts on a page")
	vec := make([]byte, (len(words)*8+page-1)/page)
	require.NoError(t, mincore(words, vec))
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
	defer runtime.KeepAlive(e) // the test reads e.tt's words after its last use of e
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

// TestClearSkipsUnmappedPages: a background Clear writes only the mapped
// pages (writing the others would fault them in, seconds for a large table
// on a fragmented machine), and when it stopped an unfinished prefault the
// prefault runs again after the clear and maps the rest.
func TestClearSkipsUnmappedPages(t *testing.T) {
	saved := syncClearBytes
	syncClearBytes = 0
	defer func() { syncClearBytes = saved }()

	e := New(Options{Threads: 1, HashMiB: 8})
	defer runtime.KeepAlive(e) // the test reads e.tt's words after its last use of e
	<-e.prefault.done
	w := e.tt.words
	half := len(w) / 2
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w[half])), (len(w)-half)*8)
	require.NoError(t, syscall.Madvise(b, syscall.MADV_DONTNEED), "unmap the second half")
	res, total := residentPages(t, w)
	require.Equal(t, total/2, res)

	// A prefault that has not finished (it ends when stopped).
	fake := &tableClear{done: make(chan struct{})}
	go func() {
		for !fake.abort.Load() {
			time.Sleep(time.Millisecond)
		}
		close(fake.done)
	}()
	e.prefault = fake
	for i := 0; i < half; i += 97 {
		w[i].Store(uint64(i) + 1)
	}
	e.ttUsed = true
	e.Clear()
	require.NotNil(t, e.clearing)
	<-e.clearing.done
	res, _ = residentPages(t, w)
	assert.Equal(t, total/2, res, "the clear mapped no page")

	e.mu.Lock()
	e.finishClear()
	again := e.prefault
	e.mu.Unlock()
	require.NotNil(t, again, "the prefault runs again")
	require.NotSame(t, fake, again)
	<-again.done
	res, _ = residentPages(t, w)
	assert.Equal(t, total, res, "the prefault mapped the rest")
	for i := range w {
		require.Zero(t, w[i].Load(), "word %d", i)
	}
}
