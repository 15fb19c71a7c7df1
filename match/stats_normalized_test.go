package match

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNormalizedEloHandWorked: fishtest's normalized Elo of pentanomial
// counts [10 80 300 90 20] (500 pairs), worked by hand: mu = 257.5/500 =
// 0.515, var = 18.0125/500 = 0.036025, t = 0.015/sqrt(var) = 0.0790300,
// nElo = 800/ln(10)/sqrt(2) * t = 19.4155. The error bar and the other
// figures are fishtest's formulas recomputed outside damka (an independent
// Python transcription of LLRcalc.py, with bisection for brentq).
func TestNormalizedEloHandWorked(t *testing.T) {
	s := StatsFromCounts(0, 0, 0, [5]int{10, 80, 300, 90, 20})
	n, e := s.NormalizedElo()
	assert.InDelta(t, 19.4154993529, n, 1e-6)
	assert.InDelta(t, 21.4332258782, e, 1e-6)

	n, e = StatsFromCounts(0, 0, 0, [5]int{1000, 10000, 30000, 10500, 1100}).NormalizedElo()
	assert.InDelta(t, 4.4114925818, n, 1e-6)
	assert.InDelta(t, 2.0995681723, e, 1e-6)

	// Without complete pairs: the trinomial form, nElo = 800/ln(10) * t.
	// 30 wins, 40 draws, 30 losses: mu 0.5, t 0.
	n, _ = StatsFromCounts(30, 40, 30, [5]int{}).NormalizedElo()
	assert.InDelta(t, 0, n, 1e-12)
	// 40 wins, 40 draws, 20 losses: mu = 0.6, var = 0.4*0.16 + 0.4*0.01 +
	// 0.2*0.36 = 0.14, t = 0.1/sqrt(0.14) = 0.267261, nElo = 92.856.
	n, _ = StatsFromCounts(40, 40, 20, [5]int{}).NormalizedElo()
	assert.InDelta(t, 800/math.Ln10*0.1/math.Sqrt(0.14), n, 1e-9)
	assert.InDelta(t, 92.856, n, 1e-3)
}

// TestNormalizedSPRTFishtest: the normalized-Elo SPRT's LLR for elo0=0,
// elo1=2 against fishtest's LLR_normalized (the maximum likelihood
// t-value form), recomputed outside damka, and the closed form of
// normalized_elo_practical.pdf section 4.2 worked by hand for [10 80 300
// 90 20]: sigma per game = sqrt(2 var) = 0.268421, nt = 0.015/0.268421 =
// 0.0558824, nt1 = 2 ln(10)/800 = 0.0057565, LLR = 500 ln((1 + nt^2) / (1
// + (nt - nt1)^2)) = 0.30426.
func TestNormalizedSPRTFishtest(t *testing.T) {
	sp, err := ParseSPRT("elo0=0,elo1=2,model=normalized")
	require.NoError(t, err)
	assert.Equal(t, ModelNormalized, sp.Model)
	assert.Equal(t, "elo0=0,elo1=2,alpha=0.05,beta=0.05,model=normalized", sp.String())
	back, err := ParseSPRT(sp.String())
	require.NoError(t, err)
	assert.Equal(t, sp, back)
	for _, c := range []struct {
		penta       [5]int
		llr, approx float64
	}{
		{[5]int{10, 80, 300, 90, 20}, 0.3055492150, 0.3042586365},
		{[5]int{0, 3, 10, 5, 2}, 0.0595332123, 0.0539394516},
		{[5]int{1000, 10000, 30000, 10500, 1100}, 5.9453014976, 5.9456056834},
		{[5]int{0, 0, 0, 0, 12}, 0.0972956671, 0.0048810852},
	} {
		assert.InDelta(t, c.llr, sp.LLR(c.penta), 1e-6, "%v", c.penta)
		n, a, p := regularized(c.penta[:])
		assert.InDelta(t, c.approx, llrNormalizedApprox(0, 2, n, a, p), 1e-6, "%v", c.penta)
	}
	assert.Equal(t, 0.0, sp.LLR([5]int{}))
	// A clear result decides: the bounds are the usual ones.
	assert.Equal(t, AcceptH1, sp.Decide([5]int{1000, 10000, 30000, 12000, 1100}))
	assert.Equal(t, AcceptH0, sp.Decide([5]int{1100, 12000, 30000, 10000, 1000}))
	// The logistic model is unchanged by the new key.
	lg, err := ParseSPRT("elo0=-5,elo1=10,model=logistic")
	require.NoError(t, err)
	assert.InDelta(t, SPRT{Elo0: -5, Elo1: 10, Alpha: 0.05, Beta: 0.05}.LLR([5]int{3, 20, 50, 25, 5}), lg.LLR([5]int{3, 20, 50, 25, 5}), 1e-12)
	_, err = ParseSPRT("model=bayes")
	assert.ErrorContains(t, err, "want logistic or normalized")
}

// TestEloBounds: a 100% or 0% score prints a 95% bound, not +Inf or NaN.
func TestEloBounds(t *testing.T) {
	// 20 wins: the score is at least 0.05^(1/20) = 0.86089 with 95%
	// confidence: Elo >= -400 log10(1/0.86089 - 1) = +316.6.
	s := StatsFromCounts(20, 0, 0, [5]int{0, 0, 0, 0, 10})
	elo, err := s.EloText()
	assert.Equal(t, ">=+316.6", elo)
	assert.Equal(t, "bound", err)
	pe, perr := s.PentaEloText()
	assert.Equal(t, "bound", perr)
	assert.Equal(t, ">=+"+fmtPlain1(EloFromScore(math.Pow(0.05, 0.1))), pe)
	assert.Equal(t, "games=20 wins=20 draws=0 losses=0 elo=>=+316.6 err=bound los=100.0%", s.Line(nil))
	n, ne := s.NormalizedEloText()
	assert.Equal(t, "n/a", n)
	assert.Equal(t, "n/a", ne)

	// Two losses say little: the score is at most 1 - 0.05^(1/2) = 0.776.
	s = StatsFromCounts(0, 0, 2, [5]int{1, 0, 0, 0, 0})
	elo, _ = s.EloText()
	assert.Equal(t, "<=+"+fmtPlain1(EloFromScore(1-math.Pow(0.05, 0.5))), elo)
	assert.Equal(t, "<=+216.2", elo)
	assert.NotContains(t, s.Line(nil), "inf")
	assert.NotContains(t, s.Line(nil), "nan")

	s = StatsFromCounts(6, 8, 6, [5]int{0, 2, 6, 2, 0})
	elo, err = s.EloText()
	assert.Equal(t, "+0.0", elo)
	assert.NotEqual(t, "bound", err)
	n, _ = s.NormalizedEloText()
	assert.Equal(t, "+0.0", n)
}

// fmtPlain1 writes x with one decimal, no sign.
func fmtPlain1(x float64) string { return fmtErr(x) }
