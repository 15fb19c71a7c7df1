package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/internal/shareddata"
)

// runCLI runs the command line in-process and returns stdout, stderr and
// the exit status.
func runCLI(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestPerftCommand(t *testing.T) {
	out, errs, code := runCLI("perft", "--variant", "english", "--depth", "5")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	assert.True(t, strings.HasPrefix(lines[4], "depth=5 nodes=7361 time="), lines[4])

	out, _, code = runCLI("perft", "--variant", "russian", "--fen", "W:WKd2:Bc5,e5,c3,e3", "--depth", "1", "--paths")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "depth=1 nodes=4 ")
	out, _, _ = runCLI("perft", "--variant", "russian", "--fen", "W:WKd2:Bc5,e5,c3,e3", "--depth", "1")
	assert.Contains(t, out, "depth=1 nodes=3 ")

	out, _, code = runCLI("perft", "--variant", "international", "--depth", "3", "--divide", "--threads", "2", "--hash", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "divide moves=9 total=658\n")
	assert.Contains(t, out, "depth=3 nodes=658 ")
}

func TestMovesCommand(t *testing.T) {
	out, _, code := runCLI("moves", "--variant", "russian", "--fen", "W:Wh6:Bg7,c5,d2")
	require.Equal(t, 0, code)
	assert.Equal(t, "h6:f8:b4:e1\n", out)
	out, _, code = runCLI("moves", "--variant", "english", "--fen", "B:W26,27:B22")
	require.Equal(t, 0, code)
	assert.Equal(t, "22x31\n", out)
}

func TestBadInputExitStatus(t *testing.T) {
	cases := [][]string{
		{"perft", "--variant", "chess"},
		{"perft", "--fen", "W:W99", "--depth", "2"},
		{"perft", "--depth", "0"},
		{"perft", "--depth", "x"},
		{"moves", "--fen", "X:W1"},
		{"nosuchcommand"},
		{"pdn", "check", "/nonexistent/file.pdn"},
		{"pdn", "bogus"},
	}
	for _, args := range cases {
		out, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
		assert.Empty(t, out, "%v", args)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errs), "\n")+1, "one error line for %v: %q", args, errs)
	}
}

func TestPDNCheckCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pdn")
	require.NoError(t, os.WriteFile(good, []byte(`[Event "a"]
[GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 *

[Event "b"]
[GameType "21"]
1. 11-15 23-19 2. 8-11 22-21 *

[Event "c"]
1. c3-d4 f6-g5 *
`), 0o644))
	out, _, code := runCLI("pdn", "check", "--variant", "russian", good)
	assert.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, out)
	assert.Contains(t, lines[0], "22-21")
	assert.Equal(t, "games=3 ok=2 bad=1", lines[1])

	russian := shareddata.Path(t, "russian_ussr_championship_X.pdn")
	out, _, code = runCLI("pdn", "check", "--variant", "russian", russian)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=153 ok=153 bad=0\n", out)
}
