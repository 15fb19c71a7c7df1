package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
)

// bookFile writes an English book whose start position has one move,
// 12-16, which the embedded book never picks at its
// default margin (it scores 0.13 below the best there). It returns the
// move in Hub notation and the file.
func bookFile(t *testing.T) (string, string) {
	t.Helper()
	start := engine.StartPosition(engine.English)
	var list engine.MoveList
	start.Generate(&list)
	var m engine.Move
	for _, c := range list.Slice() {
		if start.FormatMove(c, engine.FormatHub) == "12-16" {
			m = c
		}
	}
	require.NotZero(t, m)
	data, err := book.Encode(engine.English, "cmd test book", []book.Record{{Position: start, Moves: []book.Entry{{Move: m, Weight: 1}}}})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "english.book")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return start.FormatMove(m, engine.FormatHub), path
}

// TestBookFileFlagErrors: hub and dxp refuse a --book-file that does not
// load, or holds another variant, with exit status 2 and a message naming
// the file and what was wrong.
func TestBookFileFlagErrors(t *testing.T) {
	_, good := bookFile(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.book")
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	damaged := filepath.Join(dir, "damaged.book")
	require.NoError(t, os.WriteFile(damaged, append(data[:len(data)-1:len(data)-1], data[len(data)-1]^1), 0o644))
	commands := [][]string{
		{"hub", "--variant", "english"},
		{"dxp", "--connect", "127.0.0.1:1", "--variant", "english"},
	}
	for _, args := range commands {
		for _, f := range []struct{ file, why string }{
			{missing, "damka: --book-file: book: open " + missing + ": no such file or directory\n"},
			{damaged, "damka: --book-file: " + damaged + ": book: "},
			{dir, "damka: --book-file: book: " + dir + " is a directory, not a regular file\n"},
		} {
			a := append(append([]string(nil), args...), "--book-file", f.file)
			out, errs, code := runCLI(a...)
			assert.Equal(t, exitBadInput, code, "%v: %s", a, errs)
			assert.Empty(t, out, "%v", a)
			assert.Contains(t, errs, f.why, "%v", a)
		}
		a := append(append([]string(nil), args...), "--book-file", good)
		a[len(args)-1] = "russian"
		out, errs, code := runCLI(a...)
		assert.Equal(t, exitBadInput, code, "%v: %s", a, errs)
		assert.Empty(t, out, "%v", a)
		assert.Equal(t, "damka: --book-file "+good+" is a english book, not russian: give a russian book or --variant english\n", errs, "%v", a)
	}
}

// TestBookFileFlag: damka hub --book-file is book-file's default, and its
// moves are played.
func TestBookFileFlag(t *testing.T) {
	mv, good := bookFile(t)
	const script = "hub\ninit\npos\nlevel depth=2\ngo think\nquit\n"
	out, err := rootWithInput(t, script, "hub", "--variant", "english", "--book-file", good)
	require.NoError(t, err)
	assert.Contains(t, out, "\nparam name=book-file value="+good+" type=string\n")
	assert.Contains(t, out, "\ndone move="+mv+"\n")
	assert.NotContains(t, out, "error")

	out, err = rootWithInput(t, script, "hub", "--variant", "english")
	require.NoError(t, err)
	m := regexp.MustCompile(`\ndone move=(\S+)`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.NotEqual(t, mv, m[1], "the embedded book")
}
