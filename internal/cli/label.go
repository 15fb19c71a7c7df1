// label.go: the `damka label` subcommand: a game file's searched moves
// scored again by a deeper search (bench.Label).

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/gzfile"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

func newLabelCmd() *cobra.Command {
	var (
		data, out, shard                string
		evalFile                        *toolSetting
		depth, gamesAtOnce, hashPerGame int
		nodes                           uint64
		noProgress                      bool
	)
	cmd := &cobra.Command{
		Use:   "label",
		Short: "score a game file's positions again with a deeper search",
		Long: `label reads the game file --data (as selfplay writes it; .gz files are read
as they are) and writes its games to --out with the score of every searched
move replaced by the score of a search of the position before the move with
--nodes nodes or to --depth plies, on one thread with a --hash table cleared
at the start of every game. The moves, results, game numbers and the
unsearched (opening and random) moves stay as they are, so "damka train"
reads the file as it reads --data, with better scores.

The games are written in --data's order and each depends only on the flags
and the game, so the file is the same whatever --threads is. An existing
--out is resumed: its games are kept (a torn last record is cut off) and the
run goes on after them; a file of other settings, or whose games are not
the first of --data's, is refused. Ctrl-C stops after the games finished so
far.

--shard I/N labels only the games at positions k (0-based) of --data with k
mod N = I-1: the N files of the shards 1/N to N/N (the same flags but
--shard and --out) hold together the games of one run, so the same command
runs as a cluster job array over one file.

The last line is games=G resumed=R labelled=L positions=P changed=C
nodes=N time=S positions_per_s=X: C of the P positions searched got
another score.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			switch {
			case data == "":
				return badInput("--data is required: the game file to label")
			case out == "":
				return badInput("--out is required: the game file to write (or resume)")
			case fl.Changed("depth") && fl.Changed("nodes"):
				return badInput("give one of --nodes and --depth, not both")
			case !fl.Changed("depth") && !fl.Changed("nodes"):
				return badInput("give --nodes or --depth: the search of each position")
			case fl.Changed("depth") && (depth < 1 || depth > search.MaxDepth):
				return badInput("--depth %d out of range 1..%d", depth, search.MaxDepth)
			case fl.Changed("nodes") && checkNodes(nodes) != nil:
				return checkNodes(nodes)
			case gamesAtOnce < 1 || gamesAtOnce > search.MaxThreads:
				return badInput("--threads %d out of range 1..%d", gamesAtOnce, search.MaxThreads)
			case hashPerGame < 1 || hashPerGame > search.MaxHashMiB:
				return badInput("--hash %d out of range 1..%d MiB", hashPerGame, search.MaxHashMiB)
			}
			si, sn, err := match.ParseShard(shard)
			if err != nil {
				return badInput("--shard: %v", err)
			}
			if err := checkOutputPath(out); err != nil {
				return err
			}
			v, err := gameFileVariant(data)
			if err != nil {
				return badInput("--data: %v", err)
			}
			if same, err := sameFile(data, out); err != nil {
				return err
			} else if same {
				return badInput("--out %s is --data: write the labelled games to another file", out)
			}
			ew, err := evalFile.anyWeights()
			if err != nil {
				return err
			}
			if ew != nil && ew.V != v {
				return badInput("--eval-file %s holds %v weights, --data %v games", evalFile.value(), ew.V, v)
			}
			o := bench.LabelOptions{
				Data: data, Nodes: nodes, Depth: depth, Threads: gamesAtOnce, HashMiB: hashPerGame,
				Shard: si, Shards: sn, Out: out, Eval: ew,
				Note: canonicalCommand(cmd, "threads", "no-progress"),
			}
			o.SameNote = func(fileNote string) bool { return sameLabelSettings(fileNote, o.Note) }
			var finish func()
			o.Progress, finish = gamesBar(cmd.ErrOrStderr(), noProgress, v.String()+" label")
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			start := time.Now()
			res, err := bench.Label(ctx, o)
			finish()
			switch {
			case errors.Is(err, bench.ErrData):
				return inputError{fmt.Errorf("--data: %w", err)}
			case errors.Is(err, bench.ErrResume):
				return inputError{fmt.Errorf("--out: %w", err)}
			case err != nil:
				return err
			}
			el := time.Since(start)
			fmt.Fprintf(cmd.OutOrStdout(), "games=%d resumed=%d labelled=%d positions=%d changed=%d nodes=%d time=%.1f positions_per_s=%.1f\n",
				res.Resumed+res.Labelled, res.Resumed, res.Labelled, res.Positions, res.Changed, res.Nodes,
				el.Seconds(), float64(res.Positions)/max(el.Seconds(), 1e-9))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&data, "data", "", "game file to label, plain or gzip-compressed (required)")
	f.StringVar(&out, "out", "", "game file to write or resume (required)")
	f.Uint64Var(&nodes, "nodes", 0, "nodes per searched position ("+nodesRange+")")
	setFlagRange(f, "nodes", nodesRange)
	f.IntVar(&depth, "depth", 0, "search depth per position in plies instead of --nodes")
	f.IntVar(&gamesAtOnce, "threads", search.DefaultThreads, "games labelled at the same time (one search thread each)")
	f.IntVar(&hashPerGame, "hash", 8, "transposition table of each game, MiB")
	f.StringVar(&shard, "shard", "1/1", "label only shard I of N: the games at positions k of --data with k mod N = I-1")
	f.BoolVar(&noProgress, "no-progress", false, noProgressUsage)
	evalFile = addSetting(cmd, player.SetEvalFile, "")
	return cmd
}

// sameLabelSettings reports whether two label notes (canonical command
// lines) name the same settings: every flag's value, defaults filled in,
// but for --out, --threads and --no-progress, with the --data and
// --eval-file paths made absolute and --shard as I/N. Notes that do not
// parse must be equal.
func sameLabelSettings(a, b string) bool {
	return sameSettings(a, b, newLabelCmd, "out", "threads", "no-progress")
}

// gameFileVariant returns the variant of the game file at path (plain or
// gzip-compressed) from its header.
func gameFileVariant(path string) (engine.VariantID, error) {
	f, err := gzfile.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	gr, err := pdn.NewRecordReader(f)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return gr.Variant(), nil
}
