package review

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// FuzzReadProgress reads arbitrary bytes as a review's progress file
// (after a good header line, or as the whole file): it must not panic;
// what it keeps (its sound beginning, or the file without its damaged
// records) read again gives the same games with nothing dropped.
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
	mid := bytes.Clone(body) // game 1's text damaged, game 2 sound
	mid[bytes.LastIndex(mid, []byte(progressGamePrefix))-5] ^= 1
	f.Add(mid, true)
	f.Add(full, false)
	f.Add([]byte("; damka review progress {\"size\":1"), false)
	f.Add([]byte("; damka review game {\"index\":1,\"bytes\":99999}\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, withHeader bool) {
		if withHeader {
			data = append(append([]byte(nil), full[:len(full)-len(body)]...), data...)
		}
		name := filepath.Join(t.TempDir(), "p.partial")
		require.NoError(t, os.WriteFile(name, data, 0o644))
		pr, err := ReadProgress(name, stamp, io.Discard)
		if err != nil {
			return
		}
		require.GreaterOrEqual(t, pr.Size, int64(0))
		require.LessOrEqual(t, pr.Size, int64(len(data)))
		for i, g := range pr.Games {
			require.Equal(t, i, g.Index)
			require.GreaterOrEqual(t, g.Index, 1)
		}
		if pr.Size == 0 {
			return
		}
		keep := data[:pr.Size]
		if pr.Kept != nil {
			require.Greater(t, len(pr.Kept), int(pr.Size))
			require.Equal(t, keep, pr.Kept[:pr.Size], "the sound beginning comes first")
			keep = pr.Kept
		}
		require.NoError(t, os.WriteFile(name, keep, 0o644))
		var warn countWriter
		again, err := ReadProgress(name, stamp, &warn)
		require.NoError(t, err)
		require.Equal(t, int64(len(keep)), again.Size)
		require.Nil(t, again.Kept)
		require.Len(t, again.Games, len(pr.Games))
		require.Zero(t, warn.n, "the sound records read with nothing dropped")
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
