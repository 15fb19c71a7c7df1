// strength.go: the strength setting. Below full strength a move to play
// (Think, Ponder) is chosen by a search cut to a depth or a node budget
// that shows the best few moves with their scores (multi-PV); the move
// played is one of those within a margin of the best, drawn at random
// with the closer ones likelier. Analysis is always at full strength.
// docs/strength.md lists each level's measured Elo, docs/settings.md how
// each plays.

package player

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// MaxStrength is the full-strength level, the strength setting's default:
// the engine exactly as it is without the setting.
const MaxStrength = 10

// level is how a strength below MaxStrength chooses its move.
type level struct {
	// nodes is the search's node budget (the limits' Nodes, when they set
	// none or more); 0 for none. The search looks at its node count every
	// few hundred nodes, so the weakest levels cut the depth instead.
	nodes uint64
	// depth is the search's depth in plies (the limits' Depth, when they
	// set none or more); 0 for none.
	depth int
	// lines is the number of best moves searched (the limits' MultiPV).
	lines int
	// margin: a line scoring within this many centi-men of the best is a
	// candidate; the move played is drawn from the candidates with weight
	// margin+1-gap, gap being how much worse the line scores than the
	// best. Every margin above level 1's is below a man (100): no level
	// above the lowest gives a man away for nothing its search can see.
	margin int
	// tables: the search probes the endgame tables. The levels without
	// them play endings by their own search, as a person does.
	tables bool
}

// levels are the strengths 1..MaxStrength-1, weakest first.
var levels = [MaxStrength - 1]level{
	{depth: 1, lines: 6, margin: 180},
	{depth: 2, lines: 5, margin: 80},
	{depth: 3, lines: 4, margin: 60},
	{depth: 4, lines: 4, margin: 45},
	{nodes: 3000, lines: 4, margin: 35},
	{nodes: 6000, lines: 4, margin: 25},
	{nodes: 12000, lines: 3, margin: 15, tables: true},
	{nodes: 20000, lines: 3, margin: 10, tables: true},
	{nodes: 35000, lines: 2, margin: 5, tables: true},
}

// levelOf returns how strength s chooses its move; ok is false at full
// strength.
func levelOf(s int) (level, bool) {
	if s < 1 || s >= MaxStrength {
		return level{}, false
	}
	return levels[s-1], true
}

// limits returns l cut to the level: at most its node budget and depth,
// at least its lines.
func (lv level) limits(l search.Limits) search.Limits {
	if lv.nodes > 0 && (l.Nodes == 0 || l.Nodes > lv.nodes) {
		l.Nodes = lv.nodes
	}
	if lv.depth > 0 && (l.Depth == 0 || l.Depth > lv.depth) {
		l.Depth = lv.depth
	}
	l.MultiPV = max(l.MultiPV, lv.lines)
	l.NoEGDB = l.NoEGDB || !lv.tables
	return l
}

// humanTime returns how long a level takes over a move under limits l: a
// person's share of the clock or of the move time, drawn at random so
// that not every move takes the same, and never more than the full
// strength engine would use. Without a clock or a move time (depth or
// node limits, analysis) it is 0: the level answers as soon as it has
// searched. Under a move time it is a half to all of it; under a clock the
// clock's share of one of the next moves (MovesToGo, or 40), plus three
// quarters of the increment, times 0.5 to 1.5, at most an eighth of the
// time left. The move overhead is kept back in both.
func humanTime(l search.Limits, rng *rand.Rand) time.Duration {
	overhead := l.MoveOverhead
	if overhead == 0 {
		overhead = search.DefaultMoveOverhead
	}
	overhead = max(overhead, 0)
	switch {
	case l.Infinite || l.Ponder:
		return 0
	case l.MoveTime > 0:
		t := l.MoveTime * time.Duration(50+rng.IntN(51)) / 100
		return max(min(t, l.MoveTime-overhead), 0)
	case l.Time > 0:
		moves := l.MovesToGo
		if moves <= 0 || moves > 40 {
			moves = 40
		}
		t := l.Time/time.Duration(moves) + l.Inc*3/4
		t = t * time.Duration(50+rng.IntN(101)) / 100
		return max(min(t, l.Time/8, l.Time-overhead), 0)
	}
	return 0
}

// pick returns the index of the line to play among lines (best first):
// the best when it is decisive (a win the search or the endgame tables
// prove), else one within the margin, drawn with weight margin+1-gap.
func (lv level) pick(lines []search.Line, rng *rand.Rand) int {
	if len(lines) < 2 || lines[0].Score >= search.EGDBWinBound {
		return 0
	}
	best := lines[0].Score
	total := 0
	for _, l := range lines {
		if gap := best - l.Score; gap <= lv.margin {
			total += lv.margin + 1 - gap
		}
	}
	r := rng.IntN(total)
	for i, l := range lines {
		if gap := best - l.Score; gap <= lv.margin {
			if r -= lv.margin + 1 - gap; r < 0 {
				return i
			}
		}
	}
	return 0
}

// levelSearcher is a Searcher that plays at a level below full strength:
// it searches with inner (under limits the player has cut to the level)
// and plays one of the lines the level's pick draws.
type levelSearcher struct {
	inner search.Searcher
	lv    level
	rng   *rand.Rand
	// shown is the number of lines the multipv setting asks for: Lines
	// keeps that many (none for 1).
	shown int
	// picked is set once the move is drawn: the reports that follow are
	// the search's line of the move played (shownReports).
	picked *atomic.Bool
}

// SearchJob implements search.Searcher. A ponder search that ended on its
// node budget waits for the ponder-hit (or Stop), as a full-strength
// ponder search does.
func (s levelSearcher) SearchJob(ctx context.Context, j *search.Job) search.Result {
	start := time.Now()
	r := s.inner.SearchJob(ctx, j)
	if j.Limits().Ponder {
		j.WaitPonderHit(ctx)
	}
	pos := j.Position()
	var list engine.MoveList
	if r.HasMove && pos.CountMoves(&list, false) > 1 {
		// A level takes a person's time over its move (humanTime),
		// not over a forced one; Stop ends the wait.
		if wait := humanTime(j.Limits(), s.rng) - time.Since(start); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
	}
	if len(r.Lines) > 0 {
		l := r.Lines[s.lv.pick(r.Lines, s.rng)]
		r.Move, r.Score, r.Depth, r.Partial = l.Move, l.Score, l.Depth, false
		s.picked.Store(true)
		r.PV = append([]engine.Move(nil), l.PV...)
		r.Ponder = engine.Move{}
		if len(r.PV) > 1 {
			r.Ponder = r.PV[1]
		}
	}
	if len(r.Lines) > s.shown {
		r.Lines = r.Lines[:s.shown]
	}
	if s.shown <= 1 {
		r.Lines = nil
	}
	return r
}

// shownReports passes on to report the progress of the lines the multipv
// setting asks for (shown), dropping the level's other lines. Once the
// level has drawn its move (picked), the search's report of the line
// played is passed on as line 1 when one line is shown (that line is the
// move played) and dropped when several are: the move drawn may be none of
// the lines shown, and labelled line 1 it would stand beside the real
// line 1 of the same depth.
func shownReports(report func(search.Info), shown int, picked *atomic.Bool) func(search.Info) {
	if report == nil {
		return nil
	}
	return func(info search.Info) {
		if picked.Load() && shown > 1 {
			return
		}
		if info.MultiPV <= shown {
			info.Lines = min(info.Lines, shown)
			report(info)
		}
	}
}
