package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withStdin makes os.Stdin a file holding in for the rest of the test, so
// that runCLI's commands read it.
func withStdin(t *testing.T, in string) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "stdin")
	require.NoError(t, os.WriteFile(name, []byte(in), 0o644))
	f, err := os.Open(name)
	require.NoError(t, err)
	old := os.Stdin
	os.Stdin = f
	t.Cleanup(func() {
		os.Stdin = old
		f.Close()
	})
}

// TestPlayCommand: damka play runs the text mode on a pipe, its flags the
// player's settings; a bad setting value exits 2 before it starts.
func TestPlayCommand(t *testing.T) {
	withStdin(t, "settings\nquit\n")
	out, errs, code := runCLI("play", "--variant", "english", "--threads", "2", "--book", "false")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "damka "+version+", a draughts engine. Type help for the commands.\n")
	assert.Contains(t, out, "english, black to move> ")
	assert.Regexp(t, `\n  threads +2  \(`, out)
	assert.Regexp(t, `\n  book +false  \(`, out)

	for _, args := range [][]string{
		{"play", "--threads", "0"},
		{"play", "--variant", "chess"},
		{"play", "--egdb-path", filepath.Join(t.TempDir(), "none")},
		{"play", "extra"},
		{"--threads", "0"},
		{"--hash", "x"},
	} {
		out, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
		assert.Empty(t, out, "%v", args)
	}
	_, errs, _ = runCLI("play", "--threads", "0")
	assert.Contains(t, errs, "--threads 0: out of range 1..")
}

// TestDefaultTakesTheSettings: damka without a command takes every setting
// as a flag; on a pipe it speaks Hub with them.
func TestDefaultTakesTheSettings(t *testing.T) {
	out, err := rootWithInput(t, "hub\nquit\n", "--variant", "english", "--threads", "2", "--egdb-path", "off")
	require.NoError(t, err)
	assert.Contains(t, out, "param name=variant value=english type=enum")
	assert.Contains(t, out, "param name=threads value=2 type=int")
	assert.Contains(t, out, "param name=egdb-path value=off type=string")
	out, _, code := runCLI("--help")
	require.Equal(t, 0, code)
	for _, f := range []string{"--variant", "--threads", "--egdb-path", "--book-margin"} {
		assert.Contains(t, out, f)
	}
	assert.True(t, strings.Contains(out, "play"), "the play command is listed")
}
