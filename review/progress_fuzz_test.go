package review

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"damka/engine"
)

// FuzzReadProgress reads arbitrary bytes as a review's progress file
// (after a good header line, or as the whole file): it must not panic;
// what it keeps is a prefix of the file, and that prefix read again gives
// the same games with nothing dropped.
func FuzzReadProgress(f *testing.F) {
	stamp := NewStamp("in.pdn", []byte("1. c3-d4 *\n"), engine.Russian, "depth 3", "test", "eval-file= egdb-path= egdb-pieces=7")
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.partial")
	pf, err := CreateProgress(seed, stamp)
	require.NoError(f, err)
	for i := 1; i <= 2; i++ {
		rv := &Game{Index: i, Names: [2]string{"A", "B"}, Result: "*", Record: []byte("[Event \"x\"]\n1. c3-d4 {[%eval 0.10]} *\n\n")}
		rv.Sides[engine.White].Moves = 1
		require.NoError(f, pf.Add(rv))
	}
	require.NoError(f, pf.Close(false))
	full, err := os.ReadFile(seed)
	require.NoError(f, err)
	_, body, _ := cutLine(full)
	f.Add(body, true)
	f.Add(body[:len(body)-7], true)
	f.Add(full, false)
	f.Add([]byte("; damka review progress {\"size\":1"), false)
	f.Add([]byte("; damka review game {\"index\":1,\"bytes\":99999}\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, withHeader bool) {
		if withHeader {
			data = append(append([]byte(nil), full[:len(full)-len(body)]...), data...)
		}
		name := filepath.Join(t.TempDir(), "p.partial")
		require.NoError(t, os.WriteFile(name, data, 0o644))
		games, good, err := ReadProgress(name, stamp, io.Discard)
		if err != nil {
			return
		}
		require.GreaterOrEqual(t, good, int64(0))
		require.LessOrEqual(t, good, int64(len(data)))
		for i, g := range games {
			require.Equal(t, i, g.Index)
			require.GreaterOrEqual(t, g.Index, 1)
		}
		if good == 0 {
			return
		}
		require.NoError(t, os.WriteFile(name, data[:good], 0o644))
		var warn countWriter
		again, good2, err := ReadProgress(name, stamp, &warn)
		require.NoError(t, err)
		require.Equal(t, good, good2)
		require.Len(t, again, len(games))
		require.Zero(t, warn.n, "the good prefix reads with nothing dropped")
	})
}

// cutLine splits b after its first line.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	for i, c := range b {
		if c == '\n' {
			return b[:i+1], b[i+1:], true
		}
	}
	return b, nil, false
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
