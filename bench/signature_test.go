package bench

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

func TestBenchPositionsParse(t *testing.T) {
	for _, bp := range BenchPositions {
		p, err := engine.ParseFEN(bp.Variant, bp.FEN)
		require.NoError(t, err, bp.Source)
		var l engine.MoveList
		p.Generate(&l)
		assert.Positive(t, l.N, bp.Source)
	}
}

func TestBenchIsDeterministic(t *testing.T) {
	depth := 8
	if testing.Short() {
		depth = 6
	}
	if raceEnabled {
		depth = 4
	}
	n1, _ := Bench(depth, nil)
	n2, _ := Bench(depth, nil)
	assert.Equal(t, n1, n2)
	assert.Positive(t, n1)
}

func TestBenchSignature(t *testing.T) {
	if raceEnabled {
		t.Skip("the signature run is too slow under the race detector")
	}
	n, _ := Bench(DefaultBenchDepth, nil)
	assert.Equal(t, uint64(BenchSignature), n, "search changed: update BenchSignature (and say Bench: N in the commit)")
}

// benchSearch searches the bench positions to depth with the given
// threads and reports nodes per second.
func benchSearch(b *testing.B, threads, depth int) {
	e := search.New(search.Options{Threads: threads, HashMiB: BenchHashMiB})
	var nodes uint64
	for b.Loop() {
		for _, bp := range BenchPositions {
			p, err := engine.ParseFEN(bp.Variant, bp.FEN)
			require.NoError(b, err)
			e.Clear()
			nodes += e.Search(context.Background(), p, nil, search.Limits{Depth: depth}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkNPS1 and BenchmarkNPS2 measure nodes per second with one and
// two threads; their ns/op is also the time to reach depth 11 on every
// bench position (time-to-depth).
func BenchmarkNPS1(b *testing.B) { benchSearch(b, 1, 11) }
func BenchmarkNPS2(b *testing.B) { benchSearch(b, 2, 11) }

// BenchmarkStartPosition1s reports the depth each variant reaches from its
// start position in one second with one thread.
func BenchmarkStartPosition1s(b *testing.B) {
	for _, v := range engine.AllVariants() {
		b.Run(v.String(), func(b *testing.B) {
			e := search.New(search.Options{Threads: 1, HashMiB: 64})
			depth := 0
			for b.Loop() {
				e.Clear()
				depth = e.Search(context.Background(), engine.StartPosition(v), nil, search.Limits{MoveTime: time.Second}, nil).Depth
			}
			b.ReportMetric(float64(depth), "depth")
		})
	}
}
