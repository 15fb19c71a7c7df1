// egdb.go: adjudication by the endgame databases (damka match
// --adjudicate egdb): the referee probes the position after each move and
// ends the game with the value the database knows, where the move-count
// draw rules cannot change it.

package match

import (
	"fmt"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
)

// TermEGDBRule is the Termination of a game ended by the endgame
// database (Config.EGDB).
const TermEGDBRule = "egdb adjudication"

// EGDB is an endgame database the referee probes (Config.EGDB); an
// *egdb.DB is one. Probe returns the value of p for its side to move, the
// distance in plies to the end of the game with best play (-1: the table
// stores none) and whether p is in the database, as egdb.DB.Probe does
// (a pending capture is resolved by the probe). It is called from every
// game's goroutine at once.
type EGDB interface {
	Probe(p *engine.Position) (v egdb.Value, dist int, ok bool)
}

// adjudicateEGDB returns the result of p, reached with draw counters d,
// by the database db, with its detail, or engine.Ongoing when db does not
// know p or when the draw rules may change its value: a database draw is
// a draw; a win or loss with a distance is adjudicated only when the
// distance is shorter than the plies the variant's move-count rules leave
// (engine.DrawState.PliesToRule), one without a distance only when they
// leave at least egdb.TrustPlies, as the search trusts them (egdb.Decided).
// The value is for p's side to move.
func adjudicateEGDB(db EGDB, p *engine.Position, d engine.DrawState) (engine.Result, string) {
	if db == nil {
		return engine.Ongoing, ""
	}
	v, dist, ok := db.Probe(p)
	if !ok || (v != egdb.Draw && dist == 0) {
		return engine.Ongoing, "" // dist 0: no move; the rules end the game
	}
	side := p.Side.Name()
	m := egdb.MaterialOf(p)
	if v == egdb.Draw {
		return engine.Draw, fmt.Sprintf("endgame database: %s to move draws (material %s)", side, m)
	}
	left := d.PliesToRule(p)
	if !egdb.Decided(v, dist, left) {
		return engine.Ongoing, ""
	}
	how := "(win/draw/loss table: no distance)"
	switch {
	case dist == 1:
		how = "in 1 ply"
	case dist >= 0:
		how = fmt.Sprintf("in %d plies", dist)
	}
	verb, res := "wins", engine.WhiteWins
	if v == egdb.Loss {
		verb = "loses"
	}
	if (v == egdb.Win) != (p.Side == engine.White) {
		res = engine.BlackWins
	}
	rules := fmt.Sprintf("the draw rules leave %d plies", left)
	if left >= engine.RuleHorizon {
		rules = "no draw rule applies"
	}
	return res, fmt.Sprintf("endgame database: %s to move %s %s (material %s; %s)", side, verb, how, m, rules)
}
