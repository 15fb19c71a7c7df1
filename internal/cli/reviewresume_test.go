package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/review"
)

// resumeInput is reviewInput and two more games: four good games and a bad
// one.
const resumeInput = reviewInput + `
[White "Careless"]
[Black "Third"]
[GameType "25"]
1. c3-d4 f6-g5 2. b2-c3 g7-f6 *

[White "Alert"]
[Black "Careless"]
[GameType "25"]
1. a3-b4 b6-a5 2. g3-h4 f6-g5 3. h4xf6 g7xe5 *

`

// reviewArgs are the arguments of a deterministic review of in to out.
func reviewArgs(in, out string, more ...string) []string {
	return append([]string{"review", in, "--depth", "3", "--threads", "1", "--hash", "8", "--out", out}, more...)
}

// summaryOf is a review's standard output without its "wrote" line.
func summaryOf(out string) string {
	i := strings.Index(out, "wrote ")
	if i < 0 {
		return out
	}
	return out[:i]
}

// interruptAfter runs the review of args, interrupted when n games are in
// its progress file; it returns the standard error.
func interruptAfter(t *testing.T, n int, args []string) string {
	t.Helper()
	defer func() { reviewedHook = nil }()
	reviewedHook = func(games int) bool { return games >= n }
	_, errs, code := runCLI(args...)
	require.NotEqual(t, 0, code, errs)
	require.Contains(t, errs, "interrupted")
	return errs
}

// straightReview runs the review of in straight through to a file in dir
// and returns its output file's text and its summary.
func straightReview(t *testing.T, dir, in string) (string, string) {
	t.Helper()
	out := filepath.Join(dir, "straight.pdn")
	stdout, errs, code := runCLI(reviewArgs(in, out)...)
	require.Equal(t, exitBadInput, code, errs) // the bad game
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoFileExists(t, out+review.ProgressSuffix, "the progress file is removed at the end")
	return string(text), summaryOf(stdout)
}

// TestReviewResume interrupts a review after two of its four good games:
// the progress file holds them, a run without --resume is refused, and
// the run with --resume reviews only the other two and writes the same
// file and summary as a run straight through, then removes the progress
// file.
func TestReviewResume(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(resumeInput), 0o644))
	want, wantSummary := straightReview(t, dir, in)

	out := filepath.Join(dir, "resumed.pdn")
	partial := out + ".partial"
	errs := interruptAfter(t, 2, reviewArgs(in, out))
	assert.Contains(t, errs, partial)
	assert.Contains(t, errs, "--resume")
	assert.NoFileExists(t, out)
	kept, err := os.ReadFile(partial)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(kept), "; damka review game "))
	games := strings.Split(want, "[Event ")
	assert.Contains(t, string(kept), games[1], "game 1 as in the output")
	assert.NotContains(t, string(kept), `"Third"`, "game 4 is not reviewed yet")

	_, errs, code := runCLI(reviewArgs(in, out)...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, partial)
	assert.Contains(t, errs, "--resume")
	assert.FileExists(t, partial, "left as it was")

	var reviewed []int
	reviewedHook = func(games int) bool { reviewed = append(reviewed, games); return false }
	defer func() { reviewedHook = nil }()
	stdout, errs, code := runCLI(reviewArgs(in, out, "--resume")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Equal(t, []int{3, 4}, reviewed, "only the two games not in the progress file are reviewed")
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, want, string(text))
	assert.Equal(t, wantSummary, summaryOf(stdout))
	assert.NoFileExists(t, partial)
}

// TestReviewResumeTruncated: a half-written last record of the progress
// file is dropped with a warning and its game reviewed again; --resume
// without a progress file starts from the beginning.
func TestReviewResumeTruncated(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(resumeInput), 0o644))
	want, wantSummary := straightReview(t, dir, in)

	out := filepath.Join(dir, "resumed.pdn")
	partial := out + review.ProgressSuffix
	interruptAfter(t, 2, reviewArgs(in, out))
	kept, err := os.ReadFile(partial)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(partial, kept[:len(kept)-20], 0o644))

	var reviewed []int
	reviewedHook = func(games int) bool { reviewed = append(reviewed, games); return false }
	defer func() { reviewedHook = nil }()
	stdout, errs, code := runCLI(reviewArgs(in, out, "--resume")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, partial+": half-written last record dropped")
	assert.Equal(t, []int{2, 3, 4}, reviewed, "game 1 kept, games 3, 4 and 5 reviewed")
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, want, string(text))
	assert.Equal(t, wantSummary, summaryOf(stdout))
	assert.NoFileExists(t, partial)

	fresh := filepath.Join(dir, "fresh.pdn")
	stdout, errs, code = runCLI(reviewArgs(in, fresh, "--resume")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.NotContains(t, errs, "dropped")
	text, err = os.ReadFile(fresh)
	require.NoError(t, err)
	assert.Equal(t, want, string(text))
	assert.Equal(t, wantSummary, summaryOf(stdout))
}

// TestReviewResumeDamagedMiddle: a damaged record in the middle of the
// progress file is named by its place and line, not taken for a
// half-written last record; only its game is reviewed again, the records
// after it are kept (the file written again without it), and the result
// is that of a run straight through.
func TestReviewResumeDamagedMiddle(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(resumeInput), 0o644))
	want, wantSummary := straightReview(t, dir, in)

	out := filepath.Join(dir, "resumed.pdn")
	partial := out + review.ProgressSuffix
	interruptAfter(t, 3, reviewArgs(in, out)) // games 1, 3 and 4 (game 2 is bad)
	kept, err := os.ReadFile(partial)
	require.NoError(t, err)
	const prefix = "; damka review game "
	var at []int // the offsets of the three records
	for off := 0; ; off++ {
		i := strings.Index(string(kept[off:]), prefix)
		if i < 0 {
			break
		}
		off += i
		at = append(at, off)
	}
	require.Len(t, at, 3)
	second, third := at[1], at[2]
	kept[third-10] ^= 1 // in game 3's text
	require.NoError(t, os.WriteFile(partial, kept, 0o644))
	line := 1 + strings.Count(string(kept[:second]), "\n")

	// Stopped again after the damaged record's game is reviewed: the file
	// holds the three games once more, game 4's record as it was.
	errs := interruptAfter(t, 3, reviewArgs(in, out, "--resume"))
	assert.Contains(t, errs, fmt.Sprintf("%s: record 2 (line %d), in the middle of the file, is damaged (game 3: ", partial, line))
	assert.Contains(t, errs, "the records after it are kept")
	assert.NotContains(t, errs, "last record")
	now, err := os.ReadFile(partial)
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(now), prefix))
	assert.Contains(t, string(now), string(kept[third:]), "game 4's record kept")

	var reviewed []int
	reviewedHook = func(games int) bool { reviewed = append(reviewed, games); return false }
	defer func() { reviewedHook = nil }()
	stdout, errs, code := runCLI(reviewArgs(in, out, "--resume")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.NotContains(t, errs, "damaged", "the file written again is sound")
	assert.Equal(t, []int{4}, reviewed, "only game 5 is left")
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, want, string(text))
	assert.Equal(t, wantSummary, summaryOf(stdout))
	assert.NoFileExists(t, partial)
}

// TestReviewResumeRefusesOtherReview: the progress file of another input
// or another limit is refused with status 2, naming the file and what
// differs, and left as it was.
func TestReviewResumeRefusesOtherReview(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	require.NoError(t, os.WriteFile(in, []byte(resumeInput), 0o644))
	out := filepath.Join(dir, "out.pdn")
	partial := out + review.ProgressSuffix
	interruptAfter(t, 1, reviewArgs(in, out))
	kept, err := os.ReadFile(partial)
	require.NoError(t, err)

	args := reviewArgs(in, out, "--resume")
	args[3] = "2" // --depth 2
	_, errs, code := runCLI(args...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, partial)
	assert.Contains(t, errs, `limit "depth 3, second searches depth 7" (now "depth 2, second searches depth 6")`)

	require.NoError(t, os.WriteFile(in, []byte(resumeInput+"\n"), 0o644))
	_, errs, code = runCLI(reviewArgs(in, out, "--resume")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, partial)
	assert.Contains(t, errs, "input size")
	assert.Contains(t, errs, "input sha256")

	require.NoError(t, os.WriteFile(in, []byte(resumeInput), 0o644))
	_, errs, code = runCLI(reviewArgs(in, out, "--resume", "--variant", "english")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "variant")

	now, err := os.ReadFile(partial)
	require.NoError(t, err)
	assert.Equal(t, kept, now, "the refused progress file is left as it was")
	assert.NoFileExists(t, out)
}

// TestReviewSettingsHashEvalFile: a review's stamp names the eval file
// with a hash of its content, so that other weights under the same name
// are another review; without an eval file the stamp names none.
func TestReviewSettingsHashEvalFile(t *testing.T) {
	p := player.New(player.Config{})
	plain, err := reviewSettings(p)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(plain, "eval-file= egdb-path="), plain)

	w := filepath.Join(t.TempDir(), "w.dkw")
	data, err := os.ReadFile(filepath.Join("..", "..", "eval", "weights", "russian.dkw"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(w, data, 0o644))
	require.NoError(t, p.Set(player.SetEvalFile, w))
	first, err := reviewSettings(p)
	require.NoError(t, err)
	assert.Contains(t, first, "eval-file="+w+"@sha256:")
	data[len(data)-1] ^= 1
	require.NoError(t, os.WriteFile(w, data, 0o644))
	second, err := reviewSettings(p)
	require.NoError(t, err)
	assert.NotEqual(t, first, second, "other weights under the same name")
}
