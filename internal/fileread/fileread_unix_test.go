//go:build unix

package fileread

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadNamedPipe: a named pipe with no writer is refused at once, not
// waited on.
func TestReadNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := Read(fifo, 100)
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorContains(t, err, fifo+" is a named pipe, not a regular file")
	case <-time.After(5 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close() // lets the blocked reader go
		}
		t.Fatal("Read blocked on a named pipe")
	}
}
