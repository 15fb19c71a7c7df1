// review.go: the `damka review` subcommand.

package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/review"
	"github.com/damka-draughts/damka/search"
)

func newReviewCmd() *cobra.Command {
	var (
		sf         searchFlags
		outName    string
		noProgress bool
		resume     bool
		noBook     bool
	)
	cmd := &cobra.Command{
		Use:   "review GAME.pdn",
		Short: "annotate the games of a PDN file with the engine's scores, mistakes and blunders",
		Long: `review replays every game of a PDN file, searches each position once within
the limit (one of --depth, --nodes, --movetime; by default depth ` + fmt.Sprint(review.DefaultDepth) + `; the
opening book off, the endgame tables of --egdb-path on) and writes the games
again with:
  - after every move a comment {[%eval S] ...}: the score of the position the
    move leads to, in men from White's view with two decimals (a forced win in
    n plies is 100 - n/100, e.g. 99.93; a loss its negative), and a decided
    score in words ("White wins in 17 plies (tables)");
  - the glyph "?!" on an inaccuracy, "?" on a mistake and "??" on a blunder:
    a move that lowers the mover's winning chances (its expected result, from
    the score and the men on the board, fitted to game results) by 10, 20 or
    30 points against the engine's best move, never where the game was
    decided either way; a move about to get "?" or "??" is searched again
    deeper (4 plies, or 8 times the nodes or the time), and 4 plies deeper
    again (8 times again) if the mark stands: it keeps the least mark of
    its searches;
    the comment says the mark, the chances before and after, the better move,
    its score and its line, and the line is also written as a variation;
  - the moves of the game's opening deck (its Opening tag) and of the opening
    book after them as "book", not graded (--no-book: only the deck's);
  - the game's own comments kept after the score; after the last move a
    comment "review: White NAME: accuracy A%, N moves, ..." and the tags
    [WhiteAccuracy "A"] [BlackAccuracy "A"] (the mean of the graded moves'
    accuracy, 100 * exp(-4 * drop)) and [Annotator "damka VERSION, LIMIT"].
The played move's score is the score of the next position's search, so each
position is searched once, and twice only around a mark (docs/review.md).

The games go to --out (default GAME.reviewed.pdn beside the input; never the
input itself), written whole or not at all. Meanwhile each game is appended,
as soon as it is reviewed, to the progress file OUT.partial beside it, which
is removed at the end. When the review is interrupted (Ctrl-C, SIGTERM) the
progress file stays: the same command with --resume reviews only the games
that are not in it, and writes the same OUT and summary as a run straight
through; a damaged record of it is named (its place and line) and only its
game reviewed again. A progress file of another input or other settings is refused;
without --resume an existing progress file is refused too, so that no work
is thrown away (delete it to start over). Standard output gets one line per game, one per player and a totals
line (docs/review.md). A bad game (a PDN error, an illegal move) is reported
on standard error with its number and move and left out; the other games are
reviewed and written, and the exit status is then 2 (bad input), as when no
game can be reviewed at all.`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return badInput("review needs the PDN file of the games to review: damka review GAMES.pdn [flags]")
			case len(args) > 1:
				return badInput("review takes one PDN file, got %d arguments: %q", len(args), args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if !fl.Changed("depth") && !fl.Changed("nodes") && !fl.Changed("movetime") {
				sf.depth = review.DefaultDepth
			}
			lim, p, err := sf.setup(cmd)
			if err != nil {
				return err
			}
			in := args[0]
			if outName == "" {
				outName = strings.TrimSuffix(in, filepath.Ext(in)) + ".reviewed.pdn"
			}
			cfg := review.Config{Options: p.Options(), Limits: lim, Verify: review.VerifyLimits(lim),
				Annotator: "damka " + version + ", " + limitText(lim)}
			if !noBook {
				// A variant without an embedded book has no book moves
				// but those of the deck.
				for _, v := range engine.AllVariants() {
					cfg.Books[v], _ = book.Default(v)
				}
			}
			settings, err := reviewSettings(p)
			if err != nil {
				return err
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			return runReview(ctx, cmd, review.New(cfg), in, outName, p.Variant(), reviewOptions{
				bar: progressOn(cmd.ErrOrStderr(), noProgress), resume: resume,
				limits: limitText(lim) + ", second searches " + limitText(cfg.Verify), settings: settings + fmt.Sprintf(" book=%t", !noBook),
				reviewed: func(games int) {
					if reviewedHook != nil && reviewedHook(games) {
						cancel()
					}
				}})
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVar(&outName, "out", "", "write the reviewed games to this file (default: GAME.reviewed.pdn beside the input)")
	cmd.Flags().BoolVar(&noProgress, "no-progress", false, noProgressUsage)
	cmd.Flags().BoolVar(&noBook, "no-book", false, "grade the opening book's moves too (the moves of the game's opening deck, its Opening tag, are never graded)")
	cmd.Flags().BoolVar(&resume, "resume", false, "go on with an interrupted review: keep the games of its progress file OUT.partial, review the others")
	return cmd
}

// reviewedHook, if not nil, is called by the review command after each game
// is added to the progress file, with the games in it; when it returns
// true the review is interrupted as by Ctrl-C (a test's interruption).
var reviewedHook func(games int) bool

// limitText describes a search limit for the Annotator tag: "depth 6",
// "1000000 nodes", "0.5 s per move".
func limitText(l search.Limits) string {
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes", l.Nodes)
	}
	return fmt.Sprintf("%g s per move", l.MoveTime.Seconds())
}

// reviewOptions are runReview's options.
type reviewOptions struct {
	bar    bool // draw the progress bar
	resume bool // go on from the progress file
	// limits and settings describe the search limit and the engine
	// settings that change scores, for the progress file's stamp.
	limits, settings string
	// reviewed, if not nil, is called after each game is added to the
	// progress file, with the games in it.
	reviewed func(games int)
}

// runReview reviews the games of file in (games without a GameType tag
// of variant v) with rv and writes them to outName through a temporary
// file in its folder, renamed when all is written: when ctx is done first,
// or anything fails, no file is left but the progress file outName.partial,
// which holds the games reviewed (o.resume goes on from it; without
// o.resume an existing one is refused). The summary goes to cmd's standard
// output, bad games and the progress bar (when o.bar is set) to its
// standard error. Bad games give a bad-input error after the good ones are
// written.
func runReview(ctx context.Context, cmd *cobra.Command, rv *review.Reviewer, in, outName string, v engine.VariantID, o reviewOptions) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if same, err := sameFile(in, outName); err != nil {
		return err
	} else if same {
		return badInput("--out %s is the input file: give another --out", outName)
	}
	f, err := openRegular(in)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxReviewBytes+1))
	f.Close()
	if err != nil {
		return badInput("%s: %v", in, err)
	}
	if len(data) > maxReviewBytes {
		return badInput("%s: more than %d MiB of games: review a part of them", in, maxReviewBytes>>20)
	}
	if err := checkWritable(outName); err != nil {
		return err
	}
	partial := outName + review.ProgressSuffix
	stamp := review.NewStamp(in, data, v, o.limits, version, o.settings)
	done := map[int]*review.Game{}
	var pf *review.ProgressFile
	_, statErr := os.Stat(partial)
	switch {
	case statErr == nil && !o.resume:
		return badInput("%s holds the games of an interrupted review: run again with --resume to go on with it, or delete it to start over", partial)
	case statErr == nil:
		pf, done, err = review.ResumeProgress(partial, stamp, stderr)
	case errors.Is(statErr, os.ErrNotExist):
		pf, err = review.CreateProgress(partial, stamp)
	default:
		return badInput("%v", statErr)
	}
	if err != nil {
		return progressError(err)
	}
	kept := false // the progress file is left for --resume
	defer func() {
		if err := pf.Close(!kept); err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
		}
	}()
	var pb *progressbar.ProgressBar
	progress := func(done, total int) {
		if pb == nil {
			pb = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("moves"),
				progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionSetElapsedTime(true),
				progressbar.OptionThrottle(100*time.Millisecond))
		}
		_ = pb.Set(done)
	}
	if !o.bar {
		progress = nil
	}
	save := func(g *review.Game) error {
		if err := pf.Add(g); err != nil {
			return err
		}
		if o.reviewed != nil {
			o.reviewed(pf.Games())
		}
		return nil
	}
	rp, err := review.RunWith(ctx, rv, bytes.NewReader(data), v, review.RunOptions{Progress: progress, Done: done, Reviewed: save})
	if pb != nil {
		_ = pb.Finish()
		fmt.Fprintln(stderr)
	}
	if err != nil {
		kept = pf.Games() > 0
		if ctx.Err() != nil {
			if kept {
				return fmt.Errorf("review interrupted: %s not written; the %d games reviewed are kept in %s: run the same command with --resume to go on", outName, pf.Games(), partial)
			}
			return fmt.Errorf("review interrupted: %s not written", outName)
		}
		return fmt.Errorf("%s: %v", in, err)
	}
	var first []int // bad games that fail at their first move
	for i, pe := range rp.Bad {
		fmt.Fprintf(stderr, "%s: %v\n", in, pe)
		if failsUntaggedAtFirstMove(rp.BadGames[i], pe) {
			first = append(first, pe.Index)
		}
	}
	if len(first) > 0 && !cmd.Flags().Changed(player.SetVariant) {
		fmt.Fprintln(stderr, variantHint(in, v, first))
	}
	if len(rp.Games) == 0 && len(rp.Bad) == 0 {
		return badInput("%s holds no PDN games: %s not written", in, outName)
	}
	if len(rp.Games) == 0 {
		return badInput("%s: no game to review (%d bad): %s not written", in, len(rp.Bad), outName)
	}
	if err := writeAtomic(outName, rp.WritePDN); err != nil {
		kept = pf.Games() > 0
		return err
	}
	if err := rp.WriteSummary(stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", outName)
	if len(rp.Bad) > 0 {
		return badInput("%s: %d of %d games bad (not reviewed, listed above); the others are in %s",
			in, len(rp.Bad), len(rp.Bad)+len(rp.Games), outName)
	}
	return nil
}

// sameFile reports whether names a and b are the same file (b need not
// exist).
func sameFile(a, b string) (bool, error) {
	sb, err := os.Stat(b)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, badInput("--out: %v", err)
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false, badInput("%v", err)
	}
	return os.SameFile(sa, sb), nil
}

// checkWritable refuses, as bad input, an output file name that is a
// directory or whose folder does not take a new file, so that a review
// is not run only to fail when its games are written. It creates and
// removes a temporary file as writeAtomic does.
func checkWritable(name string) error {
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		return badInput("--out %s is a directory: give a file name", name)
	}
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return badInput("--out %s: cannot write a file in %s: %v", name, dir, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// writeAtomic writes name through write: into a temporary file in name's
// folder, renamed to name once complete and closed, removed on any error.
func writeAtomic(name string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return badInput("--out: %v", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	if err := write(w); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	ok = true
	return nil
}

// progressError is err of a review's progress file, as bad input when it
// is the file's or the command line's (review.ErrProgress).
func progressError(err error) error {
	if errors.Is(err, review.ErrProgress) {
		return badInput("%v", err)
	}
	return err
}

// reviewSettings returns the engine settings of p that change a review's
// scores (player.ScoreNames), for its stamp: "eval-file=F egdb-path=D egdb-pieces=N", with
// the SHA-256 of the eval file's content after its name (a file of the
// same name with other weights is another review).
func reviewSettings(p *player.Player) (string, error) {
	var settings []string
	for _, name := range player.ScoreNames() {
		val, err := p.Get(name)
		if err != nil {
			return "", err
		}
		if name == player.SetEvalFile && val != "" {
			data, err := fileread.Read(val, maxEvalFileBytes)
			if err != nil {
				return "", badInput("--%s: %v", name, err)
			}
			sum := sha256.Sum256(data)
			val += "@sha256:" + hex.EncodeToString(sum[:8])
		}
		settings = append(settings, name+"="+val)
	}
	return strings.Join(settings, " "), nil
}

// maxReviewBytes bounds the PDN file damka review reads (256 MiB: about a
// million games, months of review).
const maxReviewBytes = 256 << 20

// maxEvalFileBytes bounds the eval file whose content review's progress
// stamp hashes (more than any weights file).
const maxEvalFileBytes = 16 << 20
