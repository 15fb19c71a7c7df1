// quiesce.go: the quiescence search: captures resolved to the end, and
// the shots of quiet positions near alpha.

package search

import (
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// quiesce resolves captures: a side that can capture must, so a position
// with a capture pending is searched further and never scored statically.
// In a quiet position whose static score is at most alpha but within
// shotMargin of it, and while shots is set, the side to move also tries
// its shots: the quiet moves that give the opponent a capture (a
// sacrifice that may win more back, the combination draughts is made of),
// each resolved by quiesce without further shots. A shot that lifts the
// score above alpha is taken; otherwise the static score stands.
func (w *worker) quiesce(alpha, beta, ply int, shots bool) int {
	st := &w.stack[ply]
	st.pvLen = 0
	if w.enterNode() {
		return 0
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	p := &st.pos
	if ply >= MaxPly-1 || ply-w.qRoot >= maxQPlies {
		return w.evaluate(p)
	}
	if !p.HasCapture() {
		if !eval.CanMove(p) {
			return -Mate + ply
		}
		stand := w.evaluate(p)
		if !shots || stand > alpha || stand < alpha-shotMargin || ply >= MaxPly-2 {
			return stand
		}
		return w.tryShots(alpha, beta, ply, stand)
	}
	p.GenerateCaptures(&st.moves)
	n := st.moves.N
	w.scoreMoves(ply, 0)
	best := -infinite
	child := &w.stack[ply+1]
	for i := 0; i < n; i++ {
		m := st.pick(i)
		child.pos = p.Play(m)
		child.draw = engine.DrawState{}
		s := -w.quiesce(-beta, -alpha, ply+1, shots)
		if w.stopped {
			return 0
		}
		if st.raise(m, s, child, &best, &alpha, beta) {
			break
		}
	}
	return best
}

// everyCaptureAnswered reports whether after each of the opponent's
// captures in q (the position after a shot, the opponent to move) the
// side that played the shot can capture in turn. A shot that one of the
// captures leaves unanswered loses its man for nothing, as far as the
// quiescence search can tell, so tryShots does not search it. l is
// scratch for q's captures.
func everyCaptureAnswered(q *engine.Position, l *engine.MoveList) bool {
	q.GenerateCaptures(l)
	for i := 0; i < l.N; i++ {
		r := q.Play(l.Moves[i])
		if !r.HasCapture() {
			return false
		}
	}
	return true
}

// maxQPlies bounds the plies of one quiescence search.
const maxQPlies = 12

// shotMargin is how far (centi-men) below alpha a quiet position's static
// score may be for quiesce to look for shots.
const shotMargin = 150

// tryShots searches the shots of the quiet position at ply (see quiesce),
// whose static score stand is at most alpha; it returns the best of stand
// and the shots' scores.
func (w *worker) tryShots(alpha, beta, ply, stand int) int {
	st := &w.stack[ply]
	p := &st.pos
	p.Generate(&st.moves)
	best := stand
	child := &w.stack[ply+1]
	for i := 0; i < st.moves.N; i++ {
		m := st.moves.Moves[i]
		if p.Kings&(1<<m.From) != 0 {
			continue // a shot is a man's sacrifice
		}
		child.pos = p.Play(m)
		if !child.pos.HasCapture() || !everyCaptureAnswered(&child.pos, &child.moves) {
			continue
		}
		child.draw = engine.DrawState{}
		s := -w.quiesce(-beta, -alpha, ply+1, false)
		if w.stopped {
			return 0
		}
		if st.raise(m, s, child, &best, &alpha, beta) {
			break
		}
	}
	return best
}
