// clock.go: the game clock and the engine's limits (level).

package text

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// textClock is the game clock: a time control (none when base and inc are
// zero) and the time each ply of the game took, so that undo takes the time
// back with the moves.
type textClock struct {
	base, inc time.Duration   // time control: base per side, increment per move
	fromPly   int             // the ply the clocks (re)started at
	spent     []time.Duration // spent[i]: the time ply i took
	turnStart time.Time       // when the side to move began its turn
	stopped   time.Time       // when the side to move lost on time; zero while its clock runs
}

// flagIn returns how long until the flag of the person to move falls, and
// false when no flag can fall (no clock, damka to move, the game over).
func (tm *textMode) flagIn() (time.Duration, bool) {
	p := tm.game().Position()
	if !tm.timed() || p.Side == tm.engineSide || !tm.clock.stopped.IsZero() {
		return 0, false
	}
	if res, _ := tm.game().Result(); res != engine.Ongoing {
		return 0, false
	}
	return max(tm.remaining(p.Side)+time.Millisecond, 0), true
}

// timed reports whether a time control is set.
func (tm *textMode) timed() bool { return tm.clock.base > 0 || tm.clock.inc > 0 }

// used returns the time c has spent since the clocks started, its running
// turn included.
func (tm *textMode) used(c engine.Color) time.Duration {
	var d time.Duration
	for i := tm.clock.fromPly; i < tm.game().Ply(); i++ {
		if tm.game().PositionAt(i).Side == c {
			d += tm.clock.spent[i]
		}
	}
	if tm.game().Position().Side == c {
		if !tm.clock.stopped.IsZero() {
			d += tm.clock.stopped.Sub(tm.clock.turnStart)
		} else if res, _ := tm.game().Result(); res == engine.Ongoing {
			d += tm.now().Sub(tm.clock.turnStart)
		}
	}
	return d
}

// remaining returns c's time left under the time control: the base, plus
// the increment for each move c has completed since the clocks started,
// minus the time used. It is negative once c's time has run out.
func (tm *textMode) remaining(c engine.Color) time.Duration {
	moves := 0
	for i := tm.clock.fromPly; i < tm.game().Ply(); i++ {
		if tm.game().PositionAt(i).Side == c {
			moves++
		}
	}
	return tm.clock.base + time.Duration(moves)*tm.clock.inc - tm.used(c)
}

// clockLine shows both clocks: time left under a time control, else the
// time used.
func (tm *textMode) clockLine() string {
	side := func(c engine.Color) string {
		s := fmt.Sprintf("%s (%s) ", colourWord(c), tm.player(c))
		if tm.timed() {
			return s + formatClock(tm.remaining(c), true)
		}
		return s + formatClock(tm.used(c), false)
	}
	first := tm.variant().Rules().FirstToMove
	line := "clock: " + side(first) + ", " + side(first.Opp())
	if tm.timed() {
		return line + " left (" + tm.levelText() + ")"
	}
	return line + " used (no time control: level clock M+I sets one)"
}

// formatClock writes d as m:ss, h:mm:ss from an hour on. A countdown (time
// left) is rounded up, with tenths under ten seconds, so that a clock just
// set shows all its time and 0:00.0 only once it has run out; a negative d
// (a fallen flag) gets a minus sign. Time used is rounded down.
func formatClock(d time.Duration, countdown bool) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	if countdown && d < 10*time.Second {
		d = (d + 100*time.Millisecond - 1).Truncate(100 * time.Millisecond)
		return fmt.Sprintf("%s0:%04.1f", sign, d.Seconds())
	}
	if countdown {
		d += time.Second - 1
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d:%02d", sign, s/60, s%60)
}

// levelText describes how damka thinks: "depth 8", "1 s a move", "5 min + 3 s".
func (tm *textMode) levelText() string {
	if tm.timed() {
		return fmt.Sprintf("clock %s min + %s s a move", strconv.FormatFloat(tm.clock.base.Minutes(), 'g', -1, 64),
			strconv.FormatFloat(tm.clock.inc.Seconds(), 'g', -1, 64))
	}
	l := tm.limits
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes", l.Nodes)
	}
	return fmt.Sprintf("%g s a move", l.MoveTime.Seconds())
}

// level shows or sets the engine's limit per move or the game clock.
func (tm *textMode) level(args []string) {
	l := tm.limits
	if len(args) == 0 {
		switch {
		case tm.timed():
			tm.printf("level clock %s+%s (%s)\n", strconv.FormatFloat(tm.clock.base.Minutes(), 'g', -1, 64),
				strconv.FormatFloat(tm.clock.inc.Seconds(), 'g', -1, 64), tm.levelText())
		case l.Depth > 0:
			tm.printf("level depth %d\n", l.Depth)
		case l.Nodes > 0:
			tm.printf("level nodes %d\n", l.Nodes)
		default:
			tm.printf("level time %g\n", l.MoveTime.Seconds())
		}
		return
	}
	usage := "want level depth N (1..%d), level nodes N, level time S (seconds a move) or level clock M+I (minutes each, seconds added a move)\n"
	if len(args) != 2 {
		tm.printf(usage, search.MaxDepth)
		return
	}
	switch args[0] {
	case "depth":
		d, err := strconv.Atoi(args[1])
		if err != nil || d < 1 || d > search.MaxDepth {
			tm.printf("bad depth %q: "+usage, args[1], search.MaxDepth)
			return
		}
		tm.limits = search.Limits{Depth: d}
	case "nodes":
		n, err := strconv.ParseUint(args[1], 10, 63)
		if err != nil || n == 0 {
			tm.printf("bad node count %q: "+usage, args[1], search.MaxDepth)
			return
		}
		tm.limits = search.Limits{Nodes: n}
	case "time":
		s, err := strconv.ParseFloat(args[1], 64)
		if err != nil || !(s > 0 && s <= 3600) {
			tm.printf("bad time %q (want seconds, more than 0 and at most 3600): "+usage, args[1], search.MaxDepth)
			return
		}
		tm.limits = search.Limits{MoveTime: time.Duration(s * float64(time.Second))}
	case "clock":
		base, inc, err := parseTextClock(args[1])
		if err != nil {
			tm.printf("bad clock %q (%v): "+usage, args[1], err, search.MaxDepth)
			return
		}
		tm.clock.base, tm.clock.inc = base, inc
		// Both clocks restart: the time control counts from now.
		tm.clock.fromPly = tm.game().Ply()
		tm.clock.turnStart, tm.clock.stopped = tm.now(), time.Time{}
		tm.printf("ok, %s\n", tm.clockLine())
		return
	default:
		tm.printf(usage, search.MaxDepth)
		return
	}
	tm.clock.base, tm.clock.inc = 0, 0
	tm.printf("ok\n")
}

// ParseClock reads a time control M[+I] as "level clock" takes it: M
// minutes each (more than 0, at most 600), I seconds added after each move
// (0 to 600); the error says which part is wrong.
func ParseClock(s string) (base, inc time.Duration, err error) { return parseTextClock(s) }

// parseTextClock reads a time control M[+I]: M minutes each (more than 0,
// at most 600), I seconds added after each move (0 to 600).
func parseTextClock(s string) (base, inc time.Duration, err error) {
	ms, is, hasInc := strings.Cut(s, "+")
	m, err := strconv.ParseFloat(ms, 64)
	if err != nil || !(m > 0 && m <= 600) {
		return 0, 0, fmt.Errorf("minutes %q: want a number more than 0 and at most 600", ms)
	}
	i := 0.0
	if hasInc {
		i, err = strconv.ParseFloat(is, 64)
		if err != nil || !(i >= 0 && i <= 600) {
			return 0, 0, fmt.Errorf("increment %q: want seconds from 0 to 600", is)
		}
	}
	return time.Duration(m * float64(time.Minute)), time.Duration(i * float64(time.Second)), nil
}
