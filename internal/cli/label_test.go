package cli

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/pdn"
)

// labelGames writes a small English game file with damka selfplay.
func labelGames(t *testing.T, dir string) string {
	t.Helper()
	in := filepath.Join(dir, "in.dkg")
	_, stderr, code := runCLI("selfplay", "--variant", "english", "--games", "3", "--nodes", "200", "--threads", "1",
		"--hash", "1", "--out", in, "--no-progress")
	require.Equal(t, 0, code, stderr)
	return in
}

// TestLabelCommand: damka label writes the input's games with new scores,
// records its command, resumes its file, and refuses a file of other
// settings (another shard, another search).
func TestLabelCommand(t *testing.T) {
	dir := t.TempDir()
	in := labelGames(t, dir)
	out := filepath.Join(dir, "out.dkg")
	label := func(out string, extra ...string) []string {
		return append([]string{"label", "--data", in, "--nodes", "500", "--hash", "1", "--threads", "2",
			"--out", out, "--no-progress"}, extra...)
	}
	stdout, stderr, code := runCLI(label(out)...)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^games=3 resumed=0 labelled=3 positions=[1-9]\d* changed=\d+ nodes=[1-9]\d* time=\S+ positions_per_s=\S+\n$`, stdout)
	f, err := os.Open(out)
	require.NoError(t, err)
	gr, err := pdn.NewRecordReader(f)
	require.NoError(t, err)
	assert.Equal(t, "damka label --data "+in+" --hash 1 --nodes 500 --out "+out, gr.Note())
	f.Close()

	stdout, stderr, code = runCLI(label(out, "--threads", "1")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "games=3 resumed=3 labelled=0 positions=0 changed=0 ")

	_, stderr, code = runCLI(label(out, "--nodes", "600")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--out: label: cannot resume "+out+": its games were played by")

	part := filepath.Join(dir, "part.dkg")
	stdout, stderr, code = runCLI(label(part, "--shard", "2/2")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "games=1 resumed=0 labelled=1 ")
	_, stderr, code = runCLI(label(part, "--shard", "1/2")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "other settings")

	assert.True(t, sameLabelSettings("damka label --data a.dkg --nodes 5 --out x.dkg --threads 4", "damka label --data a.dkg --nodes 5 --out y.dkg --shard 1/1"))
	assert.False(t, sameLabelSettings("damka label --data a.dkg --nodes 5", "damka label --data b.dkg --nodes 5"))
	assert.False(t, sameLabelSettings("damka label --data a.dkg --nodes 5 --shard 1/2", "damka label --data a.dkg --nodes 5 --shard 2/2"))
	assert.False(t, sameLabelSettings("damka label --data a.dkg --nodes 5", "damka selfplay --data a.dkg --nodes 5"))
}

// TestLabelBadInput: bad flags and files are bad input (exit status 2)
// naming the flag, and write nothing.
func TestLabelBadInput(t *testing.T) {
	dir := t.TempDir()
	in := labelGames(t, dir)
	good, err := os.ReadFile(in)
	require.NoError(t, err)
	damaged := filepath.Join(dir, "damaged.dkg")
	bad := append([]byte{}, good...)
	first := 16 + int(binary.LittleEndian.Uint32(good[12:]))
	bad[first+30] ^= 0x40
	require.NoError(t, os.WriteFile(damaged, bad, 0o644))
	pdnFile := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(pdnFile, []byte("[Event \"x\"]\n1. 11-15 *\n"), 0o644))

	_, russian, _, _, _ := evalFiles(t)
	out := filepath.Join(dir, "out.dkg")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"label", "--nodes", "100", "--out", out}, "--data is required"},
		{[]string{"label", "--data", in, "--nodes", "100"}, "--out is required"},
		{[]string{"label", "--data", in, "--out", out}, "give --nodes or --depth"},
		{[]string{"label", "--data", in, "--nodes", "100", "--depth", "3", "--out", out}, "give one of --nodes and --depth, not both"},
		{[]string{"label", "--data", in, "--nodes", "0", "--out", out}, "--nodes 0 out of range"},
		{[]string{"label", "--data", in, "--depth", "0", "--out", out}, "--depth 0 out of range"},
		{[]string{"label", "--data", in, "--nodes", "100", "--threads", "0", "--out", out}, "--threads 0 out of range"},
		{[]string{"label", "--data", in, "--nodes", "100", "--hash", "0", "--out", out}, "--hash 0 out of range"},
		{[]string{"label", "--data", in, "--nodes", "100", "--shard", "3/2", "--out", out}, `--shard: shard "3/2": want I/N`},
		{[]string{"label", "--data", filepath.Join(dir, "none.dkg"), "--nodes", "100", "--out", out}, "--data: open " + filepath.Join(dir, "none.dkg")},
		{[]string{"label", "--data", pdnFile, "--nodes", "100", "--out", out}, "--data: " + pdnFile + ": not a damka game file"},
		{[]string{"label", "--data", in, "--nodes", "100", "--out", in}, "--out " + in + " is --data"},
		{[]string{"label", "--data", in, "--nodes", "100", "--out", filepath.Join(dir, "none", "x.dkg")}, "--out " + filepath.Join(dir, "none", "x.dkg") + ": folder"},
		{[]string{"label", "--data", in, "--nodes", "100", "--eval-file", pdnFile, "--out", out}, "--eval-file: eval file " + pdnFile + ": "},
		{[]string{"label", "--data", in, "--nodes", "100", "--eval-file", russian, "--out", out},
			"--eval-file " + russian + " holds russian weights, --data english games"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.Empty(t, stdout, "%v", c.args)
		_, err := os.Stat(out)
		assert.ErrorIs(t, err, os.ErrNotExist, "%v wrote %s", c.args, out)
	}
	// A damaged record is found while labelling: bad input, the games
	// before it kept.
	stdout, stderr, code := runCLI("label", "--data", damaged, "--nodes", "100", "--out", out, "--no-progress")
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "--data: label: cannot read "+damaged+": record at byte")
	assert.Contains(t, stderr, "checksum mismatch")
	assert.Empty(t, stdout)
	again, err := os.ReadFile(in)
	require.NoError(t, err)
	assert.Equal(t, good, again, "the input changed")
}
