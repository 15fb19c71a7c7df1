package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// evalFiles writes a good Russian weights file (the side to move worth 3
// men), a damaged copy, a truncated one and names a missing one.
func evalFiles(t *testing.T) (w *eval.Weights, good, damaged, truncated, missing string) {
	t.Helper()
	dir := t.TempDir()
	w = eval.NewWeights(engine.Russian)
	w.Dense[eval.DenseToMove] = [2]int16{300 << eval.WeightShift, 300 << eval.WeightShift}
	w.Note = "cmd test weights"
	good = filepath.Join(dir, "russian.dkw")
	require.NoError(t, w.Save(good))
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	data[100] ^= 0x10
	damaged = filepath.Join(dir, "damaged.dkw")
	require.NoError(t, os.WriteFile(damaged, data, 0o644))
	truncated = filepath.Join(dir, "truncated.dkw")
	require.NoError(t, os.WriteFile(truncated, data[:len(data)-1], 0o644))
	return w, good, damaged, truncated, filepath.Join(dir, "missing.dkw")
}

// TestEvalFileFlagErrors: every command that takes --eval-file refuses a
// file that does not load, or holds another variant, with exit status 2
// and a message naming the file and what was wrong.
func TestEvalFileFlagErrors(t *testing.T) {
	_, good, damaged, truncated, missing := evalFiles(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "s.epd")
	require.NoError(t, os.WriteFile(suite, []byte("W:W21,22:B10 ; bm 22-18 ; id x\n"), 0o644))
	games := filepath.Join(dir, "games.dkg")
	commands := [][]string{
		{"analyse", "--depth", "2"},
		{"solve", "--depth", "2", suite},
		{"bench", "--depth", "1"},
		{"hub"},
		{"dxp", "--connect", "127.0.0.1:1", "--variant", "russian"},
		{"selfplay", "--games", "1", "--depth", "1", "--out", games},
	}
	st, err := os.Stat(truncated)
	require.NoError(t, err)
	files := []struct{ file, why string }{
		{missing, "damka: --eval-file: eval file: open " + missing + ": no such file or directory\n"},
		{damaged, "damka: --eval-file: eval file " + damaged + ": weights file checksum mismatch: the file is damaged\n"},
		{truncated, "damka: --eval-file: eval file " + truncated + ": weights file of " + strconv.Itoa(int(st.Size())) + " bytes, want " +
			strconv.Itoa(int(st.Size())+1) + " (truncated or padded)\n"},
		{dir, "damka: --eval-file: eval file: " + dir + " is a directory, not a regular file\n"},
	}
	for _, args := range commands {
		for _, f := range files {
			a := append(append([]string(nil), args...), "--eval-file", f.file)
			out, errs, code := runCLI(a...)
			assert.Equal(t, exitBadInput, code, "%v: %s", a, errs)
			assert.Empty(t, out, "%v", a)
			assert.Equal(t, f.why, errs, "%v", a)
		}
		if args[0] == "bench" {
			continue // bench runs every variant: a file of any variant serves
		}
		// The Russian file for an English game.
		a := append(append([]string(nil), args...), "--eval-file", good)
		if args[0] == "dxp" {
			a[4] = "english"
		} else {
			a = append(a, "--variant", "english")
		}
		out, errs, code := runCLI(a...)
		assert.Equal(t, exitBadInput, code, "%v: %s", a, errs)
		assert.Empty(t, out, "%v", a)
		assert.Equal(t, "damka: --eval-file "+good+" holds russian weights, not english: give a english weights file or --variant russian\n", errs, "%v", a)
	}
	_, err = os.Stat(games)
	assert.ErrorIs(t, err, os.ErrNotExist, "selfplay wrote nothing")
}

// bestScore returns the score= of analyse's bestmove line.
func bestScore(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^bestmove=\S+ score=(\S+) `).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	return m[1]
}

// TestEvalFileFlag: a good file reaches the search of analyse, hub,
// solve, bench and selfplay, and changes what they find.
func TestEvalFileFlag(t *testing.T) {
	w, good, _, _, _ := evalFiles(t)
	out, errs, code := runCLI("analyse", "--depth", "4")
	require.Equal(t, 0, code, errs)
	plain := bestScore(t, out)
	out, errs, code = runCLI("analyse", "--depth", "4", "--eval-file", good)
	require.Equal(t, 0, code, errs)
	assert.NotEqual(t, plain, bestScore(t, out), "the file's weights change the score")

	// damka hub: the flag is eval-file's default.
	out, err := rootWithInput(t, "hub\ninit\npos\nlevel depth=2\ngo think\nquit\n", "hub", "--eval-file", good)
	require.NoError(t, err)
	assert.Contains(t, out, "\nparam name=eval-file value="+good+" type=string\n")
	assert.Regexp(t, `\ndone move=\S+`, out)
	assert.NotContains(t, out, "error")

	out, errs, code = runCLI("bench", "--depth", "3", "--eval-file", good)
	require.Equal(t, 0, code, errs)
	want, _ := bench.BenchEval(3, w, nil)
	plainNodes, _ := bench.Bench(3, nil)
	assert.NotEqual(t, plainNodes, want)
	assert.Regexp(t, `(?m)^nodes=`+strconv.FormatUint(want, 10)+` mnps=`, out)

	dir := t.TempDir()
	suite := filepath.Join(dir, "s.epd")
	require.NoError(t, os.WriteFile(suite, []byte("W:W21-32:B1-12 ; bm c3-d4 ; id start\n"), 0o644))
	out1, errs, code := runCLI("solve", "--depth", "3", suite)
	require.Equal(t, 0, code, errs)
	out2, errs, code := runCLI("solve", "--depth", "3", "--eval-file", good, suite)
	require.Equal(t, 0, code, errs)
	assert.NotEqual(t, out1, out2)

	nodes := regexp.MustCompile(` nodes=(\d+) `)
	var got []string
	for _, a := range [][]string{nil, {"--eval-file", good}} {
		args := append([]string{"selfplay", "--games", "1", "--depth", "2", "--random-plies", "0", "--no-progress",
			"--threads", "1", "--out", filepath.Join(dir, strconv.Itoa(len(got))+".dkg")}, a...)
		out, errs, code := runCLI(args...)
		require.Equal(t, 0, code, errs)
		m := nodes.FindStringSubmatch(out)
		require.NotNil(t, m, out)
		got = append(got, m[1])
	}
	assert.NotEqual(t, got[0], got[1], "the file's weights change the games")
}
