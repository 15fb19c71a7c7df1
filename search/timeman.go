// timeman.go: how long to think, from fixed move times or the game clock.

package search

import (
	"math/bits"
	"time"

	"github.com/damka-draughts/damka/engine"
)

// DefaultMoveOverhead is what a search keeps back from its move time and
// its clock for the protocol round trip when Limits.MoveOverhead is 0. A
// pipe answers in microseconds; the rest is for scheduling delays on a
// loaded machine.
const DefaultMoveOverhead = 10 * time.Millisecond

// MaxMoveOverhead is the largest overhead a protocol parameter accepts.
const MaxMoveOverhead = 10 * time.Second

// Time management constants.
const (
	// movesHorizon8x8 and movesHorizon10x10 are the number of moves a
	// clock without moves-to-go is planned over: the clock is spread as if
	// it had to last that many more moves, whatever the game's length.
	movesHorizon8x8   = 25
	movesHorizon10x10 = 40
	// maxMovesToGo caps a moves-to-go count: beyond it the clock is spread
	// as for sudden death.
	maxMovesToGo = 50
	// minThink is the least time a timed search is planned for when the
	// clock allows it.
	minThink = 2 * time.Millisecond
	// clockReserve is the part of a clock never planned for: a process
	// starved on a loaded machine answers hundreds of milliseconds late.
	// Below it a move is paid for by the increments alone.
	clockReserve = 250 * time.Millisecond
	// newIterationShare: no iteration starts after this share of the
	// (scaled) target, since the next one takes about as long as all the
	// earlier ones together.
	newIterationShare = 0.7
)

// timeManager holds the time limits of one search and, for a clock, what
// the iterations so far say about the position.
//
// With a fixed move time (fixed) the search iterates until hard, the move
// time less the overhead, and stops there mid-iteration. With a clock, soft
// is the planned time for the move: no iteration starts after
// newIterationShare of soft scaled by the search's progress (scale); hard
// is where any iteration is cut off, a share of the clock that never flags.
type timeManager struct {
	timed bool
	fixed bool
	soft  time.Duration
	hard  time.Duration

	// Iteration state (clock only), updated by iterationDone.
	depth      int     // last completed iteration
	stableFrom int     // iteration from which the best move has not changed
	changes    float64 // decaying count of best-move changes
	avgScore   float64 // decaying average of the earlier iterations' scores
	fall       int     // centi-men the score fell below avgScore in the last iteration
	score      int     // score of the last completed iteration
}

// overhead returns the time l keeps back per move: MoveOverhead,
// DefaultMoveOverhead when it is 0, none when it is negative.
func (l *Limits) overhead() time.Duration {
	switch {
	case l.MoveOverhead < 0:
		return 0
	case l.MoveOverhead == 0:
		return DefaultMoveOverhead
	}
	return l.MoveOverhead
}

// newTimeManager derives the limits from l for a search of pos. A move time
// with a clock is bounded by the clock's hard limit as well.
func newTimeManager(l Limits, pos *engine.Position) timeManager {
	o := l.overhead()
	var tm timeManager
	if l.Time > 0 || l.Inc > 0 {
		ph, horizon := phase(pos)
		tm = clockLimits(l, o, ph, horizon)
	}
	if l.MoveTime > 0 {
		// An overhead as large as the move time leaves half of it.
		h := max(l.MoveTime-o, l.MoveTime/2)
		if tm.timed {
			h = min(h, tm.hard)
		}
		return timeManager{timed: true, fixed: true, soft: h, hard: h}
	}
	return tm
}

// clockLimits plans a move with the clock of l, overhead o per move, the
// phase scale ph and the moves horizon of a clock without moves-to-go
// (phase).
func clockLimits(l Limits, o time.Duration, ph float64, horizon int) timeManager {
	t := max(l.Time, 0)
	mtg := horizon
	if l.MovesToGo > 0 {
		mtg = min(l.MovesToGo, maxMovesToGo)
	}
	n := time.Duration(mtg)
	// The time the next mtg moves share: the clock less clockReserve,
	// and 3/4 of the increments that arrive before the last of them (so
	// that with an empty clock a move is planned for less than the
	// increment, and the clock grows back), less an overhead per move and
	// two more.
	budget := max(t-clockReserve+l.Inc*(n-1)*3/4-o*(n+2), 0)
	soft := time.Duration(float64(budget/n) * ph)

	// The hard limit: a share of the clock (more of it when fewer moves
	// are left in the control), and never closer to its end than twice
	// the overhead and a 1/20 reserve (at most a second). The increment
	// arrives only after the move, so it is not counted.
	share := 0.2
	if mtg < 4 {
		share = [...]float64{0, 0.75, 0.5, 0.33}[mtg]
	}
	hard := min(time.Duration(float64(t)*share)-o, t-2*o-min(t/20, time.Second), 6*soft)
	if hard < minThink {
		// Nearly flagging: think a quarter of what the overhead leaves,
		// at most minThink (the first iteration is never cut off).
		hard = min(max(t-o, 0)/4, minThink)
	}
	soft = min(max(soft, minThink), hard)
	return timeManager{timed: true, soft: soft, hard: hard}
}

// phase returns how much of its share of the clock a move of pos gets
// (scale): 1 in the opening, 1.2 in the middlegame, falling to 0.6 when
// few pieces remain (simple endings and long king manoeuvres need less, and
// the game may last many more moves); and the number of moves a clock
// without moves-to-go is spread over on its board (horizon).
func phase(pos *engine.Position) (scale float64, horizon int) {
	full, horizon := 24.0, movesHorizon8x8
	if !pos.V.Is8x8() {
		full, horizon = 40, movesHorizon10x10
	}
	f := float64(bits.OnesCount64(pos.Occupied())) / full
	switch {
	case f >= 0.9:
		scale = 1
	case f >= 0.45:
		scale = 1.2
	case f >= 0.2:
		scale = 0.6 + 0.6*(f-0.2)/0.25
	default:
		scale = 0.6
	}
	return scale, horizon
}

// iterationDone records a completed iteration of the main worker: its
// depth, whether its best move differs from the last one's and its score.
func (tm *timeManager) iterationDone(depth int, changed bool, score int) {
	if changed || tm.depth == 0 {
		tm.stableFrom = depth
	}
	if changed {
		tm.changes++
	}
	tm.changes *= 0.6
	tm.fall = 0
	if tm.depth > 0 {
		tm.fall = int(tm.avgScore) - score
		tm.avgScore = (tm.avgScore + float64(score)) / 2
	} else {
		tm.avgScore = float64(score)
	}
	tm.depth, tm.score = depth, score
}

// scale returns the factor the iterations so far apply to soft: up to 2.5
// when the best move keeps changing, down to 0.7 when it has stood for
// many iterations, up to 1.8 more when the score is falling, and 0.7 when
// the score is decisive (the game is as good as over).
func (tm *timeManager) scale() float64 {
	f := 1 + 2*tm.changes
	if stable := tm.depth - tm.stableFrom; stable >= 4 {
		f *= max(0.7, 1-0.05*float64(stable-3))
	}
	if tm.fall > 0 {
		f *= min(1+float64(tm.fall)/100, 1.8)
	}
	if abs(tm.score) >= 400 && abs(tm.score) <= MateBound {
		f *= 0.7
	}
	return min(f, 2.5)
}

// startAnother reports whether an iteration may start el into the search.
// A fixed move time iterates until hard cuts it off.
func (tm *timeManager) startAnother(el time.Duration) bool {
	if tm.fixed {
		return el < tm.hard
	}
	return float64(el) < newIterationShare*tm.scale()*float64(tm.soft) && el < tm.hard
}
