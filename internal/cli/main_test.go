package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/search"
	buildversion "github.com/damka-draughts/damka/version"
)

// runCLI runs the command line in-process and returns stdout, stderr and
// the exit status.
func runCLI(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestPerftCommand(t *testing.T) {
	out, errs, code := runCLI("perft", "--variant", "english", "--depth", "5")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	assert.True(t, strings.HasPrefix(lines[4], "depth=5 nodes=7361 time="), lines[4])

	out, _, code = runCLI("perft", "--variant", "russian", "--fen", "W:WKd2:Bc5,e5,c3,e3", "--depth", "1", "--paths")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "depth=1 nodes=4 ")
	out, _, _ = runCLI("perft", "--variant", "russian", "--fen", "W:WKd2:Bc5,e5,c3,e3", "--depth", "1")
	assert.Contains(t, out, "depth=1 nodes=3 ")

	out, _, code = runCLI("perft", "--variant", "international", "--depth", "3", "--divide", "--threads", "2", "--hash", "4")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "divide moves=9 total=658\n")
	assert.Contains(t, out, "depth=3 nodes=658 ")
}

func TestMovesCommand(t *testing.T) {
	out, _, code := runCLI("moves", "--variant", "russian", "--fen", "W:Wh6:Bg7,c5,d2")
	require.Equal(t, 0, code)
	assert.Equal(t, "h6:f8:b4:e1\n", out)
	out, _, code = runCLI("moves", "--variant", "english", "--fen", "B:W26,27:B22")
	require.Equal(t, 0, code)
	assert.Equal(t, "22x31\n", out)
}

func TestBadInputExitStatus(t *testing.T) {
	cases := [][]string{
		{"perft", "--variant", "chess"},
		{"perft", "--fen", "W:W99", "--depth", "2"},
		{"perft", "--depth", "0"},
		{"perft", "--depth", "x"},
		{"moves", "--fen", "X:W1"},
		{"nosuchcommand"},
		{"pdn", "check", "/nonexistent/file.pdn"},
		{"pdn", "check", os.TempDir()},
		{"pdn", "bogus"},
		{"book", "frob"},
		{"help", "frob"},
		{"analyse", "--depth", "0"},
		{"analyse", "--nodes", "0"},
		{"analyse", "--movetime", "0"},
		{"analyse", "--nodes", "-5"},
		{"analyse", "--depth", "99999999999999999999"},
	}
	for _, args := range cases {
		out, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
		assert.Empty(t, out, "%v", args)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errs), "\n")+1, "one error line for %v: %q", args, errs)
	}
}

func TestPDNCheckCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pdn")
	require.NoError(t, os.WriteFile(good, []byte(`[Event "a"]
[GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 *

[Event "b"]
[GameType "21"]
1. 11-15 23-19 2. 8-11 22-21 *

[Event "c"]
1. c3-d4 f6-g5 *
`), 0o644))
	out, _, code := runCLI("pdn", "check", "--variant", "russian", good)
	assert.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, out)
	assert.Contains(t, lines[0], "22-21")
	assert.Equal(t, "games=3 ok=2 bad=1", lines[1])

	russian := testfiles.Path(t, "russian_ussr_championship_X.pdn")
	out, _, code = runCLI("pdn", "check", "--variant", "russian", russian)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=153 ok=153 bad=0\n", out)
}

// TestFenOneParser: --fen reads a Hub string through the same parser as
// Hub mode, with its message, and refuses a board without pieces.
func TestFenOneParser(t *testing.T) {
	hub := "W" + strings.Repeat("b", 12) + strings.Repeat("e", 8) + strings.Repeat("w", 12)
	_, errs, code := runCLI("perft", "--fen", hub[:32], "--depth", "1")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "length 32, want 33 for russian")
	assert.NotContains(t, errs, "want W or B")
	_, errs, code = runCLI("perft", "--fen", "W"+strings.Repeat("e", 50), "--depth", "1")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "51 characters is a 10x10 position")
	for _, fen := range []string{"W", "W::", "W:W:B"} {
		out, errs, code := runCLI("perft", "--fen", fen, "--depth", "1")
		assert.Equal(t, exitBadInput, code, fen)
		assert.Empty(t, out, fen)
		assert.Contains(t, errs, "no pieces", fen)
	}
	out, errs, code := runCLI("perft", "--fen", hub, "--depth", "1")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "depth=1 nodes=7 ")
}

func TestVersionFlag(t *testing.T) {
	out, errs, code := runCLI("--version")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, "damka "+buildversion.String()+"\n", out)
}

// TestMovesSortedWithPDNNumbers: moves lists the legal moves sorted by
// square numbers (numeric notation) or by file and rank (algebraic), and
// --moves takes PDN move numbers.
func TestMovesSortedWithPDNNumbers(t *testing.T) {
	out, errs, code := runCLI("moves", "--variant", "english")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, "9-13\n9-14\n10-14\n10-15\n11-15\n11-16\n12-16\n", out)
	out, errs, code = runCLI("moves", "--variant", "english", "--moves", "1. 11-15 23-19 2.")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, "7-11\n8-11\n9-13\n9-14\n10-14\n12-16\n15-18\n", out)
	out, errs, code = runCLI("moves", "--variant", "russian")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, "a3-b4\nc3-b4\nc3-d4\ne3-d4\ne3-f4\ng3-f4\ng3-h4\n", out)
	out, errs, code = runCLI("perft", "--variant", "international", "--depth", "1", "--divide")
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasPrefix(out, "31-26 1\n31-27 1\n32-27 1\n"), out)
}

// TestOutOfRangeMessages: a limit given as 0, a negative count and a
// number too large say "out of range", not "give exactly one" or strconv's
// raw text.
func TestOutOfRangeMessages(t *testing.T) {
	for args, want := range map[string]string{
		"analyse --depth 0":                    "--depth 0 out of range 1..",
		"analyse --nodes 0":                    "--nodes 0 out of range 1..1000000000000",
		"analyse --movetime 0":                 "--movetime 0 out of range",
		"analyse --nodes -5":                   "--nodes -5 out of range 1..1000000000000",
		"play --nodes -5":                      "--nodes -5 out of range 1..1000000000000",
		"selfplay --out x --nodes 0":           "--nodes 0 out of range 1..1000000000000",
		"selfplay --out x --nodes -5":          "--nodes -5 out of range 1..1000000000000",
		"label --out x --data y --nodes -5":    "--nodes -5 out of range 1..1000000000000",
		"match --nodes -5":                     "--nodes -5 out of range 1..1000000000000",
		"dxp --nodes -5":                       "--nodes -5 out of range 0..1000000000000 (0: none)",
		"perft --threads 257":                  "--threads 257 out of range 1..256",
		"train --threads 257 --out x --data a": "--threads 257 out of range 1..256",
		"egdb build --threads 257 --out x":     "--threads 257 out of range 1..256",
		"egdb verify --threads 257":            "--threads 257 out of range 1..256",
		"selfplay --out x --seed -5":           "--seed -5 out of range (want a whole number, 0 or more)",
		"analyse --depth 99999999999999999999": "--depth 99999999999999999999 out of range",
		"analyse --depth x":                    `--depth "x": not a number`,
		"help frob":                            `help: unknown command "frob"`,
		"book frob":                            `book: unknown subcommand "frob"`,
		"analyse --depth 3 english":            `damka analyse takes no arguments: "english" is a variant, give it as --variant english`,
		"hub extra":                            `damka hub takes no arguments, only flags: "extra"`,
		"review --depth 2":                     "review needs the PDN file of the games to review: damka review GAMES.pdn",
		"review a.pdn b.pdn":                   "review takes one PDN file, got 2 arguments",
		"solve":                                "solve needs the suite file of the positions to solve",
		"solve a.epd b.epd":                    "solve takes one suite file, got 2 arguments",
		"pdn check":                            "pdn check needs the PDN files to check: damka pdn check FILE...",
		"match merge":                          "match merge needs the PDN files of the match",
	} {
		_, errs, code := runCLI(strings.Fields(args)...)
		assert.Equal(t, exitBadInput, code, args)
		assert.Contains(t, errs, want, args)
		assert.NotContains(t, errs, "give exactly one", args)
		assert.NotContains(t, errs, "strconv", args)
	}
}

// TestREADMEOneBinaryLocation: the README names one binary, the one `make
// build` writes, uses it in its examples (match's cmd= included), says
// make is needed for the make targets and gives a go install line.
func TestREADMEOneBinaryLocation(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	makefile, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	require.NoError(t, err)
	require.Contains(t, string(makefile), "-o bin/damka ./cmd/damka")
	text := string(readme)
	assert.NotContains(t, text, "./damka ", "a second binary location")
	assert.NotContains(t, text, "cmd=./damka")
	assert.NotContains(t, text, "go build -o damka")
	assert.Contains(t, text, "cmd=bin/damka")
	assert.Contains(t, text, "go install ./cmd/damka")
	assert.NotContains(t, text, "is the only requirement")
	assert.Regexp(t, "`make`", text)
}

// TestPDNCheckNoGames: a file with no games (plain text, an empty file) is
// an error naming the file, exit status 2, before any summary line; a
// device (/dev/null, /dev/zero, which never ends) is refused as one.
func TestPDNCheckNoGames(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.md")
	require.NoError(t, os.WriteFile(text, []byte("# Notes\n\nNo games here, only words.\n"), 0o644))
	empty := filepath.Join(dir, "empty.pdn")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	for _, name := range []string{text, empty} {
		out, errs, code := runCLI("pdn", "check", name)
		assert.Equal(t, exitBadInput, code, name)
		assert.Contains(t, errs, name+" holds no PDN games")
		assert.NotContains(t, out, "games=0")
	}
	for _, name := range []string{os.DevNull, "/dev/zero"} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		for _, args := range [][]string{{"pdn", "check", name}, {"review", name, "--depth", "2"},
			{"match", "merge", name}, {"book", "show", "--book", name}, {"book", "stats", "--book", name},
			{"train", "--variant", "russian", "--epochs", "0", "--data", name},
			{"label", "--data", name, "--out", filepath.Join(dir, "l.dkg"), "--depth", "2"}} {
			out, errs, code := runCLI(args...)
			assert.Equal(t, exitBadInput, code, args)
			assert.Contains(t, errs, name+" is a character device, not a regular file", args)
			assert.Empty(t, out, args)
		}
	}
}

// TestOpeningsDecks: `damka openings` writes what the committed decks of
// openings/decks hold, byte for byte, and each deck holds perft(N) openings
// (distinct move sequences) that Load reads.
func TestOpeningsDecks(t *testing.T) {
	for _, v := range engine.AllVariants() {
		file := filepath.Join("..", "..", "openings", "decks", v.String()+"-3ply.pdn")
		want, err := os.ReadFile(file)
		require.NoError(t, err, "deck %s", file)
		out, errs, code := runCLI("openings", "--variant", v.String(), "--plies", "3")
		require.Equal(t, 0, code, errs)
		assert.Equal(t, string(want), out, "%s differs from damka openings --variant %s --plies 3", file, v)
		ops, err := openings.Load(file, v)
		require.NoError(t, err)
		assert.Equal(t, engine.Perft(engine.StartPosition(v), 3, false), uint64(len(ops)), file)
	}
	out := filepath.Join(t.TempDir(), "d.pdn")
	_, errs, code := runCLI("openings", "--variant", "english", "--plies", "2", "--out", out)
	require.Equal(t, 0, code, errs)
	ops, err := openings.Load(out, engine.English)
	require.NoError(t, err)
	assert.Len(t, ops, 49)
	for _, args := range [][]string{
		{"openings", "--variant", "english", "--plies", "0"},
		{"openings", "--variant", "international", "--plies", "9"},
		{"openings", "--variant", "chess"},
		{"openings", "--out", filepath.Join(t.TempDir(), "no", "dir", "d.pdn")},
	} {
		_, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
	}
}

// TestThreadsDefaultEverywhere: every --threads flag of every command has
// the same default, search.DefaultThreads.
func TestThreadsDefaultEverywhere(t *testing.T) {
	var walk func(c *cobra.Command)
	seen := 0
	walk = func(c *cobra.Command) {
		if f := c.Flags().Lookup("threads"); f != nil {
			seen++
			assert.Equal(t, strconv.Itoa(search.DefaultThreads), f.DefValue, c.CommandPath())
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd())
	assert.GreaterOrEqual(t, seen, 9)
}

// TestHelpTexts: damka --help says what plain damka does, egdb --help does
// not send a go install user to a README they lack, and the help of every
// command that reads an opening deck (dxp, match, selfplay) names every
// format openings.Load reads.
func TestHelpTexts(t *testing.T) {
	out, _, code := runCLI("--help")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "text mode")
	assert.Contains(t, out, "Hub protocol")
	out, _, code = runCLI("egdb", "--help")
	require.Equal(t, 0, code)
	assert.NotContains(t, out, "README")
	assert.Contains(t, out, "docs/egdb.md")
	for _, c := range []string{"dxp", "match", "selfplay"} {
		out, _, code = runCLI(c, "--help")
		require.Equal(t, 0, code)
		flag := regexp.MustCompile(`(?m)^ +--openings string +(.*)$`).FindString(out)
		require.NotEmpty(t, flag, c)
		for _, f := range []string{".tsv", ".json", ".pdn", "FEN", "Hub position"} {
			assert.Contains(t, out, f, c)
			assert.Contains(t, flag, f, "%s --openings", c)
		}
	}
}

// TestPDNCheckResultContradiction: pdn check counts a game whose result
// contradicts its final position as bad and says why, with the position.
func TestPDNCheckResultContradiction(t *testing.T) {
	name := filepath.Join(t.TempDir(), "r.pdn")
	require.NoError(t, os.WriteFile(name, []byte(`[Event "won"]
[FEN "W:Wc3:Bd4"]
1. c3:e5 1-0

[Event "drawn?"]
[Result "1/2-1/2"]
[FEN "W:Wc3:Bd4"]
1. c3:e5 1/2-1/2
`), 0o644))
	out, _, code := runCLI("pdn", "check", "--variant", "russian", name)
	assert.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, out)
	assert.Contains(t, lines[0], `game 2 ("drawn?") line 5: result 1/2-1/2 (a draw) contradicts the final position: Black to move has no pieces left, so White wins (1-0) [FEN "B:We5:B"]`)
	assert.Equal(t, "games=2 ok=1 bad=1", lines[1])
}
