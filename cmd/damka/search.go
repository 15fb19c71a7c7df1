// search.go: the `damka analyse`, `damka bench` and `damka solve` subcommands.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"damka/engine"
	"damka/protocol/hub"
	"damka/search"
)

// searchFlags are the limit and engine flags shared by analyse and solve.
type searchFlags struct {
	depth    int
	nodes    uint64
	movetime float64
	threads  int
	hashMiB  int
	overhead int // --move-overhead, milliseconds
}

func (f *searchFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&f.depth, "depth", 0, "search to this depth in plies")
	fl.Uint64Var(&f.nodes, "nodes", 0, "stop after about this many nodes")
	fl.Float64Var(&f.movetime, "movetime", 0, "search this many seconds")
	fl.IntVar(&f.threads, "threads", 1, "search threads (Lazy SMP)")
	fl.IntVar(&f.hashMiB, "hash", 64, "transposition table size in MiB")
	registerMoveOverhead(cmd, &f.overhead)
}

// registerMoveOverhead adds --move-overhead (milliseconds) to cmd.
func registerMoveOverhead(cmd *cobra.Command, ms *int) {
	cmd.Flags().IntVar(ms, "move-overhead", int(search.DefaultMoveOverhead/time.Millisecond),
		"milliseconds kept back from every move time and clock for the round trip (Hub parameter move-overhead)")
}

// moveOverhead checks a --move-overhead value and returns it as a
// search.Limits MoveOverhead (0 ms: none, a negative Limits value).
func moveOverhead(ms int) (time.Duration, error) {
	if ms < 0 || ms > hub.MaxMoveOverheadMs {
		return 0, badInput("--move-overhead %d out of range 0..%d ms", ms, hub.MaxMoveOverheadMs)
	}
	if ms == 0 {
		return -1, nil
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// limits checks the flags: exactly one of depth, nodes and movetime.
func (f *searchFlags) limits() (search.Limits, error) {
	var l search.Limits
	set := 0
	if f.depth != 0 {
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
	if f.movetime != 0 {
		if !(f.movetime > 0 && f.movetime <= 1e6) { // also NaN
			return l, badInput("--movetime %g out of range (0, 1e6] seconds", f.movetime)
		}
		l.MoveTime = time.Duration(f.movetime * float64(time.Second))
		set++
	}
	if set != 1 {
		return l, badInput("give exactly one of --depth, --nodes and --movetime")
	}
	var err error
	if l.MoveOverhead, err = moveOverhead(f.overhead); err != nil {
		return l, err
	}
	if f.threads < 1 || f.threads > 256 {
		return l, badInput("--threads %d out of range 1..256", f.threads)
	}
	if f.hashMiB < 1 || f.hashMiB > hub.MaxHashMiB {
		return l, badInput("--hash %d out of range 1..%d MiB", f.hashMiB, hub.MaxHashMiB)
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

// formatScore writes a score in centi-men, or "winN"/"lossN" for a forced
// end of game in N plies.
func formatScore(s int) string {
	switch {
	case s >= search.MateBound:
		return fmt.Sprintf("win%d", search.Mate-s)
	case s <= -search.MateBound:
		return fmt.Sprintf("loss%d", search.Mate+s)
	}
	return fmt.Sprint(s)
}

// formatPV writes moves played from p in the variant's full notation.
func formatPV(p engine.Position, pv []engine.Move) string {
	parts := make([]string, 0, len(pv))
	for _, m := range pv {
		parts = append(parts, p.FormatMove(m, engine.FormatFull))
		p = p.Play(m)
	}
	return strings.Join(parts, " ")
}

func newAnalyseCmd() *cobra.Command {
	var (
		variant, fen, moves string
		sf                  searchFlags
	)
	cmd := &cobra.Command{
		Use:     "analyse",
		Aliases: []string{"analyze"},
		Short:   "search a position and print one line per iteration",
		Long: `analyse searches a position (the start position, --fen, then --moves played
from it) and prints one line per completed iteration:
  depth=D score=S nodes=N time=T nps=X pv="..."
then bestmove=M. Scores are centi-men from the side to move; winN / lossN
is a forced end of the game in N plies. The opening book is not used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := parseVariantFlag(variant)
			if err != nil {
				return err
			}
			start, err := positionFromFlags(v, fen)
			if err != nil {
				return err
			}
			lim, err := sf.limits()
			if err != nil {
				return err
			}
			g := engine.NewGame(start)
			for i, text := range strings.Fields(moves) {
				pos := g.Position()
				m, err := pos.ParseMove(text)
				if err != nil {
					return badInput("--moves: move %d %q: %v", i+1, text, err)
				}
				g.Play(m)
			}
			root := g.Position()
			var l engine.MoveList
			root.Generate(&l)
			if l.N == 0 {
				return badInput("no legal move in %s: the side to move has lost", root.FEN())
			}
			e := search.New(search.Options{Threads: sf.threads, HashMiB: sf.hashMiB})
			out := cmd.OutOrStdout()
			report := func(in search.Info) {
				fmt.Fprintf(out, "depth=%d score=%s nodes=%d time=%.3f nps=%d pv=%q\n",
					in.Depth, formatScore(in.Score), in.Nodes, in.Time.Seconds(), in.NPS, formatPV(root, in.PV))
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			r := e.SearchGame(ctx, g, lim, report)
			fmt.Fprintf(out, "bestmove=%s\n", root.FormatMove(r.Move, engine.FormatFull))
			return nil
		},
	}
	cmd.Flags().StringVar(&variant, "variant", "russian", "variant: russian, english (american), brazilian, international")
	cmd.Flags().StringVar(&fen, "fen", "", "PDN FEN or Hub position (default: the start position)")
	cmd.Flags().StringVar(&moves, "moves", "", "moves played from that position, space separated")
	sf.register(cmd)
	return cmd
}

func newBenchCmd() *cobra.Command {
	var depth int
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "search the fixed bench positions; the node count is the signature",
		Long: `bench searches the fixed bench positions of all four variants (openings,
middlegames and endings from real games) with one thread, a cleared table per
position and a fixed depth. It prints one line per position and a last line
nodes=N nps=X: N is damka's signature, the same on every machine and run of
the same code. Commits that change search behaviour end with "Bench: N".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if depth < 1 || depth > search.MaxDepth {
				return badInput("--depth %d out of range 1..%d", depth, search.MaxDepth)
			}
			out := cmd.OutOrStdout()
			var total uint64
			var elapsed time.Duration
			// The same walk as search.Bench, one line per position.
			e := search.New(search.Options{Threads: 1, HashMiB: search.BenchHashMiB})
			for i, bp := range search.BenchPositions {
				p, err := engine.ParseFEN(bp.Variant, bp.FEN)
				if err != nil {
					return fmt.Errorf("bench position %d: %v", i+1, err)
				}
				e.Clear()
				r := e.Search(context.Background(), p, nil, search.Limits{Depth: depth}, nil)
				total += r.Nodes
				elapsed += r.Time
				fmt.Fprintf(out, "position=%d variant=%s nodes=%d bestmove=%s fen=%s\n",
					i+1, bp.Variant, r.Nodes, p.FormatMove(r.Move, engine.FormatFull), bp.FEN)
			}
			nps := uint64(0)
			if elapsed > 0 {
				nps = uint64(float64(total) / elapsed.Seconds())
			}
			fmt.Fprintf(out, "nodes=%d nps=%d\n", total, nps)
			return nil
		},
	}
	cmd.Flags().IntVar(&depth, "depth", search.DefaultBenchDepth, "search depth in plies")
	return cmd
}

func newSolveCmd() *cobra.Command {
	var (
		variant string
		sf      searchFlags
	)
	cmd := &cobra.Command{
		Use:   "solve FILE",
		Short: "solve a test suite of positions with their best moves",
		Long: `solve reads a suite of positions with their best moves, one per line:
  FEN ; bm MOVE [MOVE...] ; id NAME
(moves in any notation damka reads), searches each within the limit and
prints one line per position and a last line solved=K total=N.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := parseVariantFlag(variant)
			if err != nil {
				return err
			}
			lim, err := sf.limits()
			if err != nil {
				return err
			}
			f, err := os.Open(args[0])
			if err != nil {
				return badInput("%v", err)
			}
			defer f.Close()
			suite, err := search.ReadSuite(f, v)
			if err != nil {
				return badInput("%s: %v", args[0], err)
			}
			e := search.New(search.Options{Threads: sf.threads, HashMiB: sf.hashMiB})
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			return solveSuite(ctx, cmd.OutOrStdout(), e, suite, lim)
		},
	}
	cmd.Flags().StringVar(&variant, "variant", "russian", "variant of the suite's positions")
	sf.register(cmd)
	return cmd
}

// solveSuite searches every entry and prints the per-position lines and
// the summary.
func solveSuite(ctx context.Context, out io.Writer, e *search.Engine, suite []search.SuiteEntry, lim search.Limits) error {
	solved := 0
	for i, s := range suite {
		e.Clear()
		r := e.Search(ctx, s.Position, nil, lim, nil)
		ok := false
		for _, b := range s.Best {
			if r.HasMove && r.Move == b {
				ok = true
			}
		}
		if ok {
			solved++
		}
		best := make([]string, len(s.Best))
		for j, b := range s.Best {
			best[j] = s.Position.FormatMove(b, engine.FormatFull)
		}
		id := s.ID
		if id == "" {
			id = fmt.Sprintf("line%d", s.Line)
		}
		played := "none"
		if r.HasMove {
			played = s.Position.FormatMove(r.Move, engine.FormatFull)
		}
		fmt.Fprintf(out, "%d id=%s ok=%t move=%s bm=%s score=%s depth=%d nodes=%d\n",
			i+1, id, ok, played, strings.Join(best, ","), formatScore(r.Score), r.Depth, r.Nodes)
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintf(out, "solved=%d total=%d\n", solved, len(suite))
	return nil
}
