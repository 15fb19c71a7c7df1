// stats.go: match statistics: wins, draws and losses, the logistic Elo
// difference with its 95% interval, the likelihood of superiority, and
// pentanomial counts over opening pairs.

package match

import (
	"fmt"
	"math"
	"sort"
)

// Outcome is one finished game from engine A's point of view, with where it
// sits in the schedule.
type Outcome struct {
	Pair  string  // the opening pair it belongs to (e.g. "3.17|ACF 012 ..."); "" for none
	Score float64 // A's score: 1 win, 0.5 draw, 0 loss
}

// Stats are the statistics of a set of games, engine A's point of view.
type Stats struct {
	Games               int
	Wins, Draws, Losses int // of engine A

	// Penta counts complete opening pairs by A's total score over the two
	// games: Penta[0] = 0 (two losses), [1] = 0.5, [2] = 1 (two draws or a
	// win and a loss), [3] = 1.5, [4] = 2 (two wins). Games whose pair
	// partner is missing are counted only in Wins/Draws/Losses.
	Penta [5]int

	// Elo is the logistic Elo difference A minus B from the score
	// (Wins + Draws/2) / Games: -400 log10(1/score - 1); +-Inf when A
	// scored everything or nothing, NaN with no games.
	Elo float64
	// EloErr is half the width of the 95% interval of Elo from the
	// trinomial (per-game) variance of the score, as cutechess-cli
	// computes it: Elo(score +- 1.96 sd/sqrt(Games)), halved difference.
	EloErr float64
	// PentaElo and PentaErr are the same from the complete pairs only,
	// with the variance of the pair scores (which accounts for the
	// correlation of the two games of an opening).
	PentaElo, PentaErr float64
	// LOS is the likelihood of superiority of A, from wins and losses
	// only: 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))); 0.5 with none.
	LOS float64
}

// Score returns A's points (wins plus half the draws).
func (s Stats) Score() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Pairs returns the number of complete opening pairs.
func (s Stats) Pairs() int {
	n := 0
	for _, c := range s.Penta {
		n += c
	}
	return n
}

// z95 is the two-sided 95% quantile of the standard normal distribution,
// computed from the inverse error function: sqrt(2) erfinv(0.95).
var z95 = math.Sqrt2 * math.Erfinv(0.95)

// EloFromScore returns the logistic Elo difference for an expected score s
// in [0, 1]: -400 log10(1/s - 1).
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400*math.Log10(1/s-1) + 0 // + 0 turns -0 into 0
}

// ScoreFromElo is the inverse of EloFromScore: 1 / (1 + 10^(-elo/400)).
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// eloInterval returns the Elo of mean score mu and half the width of its
// 95% interval for n observations of variance variance.
func eloInterval(mu, variance float64, n int) (elo, err float64) {
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	elo = EloFromScore(mu)
	sd := math.Sqrt(variance / float64(n))
	lo, hi := EloFromScore(mu-z95*sd), EloFromScore(mu+z95*sd)
	return elo, (hi - lo) / 2
}

// ComputeStats returns the statistics of outcomes. Games are paired by
// their Pair field: a pair with exactly two games counts in Penta; one
// with more than two is an error (a schedule fault), as is a score other
// than 0, 0.5 and 1.
func ComputeStats(outcomes []Outcome) (Stats, error) {
	var s Stats
	pairs := map[string][]float64{}
	var order []string
	for _, o := range outcomes {
		switch o.Score {
		case 1:
			s.Wins++
		case 0.5:
			s.Draws++
		case 0:
			s.Losses++
		default:
			return s, fmt.Errorf("stats: score %v is not 0, 0.5 or 1", o.Score)
		}
		s.Games++
		if o.Pair == "" {
			continue
		}
		if _, ok := pairs[o.Pair]; !ok {
			order = append(order, o.Pair)
		}
		pairs[o.Pair] = append(pairs[o.Pair], o.Score)
	}
	sort.Strings(order)
	for _, k := range order {
		sc := pairs[k]
		switch len(sc) {
		case 1:
		case 2:
			s.Penta[int(math.Round(2*(sc[0]+sc[1])))]++
		default:
			return s, fmt.Errorf("stats: pair %q has %d games (want 2)", k, len(sc))
		}
	}
	s.fill()
	return s, nil
}

// StatsFromCounts returns the statistics for the given counts (for tests
// and for merging): w, d, l games of A and the pentanomial counts.
func StatsFromCounts(w, d, l int, penta [5]int) Stats {
	s := Stats{Games: w + d + l, Wins: w, Draws: d, Losses: l, Penta: penta}
	s.fill()
	return s
}

// fill computes Elo, EloErr, PentaElo, PentaErr and LOS from the counts.
func (s *Stats) fill() {
	s.Elo, s.EloErr = math.NaN(), math.NaN()
	if s.Games > 0 {
		n := float64(s.Games)
		mu := s.Score() / n
		v := (float64(s.Wins)*sq(1-mu) + float64(s.Draws)*sq(0.5-mu) + float64(s.Losses)*sq(mu)) / n
		s.Elo, s.EloErr = eloInterval(mu, v, s.Games)
	}
	s.PentaElo, s.PentaErr = math.NaN(), math.NaN()
	if np := s.Pairs(); np > 0 {
		mu, v := pentaMoments(s.Penta, 0)
		s.PentaElo, s.PentaErr = eloInterval(mu, v, np)
	}
	s.LOS = 0.5
	if wl := s.Wins + s.Losses; wl > 0 {
		s.LOS = 0.5 * (1 + math.Erf(float64(s.Wins-s.Losses)/math.Sqrt(2*float64(wl))))
	}
}

// pentaMoments returns the mean and variance of the pair score scaled to
// [0, 1] (0, 1/4, 1/2, 3/4, 1), with prior added to every count.
func pentaMoments(penta [5]int, prior float64) (mu, variance float64) {
	var n float64
	for i, c := range penta {
		w := float64(c) + prior
		n += w
		mu += w * float64(i) / 4
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mu /= n
	for i, c := range penta {
		variance += (float64(c) + prior) * sq(float64(i)/4-mu)
	}
	return mu, variance / n
}

func sq(x float64) float64 { return x * x }

// fmtElo writes an Elo figure with one decimal and a sign ("+12.3",
// "-4.0", "+inf", "nan").
func fmtElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
}

// fmtErr writes an error bar with one decimal ("12.3", "inf", "nan").
func fmtErr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 0):
		return "inf"
	}
	return fmt.Sprintf("%.1f", x)
}

// BoundConfidence is the one-sided confidence of the Elo bound given for a
// 100% or 0% score.
const BoundConfidence = 0.95

// eloBound returns the Elo bound for n observations that all scored 1
// (mu 1) or all 0 (mu 0): the Elo of the one-sided 95% Clopper-Pearson
// bound of the score, 0.05^(1/n) (all won: p^n >= 0.05), as ">=+E" or
// "<=-E"; ok is false for any other mean.
func eloBound(mu float64, n int) (string, bool) {
	if n <= 0 || (mu != 0 && mu != 1) {
		return "", false
	}
	lo := math.Pow(1-BoundConfidence, 1/float64(n))
	if mu == 1 {
		return ">=" + fmtElo(EloFromScore(lo)), true
	}
	return "<=" + fmtElo(EloFromScore(1-lo)), true
}

// MinPairs is the fewest complete opening pairs from which the
// pentanomial and normalized Elo intervals are estimated: with fewer, the
// variance of the pair scores is not known well enough (two pairs gave
// "+2833.7 +/- 58472.5"), and they are n/a.
const MinPairs = 10

// EloNA returns why the Elo difference and its interval cannot be
// estimated: "no games", "all draws" (no variance: "+0.0 +/- 0.0" would
// claim a certainty the games do not give), or "too few games for an
// interval" (the interval reaches a 100% or 0% score); "" when they can
// (a 100% or 0% score gives a bound, see EloText).
func (s Stats) EloNA() string {
	switch {
	case s.Games == 0:
		return "no games"
	case s.Draws == s.Games:
		return "all draws"
	}
	if _, ok := eloBound(s.Score()/float64(s.Games), s.Games); ok {
		return ""
	}
	if math.IsInf(s.EloErr, 0) || math.IsNaN(s.EloErr) {
		return "too few games for an interval"
	}
	return ""
}

// EloText returns the Elo difference and its error bar as the summary
// writes them: "+12.3" and "45.6"; at a 100% (0%) score, where the Elo is
// infinite, a 95% lower (upper) bound ">=+317.6" and the error "bound";
// "n/a" for both where EloNA gives a reason.
func (s Stats) EloText() (elo, err string) {
	if s.EloNA() != "" {
		return "n/a", "n/a"
	}
	if b, ok := eloBound(s.Score()/float64(s.Games), s.Games); ok {
		return b, "bound"
	}
	return fmtElo(s.Elo), fmtErr(s.EloErr)
}

// PentaEloNA returns why the pentanomial Elo and its interval cannot be
// estimated: "no complete pairs", "fewer than MinPairs pairs" (with the
// number), or "every pair scored the same" (no variance); "" when they
// can (every pair won, or lost, gives a bound, see PentaEloText).
func (s Stats) PentaEloNA() string {
	n := s.Pairs()
	if n == 0 {
		return "no complete pairs"
	}
	if s.Penta[4] == n || s.Penta[0] == n {
		return ""
	}
	if n < MinPairs {
		return fmt.Sprintf("fewer than %d pairs", MinPairs)
	}
	for _, c := range s.Penta {
		if c == n {
			return "every pair scored the same"
		}
	}
	return ""
}

// PentaEloText is EloText for the pentanomial Elo (bounds over the pairs
// when every pair scored 2, or 0; "n/a" for both where PentaEloNA gives a
// reason).
func (s Stats) PentaEloText() (elo, err string) {
	if s.PentaEloNA() != "" {
		return "n/a", "n/a"
	}
	if n := s.Pairs(); n > 0 {
		mu := -1.0
		if s.Penta[4] == n {
			mu = 1
		} else if s.Penta[0] == n {
			mu = 0
		}
		if b, ok := eloBound(mu, n); ok {
			return b, "bound"
		}
	}
	return fmtElo(s.PentaElo), fmtErr(s.PentaErr)
}

// NormalizedEloNA returns why the normalized Elo cannot be estimated:
// "no games", "all won" or "all lost" (only the regularization keeps it
// finite), "all draws", "fewer than MinPairs pairs" (with the number), or
// "every pair scored the same"; "" when it can.
func (s Stats) NormalizedEloNA() string {
	switch {
	case s.Games == 0:
		return "no games"
	case s.Wins == s.Games:
		return "all won"
	case s.Losses == s.Games:
		return "all lost"
	case s.Draws == s.Games:
		return "all draws"
	case s.Pairs() < MinPairs:
		return fmt.Sprintf("fewer than %d pairs", MinPairs)
	}
	for _, c := range s.Penta {
		if c == s.Pairs() {
			return "every pair scored the same"
		}
	}
	return ""
}

// NormalizedEloText returns NormalizedElo as the summary writes it ("+3.2"
// and "5.1"), or "n/a" for both where NormalizedEloNA gives a reason.
func (s Stats) NormalizedEloText() (nelo, err string) {
	if s.NormalizedEloNA() != "" {
		return "n/a", "n/a"
	}
	n, e := s.NormalizedElo()
	return fmtElo(n), fmtErr(e)
}

// LOSText returns the likelihood of superiority as a percentage with one
// decimal ("90.2%"), or "n/a (no wins or losses)" when no game was
// decisive (LOS is then 0.5 by convention, and says nothing).
func (s Stats) LOSText() string {
	if s.Wins+s.Losses == 0 {
		return "n/a (no wins or losses)"
	}
	return fmt.Sprintf("%.1f%%", 100*s.LOS)
}

// Line returns the summary line "games=N wins=W draws=D losses=L elo=E
// err=X los=P" (Elo and error with one decimal as EloText writes them:
// a bound at a 100% or 0% score, "n/a" where they cannot be estimated;
// LOS as a percentage with one decimal, "n/a" without a decisive game),
// followed by " llr=L" (two decimals) when sprt is not nil.
func (s Stats) Line(sprt *SPRT) string {
	elo, err := s.EloText()
	los := "n/a"
	if s.Wins+s.Losses > 0 {
		los = fmt.Sprintf("%.1f%%", 100*s.LOS)
	}
	line := fmt.Sprintf("games=%d wins=%d draws=%d losses=%d elo=%s err=%s los=%s",
		s.Games, s.Wins, s.Draws, s.Losses, elo, err, los)
	if sprt != nil {
		line += fmt.Sprintf(" llr=%.2f", sprt.LLR(s.Penta))
	}
	return line
}
