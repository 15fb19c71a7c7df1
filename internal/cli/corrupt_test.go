package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corruptCopies writes beside each other a truncated copy of good (its
// last 3 bytes cut), a copy with one byte flipped (at offset at) and names
// a missing file, all named base in their own folders.
func corruptCopies(t *testing.T, good string, at int, base string) (truncated, flipped, missing string) {
	t.Helper()
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	require.Greater(t, len(data), at)
	dir := t.TempDir()
	for _, sub := range []string{"truncated", "flipped"} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, sub), 0o755))
	}
	truncated = filepath.Join(dir, "truncated", base)
	require.NoError(t, os.WriteFile(truncated, data[:len(data)-3], 0o644))
	bad := append([]byte(nil), data...)
	bad[at] ^= 0x55
	flipped = filepath.Join(dir, "flipped", base)
	require.NoError(t, os.WriteFile(flipped, bad, 0o644))
	return truncated, flipped, filepath.Join(dir, "missing", base)
}

// TestCorruptDataFiles: weights (--eval-file), book (--book-file) and
// endgame tables (--egdb-path) that are truncated, have a flipped byte,
// are a folder (a file, for the tables' folder) or are missing. Weights
// and books are read whole at the start: exit status 2, nothing on
// stdout, and a message naming the flag, the file and what is wrong. The
// tables' folder is checked at the start (exit 2 naming it) but each table
// on its first probe, as egdb documents: a damaged one is reported on
// stderr, naming the file and what is wrong, and the search goes on
// without it (the log, stderr by default, here --log-file).
func TestCorruptDataFiles(t *testing.T) {
	_, goodEval, _, _, _ := evalFiles(t)
	evalTrunc, evalFlip, evalMissing := corruptCopies(t, goodEval, 100, "russian.dkw")
	_, goodBook := bookFile(t)
	st, err := os.Stat(goodBook)
	require.NoError(t, err)
	bookTrunc, bookFlip, bookMissing := corruptCopies(t, goodBook, int(st.Size())-1, "english.book")
	tableTrunc, tableFlip, tableMissing := corruptCopies(t, "../../egdb/data/english-0201.egdb", 40, "english-0201.egdb")
	// Its colour-reversed slice, damaged alike beside it: the search
	// probes both.
	t2, f2, _ := corruptCopies(t, "../../egdb/data/english-0102.egdb", 40, "english-0102.egdb")
	require.NoError(t, os.Rename(t2, filepath.Join(filepath.Dir(tableTrunc), "english-0102.egdb")))
	require.NoError(t, os.Rename(f2, filepath.Join(filepath.Dir(tableFlip), "english-0102.egdb")))
	dir := t.TempDir()

	analyse := []string{"analyse", "--variant", "russian", "--depth", "1"}
	hub := []string{"hub", "--variant", "english"}
	// White's two kings against one: the tables know the win.
	probe := []string{"analyse", "--variant", "english", "--fen", "W:WK29,K30:BK4", "--depth", "4"}
	cases := []struct {
		name string
		args []string
		want []string // in stderr
	}{
		{"eval truncated", append(analyse, "--eval-file", evalTrunc), []string{"--eval-file", evalTrunc, "truncated or padded"}},
		{"eval flipped byte", append(analyse, "--eval-file", evalFlip), []string{"--eval-file", evalFlip, "checksum mismatch"}},
		{"eval folder", append(analyse, "--eval-file", dir), []string{"--eval-file", dir, "is a directory"}},
		{"eval missing", append(analyse, "--eval-file", evalMissing), []string{"--eval-file", evalMissing, "no such file"}},
		{"book truncated", append(hub, "--book-file", bookTrunc), []string{"--book-file", bookTrunc, "book: "}},
		{"book flipped byte", append(hub, "--book-file", bookFlip), []string{"--book-file", bookFlip, "book: "}},
		{"book folder", append(hub, "--book-file", dir), []string{"--book-file", dir, "is a directory"}},
		{"book missing", append(hub, "--book-file", bookMissing), []string{"--book-file", bookMissing, "no such file"}},
		{"tables a file", append(probe, "--egdb-path", tableTrunc), []string{"--egdb-path", tableTrunc, "not a directory"}},
		{"tables missing", append(probe, "--egdb-path", filepath.Dir(tableMissing)), []string{"--egdb-path", filepath.Dir(tableMissing), "no such file"}},
	}
	for _, c := range cases {
		out, errs, code := runCLI(c.args...)
		assert.Equal(t, exitBadInput, code, "%s: %s", c.name, errs)
		assert.Empty(t, out, c.name)
		for _, w := range c.want {
			assert.Contains(t, errs, w, c.name)
		}
		assert.NotContains(t, errs, "panic", c.name)
	}

	out, errs, code := runCLI(probe...)
	require.Equal(t, 0, code, errs)
	won := bestScore(t, out)
	for _, c := range []struct{ name, file, want string }{
		{"table truncated", tableTrunc, "corrupt endgame table: "},
		{"table flipped byte", tableFlip, "corrupt endgame table: "},
	} {
		logFile := filepath.Join(t.TempDir(), "log")
		out, errs, code := runCLI(append(probe, "--egdb-path", filepath.Dir(c.file), "--log-file", logFile)...)
		require.Equal(t, 0, code, "%s: %s", c.name, errs)
		log, err := os.ReadFile(logFile)
		require.NoError(t, err)
		assert.Contains(t, string(log), "endgame table not used: "+c.file+": "+c.want, c.name)
		assert.NotEqual(t, won, bestScore(t, out), "%s: the damaged table is not used", c.name)
	}
}
