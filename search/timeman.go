// timeman.go: how long to think, from fixed move times or the game clock.

package search

import "time"

// Time management constants.
const (
	// moveOverhead is kept back from every allotment for the protocol
	// round trip and scheduling delays.
	moveOverhead = 50 * time.Millisecond
	// defaultMovesToGo is the number of moves a sudden-death clock is
	// assumed to be shared over.
	defaultMovesToGo = 30
	// minThink is the least time a timed search is given.
	minThink = 2 * time.Millisecond
)

// timeManager holds the time limits of one search. soft is the target: no
// new iteration starts after about half of it (scaled up to twice when the
// best move is unstable); hard is never exceeded.
type timeManager struct {
	timed bool
	soft  time.Duration
	hard  time.Duration
}

// newTimeManager derives the limits from l.
func newTimeManager(l Limits) timeManager {
	switch {
	case l.MoveTime > 0:
		h := max(l.MoveTime-moveOverhead, minThink)
		if l.MoveTime < 2*moveOverhead {
			h = max(l.MoveTime*3/4, minThink)
		}
		return timeManager{timed: true, soft: h, hard: h}
	case l.Time > 0 || l.Inc > 0:
		mtg := l.MovesToGo
		if mtg <= 0 || mtg > defaultMovesToGo {
			mtg = defaultMovesToGo
		}
		// Reserve: a margin that grows with the clock, never all of it.
		reserve := min(l.Time/20, time.Second) + moveOverhead
		avail := l.Time - reserve
		if avail < minThink {
			avail = min(l.Time/2, minThink)
			if avail <= 0 {
				avail = time.Millisecond
			}
		}
		soft := avail/time.Duration(mtg) + l.Inc*3/4
		hard := min(soft*4, avail*2/5+l.Inc/2)
		if mtg == 1 {
			hard = avail * 9 / 10
		}
		// The increment arrives after the move: never plan past the clock.
		hard = max(min(hard, avail), minThink)
		soft = max(min(soft, hard), minThink)
		return timeManager{timed: true, soft: soft, hard: hard}
	}
	return timeManager{}
}
