// stats_normalized.go: fishtest's normalized Elo and its SPRT (Michel Van
// den Bergh, "Normalized Elo", https://www.cantate.be/Fishtest/
// normalized_elo_practical.pdf; fishtest's server/fishtest/stats/
// LLRcalc.py). Normalized Elo measures the difference in standard
// deviations of the score, so that its SPRT needs about the same number
// of games whatever the draw rate; it is the scale fishtest's SPRT bounds
// (elo0=0, elo1=2) are given in.
//
// With the results as a distribution over scores a_i (pentanomial: the
// pair score 0, 1/4, 1/2, 3/4, 1; trinomial: 0, 1/2, 1) with frequencies
// p_i = n_i / N (a zero count replaced by 1e-3, fishtest's
// regularization), mean mu, variance var, skewness and excess kurtosis:
//
//	t       = (mu - 1/2) / sqrt(var)                  the t-value of the results
//	nElo    = 800/ln(10) * t / sqrt(2)   (pentanomial: per game, a pair is two)
//	nElo    = 800/ln(10) * t             (trinomial)
//	var_t   = max(1 - t*skewness + t^2 (exkurt + 2) / 4, 0)
//	err95   = coefficient * 1.96 * sqrt(var_t / N)
//
// The SPRT of H0: nElo = nelo0 against H1: nElo = nelo1 is the GSPRT with
// the t-value as statistic: t0, t1 = nelo0, nelo1 * ln(10)/800 (times
// sqrt(2) for pairs), and
//
//	LLR = N * sum_i p_i (ln q1_i - ln q0_i)
//
// where q_s is the maximum likelihood distribution on the a_i with t-value
// s given the observed p (normalized_elo_practical.pdf section 4.1: a
// fixed point of q_i = p_i / (1 + x (a_i - 1/2 - s sigma (1 + ((mu_q -
// a_i)/sigma)^2)/2)), with mu_q and sigma those of q and x the root of
// sum_i p_i b_i / (1 + x b_i) = 0 for those b_i).

package match

import (
	"math"
)

// neloPerT is 800 / ln(10): normalized Elo per unit of t-value per game.
var neloPerT = 800 / math.Ln10

// NormalizedElo returns fishtest's normalized Elo of the results and half
// the width of its 95% interval: from the pentanomial counts when there is
// a complete pair, else from the wins, draws and losses; NaN with no
// games.
func (s Stats) NormalizedElo() (nelo, err float64) {
	if s.Pairs() > 0 {
		return normalizedElo(s.Penta[:], neloPerT/math.Sqrt2)
	}
	if s.Games > 0 {
		return normalizedElo([]int{s.Losses, s.Draws, s.Wins}, neloPerT)
	}
	return math.NaN(), math.NaN()
}

// normalizedElo computes nElo and its 95% error bar for counts over the
// evenly spaced scores 0..1 with coefficient coeff (see the file comment).
func normalizedElo(counts []int, coeff float64) (float64, float64) {
	n, a, p := regularized(counts)
	mu, v := moments(a, p)
	var m3, m4 float64
	for i := range a {
		d := a[i] - mu
		m3 += p[i] * d * d * d
		m4 += p[i] * d * d * d * d
	}
	skew, exkurt := m3/math.Pow(v, 1.5), m4/(v*v)-3
	t := (mu - 0.5) / math.Sqrt(v)
	vt := max(1-t*skew+0.25*t*t*(exkurt+2), 0)
	return coeff * t, coeff * z95 * math.Sqrt(vt/n)
}

// regularized returns fishtest's distribution of counts: the scores a_i =
// i/(len-1), the frequencies with every zero count replaced by 1e-3, and
// their sum.
func regularized(counts []int) (n float64, a, p []float64) {
	a, p = make([]float64, len(counts)), make([]float64, len(counts))
	for i, c := range counts {
		a[i] = float64(i) / float64(len(counts)-1)
		p[i] = float64(c)
		if c == 0 {
			p[i] = 1e-3
		}
		n += p[i]
	}
	for i := range p {
		p[i] /= n
	}
	return n, a, p
}

// moments returns the mean and variance of the distribution p on a.
func moments(a, p []float64) (mu, v float64) {
	for i := range a {
		mu += p[i] * a[i]
	}
	for i := range a {
		v += p[i] * sq(a[i]-mu)
	}
	return mu, v
}

// llrNormalized is the normalized-Elo GSPRT's LLR of the pentanomial
// counts for nelo0 against nelo1 (see the file comment); 0 with no pair.
func llrNormalized(nelo0, nelo1 float64, penta [5]int) float64 {
	pairs := 0
	for _, c := range penta {
		pairs += c
	}
	if pairs == 0 {
		return 0
	}
	n, a, p := regularized(penta[:])
	t0, t1 := nelo0/neloPerT*math.Sqrt2, nelo1/neloPerT*math.Sqrt2
	q0, ok0 := mleTValue(a, p, 0.5, t0)
	q1, ok1 := mleTValue(a, p, 0.5, t1)
	if !ok0 || !ok1 {
		return llrNormalizedApprox(nelo0, nelo1, n, a, p)
	}
	var llr float64
	for i := range p {
		llr += p[i] * (math.Log(q1[i]) - math.Log(q0[i]))
	}
	return n * llr
}

// llrNormalizedApprox is the closed form of normalized_elo_practical.pdf
// section 4.2 (fishtest's LLR_normalized_alt), used when the maximum
// likelihood iteration has no root to follow: with nt the results' t-value
// per game and 2N games,
//
//	LLR = N ln((1 + (nt - nt0)^2) / (1 + (nt - nt1)^2)).
func llrNormalizedApprox(nelo0, nelo1, n float64, a, p []float64) float64 {
	mu, v := moments(a, p)
	nt := (mu - 0.5) / math.Sqrt(2*v)
	nt0, nt1 := nelo0/neloPerT, nelo1/neloPerT
	return n * math.Log((1+sq(nt-nt0))/(1+sq(nt-nt1)))
}

// mleTValue returns the maximum likelihood distribution on a with t-value
// (mu - ref) / sigma = s given the observed frequencies p, by the fixed
// point iteration of normalized_elo_practical.pdf section 4.1 (as fishtest
// does: at most 10 rounds, from the uniform distribution). ok is false
// when a round has no root.
func mleTValue(a, p []float64, ref, s float64) ([]float64, bool) {
	n := len(a)
	q := make([]float64, n)
	for i := range q {
		q[i] = 1 / float64(n)
	}
	b := make([]float64, n)
	for round := 0; round < 10; round++ {
		mu, v := moments(a, q)
		sigma := math.Sqrt(v)
		for i := range a {
			b[i] = a[i] - ref - s*sigma*(1+sq((mu-a[i])/sigma))/2
		}
		x, ok := secular(b, p)
		if !ok {
			return nil, false
		}
		delta := 0.0
		for i := range q {
			next := p[i] / (1 + x*b[i])
			delta = max(delta, math.Abs(next-q[i]))
			q[i] = next
		}
		if delta < 1e-9 {
			break
		}
	}
	return q, true
}

// secular solves sum_i p_i b_i / (1 + x b_i) = 0 for x in (-1/max b,
// -1/min b), where the left side falls from +Inf to -Inf; ok is false
// unless min b < 0 < max b.
func secular(b, p []float64) (float64, bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range b {
		lo, hi = min(lo, v), max(hi, v)
	}
	if !(lo < 0 && hi > 0) {
		return 0, false
	}
	f := func(x float64) float64 {
		var s float64
		for i := range b {
			s += p[i] * b[i] / (1 + x*b[i])
		}
		return s
	}
	const eps = 1e-9
	l, h := -1/hi+eps, -1/lo-eps
	for range 200 {
		m := (l + h) / 2
		if f(m) > 0 {
			l = m
		} else {
			h = m
		}
		if h-l < 1e-15 {
			break
		}
	}
	return (l + h) / 2, true
}
