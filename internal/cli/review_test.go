package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/review"
	"github.com/damka-draughts/damka/search"
)

// reviewInput is a Russian game with a blunder (2. e3-d4), a bad game
// (b6-b5 is no move) and an English game.
const reviewInput = `[White "Careless"]
[Black "Alert"]
[GameType "25"]

1. c3-b4 b6-a5 {own comment} 2. e3-d4 *

[GameType "25"]
1. c3-b4 b6-b5 *

[GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 1/2-1/2
`

// TestReviewCommand reviews a file with a bad game: the good games are
// written and read back by pdn check, the bad one is reported by number,
// the summary is on stdout, and the exit status is 2.
func TestReviewCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(reviewInput), 0o644))
	out, errs, code := runCLI("review", in, "--depth", "3", "--threads", "1", "--hash", "8")
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, in+": pdn: game 2 line 8: move 1 \"b6-b5\"", "the bad game named by file, game, line and move")
	assert.NotContains(t, errs, "no GameType tag", "the bad game has its GameType tag: no variant hint")
	assert.Contains(t, errs, "1 of 3 games bad")
	assert.Contains(t, out, `game=1 white="Careless" black="Alert" result=* moves=2 book=1 `, "c3-b4 is a book move")
	assert.Contains(t, out, "white_blunders=1")
	assert.Regexp(t, `game=3 white="\?" black="\?" result=1/2-1/2 moves=\d book=\d `, out)
	assert.Regexp(t, `games=3 reviewed=2 bad=1 moves=\d `, out)
	reviewed := filepath.Join(dir, "games.reviewed.pdn")
	assert.Contains(t, out, "wrote "+reviewed+"\n")
	text, err := os.ReadFile(reviewed)
	require.NoError(t, err)
	assert.Contains(t, string(text), "2. e3-d4??")
	assert.Contains(t, string(text), "own comment")
	assert.Contains(t, string(text), `[Annotator "damka `)
	// A score after every move but the book moves inside the book (c3-b4
	// has one: the position after it is searched for the next move; the
	// English game is all book).
	assert.Equal(t, 4, strings.Count(string(text), "[%eval "))
	assert.Equal(t, 5, strings.Count(string(text), " book"))
	check, errs, code := runCLI("pdn", "check", reviewed)
	assert.Equal(t, 0, code, errs)
	assert.Equal(t, "games=2 ok=2 bad=0\n", check)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left")
}

// TestReviewBadInput checks the refusals: --out naming the input (left
// as it was), no limit, a missing file, a file without a good game.
func TestReviewBadInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(reviewInput), 0o644))
	_, errs, code := runCLI("review", in, "--depth", "3", "--out", in)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "is the input file")
	text, err := os.ReadFile(in)
	require.NoError(t, err)
	assert.Equal(t, reviewInput, string(text))

	_, _, code = runCLI("review", in)
	assert.Equal(t, exitBadInput, code, "no limit")
	_, _, code = runCLI("review", filepath.Join(dir, "missing.pdn"), "--depth", "3")
	assert.Equal(t, exitBadInput, code)
	bad := filepath.Join(dir, "bad.pdn")
	require.NoError(t, os.WriteFile(bad, []byte("1. c3-b4 b6-b5 *\n"), 0o644))
	_, errs, code = runCLI("review", bad, "--depth", "3")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "no game to review")
	assert.NoFileExists(t, filepath.Join(dir, "bad.reviewed.pdn"))
}

// TestReviewInterrupted checks that a review whose context is cancelled
// writes no file, not even a temporary one.
func TestReviewInterrupted(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(reviewInput), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cmd := &cobra.Command{}
	var sb strings.Builder
	cmd.SetOut(&sb)
	cmd.SetErr(&sb)
	rv := review.New(review.Config{Options: search.Options{Threads: 1, HashMiB: 8}, Limits: search.Limits{Depth: 3}})
	err := runReview(ctx, cmd, rv, in, filepath.Join(dir, "out.pdn"), engine.Russian, reviewOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "interrupted")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	assert.Empty(t, sb.String())
}

// TestReviewProgressBar: on a terminal the review draws a bar of the moves
// reviewed to standard error, finished before the summary, which starts
// its own line; --no-progress draws none.
func TestReviewProgressBar(t *testing.T) {
	defer func(f func(io.Writer) bool) { isTerminalOut = f }(isTerminalOut)
	isTerminalOut = func(io.Writer) bool { return true }
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(reviewInput), 0o644))
	var screen bytes.Buffer
	term := &lockedWriter{w: &screen}
	args := []string{"review", in, "--depth", "2", "--threads", "1", "--hash", "8", "--log-level", "error"}
	code := run(args, term, term)
	out := screen.String()
	require.Equal(t, exitBadInput, code, out)
	assert.Regexp(t, `moves\S* .*7/7`, out, "the bar counts the 7 moves of the good games to the end")
	assert.Regexp(t, `(?m)^game=1 `, out)
	assert.NotRegexp(t, `[^\n]game=1 `, out, "the summary starts its own line")

	screen.Reset()
	code = run(append(args, "--no-progress", "--out", filepath.Join(dir, "quiet.pdn")), term, term)
	require.Equal(t, exitBadInput, code, screen.String())
	assert.NotContains(t, screen.String(), "7/7")
}

// TestReviewOutRefusedBeforeReviewing checks that an --out that cannot be
// written (a folder that does not exist, a directory) is refused with
// status 2 before any game is reviewed, and that a file without games
// says so.
func TestReviewOutRefusedBeforeReviewing(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(reviewInput), 0o644))

	out, errs, code := runCLI("review", in, "--depth", "3", "--out", filepath.Join(dir, "missing", "x.pdn"))
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "--out")
	assert.Empty(t, out, "no game reviewed")
	assert.NotContains(t, errs, "b6-b5", "no game read")

	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	out, errs, code = runCLI("review", in, "--depth", "3", "--out", sub)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "--out "+sub+" is a directory")
	assert.Empty(t, out, "no game reviewed")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left")
	entries, err = os.ReadDir(sub)
	require.NoError(t, err)
	assert.Empty(t, entries)

	text := filepath.Join(dir, "text.pdn")
	require.NoError(t, os.WriteFile(text, []byte("hello world\n"), 0o644))
	_, errs, code = runCLI("review", text, "--depth", "3")
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, text+" holds no PDN games")
	assert.NoFileExists(t, filepath.Join(dir, "text.reviewed.pdn"))
}

// TestReviewVariantHintOnlyForUntypedGames checks that the hint about the
// default variant counts only the games without a GameType tag that fail
// at their first move, as damka pdn check does: a Russian-tagged game
// with a bad move is no game of another variant.
func TestReviewVariantHintOnlyForUntypedGames(t *testing.T) {
	dir := t.TempDir()
	typed := filepath.Join(dir, "typed.pdn")
	require.NoError(t, os.WriteFile(typed, []byte("[GameType \"25\"]\n1. c3-b4 b6-b5 *\n\n[GameType \"25\"]\n1. a1-b5 *\n"), 0o644))
	_, errs, code := runCLI("review", typed, "--depth", "2")
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "no game to review (2 bad)")
	assert.NotContains(t, errs, "the default variant")

	english := filepath.Join(dir, "english.pdn")
	require.NoError(t, os.WriteFile(english, []byte("[GameType \"25\"]\n1. c3-b4 b6-a5 *\n\n1. 11-15 23-19 *\n"), 0o644))
	_, errs, code = runCLI("review", english, "--depth", "2")
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "1 of the games fail at their first move as russian, the default variant")
	assert.Contains(t, errs, "1 read as english: use --variant english")
}

// TestReviewDocExample: docs/review.md shows reviewInput as its games.pdn,
// and what damka review games.pdn --depth 8 writes: the first game and the
// whole standard output.
func TestReviewDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "review.md"))
	require.NoError(t, err)
	text := string(doc)
	assert.Contains(t, text, "```\n"+reviewInput+"```\n", "docs/review.md's games.pdn")
	require.Contains(t, text, "damka review games.pdn --depth 8")

	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(reviewInput), 0o644))
	out, errs, code := runCLI("review", in, "--depth", "8")
	assert.Equal(t, exitBadInput, code, errs)
	out = strings.ReplaceAll(out, dir+string(filepath.Separator), "")
	assert.Contains(t, text, "```\n"+out+"```\n", "docs/review.md's standard output")

	reviewed, err := os.ReadFile(filepath.Join(dir, "games.reviewed.pdn"))
	require.NoError(t, err)
	first := string(reviewed)
	start := strings.Index(first, "\n1. ")
	require.GreaterOrEqual(t, start, 0)
	first = first[start+1:]
	first = first[:strings.Index(first, "\n\n")+1]
	assert.Contains(t, text, "```\n"+first+"```\n", "docs/review.md's first game")
}
