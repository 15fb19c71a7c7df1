package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeSuite writes lines as a suite file in a temporary folder.
func writeSuite(t *testing.T, lines ...string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "suite.epd")
	require.NoError(t, os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return name
}

// solveLineRE reads a per-position line of damka solve.
var solveLineRE = regexp.MustCompile(`^(\d+) id=(\S+) ok=(true|false) move=(\S+) bm=(\S+) score=(\S+) depth=(\S+) nodes=(\S+) solved_at=(\S+) time=(\d+\.\d{3})(?: engine=(\S+))?(?: reason=(".*"))?$`)

// solveRows splits damka solve's output into its per-position lines (read
// by solveLineRE) and its summary lines.
func solveRows(t *testing.T, out string) (rows [][]string, summaries []string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "solved=") {
			summaries = append(summaries, l)
			continue
		}
		m := solveLineRE.FindStringSubmatch(l)
		require.NotNil(t, m, "line %q", l)
		rows = append(rows, m)
	}
	return rows, summaries
}

// TestSolveTimes: damka's own search gives solved_at for a position it
// solves at depth 1 and "-" for one it does not solve, and the summary's
// figures.
func TestSolveTimes(t *testing.T) {
	suite := writeSuite(t,
		"B:W26,27:B22 ; bm 22x31 ; id forced",
		"B:WK3,K13,19,27,32:B7,11,K25,26 ; bm 25-21 ; id wrong")
	out, errs, code := runCLI("solve", suite, "--variant", "english", "--depth", "4")
	require.Equal(t, 0, code, errs)
	rows, sums := solveRows(t, out)
	require.Len(t, rows, 2, out)
	assert.Equal(t, "true", rows[0][3])
	assert.Regexp(t, `^\d+\.\d{3}$`, rows[0][9], "solved at depth 1")
	assert.Equal(t, "false", rows[1][3])
	assert.Equal(t, "-", rows[1][9])
	assert.Empty(t, rows[0][11], "no engine= for damka's own search")
	require.Len(t, sums, 1)
	assert.Regexp(t, `^solved=1 total=2 median_depth=4 nodes=\d+ mean_solved_at=\d+\.\d{3} median_solved_at=\d+\.\d{3} time=\d+\.\d{3}$`, sums[0])

	// None solved: the solved_at figures are "-".
	suite = writeSuite(t, "B:WK3,K13,19,27,32:B7,11,K25,26 ; bm 25-21 ; id wrong")
	out, errs, code = runCLI("solve", "--variant", "english", "--depth", "2", suite)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "solved=0 total=1 median_depth=2 ")
	assert.Contains(t, out, " mean_solved_at=- median_solved_at=- ")
}

// TestSolveEngines: the suite through damka itself as a Hub engine gives
// the results of damka's own search; engines that crash, play illegal
// moves or never start fail their positions with a reason and the run
// goes on to one summary line per engine.
func TestSolveEngines(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake engines are Unix programs")
	}
	dir := t.TempDir()
	damka := buildPkg(t, dir, "damka", "../../cmd/damka")
	fake := buildPkg(t, dir, "fakeengine", "../../match/testdata/fakeengine")

	// The first positions of the English suite, each solved at a low depth.
	data, err := os.ReadFile(filepath.Join("..", "..", "bench", "testdata", "solve_english.epd"))
	require.NoError(t, err)
	var easy []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "found at depth 1") && len(easy) < 4 {
			easy = append(easy, l)
		}
	}
	require.Len(t, easy, 4)
	suite := writeSuite(t, easy...)

	own, errs, code := runCLI("solve", suite, "--variant", "english", "--depth", "6", "--threads", "1")
	require.Equal(t, 0, code, errs)
	ownRows, _ := solveRows(t, own)
	out, errs, code := runCLI("solve", suite, "--variant", "english", "--depth", "6",
		"--engine", "name=hubdamka", "cmd="+damka+" hub", "option.threads=1")
	require.Equal(t, 0, code, errs)
	rows, sums := solveRows(t, out)
	require.Len(t, rows, len(ownRows), out)
	for i, r := range rows {
		assert.Equal(t, ownRows[i][2], r[2], "id")
		assert.Equal(t, ownRows[i][3], r[3], "ok of %s", r[2])
		assert.Equal(t, ownRows[i][4], r[4], "move of %s", r[2])
		assert.Equal(t, "6", r[7], "depth of %s", r[2])
		assert.Equal(t, "hubdamka", r[11])
		assert.Empty(t, r[12], "no reason")
		if r[3] == "true" {
			assert.Regexp(t, `^\d+\.\d{3}$`, r[9])
		}
	}
	require.Len(t, sums, 1)
	assert.Regexp(t, `^solved=\d total=4 median_depth=6 nodes=\d+ mean_solved_at=\S+ median_solved_at=\S+ time=\S+ failed=0 engine=hubdamka$`, sums[0])

	// Three failing engines in turn, and the good fake between them.
	suite = writeSuite(t, easy[:2]...)
	out, errs, code = runCLI("solve", suite, "--variant", "english", "--movetime", "0.05", "--time-margin", "0.5",
		"--engine", "name=crash", "cmd="+fake+" -mode crash",
		"--engine", "name=illegal", "cmd="+fake+" -mode illegal",
		"--engine", "name=good", "cmd="+fake,
		"--engine", "name=never", "cmd=sh -c 'read x; exit 3'")
	require.Equal(t, 0, code, errs)
	rows, sums = solveRows(t, out)
	require.Len(t, rows, 8, out)
	want := map[string]string{
		"crash":   `engine crash crashed while searching`,
		"illegal": `engine illegal played an illegal move`,
		"never":   `engine never could not be started`,
	}
	for _, r := range rows {
		name := r[11]
		if name == "good" {
			assert.Empty(t, r[12], "good: no reason")
			continue
		}
		assert.Equal(t, "false", r[3], "%s fails", name)
		assert.Equal(t, "none", r[4])
		assert.Equal(t, "-", r[9])
		assert.Contains(t, r[12], want[name], "reason of %s", name)
	}
	require.Len(t, sums, 4, out)
	for i, name := range []string{"crash", "illegal", "good", "never"} {
		assert.True(t, strings.HasSuffix(sums[i], " engine="+name), sums[i])
		failed := " failed=2 "
		if name == "good" {
			failed = " failed=0 "
		}
		assert.Contains(t, sums[i], failed)
	}
	assert.Contains(t, sums[0], "solved=0 total=2 median_depth=- nodes=- mean_solved_at=- ")
}

// TestSolveEngineBadInput: a wrong engine description or flag is bad input
// (exit status 2) naming what was wrong, before any search.
func TestSolveEngineBadInput(t *testing.T) {
	suite := writeSuite(t, "B:W26,27:B22 ; bm 22x31 ; id forced")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--engine", "name=x", "bogus=1"}, `unknown key "bogus"`},
		{[]string{"--engine", "name=x"}, "no cmd= given"},
		{[]string{"--engine", "name=x", "cmd=/nonexistent/engine"}, `--engine 1 (x): cmd "/nonexistent/engine"`},
		{[]string{"--engine", "name=x cmd=sh", "--engine", "name=x cmd=sh"}, `the name "x" is taken`},
		{[]string{"--engine", "name=x cmd=sh tc=10+1"}, "a suite has no clock"},
		{[]string{"--engine", "name=x cmd=sh proto=dxp port=5"}, "needs a Hub engine"},
		{[]string{"--engine", "name=x cmd=sh", "--threads", "2"}, "--threads sets damka's own search"},
		{[]string{"--engine", "name=x cmd=sh", "--time-margin", "0"}, "--time-margin 0 out of range"},
		{[]string{"--time-margin", "1"}, "--time-margin is for --engine engines"},
		{[]string{"--engine"}, "--engine needs key=value words"},
	} {
		args := append([]string{"solve", suite, "--variant", "english", "--movetime", "0.1"}, c.args...)
		out, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errs, c.want, "%v", c.args)
	}
	// The suite FILE may come after an engine's words.
	_, errs, code := runCLI("solve", "--variant", "english", "--movetime", "0.1", "--engine", "name=x", "cmd=sh", "--threads", "2")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "solve needs the suite file of the positions to solve")
	_, errs, code = runCLI("solve", "--variant", "english", "--engine", "name=x", "cmd=sh", suite, "--threads", "2")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "--threads sets damka's own search", "the FILE was taken")
}
