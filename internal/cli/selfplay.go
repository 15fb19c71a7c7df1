// selfplay.go: the `damka selfplay` subcommand: fast self-play games, the
// training data of the learned evaluation (bench.SelfPlay).

package cli

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/google/shlex"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/match"
	decks "github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

func newSelfPlayCmd() *cobra.Command {
	var (
		variant                   *toolSetting
		out, openings, shard      string
		evalFile                  *toolSetting
		games, depth, gamesAtOnce int
		hashPerGame, randomPlies  int
		nodes, seed               uint64
		noProgress                bool
	)
	cmd := &cobra.Command{
		Use:   "selfplay",
		Short: "play fast self-play games for training the evaluation",
		Long: `selfplay plays games of the engine against itself and writes them to a
damka game file (--out; the format is described in pdn/gamerec.go): the
start position, every move, the search score of every searched move, the
result and why the game ended. "damka train" reads such files.

Game i starts from opening i of --openings (in turn; the variant's start
position without the flag), plays a random number (0 to --random-plies) of
uniformly random legal moves, then searches every move with --nodes nodes
(or to --depth plies) on one thread with a fresh transposition table. A game
still going after 600 plies is adjudicated a draw.

Each game depends only on the flags and its number, and the file is written
in game order, so a run is deterministic for a --seed whatever --threads
is. An existing --out is resumed: its games are kept (a torn last record is
cut off; a file cut inside its header, holding no game, starts again) and
the run plays on to --games. Ctrl-C stops after the games
finished so far.

--shard I/N plays only the games i of 0 to --games-1 with i mod N = I-1,
in order, each with its number: the N files of the shards 1/N to N/N
(the same flags but --shard and --out) hold together the games of the
whole run, record for record, so the same command runs as a cluster job
array. "damka train" takes them as repeated --data. Each shard's file
resumes on its own; a file of another shard is refused.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			fl := cmd.Flags()
			switch {
			case fl.Changed("depth") && fl.Changed("nodes"):
				return badInput("give one of --nodes and --depth, not both")
			case games < 1 || games > 100_000_000:
				return badInput("--games %d out of range 1..100000000", games)
			case fl.Changed("depth") && (depth < 1 || depth > search.MaxDepth):
				return badInput("--depth %d out of range 1..%d", depth, search.MaxDepth)
			case !fl.Changed("depth") && checkNodes(nodes) != nil:
				return checkNodes(nodes)
			case gamesAtOnce < 1 || gamesAtOnce > search.MaxThreads:
				return badInput("--threads %d out of range 1..%d", gamesAtOnce, search.MaxThreads)
			case hashPerGame < 1 || hashPerGame > search.MaxHashMiB:
				return badInput("--hash %d out of range 1..%d MiB", hashPerGame, search.MaxHashMiB)
			case randomPlies < 0 || randomPlies > 100:
				return badInput("--random-plies %d out of range 0..100", randomPlies)
			case out == "":
				return badInput("--out is required: the game file to write (or resume)")
			}
			si, sn, err := match.ParseShard(shard)
			if err != nil {
				return badInput("--shard: %v", err)
			}
			if fl.Changed("depth") {
				nodes = 0
			} else {
				depth = 0
			}
			if err := checkOutputPath(out); err != nil {
				return err
			}
			ew, err := evalFile.weights(v)
			if err != nil {
				return err
			}
			o := bench.SelfPlayOptions{
				Variant: v, Games: games, Nodes: nodes, Depth: depth, Threads: gamesAtOnce,
				HashMiB: hashPerGame, Seed: seed, RandomPlies: randomPlies, Shard: si, Shards: sn, Out: out,
				Note: canonicalCommand(cmd, "threads", "no-progress", "games"),
				Eval: ew,
			}
			o.SameNote = func(fileNote string) bool { return sameSelfPlaySettings(fileNote, o.Note) }
			if openings != "" {
				ops, err := decks.Load(openings, v)
				if err != nil {
					return badInput("--openings: %v", err)
				}
				o.Openings = ops
			}
			var finish func()
			o.Progress, finish = gamesBar(cmd.ErrOrStderr(), noProgress, v.String()+" selfplay")
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			start := time.Now()
			res, err := bench.SelfPlay(ctx, o)
			finish()
			if errors.Is(err, bench.ErrResume) {
				return inputError{fmt.Errorf("--out: %w", err)}
			}
			if err != nil {
				return err
			}
			el := time.Since(start)
			fmt.Fprintf(cmd.OutOrStdout(), "games=%d resumed=%d played=%d plies=%d white=%d black=%d draws=%d nodes=%d time=%.1f games_per_s=%.2f\n",
				res.Resumed+res.Played, res.Resumed, res.Played, res.Plies, res.Results[1], res.Results[2], res.Results[3],
				res.Nodes, el.Seconds(), float64(res.Played)/max(el.Seconds(), 1e-9))
			return nil
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.IntVar(&games, "games", 1000, "games of the whole run, all shards together (resumed games count)")
	f.Uint64Var(&nodes, "nodes", 10000, "nodes per searched move ("+nodesRange+")")
	setFlagRange(f, "nodes", nodesRange)
	f.IntVar(&depth, "depth", 0, "search depth per move in plies instead of --nodes")
	f.IntVar(&gamesAtOnce, "threads", search.DefaultThreads, "games played at the same time (one search thread each)")
	f.IntVar(&hashPerGame, "hash", 8, "transposition table of each game, MiB")
	f.Uint64Var(&seed, "seed", 1, "random seed: the same flags and seed write the same file")
	f.IntVar(&randomPlies, "random-plies", 4, "up to this many random moves after the opening")
	f.StringVar(&openings, "openings", "", "opening deck (as for damka match: .tsv, .json, .pdn, or lines of FEN or Hub position)")
	f.StringVar(&shard, "shard", "1/1", "play only shard I of N: the games i with i mod N = I-1 (their numbers kept)")
	f.StringVar(&out, "out", "", "game file to write or resume (required)")
	f.BoolVar(&noProgress, "no-progress", false, noProgressUsage)
	evalFile = addSetting(cmd, player.SetEvalFile, "")
	return cmd
}

// sameSelfPlaySettings reports whether two selfplay notes (canonical
// command lines) name the same settings: every flag's value, defaults
// filled in, but for --out (where the games go, not what they are: a file
// moved, or unpacked from learn/games/) and the flags the note leaves out,
// with the --openings and --eval-file paths made absolute (a deck named
// from another folder is the same deck) and --shard as I/N (1/1 without
// the flag). Notes that do not parse must be equal.
func sameSelfPlaySettings(a, b string) bool {
	return sameSettings(a, b, newSelfPlayCmd, "out", "threads", "no-progress", "games")
}

// sameSettings reports whether two notes of the command newCmd makes
// (canonical command lines) name the same settings: every flag's value,
// defaults filled in, but for the flags skip names, with the --openings,
// --eval-file and --data paths made absolute and --shard as I/N. Notes
// that do not parse as the command must be equal.
func sameSettings(a, b string, newCmd func() *cobra.Command, skip ...string) bool {
	sa, okA := commandSettings(a, newCmd, skip)
	sb, okB := commandSettings(b, newCmd, skip)
	if !okA || !okB {
		return a == b
	}
	return maps.Equal(sa, sb)
}

// commandSettings reads a note of the command newCmd makes into flag name
// -> value (see sameSettings).
func commandSettings(note string, newCmd func() *cobra.Command, skip []string) (map[string]string, bool) {
	cmd := newCmd()
	words, err := shlex.Split(note)
	if err != nil || len(words) < 2 || words[1] != cmd.Name() {
		return nil, false
	}
	fs := cmd.Flags()
	if err := fs.Parse(words[2:]); err != nil || fs.NArg() > 0 {
		return nil, false
	}
	out := map[string]string{}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" || slices.Contains(skip, f.Name) {
			return
		}
		v := f.Value.String()
		switch f.Name {
		case "openings", "eval-file", "data":
			if v != "" {
				if abs, err := filepath.Abs(v); err == nil {
					v = abs
				}
			}
		case "shard":
			if i, n, err := match.ParseShard(v); err == nil {
				v = fmt.Sprintf("%d/%d", i, n)
			}
		}
		out[f.Name] = v
	})
	return out, true
}
