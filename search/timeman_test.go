package search

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// A middlegame-sized Russian position (all 24 men: the start) and a
// sparse ending, for the phase scale.
var (
	tmStart  = engine.StartPosition(engine.Russian)
	tmEnding = tmFEN("W:WK5,27:B8,K30")
)

func tmFEN(fen string) engine.Position {
	p, err := engine.ParseFEN(engine.Russian, fen)
	if err != nil {
		panic(err)
	}
	return p
}

func TestTimeManagerClockTable(t *testing.T) {
	ms := time.Millisecond
	cases := []Limits{
		{Time: 1 * ms},
		{Time: 10 * ms},
		{Time: 25 * ms},
		{Time: 50 * ms},
		{Time: 200 * ms, Inc: 5 * time.Second},
		{Time: time.Second},
		{Time: 10 * time.Second, Inc: 100 * ms},
		{Time: 60 * time.Second, Inc: 500 * ms},
		{Time: 5 * time.Minute},
		{Time: 30 * time.Second, Inc: 2 * time.Second, MovesToGo: 1},
		{Time: 30 * time.Second, MovesToGo: 2},
		{Time: 30 * time.Second, MovesToGo: 10},
		{Time: 30 * time.Second, MovesToGo: 1000000, Inc: time.Second},
		{Time: 3 * time.Second, MoveOverhead: 500 * ms},
		{Time: 3 * time.Second, MoveOverhead: -1},
		{Time: 100 * ms, MoveTime: time.Second},
		{Inc: time.Second}, // an empty clock: the increment comes after the move
	}
	for _, l := range cases {
		for _, pos := range []engine.Position{tmStart, tmEnding, engine.StartPosition(engine.International)} {
			tm := newTimeManager(l, &pos)
			name := fmt.Sprintf("%+v %s", l, pos.FEN())
			assert.True(t, tm.timed, name)
			assert.LessOrEqual(t, tm.soft, tm.hard, name)
			// Never plans past the clock, overhead included.
			assert.LessOrEqual(t, tm.hard+l.overhead(), max(l.Time, l.overhead()), "%s: hard %v past the clock", name, tm.hard)
			if l.Time > 20*l.overhead()+20*minThink {
				assert.GreaterOrEqual(t, tm.soft, minThink, name)
				assert.LessOrEqual(t, tm.hard, l.Time*3/4, "%s: more than 3/4 of the clock", name)
			}
			if (l.MovesToGo == 0 || l.MovesToGo >= 4) && l.Time > time.Second {
				assert.LessOrEqual(t, tm.hard, l.Time/5, "%s: more than 1/5 of the clock", name)
			}
		}
	}
}

func TestTimeManagerShares(t *testing.T) {
	at := func(l Limits, p engine.Position) timeManager { return newTimeManager(l, &p) }
	// More moves to go leave less per move; the last move of a control
	// gets most of the clock.
	a := at(Limits{Time: 30 * time.Second, MovesToGo: 5}, tmStart)
	b := at(Limits{Time: 30 * time.Second, MovesToGo: 20}, tmStart)
	assert.Greater(t, a.soft, b.soft)
	last := at(Limits{Time: 30 * time.Second, MovesToGo: 1}, tmStart)
	assert.Greater(t, last.hard, 20*time.Second)
	// The increment is spent.
	inc := at(Limits{Time: 10 * time.Second, Inc: time.Second}, tmStart)
	noInc := at(Limits{Time: 10 * time.Second}, tmStart)
	assert.Greater(t, inc.soft, noInc.soft+600*time.Millisecond)
	// Middlegame more than the opening, the ending least.
	mid := tmFEN("W:W18,21,22,23,24,26,27,29,30:B2,3,5,6,7,9,10,11,12")
	l := Limits{Time: 60 * time.Second}
	assert.Greater(t, at(l, mid).soft, at(l, tmStart).soft)
	assert.Greater(t, at(l, tmStart).soft, at(l, tmEnding).soft)
	// 10x10 games are longer: a smaller share of the same clock.
	assert.Greater(t, at(l, tmStart).soft, at(l, engine.StartPosition(engine.International)).soft)
}

func TestTimeManagerMoveTime(t *testing.T) {
	p := tmStart
	m := newTimeManager(Limits{MoveTime: time.Second}, &p)
	assert.True(t, m.fixed)
	assert.Equal(t, time.Second-DefaultMoveOverhead, m.hard)
	assert.Equal(t, m.hard, m.soft)
	m = newTimeManager(Limits{MoveTime: 100 * time.Millisecond, MoveOverhead: 3 * time.Millisecond}, &p)
	assert.Equal(t, 97*time.Millisecond, m.hard)
	m = newTimeManager(Limits{MoveTime: 100 * time.Millisecond, MoveOverhead: -1}, &p)
	assert.Equal(t, 100*time.Millisecond, m.hard)
	m = newTimeManager(Limits{MoveTime: 4 * time.Millisecond}, &p)
	assert.Equal(t, 2*time.Millisecond, m.hard, "an overhead past the move time leaves half")
	// A fixed move time iterates until the hard limit, whatever the
	// iterations say.
	m = newTimeManager(Limits{MoveTime: time.Second}, &p)
	for d := 1; d < 20; d++ {
		m.iterationDone(d, false, 0)
	}
	assert.True(t, m.startAnother(900*time.Millisecond))
	assert.False(t, m.startAnother(time.Second))
	assert.False(t, newTimeManager(Limits{Depth: 5}, &p).timed)
}

func TestTimeManagerScale(t *testing.T) {
	p := tmStart
	base := newTimeManager(Limits{Time: 60 * time.Second}, &p)
	run := func(changes []bool, scores []int) timeManager {
		tm := base
		for i := range changes {
			tm.iterationDone(i+1, changes[i], scores[i])
		}
		return tm
	}
	flat := []int{10, 12, 11, 10, 12, 11, 10, 12, 11, 10}
	stable := run(make([]bool, 10), flat)
	unstable := run([]bool{false, true, false, true, false, true, false, true, true, true}, flat)
	falling := run(make([]bool, 10), []int{10, 12, 11, 10, 12, 11, 10, 12, 11, -90})
	won := run(make([]bool, 10), []int{500, 500, 500, 500, 500, 500, 500, 500, 500, 500})
	assert.Less(t, stable.scale(), 0.8, "a stable best move spends less")
	assert.Greater(t, unstable.scale(), 1.5, "a changing best move spends more")
	assert.Greater(t, falling.scale(), 1.5*stable.scale(), "a falling score spends more")
	assert.Less(t, won.scale(), stable.scale(), "a decided game spends less")
	for _, tm := range []timeManager{stable, unstable, falling, won} {
		assert.LessOrEqual(t, tm.scale(), 2.5)
		assert.False(t, tm.startAnother(tm.hard), "no iteration starts at the hard limit")
	}
	el := time.Duration(0.7 * float64(base.soft))
	assert.False(t, stable.startAnother(el))
	assert.True(t, unstable.startAnother(el))
}

// A simulated game at 10+0.1 and 60+0.5 where every move takes its whole
// hard limit and the overhead: the clock never runs out.
func TestTimeManagerNeverFlags(t *testing.T) {
	for _, tc := range []struct{ base, inc time.Duration }{
		{10 * time.Second, 100 * time.Millisecond},
		{60 * time.Second, 500 * time.Millisecond},
		{time.Second, 20 * time.Millisecond},
	} {
		for _, pos := range []engine.Position{tmStart, tmEnding} {
			clock := tc.base
			for move := 0; move < 300; move++ {
				tm := newTimeManager(Limits{Time: clock, Inc: tc.inc}, &pos)
				clock -= tm.hard + DefaultMoveOverhead
				require.Greater(t, clock, time.Duration(0), "%v+%v flagged at move %d", tc.base, tc.inc, move)
				clock += tc.inc
			}
		}
	}
}

// Games where every move takes its planned time (soft) and the overhead:
// the clock settles above most of clockReserve instead of running down
// to nothing, so a late answer on a loaded machine does not flag.
func TestTimeManagerKeepsReserve(t *testing.T) {
	for _, tc := range []struct{ base, inc time.Duration }{
		{2 * time.Second, 40 * time.Millisecond},
		{10 * time.Second, 100 * time.Millisecond},
		{60 * time.Second, 500 * time.Millisecond},
	} {
		mid := tmFEN("W:W18,21,22,23,24,26,27,29,30:B2,3,5,6,7,9,10,11,12")
		clock, least := tc.base, tc.base
		for move := 0; move < 200; move++ {
			tm := newTimeManager(Limits{Time: clock, Inc: tc.inc}, &mid)
			clock += tc.inc - tm.soft - DefaultMoveOverhead
			least = min(least, clock)
		}
		assert.Greater(t, least, clockReserve*3/4, "%v+%v", tc.base, tc.inc)
	}
}

// A fixed move time is used up to the overhead: a 0.2 s search takes at
// least 0.15 s (a bound on behaviour, not a speed test) and stops soon
// after 0.2 s.
func TestSearchUsesMoveTime(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 16})
	for _, v := range []engine.VariantID{engine.Russian, engine.International} {
		began := time.Now()
		r := e.Search(context.Background(), engine.StartPosition(v), nil, Limits{MoveTime: 200 * time.Millisecond}, nil)
		wall := time.Since(began)
		assert.True(t, r.HasMove)
		assert.GreaterOrEqual(t, wall, 150*time.Millisecond, "%v: answered after %v of a 0.2 s move time", v, wall)
		assert.Less(t, wall, 2*time.Second, "%v: the hard limit did not stop the search", v)
	}
}
