package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"damka/engine"
)

// linearScore recomputes the learned score of p from its two-view
// features (ExtractFeatures), the way the trainer sees it: White's view,
// before the king-ending rules.
func linearScore(w *Weights, f *Features) int {
	mg, eg := 0, 0
	for k := range NumDense {
		mg += int(f.Dense[k]) * int(w.Dense[k][0])
		eg += int(f.Dense[k]) * int(w.Dense[k][1])
	}
	for r := range f.Regions {
		a, b := w.Pattern[r*PatternSize+int(f.White[r])], w.Pattern[r*PatternSize+int(f.Black[r])]
		mg += int(a[0]) - int(b[0])
		eg += int(a[1]) - int(b[1])
	}
	full := 2 * f.Men
	return (mg*f.MenLeft + eg*(full-f.MenLeft)) / (full << WeightShift) / f.Scale
}

// TestEvaluateMatchesFeatures checks the one-lookup-per-region tables that
// Evaluate reads (Prepare) against the features the trainer fits, with
// random weights in every variant.
func TestEvaluateMatchesFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, v := range engine.AllVariants() {
		w := NewWeights(v)
		for i := range w.Pattern {
			w.Pattern[i] = [2]int16{int16(rng.IntN(2001) - 1000), int16(rng.IntN(2001) - 1000)}
		}
		for k := range w.Dense {
			w.Dense[k] = [2]int16{int16(rng.IntN(4001) - 2000), int16(rng.IntN(4001) - 2000)}
		}
		w.Prepare()
		var f Features
		n := 0
		for _, p := range randomPositions(v, 20, uint64(v)+11) {
			ExtractFeatures(&p, &f)
			if f.Scale == 0 {
				continue
			}
			want := linearScore(w, &f)
			if p.Side == engine.Black {
				want = -want
			}
			require.Equal(t, want, w.Evaluate(&p), "%v %s", v, p.FEN())
			n++
		}
		require.Greater(t, n, 100, v.String())
	}
}
