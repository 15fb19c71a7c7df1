// egdb.go: probing the endgame databases (package egdb) from the search.

package search

import (
	"math/bits"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
)

// EGDB is an endgame database the search probes (Options.EGDB): an
// *egdb.DB. Probe and Pieces are called from every search thread at once
// and must not allocate.
type EGDB interface {
	// Probe returns the value of p for its side to move, its distance in
	// plies to the end of the game (-1: not stored) and whether p is in
	// the database (see egdb.DB.Probe).
	Probe(p *engine.Position) (v egdb.Value, dist int, ok bool)
	// Pieces is the most pieces of v's positions the database holds
	// completely.
	Pieces(v engine.VariantID) int
}

// Database scores. A database win scores between EGDBWinBound and
// EGDBWin, decisive (above any evaluation) but below every mate score, so
// that a mate the search sees is still preferred and the table never
// confuses mate distances. With a distance d found at ply the score is
// EGDBWin - (ply + d), counted from the root like a mate score (and made
// relative to the node in the transposition table, ttScore), so the
// fastest win and the longest loss are preferred; without one (slices
// with men store win/draw/loss only) it is egdbNoDistance plus the static
// evaluation (bounded), so that among won positions the search heads for
// the one where the material and the men's progress are best, and so
// toward the conversion.
//
// EGDBWin is 95 men, so that FormatScore shows a database win just below
// the "99.xx" of a mate.
const (
	EGDBWin      = 9500
	EGDBWinBound = EGDBWin - 2000
	// egdbDistBound: scores above it (below its negation) are database
	// wins (losses) with a distance.
	egdbDistBound  = EGDBWin - 512
	egdbNoDistance = EGDBWin - 1200
	egdbEvalBound  = 300
	// EGDBTrustPlies is the fewest plies the draw rules must leave
	// (engine.DrawState.PliesToRule) before a win or loss of a table
	// without distances (win/draw/loss only) is trusted: egdb.TrustPlies,
	// which the match runner's adjudication and the trainer use too.
	EGDBTrustPlies = egdb.TrustPlies
)

// egdbPieces returns the piece count the worker probes up to in the
// root's variant (0: no database).
func egdbPieces(db EGDB, v engine.VariantID) int {
	if db == nil {
		return 0
	}
	return db.Pieces(v)
}

// probeEGDB returns the database score of p (at ply, with draw counters d)
// and true, or false when p is not in the database or when its stored win
// or loss is longer than the move-count rules of the variant allow from
// here (without a distance: when the rules leave fewer than EGDBTrustPlies
// plies): the search then goes on and finds what the rule makes of it. A
// hit is stored in the transposition table as exact at the deepest depth.
func (w *worker) probeEGDB(p *engine.Position, d engine.DrawState, key uint64, ply int) (int, bool) {
	if bits.OnesCount64(p.Pieces[0]|p.Pieces[1]) > w.egdbPieces {
		return 0, false
	}
	if p.Pieces[p.Side&1] == 0 {
		return 0, false // lost: the search scores the mate
	}
	v, dist, ok := w.e.opts.EGDB.Probe(p)
	if !ok || dist == 0 {
		return 0, false // dist 0: no move, the search scores the mate
	}
	// A win or loss is trusted only while the rules leave room to convert
	// (egdb.Decided); near a rule draw the search finds it itself.
	if v != egdb.Draw && !egdb.Decided(v, dist, d.PliesToRule(p)) {
		return 0, false
	}
	var s int
	switch {
	case v == egdb.Draw:
	case dist >= 0:
		s = EGDBWin - dist - ply
		if v == egdb.Loss {
			s = -s
		}
	default:
		s = wldScore(v, w.evaluate(p))
	}
	w.tt.store(key, MaxDepth, ttScore(s, ply), boundExact, engine.Move{}, -1)
	return s, true
}

// filterRootEGDB keeps the root moves whose table value is the best one
// (a win the draw rules cannot take away, else a draw or a value the rules
// may change, else a loss), in their order: the search then chooses among
// them by searching, not by the tables (worker.egdbRoot).
func (w *worker) filterRootEGDB() {
	st := &w.stack[0]
	db := w.e.opts.EGDB
	var rank [engine.MaxMoves]int8
	best := int8(-1)
	for i := 0; i < st.moves.N; i++ {
		m := st.moves.Moves[i]
		c := &w.stack[1].pos // scratch: a local would escape into the interface call
		*c = w.root.Play(m)
		r := int8(1)
		if v, dist, ok := db.Probe(c); ok {
			d := w.limits.Draw.Update(&w.root, m)
			if v != egdb.Draw && egdb.Decided(v, dist, d.PliesToRule(c)) {
				r = 0 // the opponent wins
				if v == egdb.Loss {
					r = 2
				}
			}
		}
		rank[i] = r
		best = max(best, r)
	}
	n := 0
	for i := 0; i < st.moves.N; i++ {
		if rank[i] == best {
			st.moves.Moves[n] = st.moves.Moves[i]
			n++
		}
	}
	st.moves.N = n
}

// rootTableValue returns the table value of the root pos (reached with
// draw counters d) for worker.rootTable: 1 win, 0 draw, -1 loss, or 2 when
// the tables do not know it or the draw rules may change it.
func rootTableValue(db EGDB, pos *engine.Position, d engine.DrawState) int8 {
	v, dist, ok := db.Probe(pos)
	if !ok || !egdb.Decided(v, dist, d.PliesToRule(pos)) {
		return 2
	}
	return int8(v)
}

// tableRootScore is the score reported for a root search score s under a
// table root of known value (worker.rootTable): a win or loss the search
// has not yet resolved into a mate or a table score scores like a
// win/draw/loss table hit (egdbNoDistance and the bounded search score), a
// draw 0, so that GUIs and match runners see the table's value.
func (w *worker) tableRootScore(s int) int {
	switch {
	case w.rootTable == 2 || s >= EGDBWinBound || s <= -EGDBWinBound:
		return s
	case w.rootTable == 0:
		return 0
	}
	return wldScore(egdb.Value(w.rootTable), s)
}

// wldScore is the score of a win (v egdb.Win) or loss (egdb.Loss) of a
// win/draw/loss-only table for the side to move, whose evaluation (or
// search score) is e: egdbNoDistance plus e bounded to egdbEvalBound, or
// its negation for a loss, so that among won positions the better one
// scores higher and among lost ones the one that resists best.
func wldScore(v egdb.Value, e int) int {
	e = min(max(e, -egdbEvalBound), egdbEvalBound)
	if v == egdb.Loss {
		return -egdbNoDistance + e
	}
	return egdbNoDistance + e
}
