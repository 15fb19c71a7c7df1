// suite.go: reading solve suites, EPD-like lines `FEN ; bm MOVE ; id NAME`,
// and checking a search against them.

package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"damka/engine"
	"damka/search"
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
	r := eng.Search(ctx, e.Position, nil, limits, nil)
	for _, m := range e.Best {
		if r.HasMove && r.Move == m {
			return true, r
		}
	}
	return false, r
}
