package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// TestReportFigures prints the figures of the search report: nodes per
// second and time to depth with one and two threads on the bench
// positions, the depth reached from each start position in 1 s and 10 s,
// and the solve suites at a fixed depth and at 1 s per position. It runs
// only with DAMKA_REPORT=1 (about two minutes on an idle machine).
func TestReportFigures(t *testing.T) {
	if os.Getenv("DAMKA_REPORT") == "" {
		t.Skip("set DAMKA_REPORT=1 to measure the report figures")
	}
	const depth = 12
	for _, threads := range []int{1, 2} {
		e := search.New(search.Options{Threads: threads, HashMiB: BenchHashMiB})
		var nodes uint64
		var total time.Duration
		for _, bp := range BenchPositions {
			p, err := engine.ParseFEN(bp.Variant, bp.FEN)
			require.NoError(t, err)
			e.Clear()
			start := time.Now()
			r := e.Search(context.Background(), p, nil, search.Limits{Depth: depth}, nil)
			total += time.Since(start)
			nodes += r.Nodes
		}
		t.Logf("threads=%d: depth %d on %d bench positions in %v, %d nodes, %.0f nodes/s",
			threads, depth, len(BenchPositions), total.Round(time.Millisecond), nodes, float64(nodes)/total.Seconds())
	}
	for _, v := range engine.AllVariants() {
		for _, d := range []time.Duration{time.Second, 10 * time.Second} {
			e := search.New(search.Options{Threads: 1, HashMiB: 64})
			r := e.Search(context.Background(), engine.StartPosition(v), nil, search.Limits{MoveTime: d}, nil)
			p := engine.StartPosition(v)
			t.Logf("%v start, 1 thread, %v: depth %d, %d nodes, score %d, move %s",
				v, d, r.Depth, r.Nodes, r.Score, p.FormatMove(r.Move, engine.FormatFull))
		}
	}
	for _, s := range solveSuites {
		f, err := os.Open(filepath.Join("testdata", s.file))
		if err != nil {
			continue
		}
		entries, err := ReadSuite(f, s.v)
		f.Close()
		require.NoError(t, err)
		e := search.New(search.Options{Threads: 1, HashMiB: 16})
		for _, lim := range []search.Limits{{Depth: s.depth}, {MoveTime: time.Second}} {
			solved := 0
			for i := range entries {
				e.Clear()
				if ok, _ := Solve(context.Background(), e, &entries[i], lim); ok {
					solved++
				}
			}
			t.Logf("%v suite (%s) with depth %d / movetime %v: solved=%d total=%d", s.v, s.file, lim.Depth, lim.MoveTime, solved, len(entries))
		}
	}
}
