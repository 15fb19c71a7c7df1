package cli

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEGDBBuildProbeVerifyStats(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runCLI("egdb", "build", "--variant", "english", "--pieces", "3", "--out", dir, "--threads", "2")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "variant=english pieces=3 slices=16 built=16 ")
	assert.NotContains(t, errs, "pos/s]", "no progress bar off a terminal")

	// Again: everything is kept.
	out, errs, code = runCLI("egdb", "build", "--variant", "english", "--pieces", "3", "--out", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "slices=16 built=0 ")

	out, errs, code = runCLI("egdb", "probe", "--variant", "english", "--fen", "W:WK29,K30:BK4", "--egdb", dir)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, "value=win distance=11 best=29-25\n", out)
	out, errs, code = runCLI("egdb", "probe", "--variant", "english", "--fen", "W:W21,K29:BK4")
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasPrefix(out, "value=win distance=unknown best="), out)
	out, errs, code = runCLI("egdb", "probe", "--variant", "english", "--fen", "W:WK29:BK1")
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasPrefix(out, "value=draw distance=none best="), out)

	out, errs, code = runCLI("egdb", "verify", "--variant", "english", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "variant=english slices=16 mismatches=0\n")
	// --slices: only those, in dependency order.
	out, errs, code = runCLI("egdb", "verify", "--variant", "english", "--slices", "0201, 1010", dir)
	require.Equal(t, 0, code, errs)
	assert.Regexp(t, `^slice=1010 checked=\d+ mismatches=0\nslice=0201 checked=\d+ mismatches=0\nvariant=english slices=2 mismatches=0\n$`, out)

	out, errs, code = runCLI("egdb", "stats", "--variant", "english", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "slice=0201 kind=dtm positions=14880 ")
	assert.Contains(t, out, "variant=english slices=")

	// A wrong value in a sound file (the checksum made to fit): verify
	// counts it whatever --limit prints.
	wrong := t.TempDir()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		if e.Name() == "english-0201.egdb" {
			b[len(b)/2] ^= 1
			binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)))
		}
		require.NoError(t, os.WriteFile(filepath.Join(wrong, e.Name()), b, 0o644))
	}
	for _, limit := range []string{"0", "5"} {
		out, errs, code = runCLI("egdb", "verify", "--variant", "english", "--slices", "0201", "--limit", limit, wrong)
		assert.Equal(t, 1, code, errs)
		assert.Contains(t, out, "slice=0201 checked=12864 mismatches=1\n", "--limit %s", limit)
		assert.Equal(t, limit != "0", strings.Contains(out, "  slice 0201 index "), "--limit %s: the mismatch listed", limit)
		assert.Contains(t, out, "variant=english slices=1 mismatches=1\n")
	}

	// A damaged file: verify and stats fail naming it.
	name := filepath.Join(dir, "english-0201.egdb")
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	b[len(b)/2] ^= 1
	require.NoError(t, os.WriteFile(name, b, 0o644))
	_, errs, code = runCLI("egdb", "stats", "--variant", "english", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, name)
	assert.Contains(t, errs, "checksum")
	_, errs, code = runCLI("egdb", "verify", "--variant", "english", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, name)
}

// TestEGDBVerifyDamagedFile: verify over a set with a damaged file (a
// flipped byte, a truncated file, a bad header) names the file and what is
// wrong with it, not a missing slice; the slices that need it are listed
// as unchecked, the others still checked, and the exit status is 1.
func TestEGDBVerifyDamagedFile(t *testing.T) {
	built := t.TempDir()
	_, errs, code := runCLI("egdb", "build", "--variant", "english", "--pieces", "3", "--out", built, "--threads", "2")
	require.Equal(t, 0, code, errs)
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"flipped byte", func(b []byte) []byte { b[len(b)/2] ^= 0x55; return b }, ": corrupt endgame table: checksum "},
		{"truncated", func(b []byte) []byte { return b[:100] }, ": corrupt endgame table: 100 bytes, header says 266 (truncated or padded)"},
		{"bad header", func(b []byte) []byte { b[12] = 3; return b }, ": corrupt endgame table: 868 positions, slice 3001 has "},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			entries, err := os.ReadDir(built)
			require.NoError(t, err)
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(built, e.Name()))
				require.NoError(t, err)
				if e.Name() == "english-1001.egdb" {
					b = c.damage(b)
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
			}
			name := filepath.Join(dir, "english-1001.egdb")
			out, errs, code := runCLI("egdb", "verify", "--variant", "english", dir)
			assert.Equal(t, 1, code, errs)
			assert.Contains(t, errs, "damka: slice 1001 of english: "+name+c.want)
			assert.Contains(t, errs, "damka: slice 0110 of english not checked: its moves lead to slice 1001, which cannot be used: "+name+c.want)
			assert.NotContains(t, errs, "not available")
			assert.Contains(t, errs, "english-1001.egdb cannot be used")
			assert.Contains(t, errs, "damka egdb build --variant english --pieces 3 --out "+dir)
			assert.Contains(t, out, "slice=1001 unchecked\n")
			assert.Contains(t, out, "slice=0110 unchecked\n")
			assert.Regexp(t, `slice=0201 checked=\d+ mismatches=0\n`, out, "a slice that does not need it is checked")
			assert.Contains(t, out, "variant=english slices=16 mismatches=0 unchecked=7\n")
		})
	}
}

func TestEGDBShards(t *testing.T) {
	// Three parts into one directory make what one build makes.
	dir := t.TempDir()
	for i := 1; i <= 3; i++ {
		_, errs, code := runCLI("egdb", "build", "--variant", "russian", "--pieces", "3", "--out", dir, "--shard", fmt.Sprintf("%d/3", i))
		require.Equal(t, 0, code, errs)
	}
	out, errs, code := runCLI("egdb", "build", "--variant", "russian", "--pieces", "3", "--out", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "slices=16 built=0 ")
}

func TestEGDBBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"egdb", "build", "--variant", "english", "--pieces", "9", "--out", dir}, "--pieces 9 out of range 2..7"},
		{[]string{"egdb", "build", "--variant", "english", "--out", dir, "--shard", "0/3"}, `--shard: shard "0/3": want I/N with 1 <= I <= N`},
		{[]string{"egdb", "build", "--variant", "english", "--out", dir, "--shard", "4/3"}, `--shard: shard "4/3"`},
		{[]string{"egdb", "build", "--variant", "english"}, "--out is required"},
		{[]string{"egdb", "build", "--variant", "frisian", "--out", dir}, `unknown variant "frisian"`},
		{[]string{"egdb", "probe", "--variant", "english"}, "--fen is required"},
		{[]string{"egdb", "probe", "--variant", "english", "--fen", "W:W21,22,23,24,25:B1,2,3"}, "no table for"},
		{[]string{"egdb", "probe", "--variant", "english", "--fen", "W:WK29:BK4", "--egdb", filepath.Join(dir, "nowhere")}, "nowhere"},
		{[]string{"egdb", "verify", "--variant", "english", "--threads", "0", dir}, "--threads 0 out of range"},
		{[]string{"egdb", "verify", "--variant", "english", filepath.Join(dir, "nowhere")}, "nowhere"},
		{[]string{"egdb", "verify", "--variant", "english", dir}, dir + " holds no english tables"},
		{[]string{"egdb", "stats", "--variant", "english", dir}, dir + " holds no english tables"},
		{[]string{"egdb", "verify", "--variant", "english", "--slices", "0201,09x1"}, `--slices: material "09x1": digit 2 is not 0..7`},
		{[]string{"egdb", "verify", "--variant", "english", "--slices", "0303"}, "--slices: slice 0303 of english is not in the embedded set"},
		{[]string{"egdb", "stats", "--variant", "english", filepath.Join(dir, "nowhere")}, "nowhere"},
	} {
		_, errs, code := runCLI(c.args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.Contains(t, errs, c.want, c.args)
	}
}

func TestEGDBFlagOfSearch(t *testing.T) {
	// analyse with the embedded tables scores the database win; with
	// --egdb off it does not.
	out, errs, code := runCLI("analyse", "--variant", "english", "--fen", "W:WK29,K30:BK4", "--depth", "4")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "bestmove=")
	with := out
	out, errs, code = runCLI("analyse", "--variant", "english", "--fen", "W:WK29,K30:BK4", "--depth", "4", "--egdb", "off")
	require.Equal(t, 0, code, errs)
	assert.NotEqual(t, with, out)
	_, errs, code = runCLI("analyse", "--variant", "english", "--fen", "W:WK29,K30:BK4", "--depth", "4", "--egdb", filepath.Join(t.TempDir(), "nowhere"))
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "nowhere")
}

// TestEGDBEmptyDir: stats and verify on a folder without tables of the
// variant both say so, naming the folder, with exit status 2.
func TestEGDBEmptyDir(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"stats", "verify"} {
		out, errs, code := runCLI("egdb", sub, "--variant", "english", dir)
		assert.Equal(t, exitBadInput, code, "%s: %s", sub, out)
		assert.Contains(t, errs, dir+" holds no english tables", sub)
		assert.NotContains(t, out, "slices=0", sub)
	}
}

// TestEGDBBuildOutRules: egdb build's --out follows the rules of every
// other --out: a file by that name is refused, a missing parent is not
// made (exit 2 for both), a missing last folder is made.
func TestEGDBBuildOutRules(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	_, errs, code := runCLI("egdb", "build", "--variant", "english", "--pieces", "2", "--out", file)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "--out "+file+" is a file, not a folder")

	deep := filepath.Join(dir, "missing", "tree", "x")
	_, errs, code = runCLI("egdb", "build", "--variant", "english", "--pieces", "2", "--out", deep)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, filepath.Join(dir, "missing", "tree"))
	_, err := os.Stat(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, os.ErrNotExist, "no folder made")

	fresh := filepath.Join(dir, "tables")
	_, errs, code = runCLI("egdb", "build", "--variant", "english", "--pieces", "2", "--out", fresh, "--no-progress")
	require.Equal(t, 0, code, errs)
	entries, err := os.ReadDir(fresh)
	require.NoError(t, err)
	assert.NotEmpty(t, entries)
}

// TestOutputDirMadeConcurrently: the shards of a job array start together
// and make the same --out folder; every one of them must accept it, not
// the first only (a Slurm egdb array lost a task to "file exists").
func TestOutputDirMadeConcurrently(t *testing.T) {
	dir := t.TempDir()
	const folders, racers = 200, 8
	for i := range folders {
		out := filepath.Join(dir, fmt.Sprintf("tables%d", i))
		start := make(chan struct{})
		errs := make(chan error, racers)
		for range racers {
			go func() {
				<-start
				errs <- checkOutputDir(out)
			}()
		}
		close(start)
		for range racers {
			require.NoError(t, <-errs, out)
		}
	}
}
