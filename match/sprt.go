// sprt.go: the sequential probability ratio test that stops a match once
// the games tell which of two Elo hypotheses holds.

package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test of H0: Elo(A - B) = Elo0
// against H1: Elo = Elo1, with error rates Alpha (accepting H1 when H0
// holds) and Beta (accepting H0 when H1 holds).
//
// With Model ModelNormalized the Elo figures are fishtest's normalized Elo
// and the LLR is fishtest's for it (see stats_normalized.go). Otherwise
// (ModelLogistic) Elo is classic logistic Elo (score = 1 / (1 +
// 10^(-elo/400))), the one Stats reports, and the log-likelihood
// ratio is the generalized SPRT (GSPRT) in its normal approximation by
// Michel Van den Bergh, applied to the pentanomial counts of complete
// opening pairs as fishtest does: with the pair score x in {0, 1/4, 1/2,
// 3/4, 1}, its sample mean mu and variance var over N pairs, and s0, s1 the
// expected scores under H0 and H1,
//
//	LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var).
//
// As fishtest does, a small prior (PentaPrior) is added to each count so
// that var is never zero. With no complete pair LLR is 0.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       string // ModelLogistic ("" too) or ModelNormalized
}

// The Elo models of an SPRT.
const (
	ModelLogistic   = "logistic"   // classic Elo of the score
	ModelNormalized = "normalized" // fishtest's normalized Elo
)

// PentaPrior is added to each pentanomial count before the LLR is computed
// (fishtest's regularisation), so that a few identical pairs do not give a
// zero variance and an infinite LLR.
const PentaPrior = 1e-3

// MinSPRTPairs is the number of complete opening pairs below which Decide
// never stops a match. With only a few pairs the sample variance of the
// pair scores is an unreliable estimate (two drawn pairs give a variance
// near PentaPrior's and an LLR beyond either bound), so the normal
// approximation behind LLR does not hold yet; fishtest avoids the same by
// testing only in batches of many pairs.
const MinSPRTPairs = 10

// DefaultSPRT is elo0=0, elo1=5, alpha=0.05, beta=0.05.
var DefaultSPRT = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}

// ParseSPRT reads "elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized]";
// keys may be left out (DefaultSPRT's values, model logistic) and come in
// any order. Errors name the bad key or value: elo1 must exceed elo0,
// alpha and beta lie in (0, 0.5), model is logistic or normalized.
func ParseSPRT(s string) (SPRT, error) {
	p := DefaultSPRT
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return p, fmt.Errorf("sprt %q: %q is not key=value (keys elo0, elo1, alpha, beta, model)", s, kv)
		}
		if strings.ToLower(strings.TrimSpace(k)) == "model" {
			switch m := strings.ToLower(strings.TrimSpace(v)); m {
			case ModelLogistic, ModelNormalized:
				p.Model = m
			default:
				return p, fmt.Errorf("sprt %q: model=%q: want logistic or normalized", s, v)
			}
			continue
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return p, fmt.Errorf("sprt %q: %s=%q is not a number", s, k, v)
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "elo0":
			p.Elo0 = x
		case "elo1":
			p.Elo1 = x
		case "alpha":
			p.Alpha = x
		case "beta":
			p.Beta = x
		default:
			return p, fmt.Errorf("sprt %q: unknown key %q (want elo0, elo1, alpha, beta, model)", s, k)
		}
	}
	if p.Elo1 <= p.Elo0 {
		return p, fmt.Errorf("sprt %q: elo1 (%g) must be greater than elo0 (%g)", s, p.Elo1, p.Elo0)
	}
	if p.Alpha <= 0 || p.Alpha >= 0.5 || p.Beta <= 0 || p.Beta >= 0.5 {
		return p, fmt.Errorf("sprt %q: alpha and beta must lie between 0 and 0.5", s)
	}
	return p, nil
}

// String writes the test as ParseSPRT reads it (",model=normalized" only
// for that model).
func (t SPRT) String() string {
	s := fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g", t.Elo0, t.Elo1, t.Alpha, t.Beta)
	if t.Model == ModelNormalized {
		s += ",model=" + ModelNormalized
	}
	return s
}

// Bounds returns the LLR bounds: H0 is accepted at or below lower =
// ln(beta / (1 - alpha)), H1 at or above upper = ln((1 - beta) / alpha).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the log-likelihood ratio of the pentanomial counts (see SPRT).
func (t SPRT) LLR(penta [5]int) float64 {
	if t.Model == ModelNormalized {
		return llrNormalized(t.Elo0, t.Elo1, penta)
	}
	n := 0
	for _, c := range penta {
		n += c
	}
	if n == 0 {
		return 0
	}
	mu, v := pentaMoments(penta, PentaPrior)
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	var np float64
	for _, c := range penta {
		np += float64(c) + PentaPrior
	}
	return np * (s1 - s0) * (2*mu - s0 - s1) / (2 * v)
}

// Decision is the state of an SPRT.
type Decision int

// The SPRT decisions.
const (
	Continue Decision = iota // neither bound reached
	AcceptH0                 // LLR at or below the lower bound
	AcceptH1                 // LLR at or above the upper bound
)

// String names the decision: "continue", "H0 accepted", "H1 accepted".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Decide returns the decision for the pentanomial counts: Continue while
// fewer than MinSPRTPairs pairs are complete, or while every complete pair
// scored 1 of its 2 points (no pair won or lost: the pair scores have no
// variance but PentaPrior's, which would put the LLR of any such run far
// below the lower bound; two engines that play alike, or a drawish
// variant's first pairs, give such runs), then by the LLR bounds. Pairs
// that all scored 0 or 2 (or all 1/2, all 3/2) do decide: their mean lies
// far from 1/2.
func (t SPRT) Decide(penta [5]int) Decision {
	n := 0
	for _, c := range penta {
		n += c
	}
	if n < MinSPRTPairs || penta[2] == n {
		return Continue
	}
	llr := t.LLR(penta)
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
