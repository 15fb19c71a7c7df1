package match

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStatsHandComputed checks Elo, its interval and LOS against values
// worked out by hand for W=10 D=20 L=5 (N=35).
func TestStatsHandComputed(t *testing.T) {
	s := StatsFromCounts(10, 20, 5, [5]int{})
	// score = (10 + 20/2) / 35 = 4/7; Elo = -400 log10(7/4 - 1) = -400 log10(0.75) = 49.9755.
	assert.InDelta(t, 4.0/7, s.Score()/35, 1e-12)
	assert.InDelta(t, 49.9755, s.Elo, 1e-4)
	// per-game variance = (10 (3/7)^2 + 20 (1/14)^2 + 5 (4/7)^2) / 35 = 0.15510;
	// sd of the mean = sqrt(0.15510 / 35) = 0.066569; score +- 1.96 sd =
	// 0.44096 .. 0.70190 -> Elo -41.2 .. +148.7 -> half width 76.35.
	assert.InDelta(t, 76.3497, s.EloErr, 1e-3)
	// LOS = 0.5 (1 + erf((10 - 5) / sqrt(2 * 15))) = 0.90165.
	assert.InDelta(t, 0.901647, s.LOS, 1e-6)
	assert.Equal(t, "games=35 wins=10 draws=20 losses=5 elo=+50.0 err=76.3 los=90.2%", s.Line(nil))

	// Even score: Elo exactly 0, printed without a minus sign.
	e := StatsFromCounts(3, 4, 3, [5]int{})
	assert.Equal(t, 0.0, e.Elo)
	assert.False(t, math.Signbit(e.Elo))
	assert.InDelta(t, 0.5, e.LOS, 1e-12)

	// All won: Elo +inf; nothing played: NaN; no decisive game: LOS 0.5.
	assert.True(t, math.IsInf(StatsFromCounts(4, 0, 0, [5]int{}).Elo, 1))
	assert.True(t, math.IsNaN(StatsFromCounts(0, 0, 0, [5]int{}).Elo))
	assert.Equal(t, 0.5, StatsFromCounts(0, 5, 0, [5]int{}).LOS)
	assert.Equal(t, "games=0 wins=0 draws=0 losses=0 elo=n/a err=n/a los=n/a", StatsFromCounts(0, 0, 0, [5]int{}).Line(nil))

	// z95 is the normal quantile.
	assert.InDelta(t, 1.959964, z95, 1e-6)
	assert.InDelta(t, 0.75, ScoreFromElo(EloFromScore(0.75)), 1e-12)
}

// TestPentanomialHand: pair scores 0.55 on average (counts 2 10 20 12 6
// over 50 pairs), variance E[x^2] - mu^2 = 18.375/50 - 0.3025 = 0.065.
func TestPentanomialHand(t *testing.T) {
	s := StatsFromCounts(0, 0, 0, [5]int{2, 10, 20, 12, 6})
	assert.Equal(t, 50, s.Pairs())
	// Elo(0.55) = -400 log10(1/0.55 - 1) = 34.86; sd = sqrt(0.065/50) =
	// 0.036056; 0.55 +- 1.96 sd = 0.47933 .. 0.62067 -> -14.37 .. 85.53.
	assert.InDelta(t, 34.8601, s.PentaElo, 1e-3)
	assert.InDelta(t, 49.9525, s.PentaErr, 1e-3)
}

// TestPentanomialGrouping: pairs are formed by the Pair key, a lone game
// counts only in W/D/L, and a pair with three games is an error.
func TestPentanomialGrouping(t *testing.T) {
	s, err := ComputeStats([]Outcome{
		{"a", 1}, {"b", 1}, {"c", 0.5}, {"a", 1}, // a: 2
		{"b", 0},             // b: 1
		{"c", 0.5},           // c: 1
		{"d", 0.5}, {"d", 1}, // d: 1.5
		{"e", 0},             // e: alone
		{"f", 0}, {"f", 0.5}, // f: 0.5
		{"g", 0}, {"g", 0}, // g: 0
		{"", 1}, // unpaired
	})
	require.NoError(t, err)
	assert.Equal(t, [5]int{1, 1, 2, 1, 1}, s.Penta)
	assert.Equal(t, 14, s.Games)
	assert.Equal(t, [3]int{5, 4, 5}, [3]int{s.Wins, s.Draws, s.Losses})

	_, err = ComputeStats([]Outcome{{"a", 1}, {"a", 0}, {"a", 1}})
	assert.ErrorContains(t, err, `pair "a" has 3 games`)
	_, err = ComputeStats([]Outcome{{"a", 0.7}})
	assert.ErrorContains(t, err, "score 0.7")
}

// TestSPRTHand: the LLR for counts 2 10 20 12 6 (mu 0.55, var 0.065):
// s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.507195; LLR = 50 (s1 - s0)
// (2 mu - s0 - s1) / (2 var) = 50 * 0.0071953 * 0.092805 / 0.13 = 0.2568.
func TestSPRTHand(t *testing.T) {
	p := [5]int{2, 10, 20, 12, 6}
	assert.InDelta(t, 0.256796, DefaultSPRT.LLR(p), 1e-5)
	assert.InDelta(t, 0.770306, SPRT{Elo0: -5, Elo1: 10, Alpha: 0.05, Beta: 0.05}.LLR(p), 1e-5)
	lo, hi := DefaultSPRT.Bounds()
	assert.InDelta(t, -2.944439, lo, 1e-6) // ln(0.05/0.95)
	assert.InDelta(t, 2.944439, hi, 1e-6)  // ln(0.95/0.05)
	lo, hi = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}.Bounds()
	assert.InDelta(t, math.Log(0.1/0.95), lo, 1e-12)
	assert.InDelta(t, math.Log(0.9/0.05), hi, 1e-12)

	assert.Equal(t, 0.0, DefaultSPRT.LLR([5]int{}))
	assert.Equal(t, Continue, DefaultSPRT.Decide(p))
	assert.Equal(t, AcceptH1, DefaultSPRT.Decide([5]int{0, 2, 20, 40, 40}))
	assert.Equal(t, AcceptH0, DefaultSPRT.Decide([5]int{40, 40, 20, 2, 0}))
	// A few identical pairs: the prior keeps the variance above zero.
	assert.False(t, math.IsInf(DefaultSPRT.LLR([5]int{0, 0, 3, 0, 0}), 0))
	// A few pairs never decide, however far out their LLR lies: three
	// drawn pairs give a variance near the prior's and an LLR far below
	// the lower bound.
	few := [5]int{0, 0, 3, 0, 0}
	lo, _ = SPRT{Elo0: 0, Elo1: 25, Alpha: 0.05, Beta: 0.05}.Bounds()
	assert.Less(t, SPRT{Elo0: 0, Elo1: 25, Alpha: 0.05, Beta: 0.05}.LLR(few), lo)
	assert.Equal(t, Continue, SPRT{Elo0: 0, Elo1: 25, Alpha: 0.05, Beta: 0.05}.Decide(few))
	assert.Equal(t, AcceptH0, SPRT{Elo0: 0, Elo1: 25, Alpha: 0.05, Beta: 0.05}.Decide([5]int{MinSPRTPairs, 0, 0, 0, 0}))
	// Every pair split its points (two engines that play alike): the LLR
	// lies far below the lower bound on the prior's variance alone, and
	// no number of such pairs decides; the first pair won or lost does.
	same := [5]int{0, 0, 100 * MinSPRTPairs, 0, 0}
	for _, sp := range []SPRT{DefaultSPRT, {Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, {Elo0: -10, Elo1: 0, Alpha: 0.05, Beta: 0.05}, {Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}} {
		lo, hi := sp.Bounds()
		llr := sp.LLR(same)
		if sp.Model != ModelNormalized { // its LLR stays near 0 here
			assert.True(t, llr < lo || llr > hi, "%v: LLR %v", sp, llr)
		}
		assert.Equal(t, Continue, sp.Decide(same), "%v", sp)
	}
	assert.Equal(t, AcceptH0, DefaultSPRT.Decide([5]int{0, 3, 100 * MinSPRTPairs, 0, 0}))
	assert.Equal(t, Continue, DefaultSPRT.Decide([5]int{0, 1, MinSPRTPairs, 1, 0}))
	assert.Contains(t, StatsFromCounts(1, 0, 1, p).Line(&DefaultSPRT), " llr=0.26")
}

func TestParseSPRT(t *testing.T) {
	s, err := ParseSPRT("elo0=0,elo1=5,alpha=0.05,beta=0.05")
	require.NoError(t, err)
	assert.Equal(t, DefaultSPRT, s)
	s, err = ParseSPRT(" elo1=10, elo0=-2 ,beta=0.1")
	require.NoError(t, err)
	assert.Equal(t, SPRT{Elo0: -2, Elo1: 10, Alpha: 0.05, Beta: 0.1}, s)
	assert.Equal(t, "elo0=-2,elo1=10,alpha=0.05,beta=0.1", s.String())
	for _, bad := range []string{"elo0=5,elo1=5", "elo1=x", "alpha=0.7", "beta=0", "gamma=1", "elo0"} {
		_, err := ParseSPRT(bad)
		assert.Error(t, err, bad)
	}
}

// TestStatsNotEstimable: where an interval cannot be estimated (no games,
// all draws, too few games or pairs, no decisive game for the LOS) the
// texts say n/a and why, instead of "+0.0 +/- 0.0" or
// "+2833.7 +/- 58472.5".
func TestStatsNotEstimable(t *testing.T) {
	draws := StatsFromCounts(0, 20, 0, [5]int{0, 0, 10, 0, 0})
	elo, err := draws.EloText()
	assert.Equal(t, [2]string{"n/a", "n/a"}, [2]string{elo, err})
	assert.Equal(t, "all draws", draws.EloNA())
	n, ne := draws.NormalizedEloText()
	assert.Equal(t, [2]string{"n/a", "n/a"}, [2]string{n, ne})
	assert.Equal(t, "all draws", draws.NormalizedEloNA())
	assert.Equal(t, "every pair scored the same", draws.PentaEloNA())
	assert.Equal(t, "n/a (no wins or losses)", draws.LOSText())
	assert.Equal(t, "games=20 wins=0 draws=20 losses=0 elo=n/a err=n/a los=n/a", draws.Line(nil))

	tiny := StatsFromCounts(3, 1, 0, [5]int{0, 0, 0, 1, 1})
	assert.Equal(t, "fewer than 10 pairs", tiny.NormalizedEloNA())
	n, ne = tiny.NormalizedEloText()
	assert.Equal(t, [2]string{"n/a", "n/a"}, [2]string{n, ne})
	assert.Equal(t, "fewer than 10 pairs", tiny.PentaEloNA())
	assert.Equal(t, "too few games for an interval", tiny.EloNA(), "the interval reaches a 100% score")
	elo, _ = tiny.EloText()
	assert.Equal(t, "n/a", elo)

	none := StatsFromCounts(0, 0, 0, [5]int{})
	assert.Equal(t, "no games", none.EloNA())
	assert.Equal(t, "no games", none.NormalizedEloNA())
	assert.Equal(t, "no complete pairs", none.PentaEloNA())

	// Enough games and pairs: numbers, no reason.
	s := StatsFromCounts(6, 8, 6, [5]int{0, 2, 6, 2, 0})
	assert.Empty(t, s.EloNA())
	assert.Empty(t, s.NormalizedEloNA())
	assert.Empty(t, s.PentaEloNA())
	assert.Equal(t, "50.0%", s.LOSText())
}
