package engine

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomPosition places up to n random pieces (men and kings of both
// colours) on v's board; men never stand on their own crowning row.
func randomPosition(rng *rand.Rand, v VariantID, n int) Position {
	p := Position{V: v, Side: Color(rng.IntN(2))}
	sq := v.Rules().Squares
	for i := 0; i < n; i++ {
		s := Square(1 + rng.IntN(sq))
		b := SquareBit(v, s)
		c := Color(rng.IntN(2))
		king := rng.IntN(3) == 0
		if !king && b&promoMask(v, c) != 0 {
			king = true
		}
		if p.Occupied()&b != 0 {
			continue
		}
		p.Pieces[c] |= b
		if king {
			p.Kings |= b
		}
	}
	p.Key = p.ComputeKey()
	return p
}

// TestDuplicateThreshold checks Generate against an exact reference: the
// set of distinct (from, to, captured, crown) tuples of all capture paths.
// It guards dupMinCaptures and the majority rule on positions rich in
// kings and multiple captures.
func TestDuplicateThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	withCaptures := 0
	for _, v := range AllVariants() {
		for i := 0; i < n; i++ {
			p := randomPosition(rng, v, 6+rng.IntN(18))
			var gen, paths MoveList
			p.Generate(&gen)
			p.GeneratePaths(&paths)
			want := map[Move]bool{}
			for _, m := range paths.Slice() {
				want[m] = true
			}
			got := map[Move]bool{}
			for _, m := range gen.Slice() {
				assert.False(t, got[m], "duplicate move in Generate")
				got[m] = true
			}
			if !assert.Equal(t, want, got, "%s position %+v", v, p) {
				return
			}
			assert.Equal(t, paths.N, p.CountMoves(&gen, true))
			assert.Equal(t, len(want), p.CountMoves(&gen, false))
			assert.Equal(t, paths.N > 0 && paths.Moves[0].IsCapture(), p.HasCapture())
			if p.HasCapture() {
				withCaptures++
				var caps MoveList
				p.GenerateCaptures(&caps)
				assert.Equal(t, len(want), caps.N)
			}
			for _, m := range gen.Slice() {
				q := p.Play(m)
				assert.Equal(t, q.ComputeKey(), q.Key)
				assert.Zero(t, q.Pieces[White]&q.Pieces[Black], "colours overlap")
				assert.Equal(t, bits.OnesCount64(p.Occupied())-int(m.NCapt), bits.OnesCount64(q.Occupied()))
				assert.Equal(t, int(m.NCapt), bits.OnesCount64(m.Captured))
			}
		}
	}
	require.Greater(t, withCaptures, n/10, "too few capture positions to mean anything")
}

// TestMajorityRule checks that Brazilian and international keep only the
// captures that take the most pieces, and Russian keeps all.
func TestMajorityRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, v := range AllVariants() {
		for i := 0; i < 3000; i++ {
			p := randomPosition(rng, v, 10+rng.IntN(14))
			var l MoveList
			p.Generate(&l)
			if l.N == 0 || !l.Moves[0].IsCapture() {
				continue
			}
			most := uint8(0)
			for _, m := range l.Slice() {
				most = max(most, m.NCapt)
			}
			for _, m := range l.Slice() {
				if v.Rules().Capture == CaptureMajority {
					assert.Equal(t, most, m.NCapt, "%s: majority rule", v)
				}
			}
		}
	}
}
