package search

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestTimeManagerLimits(t *testing.T) {
	cases := []Limits{
		{Time: 10 * time.Millisecond},
		{Time: 50 * time.Millisecond},
		{Time: time.Second},
		{Time: 5 * time.Minute},
		{Time: 200 * time.Millisecond, Inc: 5 * time.Second},
		{Time: 30 * time.Second, Inc: 2 * time.Second, MovesToGo: 1},
		{Time: 30 * time.Second, MovesToGo: 10},
	}
	for _, l := range cases {
		tm := newTimeManager(l)
		assert.True(t, tm.timed)
		assert.LessOrEqual(t, tm.soft, tm.hard, "%+v", l)
		if l.Time > 3*minThink {
			assert.Less(t, tm.hard, l.Time, "%+v: hard limit past the clock", l)
		}
		assert.GreaterOrEqual(t, tm.soft, minThink)
	}
	// More moves to go leave less per move.
	a := newTimeManager(Limits{Time: 30 * time.Second, MovesToGo: 5})
	b := newTimeManager(Limits{Time: 30 * time.Second, MovesToGo: 20})
	assert.Greater(t, a.soft, b.soft)
	// A fixed move time is both limits, less the overhead.
	m := newTimeManager(Limits{MoveTime: time.Second})
	assert.Equal(t, time.Second-moveOverhead, m.hard)
	assert.False(t, newTimeManager(Limits{Depth: 5}).timed)
}
