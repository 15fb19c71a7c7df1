package soak

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEarlySample: the first sample of a run of 200 games or more comes
// after MemWarmup games (a tenth of longer runs), of a shorter run after
// half of its games.
func TestEarlySample(t *testing.T) {
	for games, want := range map[int]int{2: 1, 20: 10, 100: 50, 198: 99, 200: 100, 1000: 100, 2000: 200} {
		assert.Equal(t, want, earlySample(games), "%d games", games)
	}
}

// TestMemoryJudged: growth past MaxGrowth is a fault only after the
// warm-up; a short run reports its ratio as not judged, and a restart or
// an error is a fault either way.
func TestMemoryJudged(t *testing.T) {
	grown := Memory{Games: 1000, EarlyGames: 100, LateGames: 1000,
		EarlyAnon: [2]int64{20000, 20000}, LateAnon: [2]int64{20000, 23000}}
	assert.True(t, grown.Judged())
	assert.InDelta(t, 1.15, grown.Ratio(), 1e-9)
	assert.Equal(t, 1, grown.Faults())
	assert.Contains(t, grown.String(), "anon ratio=1.150 (at most 1.10)")

	settled := grown
	settled.LateAnon[1] = 21000
	assert.Zero(t, settled.Faults())

	short := grown
	short.Games, short.EarlyGames, short.LateGames = 100, 50, 99
	assert.False(t, short.Judged())
	assert.Zero(t, short.Faults(), "growth within the warm-up is not judged")
	assert.Contains(t, short.String(), "anon ratio=1.150 (not judged: the first sample is within the 100 games of warm-up)")
	short.Restarted = true
	assert.Equal(t, 1, short.Faults())
}
