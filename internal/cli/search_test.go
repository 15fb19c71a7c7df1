package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
)

func TestAnalyseCommand(t *testing.T) {
	out, errs, code := runCLI("analyse", "--variant", "english", "--depth", "6")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 7)
	re := regexp.MustCompile(`^depth=(\d+) score=(-?\d+\.\d\d) nodes=\d+ time=\d+\.\d{3} mnps=\d+\.\d\d pv="([^"]+)"$`)
	for i, l := range lines[:6] {
		m := re.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		assert.Equal(t, strconv.Itoa(i+1), m[1])
	}
	best := regexp.MustCompile(`^bestmove=(\S+) score=(-?\d+\.\d\d) depth=6 nodes=\d+ time=\d+\.\d{3} mnps=\d+\.\d\d pv="([^"]+)"$`).FindStringSubmatch(lines[6])
	require.NotNil(t, best, lines[6])
	// The best move is legal in the start position and leads its PV.
	p := engine.StartPosition(engine.English)
	_, err := p.ParseMove(best[1])
	assert.NoError(t, err)
	assert.True(t, strings.HasPrefix(best[3], best[1]+" ") || best[3] == best[1], lines[6])

	// Moves played first; the PV is written from the position after them.
	out, errs, code = runCLI("analyse", "--variant", "russian", "--moves", "c3-d4 f6-g5", "--nodes", "20000")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "bestmove=")
	// PDN move numbers in --moves are skipped, and a trailing result.
	out2, errs, code := runCLI("analyse", "--variant", "russian", "--moves", "1. c3-d4 f6-g5 *", "--nodes", "20000")
	require.Equal(t, 0, code, errs)
	untimed := regexp.MustCompile(`time=\S+ mnps=\S+ `)
	assert.Equal(t, untimed.ReplaceAllString(out, ""), untimed.ReplaceAllString(out2, ""))
	// A forced win is 100 - n/100 men: the capture takes Black's last piece.
	out, _, code = runCLI("analyse", "--variant", "english", "--fen", "W:W18:B14", "--depth", "3")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "score=99.99 ")
	assert.Contains(t, out, "bestmove=18x9 score=99.99 ")
}

// TestAnalyseMultiPV: analyse --multipv 3 prints three lines per
// iteration, multipv=1..3, then the bestmove line (line 1's move) and the
// last iteration's three lines, distinct moves, best first.
func TestAnalyseMultiPV(t *testing.T) {
	out, errs, code := runCLI("analyse", "--variant", "english", "--depth", "5", "--multipv", "3")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5*3+1+3, out)
	re := regexp.MustCompile(`^multipv=(\d) depth=(\d+) score=(-?\d+\.\d\d) nodes=\d+ time=\d+\.\d{3} mnps=\d+\.\d\d pv="([^"]+)"$`)
	var last [][]string
	for i, l := range lines[:15] {
		m := re.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		assert.Equal(t, strconv.Itoa(i%3+1), m[1], l)
		assert.Equal(t, strconv.Itoa(i/3+1), m[2], l)
		if i >= 12 {
			last = append(last, m)
		}
	}
	best := regexp.MustCompile(`^bestmove=(\S+) score=(-?\d+\.\d\d) depth=5 `).FindStringSubmatch(lines[15])
	require.NotNil(t, best, lines[15])
	lineRE := regexp.MustCompile(`^line=(\d) move=(\S+) score=(-?\d+\.\d\d) pv="([^"]+)"$`)
	p := engine.StartPosition(engine.English)
	seen := map[string]bool{}
	prev := 1e9
	for k, l := range lines[16:] {
		m := lineRE.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		assert.Equal(t, strconv.Itoa(k+1), m[1], l)
		_, err := p.ParseMove(m[2])
		assert.NoError(t, err, l)
		assert.False(t, seen[m[2]], "%s: a move of an earlier line", l)
		seen[m[2]] = true
		score, err := strconv.ParseFloat(m[3], 64)
		require.NoError(t, err)
		assert.LessOrEqual(t, score, prev, l)
		prev = score
		assert.Equal(t, last[k][3], m[3], "line %d is the last iteration's", k+1)
		assert.Equal(t, last[k][4], m[4], "line %d is the last iteration's", k+1)
	}
	assert.Equal(t, best[1], lines[16][len("line=1 move="):len("line=1 move=")+len(best[1])], "bestmove is line 1's")

	_, errs, code = runCLI("analyse", "--depth", "2", "--multipv", "33")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "--multipv 33 out of range 1..32")
}

// TestAnalyseMovetimeShowsPlayedMove: under --movetime the move played
// can come from an iteration no info line reported; its line says with
// which score, depth and PV it was chosen.
func TestAnalyseMovetimeShowsPlayedMove(t *testing.T) {
	out, errs, code := runCLI("analyse", "--variant", "international", "--movetime", "0.3")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	m := regexp.MustCompile(`^bestmove=(\S+) score=-?\d+\.\d\d depth=(\d+) nodes=\d+ time=\d+\.\d{3} mnps=\d+\.\d\d pv="([^"]+)"$`).FindStringSubmatch(last)
	require.NotNil(t, m, last)
	assert.True(t, strings.HasPrefix(m[3]+" ", m[1]+" "), "the PV starts with the move played: %s", last)
}

func TestMoveTokens(t *testing.T) {
	assert.Equal(t, []string{"11-15", "23-19", "8-11"}, moveTokens("1. 11-15 23-19 2.8-11 1-0"))
	assert.Equal(t, []string{"c3-d4", "f6-g5"}, moveTokens("1.c3-d4 1... f6-g5 1/2-1/2"))
	assert.Equal(t, []string{"1-5"}, moveTokens("1-5"))
}

// TestMoveOverheadFlag: --move-overhead reaches the limits (0: none) and a
// move time is used up to it.
func TestMoveOverheadFlag(t *testing.T) {
	for ms, want := range map[int]time.Duration{10: 0, 0: -1, 250: 250 * time.Millisecond} {
		cmd := &cobra.Command{}
		var sf searchFlags
		sf.register(cmd)
		require.NoError(t, cmd.Flags().Parse([]string{"--move-overhead", strconv.Itoa(ms)}))
		p, err := sf.player(cmd)
		require.NoError(t, err)
		assert.Equal(t, want, p.MoveOverhead(), "%d ms", ms)
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
	require.Len(t, lines, len(bench.BenchPositions)+1)
	m := regexp.MustCompile(`^nodes=(\d+) mnps=\d+\.\d\d$`).FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, lines[len(lines)-1])
	want, _ := bench.Bench(5, nil)
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
	assert.True(t, strings.HasPrefix(lines[3], "solved=2 total=3 "), lines[3])

	// A file without positions is bad input, not "solved=0 total=0".
	empty := filepath.Join(dir, "empty.epd")
	require.NoError(t, os.WriteFile(empty, []byte("# nothing yet\n\n"), 0o644))
	out, errs, code = runCLI("solve", "--variant", "english", "--depth", "2", empty)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, "empty.epd: no positions")
}

// TestBenchCommandSignature checks that `damka bench` without --depth prints
// the signature recorded in bench.BenchSignature.
func TestBenchCommandSignature(t *testing.T) {
	out, errs, code := runCLI("bench")
	require.Equal(t, 0, code, errs)
	assert.Regexp(t, fmt.Sprintf(`(?m)^nodes=%d mnps=\d+\.\d\d$`, bench.BenchSignature), out)
}

// TestWrongVariantHint: a suite the default variant cannot read names the
// variant that reads it; --variant stays the authority.
func TestWrongVariantHint(t *testing.T) {
	suite := filepath.Join("..", "..", "bench", "testdata", "solve_english.epd")
	out, errs, code := runCLI("solve", suite, "--depth", "3")
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, "read as russian, the default variant")
	assert.Contains(t, errs, "it reads as english: use --variant english")
	// Given --variant, the error is the plain one.
	_, errs, code = runCLI("solve", suite, "--depth", "3", "--variant", "russian")
	assert.Equal(t, exitBadInput, code)
	assert.NotContains(t, errs, "use --variant")
	out, errs, code = runCLI("solve", suite, "--depth", "1", "--variant", "english")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "solved=")

	// A PDN game of another variant: one line names it.
	dir := t.TempDir()
	pdn := filepath.Join(dir, "english.pdn")
	require.NoError(t, os.WriteFile(pdn, []byte("[Event \"a\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n[Event \"b\"]\n1. 9-13 22-18 *\n"), 0o644))
	out, _, code = runCLI("pdn", "check", pdn)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "2 of the games fail at their first move as russian, the default variant")
	assert.Contains(t, out, "2 read as english: use --variant english")
	out, _, code = runCLI("pdn", "check", "--variant", "russian", pdn)
	assert.Equal(t, 1, code)
	assert.NotContains(t, out, "use --variant")
	out, _, code = runCLI("pdn", "check", "--variant", "english", pdn)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=2 ok=2 bad=0\n", out)
	// damka review gives the same hint for the same file.
	_, errs, code = runCLI("review", pdn, "--depth", "1", "--out", filepath.Join(dir, "r.pdn"))
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "2 of the games fail at their first move as russian, the default variant")
	assert.Contains(t, errs, "2 read as english: use --variant english")
	// An ambiguous one is never guessed: c3-d4 reads as russian and brazilian.
	amb := filepath.Join(dir, "amb.pdn")
	require.NoError(t, os.WriteFile(amb, []byte("1. c3-d4 f6-g5 *\n"), 0o644))
	hint := variantHint(amb, engine.English, []int{1})
	assert.Contains(t, hint, "1 read as any of russian, brazilian: choose one with --variant")
	assert.NotContains(t, hint, "use --variant")

	out, _, code = runCLI("pdn", "check", testfiles.Path(t, "english_tinsley_checkerboard.pdn"))
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "read as english: use --variant english")
}

// TestAnalyseHelpPartialIteration: the help of analyse says what a limit
// that stops an unfinished deeper iteration does to the bestmove line and
// to the multi-PV lines after it (line 1 can then be another move: with
// --multipv 3 --nodes 190000 from the Russian start, bestmove c3-b4 of the
// unfinished depth 11, line=1 c3-d4 of depth 10).
func TestAnalyseHelpPartialIteration(t *testing.T) {
	out, errs, code := runCLI("analyse", "--help")
	require.Equal(t, 0, code, errs)
	text := strings.Join(strings.Fields(out), " ")
	assert.Contains(t, text, "D is the last completed depth")
	assert.Contains(t, text, "line 1's move is M unless the unfinished iteration changed it")
	assert.Contains(t, text, "one stopped by the limit prints the lines it finished")
}
