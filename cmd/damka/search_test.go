package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/engine"
	"damka/search"
)

func TestAnalyseCommand(t *testing.T) {
	out, errs, code := runCLI("analyse", "--variant", "english", "--depth", "6")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 7)
	re := regexp.MustCompile(`^depth=(\d+) score=(-?\d+|win\d+|loss\d+) nodes=\d+ time=\d+\.\d{3} nps=\d+ pv="([^"]+)"$`)
	for i, l := range lines[:6] {
		m := re.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		assert.Equal(t, strconv.Itoa(i+1), m[1])
	}
	require.True(t, strings.HasPrefix(lines[6], "bestmove="), lines[6])
	// The best move is legal in the start position.
	p := engine.StartPosition(engine.English)
	_, err := p.ParseMove(strings.TrimPrefix(lines[6], "bestmove="))
	assert.NoError(t, err)

	// Moves played first; the PV is written from the position after them.
	out, errs, code = runCLI("analyse", "--variant", "russian", "--moves", "c3-d4 f6-g5", "--nodes", "20000")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "bestmove=")
	// A forced win is reported as winN: the capture takes Black's last piece.
	out, _, code = runCLI("analyse", "--variant", "english", "--fen", "W:W18:B14", "--depth", "3")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "score=win1 ")
	assert.Contains(t, out, "bestmove=18x9\n")
}

// TestMoveOverheadFlag: --move-overhead reaches the limits (0: none) and a
// move time is used up to it.
func TestMoveOverheadFlag(t *testing.T) {
	for ms, want := range map[int]time.Duration{10: 10 * time.Millisecond, 0: -1, 250: 250 * time.Millisecond} {
		sf := searchFlags{movetime: 0.5, threads: 1, hashMiB: 1, overhead: ms}
		l, err := sf.limits()
		require.NoError(t, err)
		assert.Equal(t, want, l.MoveOverhead, "%d ms", ms)
	}
	began := time.Now()
	out, errs, code := runCLI("analyse", "--movetime", "0.3", "--move-overhead", "100")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "bestmove=")
	assert.GreaterOrEqual(t, time.Since(began), 150*time.Millisecond)
}

func TestAnalyseBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"analyse", "--depth", "3", "--nodes", "10"},
		{"analyse"},
		{"analyse", "--depth", "3", "--moves", "c3-d4 c3-d4"},
		{"analyse", "--depth", "3", "--fen", "W:W1"},
		{"analyse", "--variant", "english", "--depth", "3", "--fen", "W:W5:B1"},
		{"solve", "--depth", "3", "/nonexistent.epd"},
		{"bench", "--depth", "0"},
		{"analyse", "--movetime", "NaN"},
		{"analyse", "--movetime", "-1"},
		{"analyse", "--depth", "3", "--hash", "65536"},
		{"perft", "--depth", "2", "--hash", "65536"},
		{"analyse", "--movetime", "0.1", "--move-overhead", "-1"},
		{"analyse", "--movetime", "0.1", "--move-overhead", "10001"},
		{"hub", "--move-overhead", "-5"},
		{"dxp", "--connect", "127.0.0.1:1", "--variant", "russian", "--move-overhead", "20000"},
	} {
		out, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
		assert.Empty(t, out, "%v", args)
	}
}

func TestBenchCommandMatchesSearchBench(t *testing.T) {
	out, errs, code := runCLI("bench", "--depth", "5")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, len(search.BenchPositions)+1)
	m := regexp.MustCompile(`^nodes=(\d+) nps=\d+$`).FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, lines[len(lines)-1])
	want, _ := search.Bench(5)
	assert.Equal(t, strconv.FormatUint(want, 10), m[1])
}

func TestSolveCommand(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.epd")
	// English: the only move; a shot (any of two listed moves solves it);
	// the same shot with a losing move given as best counts unsolved.
	require.NoError(t, os.WriteFile(suite, []byte(`# test suite
B:W26,27:B22 ; bm 22x31 ; id forced
B:WK3,K13,19,27,32:B7,11,K25,26 ; bm 7-10 26-31 ; id shot
B:WK3,K13,19,27,32:B7,11,K25,26 ; bm 25-21 ; id wrong
`), 0o644))
	out, errs, code := runCLI("solve", "--variant", "english", "--depth", "8", suite)
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 0+4, out)
	assert.Contains(t, lines[0], "id=forced ok=true move=22x31")
	assert.Contains(t, lines[1], "id=shot ok=true move=26-31")
	assert.Contains(t, lines[2], "id=wrong ok=false move=26-31")
	assert.Equal(t, "solved=2 total=3", lines[3])
}

// TestBenchCommandSignature checks that `damka bench` without --depth prints
// the signature recorded in search.BenchSignature.
func TestBenchCommandSignature(t *testing.T) {
	out, errs, code := runCLI("bench")
	require.Equal(t, 0, code, errs)
	assert.Regexp(t, fmt.Sprintf(`(?m)^nodes=%d nps=\d+$`, search.BenchSignature), out)
}
