package match

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestSuiteEngine: a good engine answers a legal move with its info lines
// read; an engine that plays an illegal move, crashes or hangs fails that
// search with a reason naming it and is started again for the next one; a
// program that never starts is given up after a few tries.
func TestSuiteEngine(t *testing.T) {
	fake := goBuild(t, t.TempDir(), "fakeengine", "./testdata/fakeengine")
	pos, err := engine.ParseFEN(engine.Russian, "W:Wc3,e3:Bd4")
	require.NoError(t, err)
	cfg := SuiteConfig{Variant: engine.Russian, Limits: Limits{MoveTime: 50 * time.Millisecond},
		Margin: 100 * time.Millisecond, StopGrace: 200 * time.Millisecond}
	ctx := context.Background()

	good, err := NewSuiteEngine(EngineSpec{Name: "good", Command: []string{fake, "-scores", "1.5"}}, cfg)
	require.NoError(t, err)
	defer good.Close()
	a := good.Search(ctx, pos)
	require.NoError(t, a.Err)
	assert.True(t, a.HasMove)
	assert.True(t, a.Move.IsCapture(), "the only legal moves are captures")
	require.Len(t, a.Infos, 1)
	assert.Equal(t, 1, a.Infos[0].Depth)
	assert.InDelta(t, 1.5, a.Infos[0].Score, 1e-9)
	assert.False(t, a.Infos[0].HasNodes)
	assert.False(t, a.Infos[0].HasMove, "no pv")

	for _, c := range []struct{ mode, want string }{
		{"illegal", `engine bad played an illegal move "`},
		{"crash", "engine bad crashed while searching"},
		{"hang", "engine bad hung while searching"},
	} {
		bad, err := NewSuiteEngine(EngineSpec{Name: "bad", Command: []string{fake, "-mode", c.mode}}, cfg)
		require.NoError(t, err)
		for range 2 { // restarted after the first failure
			a := bad.Search(ctx, pos)
			require.Error(t, a.Err, c.mode)
			assert.Contains(t, a.Err.Error(), c.want)
			assert.False(t, a.HasMove)
		}
		bad.Close()
	}

	never, err := NewSuiteEngine(EngineSpec{Name: "never", Command: []string{"sh", "-c", "read x; exit 3"}}, cfg)
	require.NoError(t, err)
	for i := range suiteStartTries + 1 {
		a := never.Search(ctx, pos)
		require.Error(t, a.Err)
		if i < suiteStartTries {
			assert.Contains(t, a.Err.Error(), "engine never could not be started")
		} else {
			assert.Contains(t, a.Err.Error(), "engine never not tried: it failed to start 3 times in a row")
		}
	}
	never.Close()

	_, err = NewSuiteEngine(EngineSpec{Name: "d", Proto: ProtoDXP, Host: "localhost:1"}, cfg)
	assert.ErrorContains(t, err, "needs a Hub engine")
	_, err = NewSuiteEngine(EngineSpec{Name: "c", Command: []string{fake}}, SuiteConfig{Limits: Limits{Base: time.Second}})
	assert.ErrorContains(t, err, "one of a move time, a depth and a node count")
}
