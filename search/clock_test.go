package search

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestSetClock checks that the time limits and the reported times follow
// the clock given to SetClock: a clock that runs 10 ms a reading ends a
// 20-second move long before 20 real seconds, with a reported time of
// the clock's; nil restores Go's clock.
func TestSetClock(t *testing.T) {
	var ticks atomic.Int64
	SetClock(func() time.Duration { return time.Duration(ticks.Add(1)) * 10 * time.Millisecond })
	defer SetClock(nil)
	e := New(Options{Threads: 1, HashMiB: 1})
	g := engine.NewGame(engine.StartPosition(engine.International))
	wall := time.Now()
	r := e.SearchGame(context.Background(), g, Limits{MoveTime: 20 * time.Second}, nil)
	took := time.Since(wall)
	require.True(t, r.HasMove)
	assert.Less(t, took, 10*time.Second, "the search did not end on the set clock")
	assert.GreaterOrEqual(t, r.Time, 10*time.Second, "the reported time is not the set clock's")

	SetClock(nil)
	wall = time.Now()
	r = e.SearchGame(context.Background(), g, Limits{MoveTime: 50 * time.Millisecond}, nil)
	took = time.Since(wall)
	assert.Less(t, r.Time, time.Second)
	assert.InDelta(t, took.Seconds(), r.Time.Seconds(), 0.5, "with nil the reported time is Go's")
}
