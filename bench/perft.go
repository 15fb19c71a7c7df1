// Package bench holds damka's measuring tools and the tools that run the
// search over many positions: perft reports, the search bench signature,
// test-suite solving, the self-play games that train the evaluation
// (docs/training.md) and the searches that grow an opening book
// (BuildBook); the match runner is package match.
package bench

import (
	"fmt"
	"io"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// PerftConfig describes one `damka perft` run.
type PerftConfig struct {
	Position engine.Position // root position
	Depth    int             // deepest depth reported, in plies (>= 1)
	Divide   bool            // print each root move's count at Depth first
	Paths    bool            // count every capture path ("keep duplicates")
	Threads  int             // worker goroutines (>= 1)
	HashMiB  int             // perft hash table size in MiB (0: none)
	Only     bool            // report Depth alone: the shallower depths are not counted
}

// RunPerft writes, when Divide is set, one line "MOVE NODES" per root move
// (moves in the variant's full-path notation, in engine.SortMoves order) and a line
// "divide total=N", then one line per depth 1..Depth (Depth alone with Only):
// "depth=D nodes=N time=S mnps=X" with S in seconds and X in millions of
// leaves per second with two decimals (search.FormatMNPS, the unit of every
// speed on the command line). It returns an error only for a bad configuration or a
// failed write.
func RunPerft(w io.Writer, c PerftConfig) error {
	if c.Depth < 1 || c.Depth > engine.MaxPerftDepth {
		return fmt.Errorf("depth %d out of range 1..%d", c.Depth, engine.MaxPerftDepth)
	}
	opts := engine.PerftOptions{Paths: c.Paths, Threads: max(c.Threads, 1)}
	if c.HashMiB > 0 {
		opts.Table = engine.NewPerftTable(c.HashMiB) // shared by every depth below
	}
	if c.Divide {
		var list engine.MoveList
		if c.Paths {
			c.Position.GeneratePaths(&list)
		} else {
			c.Position.Generate(&list)
		}
		type row struct {
			text  string
			nodes uint64
		}
		ms := list.Slice()
		engine.SortMoves(&c.Position, ms)
		rows := make([]row, 0, list.N)
		var total uint64
		for _, m := range ms {
			n := engine.PerftWith(c.Position.Play(m), c.Depth-1, opts)
			total += n
			rows = append(rows, row{c.Position.FormatMove(m, engine.FormatFull), n})
		}
		for _, r := range rows {
			if _, err := fmt.Fprintf(w, "%s %d\n", r.text, r.nodes); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "divide moves=%d total=%d\n", len(rows), total); err != nil {
			return err
		}
	}
	first := 1
	if c.Only {
		first = c.Depth
	}
	for d := first; d <= c.Depth; d++ {
		start := time.Now()
		n := engine.PerftWith(c.Position, d, opts)
		el := time.Since(start).Seconds()
		if _, err := fmt.Fprintf(w, "depth=%d nodes=%d time=%.3f mnps=%s\n", d, n, el, search.FormatMNPS(n, el)); err != nil {
			return err
		}
	}
	return nil
}
