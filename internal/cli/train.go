// train.go: the `damka train` subcommand: fit the pattern evaluation's
// weights to self-play games (package learn).

package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/learn"
	"github.com/damka-draughts/damka/player"
)

func newTrainCmd() *cobra.Command {
	var (
		out, initFile          string
		variant, threads, egdb *toolSetting
		data, testPDN          []string
		o                      learn.Options
		fromPrior              bool
		fixed                  []string
		featureSet             uint8
	)
	cmd := &cobra.Command{
		Use:   "train",
		Short: "fit the evaluation's weights to self-play games",
		Long: `train fits the pattern evaluation's weights to the games of --data (damka
game files from "damka selfplay") and writes a weights file (--out) that
--eval-file and the Hub parameter eval-file load, and that go:embed ships
from eval/weights/VARIANT.dkw.

Every position of a searched move where the side to move has no capture is
a training position. Its target is --lambda times the game result (White's
score) plus 1 - lambda times sigmoid(search score / scale); the model
predicts sigmoid(eval / scale) and the loss is the cross-entropy. The scale
(centi-men) is fitted to the search scores and results unless --scale is
given. Every --validate-th game is held out; the validation loss is printed
after every epoch (val_loss against the targets, val_result_loss against
the game results alone) and the weights of the best epoch are written. Adam,
mini-batches of --batch positions, step --rate (centi-men) times --decay
after every epoch, L2 --l2 on the pattern weights. Deterministic for a
--seed, whatever --threads is.

Training starts from the embedded weights of the variant, from --init, or
from a material-only prior with --from-prior. --feature-set chooses the
layout fitted: 4 (the default) has the 4x4 regions and the row bands, 3
the 4x4 regions alone (cheaper to evaluate); the starting weights' shared
regions carry over, the others start at 0.

--egdb labels the positions the endgame tables hold with their exact values
(win 1, draw 0.5, loss 0 for White), not their games' results, and trains
them on that value alone (the search score is not blended in), wherever the
draw rules cannot change the value from that point of the game: "" is the
embedded set, DIR a directory of tables over it; the default "off" uses
none.

--test-pdn FILE (repeatable) measures the evaluation on real games, such as
damka's matches against other engines ("damka match --pdn"; FILE may be
gzipped): every position before a move of a finished game of --variant
where the side to move has no capture and men are left, in the feature set
fitted, labelled with the game's result (White's score 1, 1/2, 0; games
with result "*" are skipped). test_loss, the mean cross-entropy of
sigmoid(eval / scale) against those results, is printed for the starting
weights (epoch 0), after every epoch and on the last line. It is a measure
only: the best epoch is chosen by val_loss, never by test_loss. A file
without a finished game of the variant is refused.

--epochs 0 fits nothing: it prints the losses of the starting weights, and
writes them to --out when given (in the layout of --feature-set); --out is
optional then. To compare weights files on peer games, run for each

  damka train --variant international --init eval/weights/international.dkw \
    --epochs 0 --data learn/games/r4_international.dkg.gz --test-pdn peers.pdn

with the same --data (the scale is fitted to it) or the same --scale. The
losses are those of the model in --feature-set, which reads kings into the
patterns: for weights of set 1 or 2 (the Russian and Brazilian files) they
are not quite those of the engine's evaluation.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			for _, f := range []struct {
				name string
				v    float64
			}{{"lambda", o.Lambda}, {"rate", o.Rate}, {"decay", o.Decay}, {"l2", o.L2}, {"scale", o.Scale}} {
				if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
					return badInput("--%s %g: want a finite number", f.name, f.v)
				}
			}
			switch {
			case len(data) == 0:
				return badInput("--data is required: one or more game files from damka selfplay")
			case out == "" && o.Epochs != 0:
				return badInput("--out is required: the weights file to write (optional only with --epochs 0)")
			case o.Epochs < 0 || o.Epochs > 10000:
				return badInput("--epochs %d out of range 0..10000", o.Epochs)
			case o.Batch < 1:
				return badInput("--batch %d: want at least 1", o.Batch)
			case o.Lambda < 0 || o.Lambda > 1:
				return badInput("--lambda %g out of range 0..1", o.Lambda)
			}
			if o.Threads, err = threads.int(); err != nil {
				return err
			}
			switch {
			case o.Rate <= 0 || o.Decay <= 0 || o.Decay > 1 || o.L2 < 0 || o.Scale < 0:
				return badInput("--rate, --decay (0..1], --l2 and --scale must be positive")
			case o.Validate < 2:
				return badInput("--validate %d: want at least 2 (every N-th game is held out)", o.Validate)
			case fromPrior && initFile != "":
				return badInput("give one of --init and --from-prior, not both")
			case !eval.Trainable(featureSet):
				return badInput("--feature-set %d: want 3 or %d", featureSet, eval.FeatureSet)
			}
			if out != "" {
				if err := checkOutputPath(out); err != nil {
					return err
				}
			}
			db, err := egdb.tables()
			if err != nil {
				return err
			}
			job := learn.Job{V: v, Set: featureSet, Data: data, TestPDN: testPDN, InitFile: initFile, FromPrior: fromPrior,
				Fixed: fixed, Options: o, Command: canonicalCommand(cmd, "threads")}
			if db != nil {
				job.EGDB = db
			}
			job.FileRead = func(r learn.FileRead) {
				if r.Test {
					logger.Info().Str("file", r.File).Int("games", r.Games).Int("positions", r.Positions).Msg("train test games")
					return
				}
				logger.Info().Str("file", r.File).Int("positions", r.Positions).Msg("train data")
			}
			job.TestRead = func(ts *learn.TestSet) {
				fmt.Fprintf(cmd.ErrOrStderr(), "test: %d positions of %d games (skipped: %d of another variant, %d without a result, %d with a fault)\n",
					len(ts.Samples), ts.Games, ts.OtherVariant, ts.Unfinished, ts.Bad)
			}
			job.DataRead = func(d *learn.Data, took time.Duration) {
				fmt.Fprintf(cmd.ErrOrStderr(), "read %d positions of %d games in %.1fs\n", len(d.Samples), d.Games, took.Seconds())
				if d.EGDB != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "endgame tables (%d pieces): %d positions take their exact values, %d of them differ from their game's result\n",
						d.EGDB.Pieces(v), d.Exact, d.Corrected)
				}
			}
			// testLoss is the test_loss field of r, or "" without --test-pdn.
			testLoss := func(r learn.EpochReport) string {
				if len(testPDN) == 0 {
					return ""
				}
				return fmt.Sprintf(" test_loss=%.6f", r.Test)
			}
			job.Options.Progress = func(r learn.EpochReport) {
				fmt.Fprintf(cmd.OutOrStdout(), "epoch=%d train_loss=%.6f val_loss=%.6f val_result_loss=%.6f%s time=%.1f\n",
					r.Epoch, r.Train, r.Validate, r.Result, testLoss(r), r.Time.Seconds())
			}
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			res, err := learn.RunJob(ctx, job)
			if err != nil {
				return trainInputError(err)
			}
			summary := fmt.Sprintf("scale=%.1f best_epoch=%d val_loss=%.6f%s", res.Scale, res.Best.Epoch, res.Best.Validate, testLoss(res.Best))
			if out == "" {
				fmt.Fprintln(cmd.OutOrStdout(), summary)
				return nil
			}
			if err := res.Weights.Save(out); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s out=%s\n", summary, out)
			return nil
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.StringArrayVar(&data, "data", nil, "game file from damka selfplay (repeatable)")
	f.StringVar(&out, "out", "", "weights file to write (required unless --epochs 0)")
	f.StringArrayVar(&testPDN, "test-pdn", nil, "PDN file of games (possibly gzipped) whose positions measure the weights: test_loss, never used to choose the epoch (repeatable)")
	f.StringVar(&initFile, "init", "", "start from this weights file instead of the embedded weights")
	f.BoolVar(&fromPrior, "from-prior", false, "start from a material-only prior instead of the embedded weights")
	f.Uint8Var(&featureSet, "feature-set", eval.FeatureSet, "feature set to fit: 4 (4x4 regions and row bands) or 3 (4x4 regions alone)")
	f.StringSliceVar(&fixed, "fix", nil, "dense features whose weights keep their initial values (comma separated: king-mobility, ...)")
	f.IntVar(&o.Epochs, "epochs", 16, "passes over the training positions (0: only the starting weights' losses)")
	f.IntVar(&o.Batch, "batch", 16384, "positions per Adam step")
	f.Float64Var(&o.Rate, "rate", 3, "Adam step size in centi-men")
	f.Float64Var(&o.Decay, "decay", 0.85, "step size factor after every epoch")
	f.Float64Var(&o.L2, "l2", 1e-10, "L2 penalty on the pattern weights")
	f.Float64Var(&o.Lambda, "lambda", 0.5, "weight of the game result in the target (the rest: the search score)")
	f.Float64Var(&o.Scale, "scale", 0, "sigmoid scale in centi-men (0: fitted to the data)")
	f.IntVar(&o.Validate, "validate", 10, "hold out every N-th game")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed (the shuffle)")
	threads = addSetting(cmd, player.SetThreads, "worker threads")
	egdb = addToolSetting(cmd, player.SetEGDBPath, "off", `endgame tables that label the positions they hold ("": the embedded set, DIR: a directory over it, "off": none)`)
	return cmd
}

// trainFlags are the flags of learn.Job's fields, for trainInputError.
var trainFlags = map[string]string{"Data": "data", "TestPDN": "test-pdn", "InitFile": "init", "Fixed": "fix"}

// trainInputError is the message of a learn.RunJob error: an input at
// fault is bad input naming its flag ("--data FILE: ...", "--fix "x":
// ..."); other errors are returned as they are.
func trainInputError(err error) error {
	var ie *learn.InputError
	if !errors.As(err, &ie) {
		return err
	}
	flag := trainFlags[ie.Field]
	switch {
	case len(ie.Files) > 0:
		return badInput("--%s %s: %v", flag, strings.Join(ie.Files, " "), ie.Err)
	case ie.Field == "Fixed":
		return badInput("--%s %v", flag, ie.Err)
	}
	return badInput("--%s: %v", flag, ie.Err)
}
