// search.go: the `damka analyse` and `damka bench` subcommands, and the
// limit flags analyse shares with `damka solve` and `damka review`.

package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// searchFlags are the limit flags shared by analyse and solve, and the
// engine settings they search with (the player's: variant, threads, hash,
// eval-file, egdb-path, egdb-pieces, move-overhead).
type searchFlags struct {
	depth    int
	nodes    uint64
	movetime float64
	settings *settingFlags
}

// searchSettings are the settings analyse and solve search with: the
// table's search settings.
var searchSettings = player.SearchNames()

// analyseSettings are analyse's settings: searchSettings and multipv.
var analyseSettings = append(slices.Clone(searchSettings), player.SetMultiPV)

// register adds the limit flags and searchSettings' flags to cmd.
func (f *searchFlags) register(cmd *cobra.Command) { f.registerWith(cmd, searchSettings) }

// registerWith adds the limit flags and the flags of the named settings.
func (f *searchFlags) registerWith(cmd *cobra.Command, settings []string) {
	fl := cmd.Flags()
	fl.IntVar(&f.depth, "depth", 0, fmt.Sprintf("search to this depth in plies (1..%d)", search.MaxDepth))
	fl.Uint64Var(&f.nodes, "nodes", 0, "stop after about this many nodes ("+nodesRange+")")
	setFlagRange(fl, "nodes", nodesRange)
	fl.Float64Var(&f.movetime, "movetime", 0, "search this many seconds (more than 0)")
	f.settings = registerSettings(cmd, settings...)
}

// setup reads the limit flags and makes the player of the settings flags
// (see player), the limits' MoveOverhead being its move-overhead: what
// analyse, solve and review search with. Errors are bad input.
func (f *searchFlags) setup(cmd *cobra.Command) (search.Limits, *player.Player, error) {
	lim, err := f.limits(cmd.Flags())
	if err != nil {
		return lim, nil, err
	}
	p, err := f.player(cmd)
	if err != nil {
		return lim, nil, err
	}
	lim.MoveOverhead = p.MoveOverhead()
	return lim, p, nil
}

// player makes the player of the settings flags, its book off (analysis
// and suites never play from the book).
func (f *searchFlags) player(cmd *cobra.Command) (*player.Player, error) {
	p, err := f.settings.newPlayer(cmd, player.Config{Log: logger})
	if err != nil {
		return nil, err
	}
	if err := p.Set(player.SetBook, "false"); err != nil {
		return nil, err
	}
	return p, nil
}

// limits checks the flags: exactly one of depth, nodes and movetime, each
// in its range (a flag given as 0 is out of range, not missing).
func (f *searchFlags) limits(fs *pflag.FlagSet) (search.Limits, error) {
	var l search.Limits
	set := 0
	if fs.Changed("nodes") || f.nodes != 0 {
		if err := checkNodes(f.nodes); err != nil {
			return l, err
		}
	}
	if fs.Changed("depth") || f.depth != 0 {
		if f.depth < 1 || f.depth > search.MaxDepth {
			return l, badInput("--depth %d out of range 1..%d", f.depth, search.MaxDepth)
		}
		l.Depth = f.depth
		set++
	}
	if f.nodes != 0 {
		l.Nodes = f.nodes
		set++
	}
	if fs.Changed("movetime") || f.movetime != 0 {
		if !(f.movetime > 0 && f.movetime <= 1e6) { // also NaN
			return l, badInput("--movetime %g out of range (0, 1e6] seconds", f.movetime)
		}
		l.MoveTime = time.Duration(f.movetime * float64(time.Second))
		set++
	}
	if set != 1 {
		return l, badInput("give exactly one of --depth, --nodes and --movetime")
	}
	return l, nil
}

// signalContext returns a context cancelled by SIGINT or SIGTERM, so that a
// long search stops cleanly with its best move.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

func newAnalyseCmd() *cobra.Command {
	var (
		fen, moves string
		sf         searchFlags
	)
	cmd := &cobra.Command{
		Use:     "analyse",
		Aliases: []string{"analyze"},
		Short:   "search a position and print one line per iteration",
		Long: `analyse searches a position (the start position, --fen, then --moves played
from it) and prints one line per completed iteration:
  depth=D score=S nodes=N time=T mnps=X pv="..."
then the move it plays, with the figures of the search that chose it (when a
limit stopped a deeper iteration that had already found a better move, M, S
and the pv are that unfinished iteration's, and D is the last completed depth):
  bestmove=M score=S depth=D nodes=N time=T mnps=X pv="..."
With --multipv K above 1 it searches the K best moves, each with its own
score and line: every completed iteration prints K lines, multipv=1 (the
best) to multipv=K, each "multipv=L depth=D ..." (one stopped by the limit
prints the lines it finished), and after the bestmove line come the last
completed iteration's lines (line 1's move is M unless the unfinished
iteration changed it):
  line=L move=M score=S pv="..."
Units: S in men from the side to move with two decimals (1.00 = one man; a
forced win in n plies is 100 - n/100, e.g. 99.93, a loss its negative), T in
seconds, X in millions of nodes per second, D in plies. --moves may carry PDN
move numbers ("1. c3-d4 f6-g5 2. ..."). The opening book is not used.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			lim, p, err := sf.setup(cmd)
			if err != nil {
				return err
			}
			start, err := positionFromFlags(p.Variant(), fen)
			if err != nil {
				return err
			}
			g := engine.NewGame(start)
			if err := playMoves(g, moves); err != nil {
				return err
			}
			root := g.Position()
			var l engine.MoveList
			root.Generate(&l)
			if l.N == 0 {
				return badInput("no legal move in %s: the side to move has lost", root.FEN())
			}
			out := cmd.OutOrStdout()
			multi := p.MultiPV() > 1
			report := func(in search.Info) {
				if multi {
					fmt.Fprintf(out, "multipv=%d ", max(in.MultiPV, 1))
				}
				fmt.Fprintf(out, "depth=%d score=%s nodes=%d time=%.3f mnps=%s pv=%q\n",
					in.Depth, search.FormatScore(in.Score), in.Nodes, in.Time.Seconds(),
					search.FormatMNPS(in.Nodes, in.Time.Seconds()), search.FormatPV(&root, in.PV, engine.FormatFull))
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			p.SetGame(g)
			r := p.Go(ctx, player.Think, lim, report).Wait().Result
			// The move played, with the figures of the search that chose
			// it: under --movetime or --nodes that can be an iteration no
			// line above reported.
			fmt.Fprintf(out, "bestmove=%s score=%s depth=%d nodes=%d time=%.3f mnps=%s pv=%q\n",
				root.FormatMove(r.Move, engine.FormatFull), search.FormatScore(r.Score), r.Depth, r.Nodes,
				r.Time.Seconds(), search.FormatMNPS(r.Nodes, r.Time.Seconds()), search.FormatPV(&root, r.PV, engine.FormatFull))
			for k, l := range r.Lines {
				fmt.Fprintf(out, "line=%d move=%s score=%s pv=%q\n", k+1, root.FormatMove(l.Move, engine.FormatFull),
					search.FormatScore(l.Score), search.FormatPV(&root, l.PV, engine.FormatFull))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&fen, "fen", "", "PDN FEN or Hub position (default: the start position)")
	cmd.Flags().StringVar(&moves, "moves", "", "moves played from that position, space separated (PDN move numbers allowed)")
	sf.registerWith(cmd, analyseSettings)
	return cmd
}

func newBenchCmd() *cobra.Command {
	var (
		depth    int
		evalFile *toolSetting
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "search the fixed bench positions; the node count is the signature",
		Long: `bench searches the fixed bench positions of all four variants (openings,
middlegames and endings from real games) with one thread, a cleared table per
position and a fixed depth. It prints one line per position and a last line
nodes=N mnps=X: N is damka's signature, the same on every machine and run of
the same code; X is the speed in millions of nodes per second. Commits that
change search behaviour end with "Bench: N".`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if depth < 1 || depth > search.MaxDepth {
				return badInput("--depth %d out of range 1..%d", depth, search.MaxDepth)
			}
			ew, err := evalFile.anyWeights()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			total, elapsed := bench.BenchEval(depth, ew, func(i int, p engine.Position, r search.Result) {
				bp := bench.BenchPositions[i]
				fmt.Fprintf(out, "position=%d variant=%s nodes=%d bestmove=%s fen=%s\n",
					i+1, bp.Variant, r.Nodes, p.FormatMove(r.Move, engine.FormatFull), bp.FEN)
			})
			fmt.Fprintf(out, "nodes=%d mnps=%s\n", total, search.FormatMNPS(total, elapsed.Seconds()))
			return nil
		},
	}
	cmd.Flags().IntVar(&depth, "depth", bench.DefaultBenchDepth, "search depth in plies")
	evalFile = addSetting(cmd, player.SetEvalFile, "evaluation weights file (damka train) used in the positions of its variant (the signature then differs)")
	return cmd
}
