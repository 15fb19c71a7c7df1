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
	assert.Contains(t, errs, "--threads 0 out of range 1..")
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

// TestPlayLevelFlags: damka play takes damka's level on the command line
// as the text mode's level command sets it; a bad or second level exits 2
// before the session starts.
func TestPlayLevelFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--movetime", "0.2"}, "> level time 0.2\n"},
		{[]string{"--depth", "3"}, "> level depth 3\n"},
		{[]string{"--nodes", "5000"}, "> level nodes 5000\n"},
		{[]string{"--clock", "5+2"}, "> level clock 5+2 (clock 5 min + 2 s a move)\n"},
		{nil, "> level time 1\n"},
	} {
		withStdin(t, "level\nquit\n")
		out, errs, code := runCLI(append([]string{"play", "--book", "false"}, c.args...)...)
		require.Equal(t, 0, code, "%v: %s", c.args, errs)
		assert.Contains(t, out, c.want, "%v", c.args)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--movetime", "-1"}, "--movetime -1 out of range"},
		{[]string{"--movetime", "0.1", "--depth", "3"}, "give one of them"},
		{[]string{"--depth", "500"}, "--depth 500 out of range 1..120"},
		{[]string{"--nodes", "-5"}, "--nodes -5 out of range 1..1000000000000"},
		{[]string{"--nodes", "0"}, "--nodes 0 out of range 1..1000000000000"},
		{[]string{"--depth", "0"}, "--depth 0 out of range 1.."},
		{[]string{"--movetime", "0"}, "--movetime 0 out of range"},
		{[]string{"--clock", "x+1"}, `--clock "x+1": minutes "x"`},
	} {
		withStdin(t, "quit\n")
		out, errs, code := runCLI(append([]string{"play"}, c.args...)...)
		if c.msg == "" { // --depth 0 is no level flag: the default
			assert.Equal(t, 0, code, "%v: %s", c.args, errs)
			continue
		}
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errs, c.msg, "%v", c.args)
	}
}
