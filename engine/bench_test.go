package engine

import (
	"fmt"
	"testing"
)

// benchDepth is the perft depth of each variant's throughput benchmark.
var benchDepth = map[VariantID]int{Russian: 9, English: 9, Brazilian: 9, International: 8}

// BenchmarkPerft measures bulk-counting perft throughput (leaves/s) from
// each variant's start position, one thread, no hash table.
func BenchmarkPerft(b *testing.B) {
	for _, v := range AllVariants() {
		b.Run(fmt.Sprintf("%s/d%d", v, benchDepth[v]), func(b *testing.B) {
			p := StartPosition(v)
			var leaves uint64
			b.ReportAllocs()
			for b.Loop() {
				leaves += Perft(p, benchDepth[v], false)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

// BenchmarkPerftHash measures perft with a 256 MiB hash table, one thread,
// at depths where transpositions pay: English 12, Russian 11, Brazilian 10,
// international 10.
func BenchmarkPerftHash(b *testing.B) {
	depth := map[VariantID]int{Russian: 11, English: 12, Brazilian: 10, International: 10}
	for _, v := range AllVariants() {
		b.Run(fmt.Sprintf("%s/d%d", v, depth[v]), func(b *testing.B) {
			p := StartPosition(v)
			var leaves uint64
			for b.Loop() {
				leaves += PerftWith(p, depth[v], PerftOptions{HashMiB: 256})
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

// BenchmarkGenerate measures generating the moves of the start position.
func BenchmarkGenerate(b *testing.B) {
	for _, v := range AllVariants() {
		b.Run(v.String(), func(b *testing.B) {
			p := StartPosition(v)
			var l MoveList
			b.ReportAllocs()
			for b.Loop() {
				p.Generate(&l)
			}
		})
	}
}
