// format.go: the one way scores and principal variations are written for
// people and GUIs (the command line and the Hub info lines), and the score
// of a move from its child's search.

package search

import (
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// FormatScore writes a search score (centi-men from the side to move, see
// Mate) in men with two decimals, as Hub info lines and the GUIs show it:
// 100 -> "1.00", -25 -> "-0.25". A forced win in n plies is 100 - n/100
// men ("99.99" for a win next ply, "99.93" in seven) and a forced loss its
// negative, as Scan reports won and lost positions.
func FormatScore(cs int) string {
	switch {
	case cs > MateBound:
		return strconv.FormatFloat(float64(10000-(Mate-cs))/100, 'f', 2, 64)
	case cs < -MateBound:
		return strconv.FormatFloat(-float64(10000-(Mate+cs))/100, 'f', 2, 64)
	}
	return strconv.FormatFloat(float64(cs)/100, 'f', 2, 64)
}

// FormatPV writes the moves of pv played from root in the given move
// format, space separated. It stops at the first move that is not legal
// where it stands (a PV from a table entry of another position), so the
// text is always a playable line; an empty pv gives "".
func FormatPV(root *engine.Position, pv []engine.Move, f engine.MoveFormat) string {
	var b strings.Builder
	p := *root
	for i, m := range legalPrefix(root, pv) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.FormatMove(m, f))
		p = p.Play(m)
	}
	return b.String()
}

// ScoreAfterMove turns the score of the position after a move (from the
// opponent's side, as Search returns it) into the move's score from the
// mover's side: negated, with a forced win or loss one ply further away.
func ScoreAfterMove(child int) int {
	s := -child
	switch {
	case s > MateBound:
		s--
	case s < -MateBound:
		s++
	}
	return s
}

// FormatMNPS writes a speed in millions of nodes per second with two
// decimals ("1.35"), the unit of every nps figure on damka's command line
// (mnps=); 0 time gives "0.00".
func FormatMNPS(nodes uint64, seconds float64) string {
	if !(seconds > 0) {
		return "0.00"
	}
	return strconv.FormatFloat(float64(nodes)/seconds/1e6, 'f', 2, 64)
}

// Decided tells whether cs (centi-men, one side's view, as FormatScore
// takes it) scores a decided position, and how: sign is +1 when that side
// wins and -1 when it loses; plies is the number of plies to the end from
// the searched position, or -1 when the tables that gave the result store
// no distance; table reports whether the endgame tables gave it (else the
// search saw the end of the game). ok is false, and the rest zero, for any
// other score.
func Decided(cs int) (sign, plies int, table, ok bool) {
	sign = 1
	if cs < 0 {
		sign, cs = -1, -cs
	}
	switch {
	case cs > MateBound:
		return sign, Mate - cs, false, true
	case cs > egdbDistBound:
		return sign, EGDBWin - cs, true, true
	case cs >= EGDBWinBound:
		return sign, -1, true, true
	}
	return 0, 0, false, false
}
