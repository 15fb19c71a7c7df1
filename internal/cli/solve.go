// solve.go: the `damka solve` subcommand: a suite of positions with their
// best moves searched by damka's own search or by Hub engines, with the
// time each needed to find the best move.

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

const solveLong = `solve reads a suite of positions with their best moves, one per line:
  FEN ; bm MOVE [MOVE...] ; id NAME
(moves in any notation damka reads), searches each within the limit and
prints one line per position:
  N id=ID ok=true|false move=PLAYED bm=BEST score=S depth=D nodes=NODES solved_at=A time=T
and a last line
  solved=K total=N median_depth=D nodes=NODES mean_solved_at=A median_solved_at=A time=T
S is in men from the side to move (1.00 = one man, a win in n plies
100 - n/100), D in plies, T in seconds. A (seconds from the search's start)
is when the search found the best move for good: the time of the iteration
from which the move of its principal variation was one of bm to the end of
the search (the search's end when only its final move was), "-" when the
position was not solved. The last line's A are the mean and the median over
the solved positions, its NODES the total and its D the median.

--engine NAME... runs the suite through a Hub engine instead of damka's own
search (the key=value words of damka match --engine: name=, cmd=, dir=,
option.P=V, and movetime=, depth= or nodes= to replace the command's limit).
For each position the engine gets new-game, the position, the level
(move-time, depth or nodes) and go think; its info lines give depth, nodes,
score and, from their pv's first move, A (at the time the engine reports,
else when the line arrived). A field the engine never sent is "-". Every
line ends with engine=NAME, and a position the engine failed also with
reason="..." (ok=false): it crashed, gave no answer within the move time and
--time-margin (--hang-timeout under --depth or --nodes), or played an
illegal move. The engine is then started again for the next position. The
summary line adds failed=F engine=NAME. Give --engine several times to run
the suite with each engine in turn: the summary lines then come together at
the end, one per engine. damka itself can be one of them:
  damka solve suite.epd --variant international --movetime 1 \
    --engine 'name=damka cmd="damka hub"' \
    --engine 'name=other cmd=/path/to/engine dir=/path/to/its/folder'
With --engine, damka's own settings flags other than --variant do not apply:
give the engines their settings as option.P=V.`

// solveFlags are solve's flags beyond the limits and the settings.
type solveFlags struct {
	timeMargin, hangTimeout float64
	engineStderr            string
}

func newSolveCmd() *cobra.Command {
	var (
		sf  searchFlags
		sol solveFlags
	)
	cmd := &cobra.Command{
		Use:   "solve FILE [--engine name=X cmd=COMMAND ...]",
		Short: "solve a test suite of positions with their best moves (damka or Hub engines)",
		Long:  solveLong,
		// --engine takes several words (see parseWithEngines).
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, files, help, err := parseWithEnginesArgs(cmd, args)
			if err != nil || help {
				return err
			}
			switch {
			case len(files) == 0:
				return badInput("solve needs the suite file of the positions to solve: damka solve SUITE.epd [flags]")
			case len(files) > 1:
				return badInput("solve takes one suite file, got %d arguments: %q", len(files), files)
			}
			if len(specs) > 0 {
				return solveEngines(cmd, files[0], &sf, sol, specs)
			}
			for _, name := range []string{"time-margin", "hang-timeout", "engine-stderr"} {
				if cmd.Flags().Changed(name) {
					return badInput("--%s is for --engine engines, and none is given", name)
				}
			}
			lim, p, err := sf.setup(cmd)
			if err != nil {
				return err
			}
			suite, err := loadSuite(cmd, &sf, files[0], p.Variant())
			if err != nil {
				return err
			}
			e := search.New(p.Options())
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			return solveSuite(ctx, cmd.OutOrStdout(), e, suite, lim)
		},
	}
	sf.register(cmd)
	fl := cmd.Flags()
	fl.String(engineFlag, "", "a Hub engine to search with instead of damka's own search: name=NAME cmd=COMMAND [dir=DIR] [option.P=V ...] (repeatable: each in turn)")
	fl.Float64Var(&sol.timeMargin, "time-margin", match.DefaultSuiteMargin.Seconds(), "seconds past --movetime an --engine may take to answer before it is stopped")
	fl.Float64Var(&sol.hangTimeout, "hang-timeout", match.DefaultHangTimeout.Seconds(), "seconds an --engine may take under --depth or --nodes before it is stopped")
	fl.StringVar(&sol.engineStderr, "engine-stderr", "", "append the --engine engines' standard error to this file (default: discard)")
	return cmd
}

// loadSuite reads the suite file name as variant v: bad input when it
// cannot be read, has a bad line (with a hint at the variant that reads
// it when --variant was not given) or no position.
func loadSuite(cmd *cobra.Command, sf *searchFlags, name string, v engine.VariantID) ([]bench.SuiteEntry, error) {
	suite, err := readSuiteFile(name, v)
	var in inputError
	if errors.As(err, &in) {
		return nil, err // the file cannot be opened
	}
	if err != nil {
		if !sf.settings.changed(cmd, player.SetVariant) {
			return nil, badInput("%s: %v%s", name, err, suiteVariantHint(name, v))
		}
		return nil, badInput("%s: %v", name, err)
	}
	if len(suite) == 0 {
		return nil, badInput("%s: no positions (want lines FEN ; bm MOVE ; id NAME)", name)
	}
	return suite, nil
}

// readSuiteFile reads the suite file name as variant v.
func readSuiteFile(name string, v engine.VariantID) ([]bench.SuiteEntry, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return bench.ReadSuite(f, v)
}

// suiteVariantHint is added to the error of a suite that the default
// variant v cannot read: which other variants read the whole file. It
// names a variant to use only when exactly one does.
func suiteVariantHint(name string, v engine.VariantID) string {
	var fits []string
	for _, o := range engine.AllVariants() {
		if o == v {
			continue
		}
		if s, err := readSuiteFile(name, o); err == nil && len(s) > 0 {
			fits = append(fits, o.String())
		}
	}
	head := fmt.Sprintf(" (read as %s, the default variant: no --variant given)", v)
	switch len(fits) {
	case 0:
		return head + "; no other variant reads it either"
	case 1:
		return fmt.Sprintf("%s; it reads as %s: use --variant %s", head, fits[0], fits[0])
	}
	return fmt.Sprintf("%s; it reads as any of %s: choose one with --variant", head, strings.Join(fits, ", "))
}

// suiteID is the name of suite entry s on its line: its id, else lineN.
func suiteID(s *bench.SuiteEntry) string {
	if s.ID != "" {
		return s.ID
	}
	return fmt.Sprintf("line%d", s.Line)
}

// suiteBest writes s's best moves, comma-separated.
func suiteBest(s *bench.SuiteEntry) string {
	best := make([]string, len(s.Best))
	for j, b := range s.Best {
		best[j] = s.Position.FormatMove(b, engine.FormatFull)
	}
	return strings.Join(best, ",")
}

// secs writes a duration in seconds with three decimals.
func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// suiteTally adds up a suite run for its summary line.
type suiteTally struct {
	solved, total, failed int
	depths                []int           // the depth of each position searched that reported one
	nodes                 uint64          // total
	hasNodes              bool            // some position reported nodes
	solvedAt              []time.Duration // of the solved positions
	time                  time.Duration   // total
}

// add counts one position: solved (with the time it was found at), its
// depth (when hasDepth), its nodes (when hasNodes) and the time it took.
func (t *suiteTally) add(solved bool, at time.Duration, depth int, hasDepth bool, nodes uint64, hasNodes bool, used time.Duration) {
	if solved {
		t.solved++
		t.solvedAt = append(t.solvedAt, at)
	}
	if hasDepth {
		t.depths = append(t.depths, depth)
	}
	if hasNodes {
		t.nodes += nodes
		t.hasNodes = true
	}
	t.time += used
}

// median returns the median of xs (the mean of the middle two for an even
// count); xs is sorted in place. NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// line writes the summary line: solved=K total=N median_depth=D nodes=NODES
// mean_solved_at=A median_solved_at=A time=T, "-" for a figure of no
// position.
func (t *suiteTally) line() string {
	depth, nodes, mean, med := "-", "-", "-", "-"
	if len(t.depths) > 0 {
		ds := make([]float64, len(t.depths))
		for i, d := range t.depths {
			ds[i] = float64(d)
		}
		depth = strconv.FormatFloat(median(ds), 'f', -1, 64)
	}
	if t.hasNodes {
		nodes = strconv.FormatUint(t.nodes, 10)
	}
	if len(t.solvedAt) > 0 {
		xs := make([]float64, len(t.solvedAt))
		sum := 0.0
		for i, d := range t.solvedAt {
			xs[i] = d.Seconds()
			sum += xs[i]
		}
		mean = strconv.FormatFloat(sum/float64(len(xs)), 'f', 3, 64)
		med = strconv.FormatFloat(median(xs), 'f', 3, 64)
	}
	return fmt.Sprintf("solved=%d total=%d median_depth=%s nodes=%s mean_solved_at=%s median_solved_at=%s time=%s",
		t.solved, t.total, depth, nodes, mean, med, secs(t.time))
}

// solveSuite searches every entry with damka's own search and prints the
// per-position lines and the summary.
func solveSuite(ctx context.Context, out io.Writer, e *search.Engine, suite []bench.SuiteEntry, lim search.Limits) error {
	t := suiteTally{total: len(suite)}
	for i := range suite {
		s := &suite[i]
		e.Clear()
		r := bench.SolveTimed(ctx, e, s, lim)
		played := "none"
		if r.HasMove {
			played = s.Position.FormatMove(r.Move, engine.FormatFull)
		}
		at := "-"
		if r.OK {
			at = secs(r.SolvedAt)
		}
		fmt.Fprintf(out, "%d id=%s ok=%t move=%s bm=%s score=%s depth=%d nodes=%d solved_at=%s time=%s\n",
			i+1, suiteID(s), r.OK, played, suiteBest(s), search.FormatScore(r.Score), r.Depth, r.Nodes, at, secs(r.Time))
		t.add(r.OK, r.SolvedAt, r.Depth, true, r.Nodes, true, r.Time)
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintln(out, t.line())
	return nil
}

// solveEngines runs the suite file through each --engine in turn and
// prints their per-position lines, then one summary line per engine.
func solveEngines(cmd *cobra.Command, file string, sf *searchFlags, sol solveFlags, specs [][]string) error {
	fs := cmd.Flags()
	for _, name := range searchSettings {
		if name == player.SetVariant {
			continue
		}
		if flag, ok := sf.settings.given(fs, name); ok {
			return badInput("--%s sets damka's own search, which --engine replaces: give the engine option.%s=VALUE", flag, name)
		}
	}
	lim, err := sf.limits(fs)
	if err != nil {
		return err
	}
	v, err := parseVariantFlag(sf.settings.value(player.SetVariant))
	if err != nil {
		return err
	}
	cfg := match.SuiteConfig{Variant: v, Log: logger}
	if sol.engineStderr != "" {
		f, err := os.OpenFile(sol.engineStderr, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return badInput("--engine-stderr: %v", err)
		}
		defer f.Close()
		cfg.EngineStderr = f
	}
	for _, f := range []struct {
		name string
		x    float64
		d    *time.Duration
	}{{"time-margin", sol.timeMargin, &cfg.Margin}, {"hang-timeout", sol.hangTimeout, &cfg.HangTimeout}} {
		if !(f.x > 0 && f.x <= 1e6) { // also NaN
			return badInput("--%s %g out of range (0, 1e6] seconds", f.name, f.x)
		}
		*f.d = time.Duration(f.x * float64(time.Second))
	}
	var engines []*match.SuiteEngine
	defer func() {
		for _, e := range engines {
			e.Close()
		}
	}()
	var names []string
	for i, words := range specs {
		e, err := match.ParseEngineSpec(words, shlex.Split)
		if err != nil {
			return badInput("--engine %d: %v", i+1, err)
		}
		if slices.Contains(names, e.Name) {
			return badInput("--engine %d: the name %q is taken: give each engine a different name=", i+1, e.Name)
		}
		names = append(names, e.Name)
		if e.Ponder != nil {
			return badInput("--engine %d (%s): ponder= is for damka match (a suite has no opponent to ponder on)", i+1, e.Name)
		}
		if err := checkEngineCommand(e); err != nil {
			return badInput("--engine %d (%s): %v", i+1, e.Name, err)
		}
		c := cfg
		c.Limits = match.Limits{MoveTime: lim.MoveTime, Depth: lim.Depth, Nodes: lim.Nodes}
		if !e.Limits.IsZero() {
			if e.Limits.Clocked() {
				return badInput("--engine %d (%s): a suite has no clock: give movetime=, depth= or nodes=, not tc=", i+1, e.Name)
			}
			c.Limits = e.Limits
		}
		se, err := match.NewSuiteEngine(e, c)
		if err != nil {
			return badInput("--engine %d: %v", i+1, err)
		}
		engines = append(engines, se)
	}
	suite, err := loadSuite(cmd, sf, file, v)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	out := cmd.OutOrStdout()
	summaries := make([]string, 0, len(engines))
	for _, e := range engines {
		t := solveWithEngine(ctx, out, e, suite)
		e.Close()
		summaries = append(summaries, fmt.Sprintf("%s failed=%d engine=%s", t.line(), t.failed, e.Name()))
		if ctx.Err() != nil {
			break
		}
	}
	for _, s := range summaries {
		fmt.Fprintln(out, s)
	}
	return nil
}

// solveWithEngine has engine e search every entry and prints the
// per-position lines; it returns the run's tally. A position the engine
// failed is logged and printed with its reason; when ctx ends the run
// stops without a line for the position in progress.
func solveWithEngine(ctx context.Context, out io.Writer, e *match.SuiteEngine, suite []bench.SuiteEntry) suiteTally {
	t := suiteTally{total: len(suite)}
	for i := range suite {
		s := &suite[i]
		a := e.Search(ctx, s.Position)
		if ctx.Err() != nil {
			break
		}
		var (
			depth, nodes, score = "-", "-", "-"
			d                   int
			n                   uint64
			hasDepth, hasNodes  bool
		)
		iters := make([]bench.Iteration, len(a.Infos))
		for k, in := range a.Infos {
			iters[k] = bench.Iteration{Time: in.Time, Depth: in.Depth, Move: in.Move, HasMove: in.HasMove}
			if in.HasDepth {
				d, hasDepth, depth = in.Depth, true, strconv.Itoa(in.Depth)
			}
			if in.HasNodes {
				n, hasNodes, nodes = in.Nodes, true, strconv.FormatUint(in.Nodes, 10)
			}
			if in.HasScore {
				score = strconv.FormatFloat(in.Score, 'f', 2, 64)
			}
		}
		at, ok := bench.SolvedAt(iters, a.Move, a.HasMove, a.Time, s.Best)
		played, solvedAt := "none", "-"
		if a.HasMove {
			played = s.Position.FormatMove(a.Move, engine.FormatFull)
		}
		if ok {
			solvedAt = secs(at)
		}
		fmt.Fprintf(out, "%d id=%s ok=%t move=%s bm=%s score=%s depth=%s nodes=%s solved_at=%s time=%s engine=%s",
			i+1, suiteID(s), ok, played, suiteBest(s), score, depth, nodes, solvedAt, secs(a.Time), e.Name())
		if a.Err != nil {
			t.failed++
			fmt.Fprintf(out, " reason=%q", a.Err.Error())
			logger.Warn().Str("engine", e.Name()).Int("position", i+1).Str("id", suiteID(s)).Err(a.Err).Msg("solve: the engine failed the position")
		}
		fmt.Fprintln(out)
		t.add(ok, at, d, hasDepth, n, hasNodes, a.Time)
	}
	return t
}
