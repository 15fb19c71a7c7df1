package egdb

import (
	"math/rand/v2"
	"testing"

	"github.com/damka-draughts/damka/engine"
)

// benchPositions returns n random stored-slice positions of v (up to
// pieces pieces, either side to move), their slices loaded in db.
func benchPositions(b *testing.B, db *DB, v engine.VariantID, pieces, n int) []engine.Position {
	r := rand.New(rand.NewPCG(5, 6))
	g, _ := geomOf(v)
	ms := Materials(v, pieces)
	var ps []engine.Position
	for len(ps) < n {
		s := newSlice(ms[r.IntN(len(ms))], g)
		p, ok := s.position(r.Uint64N(s.size), v)
		if !ok {
			continue
		}
		if r.IntN(2) == 1 {
			p = g.flip(&p)
		}
		if _, _, ok := db.Probe(&p); !ok {
			b.Fatalf("no value for %v", p)
		}
		ps = append(ps, p)
	}
	return ps
}

// BenchmarkProbeSame probes one position again and again (its block in
// the CPU caches).
func BenchmarkProbeSame(b *testing.B) {
	db := Default()
	ps := benchPositions(b, db, engine.Russian, 4, 1)
	b.ReportAllocs()
	for b.Loop() {
		db.Probe(&ps[0])
	}
}

// BenchmarkProbeRandom probes random positions of every embedded slice of
// a variant (blocks mostly out of the CPU caches).
func BenchmarkProbeRandom(b *testing.B) {
	for _, v := range []engine.VariantID{engine.Russian, engine.English, engine.International} {
		b.Run(v.String(), func(b *testing.B) {
			db := Default()
			pieces := 4
			if !v.Is8x8() {
				pieces = 3
			}
			ps := benchPositions(b, db, v, pieces, 1<<16)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				db.Probe(&ps[i&(1<<16-1)])
				i++
			}
		})
	}
}
