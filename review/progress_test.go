package review

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// testStamp is the stamp of the progress files of these tests.
var testStamp = NewStamp("in.pdn", []byte("1. c3-d4 *\n"), engine.Russian, "depth 3", "test", "eval-file= egdb-path= egdb-pieces=7")

// writeProgress writes a progress file of games 1..n into dir and returns
// its name, its content and the offset of each record.
func writeProgress(t *testing.T, dir string, n int) (string, []byte, []int) {
	t.Helper()
	name := filepath.Join(dir, "p.partial")
	pf, err := CreateProgress(name, testStamp)
	require.NoError(t, err)
	for i := 1; i <= n; i++ {
		rv := &Game{Index: i, Names: [2]string{"A", "B"}, Result: "*",
			Record: fmt.Appendf(nil, "[Event \"game %d\"]\n1. c3-d4 {[%%eval 0.10]} *\n\n", i)}
		rv.Sides[engine.White].Moves = 1
		require.NoError(t, pf.Add(rv))
	}
	require.NoError(t, pf.Close(false))
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	var at []int
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(progressGamePrefix))
		if i < 0 {
			break
		}
		at = append(at, off+i)
		off += i + 1
	}
	require.Len(t, at, n)
	return name, data, at
}

// lineOf is the 1-based line of offset off in b.
func lineOf(b []byte, off int) int { return 1 + bytes.Count(b[:off], []byte("\n")) }

// TestReadProgressDamagedMiddle: a damaged record in the middle of a
// progress file (its text, or its game line) is named by its place and
// line and left out, and the sound records after it are kept (Kept: the
// file without it), so that only its game is reviewed again;
// ResumeProgress writes the file again without it and appends after the
// sound records.
func TestReadProgressDamagedMiddle(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(b []byte, at []int)
		gone   []int // games left out
		want   string
	}{
		{"text", func(b []byte, at []int) { b[at[2]-5] ^= 1 }, []int{2},
			"record 2 (line %d), in the middle of the file, is damaged (game 2: its text does not match its sha256)"},
		{"game line", func(b []byte, at []int) { b[at[1]+len(progressGamePrefix)] = 'x' }, []int{2},
			"record 2 (line %d), in the middle of the file, is damaged (bad game line"},
		{"two records", func(b []byte, at []int) { b[at[2]-5] ^= 1; b[at[3]-5] ^= 1 }, []int{2, 3},
			"records 2 to 3 (from line %d), in the middle of the file, are damaged"},
	} {
		t.Run(c.name, func(t *testing.T) {
			name, data, at := writeProgress(t, t.TempDir(), 4)
			c.damage(data, at)
			require.NoError(t, os.WriteFile(name, data, 0o644))
			var warn bytes.Buffer
			pr, err := ReadProgress(name, testStamp, &warn)
			require.NoError(t, err)
			assert.Contains(t, warn.String(), name+": "+fmt.Sprintf(c.want, lineOf(data, at[1])))
			assert.Contains(t, warn.String(), "the records after")
			assert.NotContains(t, warn.String(), "last record")
			for i := 1; i <= 4; i++ {
				if assert.Equal(t, !slices.Contains(c.gone, i), pr.Games[i] != nil, "game %d", i) && pr.Games[i] != nil {
					assert.Contains(t, string(pr.Games[i].Record), fmt.Sprintf("game %d", i))
				}
			}
			assert.Equal(t, int64(at[1]), pr.Size, "the sound beginning ends before the damaged record")
			want := append(bytes.Clone(data[:at[1]]), data[at[1+len(c.gone)]:]...)
			assert.Equal(t, string(want), string(pr.Kept), "the file without the damaged records")

			warn.Reset()
			pf, games, err := ResumeProgress(name, testStamp, &warn)
			require.NoError(t, err)
			assert.Len(t, games, 4-len(c.gone))
			assert.Equal(t, 4-len(c.gone), pf.Games())
			for _, i := range c.gone {
				rv := &Game{Index: i, Names: [2]string{"A", "B"}, Result: "*", Record: []byte("1. c3-d4 *\n\n")}
				require.NoError(t, pf.Add(rv))
			}
			require.NoError(t, pf.Close(false))
			assert.Contains(t, warn.String(), "in the middle of the file", "ResumeProgress warns as ReadProgress")
			warn.Reset()
			again, err := ReadProgress(name, testStamp, &warn)
			require.NoError(t, err)
			assert.Empty(t, warn.String(), "the file written again reads with nothing dropped")
			assert.Len(t, again.Games, 4)
			assert.Nil(t, again.Kept)
			entries, err := os.ReadDir(filepath.Dir(name))
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no temporary file left")
		})
	}
}

// TestReadProgressTornLast: a half-written last record is dropped with the
// warning of a stopped run, naming it; a damaged end of several records
// says how many.
func TestReadProgressTornLast(t *testing.T) {
	name, data, at := writeProgress(t, t.TempDir(), 3)
	require.NoError(t, os.WriteFile(name, data[:len(data)-10], 0o644))
	var warn bytes.Buffer
	pr, err := ReadProgress(name, testStamp, &warn)
	require.NoError(t, err)
	assert.Contains(t, warn.String(), fmt.Sprintf("%s: half-written last record dropped (record 3, line %d: ", name, lineOf(data, at[2])))
	assert.Len(t, pr.Games, 2)
	assert.Equal(t, int64(at[2]), pr.Size)
	assert.Nil(t, pr.Kept)

	data[at[2]-5] ^= 1 // record 2 damaged, record 3 torn
	require.NoError(t, os.WriteFile(name, data[:len(data)-10], 0o644))
	warn.Reset()
	pr, err = ReadProgress(name, testStamp, &warn)
	require.NoError(t, err)
	assert.Contains(t, warn.String(), fmt.Sprintf("%s: the last 2 records (2 to 3, from line %d) are damaged", name, lineOf(data, at[1])))
	assert.Len(t, pr.Games, 1)
	assert.Equal(t, int64(at[1]), pr.Size)
	assert.Nil(t, pr.Kept)
	assert.Equal(t, 1, strings.Count(warn.String(), "\n"))
}
