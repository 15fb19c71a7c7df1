// adjudicate.go: adjudication as cutechess-cli has it: a draw when
// both engines' scores stay near zero, a loss when both agree that one
// side is lost, from the scores the engines report (Hub info lines).

package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// The Termination values of adjudicated games besides TermAdjudication
// (the move cap).
const (
	TermDrawRule   = "draw adjudication"   // the --draw rule (DrawRule)
	TermResignRule = "resign adjudication" // the --resign rule (ResignRule)
)

// DrawRule adjudicates a draw once at least MoveNumber full moves of the
// game have been played (opening moves included) and both engines'
// scores have stayed within Score men of zero for MoveCount consecutive
// moves each (2*MoveCount plies in a row, every one with a score). It is
// cutechess-cli's --draw movenumber=N movecount=M score=S, in men.
type DrawRule struct {
	MoveNumber int     // full moves before the rule may fire; 0: from the start
	MoveCount  int     // consecutive moves of each engine, at least 1
	Score      float64 // |score| <= Score, in men
}

// ResignRule adjudicates a loss once, for MoveCount consecutive moves of
// each engine, the losing side's engine scored at most -Score men and its
// opponent at least +Score (both agree; cutechess-cli's --resign
// movecount=M score=S twosided=true, in men).
type ResignRule struct {
	MoveCount int     // consecutive moves of each engine, at least 1
	Score     float64 // in men, more than 0
}

// String writes the rule in its flag form.
func (r DrawRule) String() string {
	return fmt.Sprintf("movenumber=%d,movecount=%d,score=%s", r.MoveNumber, r.MoveCount, strconv.FormatFloat(r.Score, 'f', -1, 64))
}

// String writes the rule in its flag form.
func (r ResignRule) String() string {
	return fmt.Sprintf("movecount=%d,score=%s", r.MoveCount, strconv.FormatFloat(r.Score, 'f', -1, 64))
}

// parseRule reads key=value pairs separated by commas (or spaces) into
// fields; every key of want must be known, and given once.
func parseRule(s string, want map[string]*float64) error {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return fmt.Errorf("%q: empty", s)
	}
	seen := map[string]bool{}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		p, known := want[k]
		if !ok || !known {
			return fmt.Errorf("%q is not key=value with a key of %s", f, strings.Join(sortedKeys(want), ", "))
		}
		if seen[k] {
			return fmt.Errorf("%q: %s= given twice", s, k)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > 1e6 {
			return fmt.Errorf("%s=%q: want a number from 0 to 1000000", k, v)
		}
		*p = x
		seen[k] = true
	}
	for k := range want {
		if !seen[k] && k != "movenumber" {
			return fmt.Errorf("%q: %s= is missing", s, k)
		}
	}
	return nil
}

func sortedKeys(m map[string]*float64) []string {
	var ks []string
	for _, k := range []string{"movenumber", "movecount", "score"} {
		if _, ok := m[k]; ok {
			ks = append(ks, k)
		}
	}
	return ks
}

// ParseDrawRule reads "movenumber=N,movecount=M,score=S" (movenumber may
// be left out: 0). movecount is a positive integer, score in men.
func ParseDrawRule(s string) (DrawRule, error) {
	var n, m, sc float64
	if err := parseRule(s, map[string]*float64{"movenumber": &n, "movecount": &m, "score": &sc}); err != nil {
		return DrawRule{}, fmt.Errorf("draw rule %w", err)
	}
	if m < 1 || m != math.Trunc(m) || n != math.Trunc(n) {
		return DrawRule{}, fmt.Errorf("draw rule %q: movenumber and movecount are whole numbers, movecount at least 1", s)
	}
	return DrawRule{MoveNumber: int(n), MoveCount: int(m), Score: sc}, nil
}

// ParseResignRule reads "movecount=M,score=S": M a positive integer, S
// men more than 0.
func ParseResignRule(s string) (ResignRule, error) {
	var m, sc float64
	if err := parseRule(s, map[string]*float64{"movecount": &m, "score": &sc}); err != nil {
		return ResignRule{}, fmt.Errorf("resign rule %w", err)
	}
	if m < 1 || m != math.Trunc(m) || sc <= 0 {
		return ResignRule{}, fmt.Errorf("resign rule %q: movecount is a whole number of at least 1, score more than 0 men", s)
	}
	return ResignRule{MoveCount: int(m), Score: sc}, nil
}

// adjudicator follows one game's scores for the draw and resign rules.
type adjudicator struct {
	draw    *DrawRule
	resign  *ResignRule
	drawRun int    // plies in a row with both scores near zero
	lostRun [2]int // per colour: plies in a row with that colour agreed lost
}

// after takes the score (men, from its own side's view; NaN: none) that
// the engine playing side reported for the move it just played, when the
// game has played plies plies in all (opening moves included). It returns
// the adjudicated result with its Termination and detail, or
// engine.Ongoing.
func (a *adjudicator) after(side engine.Color, score float64, plies int) (engine.Result, string, string) {
	if a.draw == nil && a.resign == nil {
		return engine.Ongoing, "", ""
	}
	if math.IsNaN(score) {
		a.drawRun, a.lostRun = 0, [2]int{}
		return engine.Ongoing, "", ""
	}
	white := score // White's view
	if side == engine.Black {
		white = -score
	}
	if r := a.resign; r != nil {
		for c := range a.lostRun {
			// Colour c is lost for this ply's engine: White's view is at
			// most -Score for c = White, at least +Score for Black.
			lost := white <= -r.Score
			if engine.Color(c) == engine.Black {
				lost = white >= r.Score
			}
			if lost {
				a.lostRun[c]++
			} else {
				a.lostRun[c] = 0
			}
			if a.lostRun[c] >= 2*r.MoveCount {
				res := engine.BlackWins
				if engine.Color(c) == engine.Black {
					res = engine.WhiteWins
				}
				return res, TermResignRule, fmt.Sprintf("resign rule (%s): both engines scored %s lost by %s men or more for %d moves each",
					r, engine.Color(c).Name(), strconv.FormatFloat(r.Score, 'f', -1, 64), r.MoveCount)
			}
		}
	}
	if d := a.draw; d != nil {
		if math.Abs(white) <= d.Score {
			a.drawRun++
		} else {
			a.drawRun = 0
		}
		if a.drawRun >= 2*d.MoveCount && plies >= 2*d.MoveNumber {
			return engine.Draw, TermDrawRule, fmt.Sprintf("draw rule (%s): both engines scored within %s men of 0 for %d moves each",
				d, strconv.FormatFloat(d.Score, 'f', -1, 64), d.MoveCount)
		}
	}
	return engine.Ongoing, "", ""
}
