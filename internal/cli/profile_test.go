package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCPUProfileFlag: --cpu-profile writes a pprof profile (gzip data) of
// the command; a file that cannot be created is bad input (status 2) and
// the command does not run.
func TestCPUProfileFlag(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bench.pprof")
	out, errs, code := runCLI("--cpu-profile", path, "bench", "--depth", "6")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "nodes=")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(data), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, data[:2], "pprof profiles are gzip-compressed protocol buffers")

	// The profile stops with the command: a second command can profile again.
	again := filepath.Join(dir, "perft.pprof")
	_, errs, code = runCLI("--cpu-profile", again, "perft", "--variant", "english", "--depth", "4")
	require.Equal(t, 0, code, errs)
	assert.FileExists(t, again)

	out, errs, code = runCLI("--cpu-profile", filepath.Join(dir, "missing", "x.pprof"), "perft", "--variant", "english", "--depth", "4")
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out, "the command does not run")
	assert.Contains(t, errs, "cannot create --cpu-profile: open "+filepath.Join(dir, "missing", "x.pprof"))
}

// TestMemProfileFlag: --mem-profile writes a heap profile (gzip data) when
// the command ends, Hub included (the session ends at quit), and logs the
// heap figures at --log-level info; a file that cannot be created is
// refused before the command runs (exit status 2), as --cpu-profile's is.
func TestMemProfileFlag(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bench.heap")
	logFile := filepath.Join(dir, "log")
	out, errs, code := runCLI("--mem-profile", path, "--log-level", "info", "--log-file", logFile, "bench", "--depth", "4")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "nodes=")
	logged, err := os.ReadFile(logFile)
	require.NoError(t, err)
	assert.Contains(t, string(logged), `"heap_inuse":`)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(data), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, data[:2], "pprof profiles are gzip-compressed protocol buffers")

	bad := filepath.Join(dir, "missing", "x.heap")
	out, errs, code = runCLI("--mem-profile", bad, "perft", "--variant", "english", "--depth", "3")
	assert.Equal(t, exitBadInput, code, errs)
	assert.Empty(t, out, "the command did not run")
	assert.Contains(t, errs, "cannot create --mem-profile: ")
	assert.Contains(t, errs, "x.heap: no such file or directory")
	assert.NoFileExists(t, bad)
}

// TestProfileFlagsOwnParsers: the commands that parse their own flags
// (solve, match, gui: several-word --engine descriptions) honour
// --cpu-profile and --mem-profile too, before or after the command's name.
func TestProfileFlagsOwnParsers(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join("..", "..", "bench", "testdata", "solve_english.epd")
	before := filepath.Join(dir, "before.pprof")
	_, errs, code := runCLI("--cpu-profile", before, "solve", suite, "--variant", "english", "--depth", "3")
	require.Equal(t, 0, code, errs)
	after := filepath.Join(dir, "after.pprof")
	heap := filepath.Join(dir, "after.heap")
	_, errs, code = runCLI("solve", suite, "--variant", "english", "--depth", "3", "--cpu-profile", after, "--mem-profile", heap)
	require.Equal(t, 0, code, errs)
	for _, path := range []string{before, after, heap} {
		data, err := os.ReadFile(path)
		require.NoError(t, err, path)
		require.Greater(t, len(data), 2, path)
		assert.Equal(t, []byte{0x1f, 0x8b}, data[:2], path)
	}

	bad := filepath.Join(dir, "missing", "x.pprof")
	out, errs, code := runCLI("solve", suite, "--variant", "english", "--depth", "3", "--cpu-profile", bad)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Empty(t, out, "the command did not run")
	assert.Contains(t, errs, "cannot create --cpu-profile: ")
}
