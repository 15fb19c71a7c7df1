package review

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/learn"
	"github.com/damka-draughts/damka/search"
)

// TestWinModel: every variant's model gives 1/2 at 0, rises with the
// score, is symmetric, decides less with fewer men (the fitted scales of
// king endings are the largest, English aside, where they are near), and
// gives 1 or 0 for a decided score.
func TestWinModel(t *testing.T) {
	for _, v := range engine.AllVariants() {
		m := Model(v)
		for i, k := range m.Scale {
			assert.Greater(t, k, 20.0, "%s bucket %d", v, i)
		}
		for _, men := range []int{2, 10, 20, 40} {
			assert.InDelta(t, 0.5, m.Expected(0, men), 1e-12)
			prev := 0.0
			for s := -400; s <= 400; s += 20 {
				e := m.Expected(s, men)
				assert.Greater(t, e, prev, "%s: %d men, score %d", v, men, s)
				assert.InDelta(t, 1, e+m.Expected(-s, men), 1e-12)
				prev = e
			}
		}
		assert.Equal(t, 1.0, m.Expected(search.EGDBWinBound, 3))
		assert.Equal(t, 0.0, m.Expected(-search.Mate+4, 3))
		if v != engine.English {
			assert.Less(t, m.Expected(100, 2), m.Expected(100, 20), "%s: a man decides less in a king ending", v)
		}
	}
}

// TestFitWinModel: samples drawn from known scales are fitted back to
// them, bucket by bucket, and the fit predicts them better than a wrong
// model.
func TestFitWinModel(t *testing.T) {
	want := WinModel{Scale: [len(MenBuckets)]float64{400, 200, 120, 90, 70, 60}}
	rng := rand.New(rand.NewPCG(1, 2))
	var samples []learn.Sample
	for range 60000 {
		men := rng.IntN(41)
		s := rng.IntN(801) - 400
		r := float32(0)
		if rng.Float64() < want.Expected(s, men) {
			r = 1
		}
		samples = append(samples, learn.Sample{Score: int16(s), MenLeft: uint8(men), Result: r})
	}
	got, counts := FitWinModel(samples)
	for i := range want.Scale {
		assert.Positive(t, counts[i])
		assert.InEpsilon(t, want.Scale[i], got.Scale[i], 0.15, "bucket %d", i)
	}
	flat := WinModel{}
	for i := range flat.Scale {
		flat.Scale[i] = 150
	}
	assert.Less(t, got.CrossEntropy(samples), flat.CrossEntropy(samples))
	assert.False(t, math.IsNaN(got.CrossEntropy(samples)))
}
