package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
)

func TestBookBuildReproducible(t *testing.T) {
	data := testfiles.Must(t)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	require.NoError(t, os.WriteFile(seeds, []byte("# one ballot\nW:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13 3\n"), 0o644))
	games := filepath.Join(data, "english_tinsley_checkerboard.pdn")
	build := func(name string, extra ...string) []byte {
		out := filepath.Join(dir, name)
		args := append([]string{"book", "build", "--variant", "english", "--depth", "4", "--plies", "6",
			"--positions", "30", "--margin", "5", "--games", games, "--min-count", "5", "--hash", "1",
			"--positions-file", seeds, "--threads", "1", "--out", out}, extra...)
		stdout, stderr, code := runCLI(args...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "wrote "+out+": variant=english positions=")
		assert.NotContains(t, stderr, "english book", "no progress bar: stderr is not a terminal")
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		_, err = os.Stat(out + ".checkpoint")
		assert.ErrorIs(t, err, os.ErrNotExist, "checkpoint left behind")
		return data
	}
	a := build("a.book")
	b := build("b.book")
	// The command line recorded differs only in --out: compare the books
	// after the build text.
	ba, err := book.Load(a)
	require.NoError(t, err)
	bb, err := book.Load(b)
	require.NoError(t, err)
	assert.Equal(t, ba.Records(), bb.Records())
	assert.Equal(t, len(a), len(b))
	assert.Equal(t, "command: damka book build --depth 4 --games "+games+" --hash 1 --margin 5 --min-count 5 --out "+
		filepath.Join(dir, "a.book")+" --plies 6 --positions 30 --positions-file "+seeds+" --threads 1 --variant english",
		strings.Split(ba.BuildInfo(), "\n")[0])
	c := build("a.book") // same out: byte for byte the same file
	assert.Equal(t, a, c)

	// The seed and the first game moves are in the book.
	seed, err := engine.ParseFEN(engine.English, "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13")
	require.NoError(t, err)
	assert.NotEmpty(t, ba.Probe(&seed))
	start := engine.StartPosition(engine.English)
	es := ba.Probe(&start)
	require.NotEmpty(t, es)
	played := false
	for _, e := range es {
		played = played || e.Games > 0
	}
	assert.True(t, played, "no Tinsley move at the start")

	// show and stats read the file.
	out, stderr, code := runCLI("book", "show", "--variant", "english", "--book", filepath.Join(dir, "a.book"))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "position B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n")
	assert.Contains(t, out, "move         weight  share  score games\n")
	out, _, code = runCLI("book", "stats", "--variant", "english", "--book", filepath.Join(dir, "a.book"))
	require.Equal(t, 0, code)
	st := ba.Stats()
	assert.True(t, strings.HasPrefix(out, "variant=english positions="), out)
	assert.Contains(t, out, " bytes="+strconv.Itoa(st.Bytes)+"\n")
	assert.Contains(t, out, "  command: damka book build --depth 4")
	assert.Contains(t, out, "  settings: variant=english plies=6 positions=30 margin=5 min-count=5")
}

func TestBookBuildResume(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.book")
	ckpt := out + ".checkpoint"
	// A checkpoint of the same settings, as a stopped build leaves it:
	// made by the library with the command's searcher.
	ctx, cancel := context.WithCancel(context.Background())
	_, err := book.Build(ctx, book.BuildOptions{
		Variant: engine.Russian, Plies: 12, Positions: 40, Margin: 5, MinCount: 3, Workers: 1,
		NewSearcher: func() book.Searcher {
			return bench.NewBookSearcher(4, 0, 1)
		},
		Search: "depth=4 hash=1MiB", Command: "damka book build (stopped)", Checkpoint: ckpt,
		Progress: func(p book.Progress) {
			if p.Done == 10 {
				cancel()
			}
		},
	})
	require.ErrorIs(t, err, context.Canceled)
	args := []string{"book", "build", "--variant", "russian", "--depth", "4", "--plies", "12", "--positions", "40",
		"--margin", "5", "--threads", "2", "--hash", "1", "--out", out, "--no-progress"}
	stdout, stderr, code := runCLI(append(args, "--resume")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "positions=40 ")
	assert.NotContains(t, stdout, "resumed=0 ")
	assert.NotContains(t, stderr, "russian book", "--no-progress")
	resumed, err := os.ReadFile(out)
	require.NoError(t, err)
	// Straight through gives the same book (the build text aside: a
	// resumed build keeps the command of the run that started it).
	stdout, stderr, code = runCLI(args...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "resumed=0 ")
	straight, err := os.ReadFile(out)
	require.NoError(t, err)
	br, err := book.Load(resumed)
	require.NoError(t, err)
	bs, err := book.Load(straight)
	require.NoError(t, err)
	assert.Equal(t, bs.Records(), br.Records())
	assert.Contains(t, br.BuildInfo(), "command: damka book build (stopped)")

	// A checkpoint of other settings is refused.
	require.NoError(t, os.WriteFile(ckpt, resumed, 0o644))
	_, stderr, code = runCLI("book", "build", "--variant", "russian", "--depth", "5", "--plies", "12", "--positions", "40",
		"--out", out, "--resume", "--no-progress")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "other settings")
}

func TestBookShowEmbedded(t *testing.T) {
	for _, v := range engine.AllVariants() {
		out, stderr, code := runCLI("book", "show", "--variant", v.String())
		require.Equal(t, 0, code, stderr)
		assert.NotContains(t, out, "not in book", v)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.GreaterOrEqual(t, len(lines), 3, out)
	}
	out, _, code := runCLI("book", "show", "--variant", "russian", "--moves", "c3-d4 f6-g5")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "position W:")
	out, _, code = runCLI("book", "show", "--variant", "english", "--fen", "W:WK1:BK32")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "not in book\n")

	out, _, code = runCLI("book", "stats")
	require.Equal(t, 0, code)
	for _, v := range engine.AllVariants() {
		assert.Contains(t, out, "variant="+v.String()+" positions=")
		assert.Contains(t, out, "--variant "+v.String())
	}
}

func TestBookBadInput(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "c.book")
	require.NoError(t, os.WriteFile(corrupt, []byte("DMKBOOK\x1a and then rubbish"), 0o644))
	cases := [][]string{
		{"book", "build", "--variant", "chess"},
		{"book", "build", "--depth", "1"},
		{"book", "build", "--plies", "-1"},
		{"book", "build", "--positions", "0"},
		{"book", "build", "--margin", "-3"},
		{"book", "build", "--threads", "0"},
		{"book", "build", "--min-count", "0"},
		{"book", "build", "--movetime", "-1"},
		{"book", "build", "--movetime", "NaN"},
		{"book", "build", "--positions-file", filepath.Join(dir, "none")},
		{"book", "build", "--games", filepath.Join(dir, "none.pdn")},
		{"book", "show", "--fen", "X:W1"},
		{"book", "show", "--moves", "a1-h8"},
		{"book", "show", "--variant", "english", "--book", corrupt},
		{"book", "stats", "--book", filepath.Join(dir, "none.book")},
	}
	for _, args := range cases {
		_, stderr, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, stderr)
		assert.True(t, strings.HasPrefix(stderr, "damka: "), "%v: %q", args, stderr)
	}
	_, stderr, _ := runCLI("book", "show", "--variant", "english", "--book", corrupt)
	assert.Contains(t, stderr, "truncated")
}

// TestBookFileVariantFromHeader: a book file's variant is read from its
// header; --variant, when given, must match it.
func TestBookFileVariantFromHeader(t *testing.T) {
	file := filepath.Join("..", "..", "book", "data", "english.book")
	out, errs, code := runCLI("book", "stats", "--book", file)
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasPrefix(out, "variant=english positions="), out)
	out, errs, code = runCLI("book", "show", "--book", file, "--moves", "1. 11-15")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "position W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15\n")
	_, errs, code = runCLI("book", "show", "--book", file, "--variant", "russian")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "the book is english, not russian")
}

// TestBookShowScoresInMen: book show prints scores in men with two decimals.
func TestBookShowScoresInMen(t *testing.T) {
	out, errs, code := runCLI("book", "show", "--variant", "russian")
	require.Equal(t, 0, code, errs)
	assert.Regexp(t, `(?m)^\S+\s+\d+\s+\d+\.\d%\s+-?\d+\.\d\d\s+\d+$`, out)
}

// TestBookBuildChecksFirst: book build refuses, before any analysis and
// with exit status 2, an output folder that does not exist, --depth with
// --movetime, a games file that yields no game (its bad games reported one
// a line) and a positions file that is not valid JSON.
func TestBookBuildChecksFirst(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.pdn")
	require.NoError(t, os.WriteFile(garbage, []byte("[Event \"x\"]\n1. 11-15 23-19 *\n\n[Event \"y\"]\n1. 9-13 22-18 *\n"), 0o644))
	junk := filepath.Join(dir, "garbage.json")
	require.NoError(t, os.WriteFile(junk, []byte("garbage\tand tabs\n"), 0o644))
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--out", filepath.Join(dir, "no", "such", "x.book")}, "no such file or directory"},
		{[]string{"--out", dir}, "is a folder, not a file"},
		{[]string{"--depth", "2", "--movetime", "1"}, "give one of --depth and --movetime, not both"},
		{[]string{"--games", garbage}, "no russian game with moves read without a fault"},
		{[]string{"--positions-file", junk}, "not valid JSON"},
	} {
		start := time.Now()
		args := append([]string{"book", "build", "--positions", "50", "--no-progress", "--out", filepath.Join(dir, "o.book")}, c.args...)
		out, stderr, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, stderr)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, stderr, c.msg, "%v", c.args)
		assert.Less(t, time.Since(start), 5*time.Second, "%v: refused only after a build", c.args)
		if c.args[0] == "--games" {
			assert.Equal(t, 3, strings.Count(stderr, "\n"), "one line per bad game and the error: %q", stderr)
			assert.Contains(t, stderr, "pdn: game 1")
		}
	}
}

// TestBookDocCommands: docs/book.md gives each embedded book's command as its
// header records it (damka book stats), with the game and seed files named in
// testdata/draughts, where they are in a clone.
func TestBookDocCommands(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "book.md"))
	require.NoError(t, err)
	fileArg := regexp.MustCompile(`(--(?:games|positions-file) )(\S+)`)
	for _, v := range engine.AllVariants() {
		b, err := book.Default(v)
		require.NoError(t, err, v)
		var command string
		for _, l := range strings.Split(b.BuildInfo(), "\n") {
			if c, ok := strings.CutPrefix(l, "command: "); ok {
				command = c
			}
		}
		require.NotEmpty(t, command, "%s book: no command in its header", v)
		inRepo := fileArg.ReplaceAllStringFunc(command, func(m string) string {
			p := fileArg.FindStringSubmatch(m)
			f := filepath.ToSlash(filepath.Join("testdata", "draughts", filepath.Base(p[2])))
			_, err := os.Stat(filepath.Join(repoRoot, f))
			assert.NoError(t, err, "%s book: %s", v, f)
			return p[1] + f
		})
		assert.Contains(t, string(doc), "\n"+inRepo+"\n", "docs/book.md lacks the %s book's command", v)
	}
}
