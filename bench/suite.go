// suite.go: reading solve suites, EPD-like lines `FEN ; bm MOVE ; id NAME`,
// and checking a search against them.

package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// SuiteEntry is one position of a solve suite.
type SuiteEntry struct {
	Line     int             // 1-based line in the input
	Position engine.Position // from the FEN field
	Best     []engine.Move   // the bm moves (any of them solves the position)
	ID       string          // the id field ("" when absent)
	Depth    int             // the acd field: depth of the verifying analysis (0 when absent)
	Comment  string          // the c0 field, quotes removed
}

// ReadSuite reads a solve suite of variant v: one position per line,
// `FEN ; bm MOVE [MOVE...] ; id NAME ; acd DEPTH ; c0 "TEXT"` (fields after
// the FEN in any order; only bm is required). Moves may be written in any
// form engine.Position.ParseMove accepts. Blank lines and lines starting
// with # are skipped. An error names the line and what was wrong.
func ReadSuite(r io.Reader, v engine.VariantID) ([]SuiteEntry, error) {
	var out []SuiteEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := parseSuiteLine(line, v)
		if err != nil {
			return out, fmt.Errorf("suite line %d: %w", n, err)
		}
		e.Line = n
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("suite: %w", err)
	}
	return out, nil
}

func parseSuiteLine(line string, v engine.VariantID) (SuiteEntry, error) {
	var e SuiteEntry
	fields := strings.Split(line, ";")
	p, err := engine.ParseFEN(v, strings.TrimSpace(fields[0]))
	if err != nil {
		return e, err
	}
	e.Position = p
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		op, arg, _ := strings.Cut(f, " ")
		arg = strings.TrimSpace(arg)
		switch op {
		case "bm":
			for _, s := range strings.Fields(arg) {
				m, err := p.ParseMove(s)
				if err != nil {
					return e, fmt.Errorf("bm %q: %w", s, err)
				}
				e.Best = append(e.Best, m)
			}
		case "id":
			e.ID = strings.Trim(arg, `"`)
		case "acd":
			d, err := strconv.Atoi(arg)
			if err != nil || d < 0 {
				return e, fmt.Errorf("acd %q: want a depth", arg)
			}
			e.Depth = d
		case "c0":
			e.Comment = strings.Trim(arg, `"`)
		case "":
		default:
			// Other EPD opcodes are allowed and ignored.
		}
	}
	if len(e.Best) == 0 {
		return e, fmt.Errorf("no bm field")
	}
	return e, nil
}

// Solve searches e's position with eng within limits (no history: the
// position is a fresh one) and reports whether the move found is one of
// e.Best, with the search result.
func Solve(ctx context.Context, eng *search.Engine, e *SuiteEntry, limits search.Limits) (bool, search.Result) {
	r := SolveTimed(ctx, eng, e, limits)
	return r.OK, r.Result
}

// SolveResult is the outcome of SolveTimed: the search result, whether its
// move is one of the position's best moves, and when the search found it.
type SolveResult struct {
	search.Result
	OK bool // Move is one of SuiteEntry.Best
	// SolvedAt is the time since the search started from which the best
	// move stayed one of SuiteEntry.Best to the end (see SolvedAt); valid
	// when OK.
	SolvedAt time.Duration
	// Iterations are the completed iterations the search reported, in
	// order.
	Iterations []Iteration
}

// SolveTimed is Solve that also records the search's iterations and when
// the position was solved (SolveResult.SolvedAt). The search is the same
// as Solve's: the same move and node count.
func SolveTimed(ctx context.Context, eng *search.Engine, e *SuiteEntry, limits search.Limits) SolveResult {
	var iters []Iteration
	report := func(in search.Info) {
		if in.MultiPV > 1 {
			return // only the best line's move counts
		}
		it := Iteration{Time: in.Time, Depth: in.Depth}
		if len(in.PV) > 0 {
			it.Move, it.HasMove = in.PV[0], true
		}
		iters = append(iters, it)
	}
	r := eng.Search(ctx, e.Position, nil, limits, report)
	at, ok := SolvedAt(iters, r.Move, r.HasMove, r.Time, e.Best)
	return SolveResult{Result: r, OK: ok, SolvedAt: at, Iterations: iters}
}

// Iteration is one progress report of a search of a suite position: when
// it came and the first move of its principal variation.
type Iteration struct {
	Time    time.Duration // since the search started
	Depth   int           // nominal depth in plies; 0 when not known
	Move    engine.Move   // the principal variation's first move, when HasMove
	HasMove bool          // false when the report had no (readable) move
}

// SolvedAt returns when a search found one of best for good, and whether
// its final move (final, when hasFinal) is one of best at all. The time is
// that of the first iteration of the last unbroken run of iterations whose
// move is one of best and which lasts to the end of iters; end (the
// search's duration) when the last iteration's move was not one of best
// (the final move came after it, e.g. from an unfinished iteration) or
// there was no iteration. When the final move is not one of best, it
// returns 0 and false.
func SolvedAt(iters []Iteration, final engine.Move, hasFinal bool, end time.Duration, best []engine.Move) (time.Duration, bool) {
	if !hasFinal || !slices.Contains(best, final) {
		return 0, false
	}
	at, run := end, false
	for _, it := range iters {
		switch in := it.HasMove && slices.Contains(best, it.Move); {
		case in && !run:
			at, run = it.Time, true
		case !in:
			at, run = end, false
		}
	}
	return at, true
}
