package egdb

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// buildMem builds v up to pieces into a temporary directory and returns
// the in-memory source of what was built.
func buildMem(t *testing.T, v engine.VariantID, pieces int) (*memSource, string) {
	t.Helper()
	dir := t.TempDir()
	_, err := Build(context.Background(), BuildOptions{Variant: v, Pieces: pieces, Dir: dir, Threads: 2})
	require.NoError(t, err)
	src := &memSource{v: v}
	for _, m := range Materials(v, pieces) {
		_, codes, err := readSlice(dir, v, m)
		require.NoError(t, err)
		src.tables[m.code()] = codes
	}
	return src, dir
}

func TestBuildVerifySmall(t *testing.T) {
	for _, v := range engine.AllVariants() {
		pieces := 3
		if !v.Is8x8() {
			pieces = 3
		}
		src, _ := buildMem(t, v, pieces)
		for _, m := range Materials(v, pieces) {
			n, _, bad, err := verifySlice(context.Background(), src, v, m, 2, 5)
			require.NoError(t, err)
			assert.Empty(t, bad, "%s %s", v, m)
			assert.NotZero(t, n)
		}
	}
}

// TestRetrogradeStops: the retrograde pass of a pair (the long part of a
// big slice) returns the context's error when the build is stopped, and
// finishes otherwise.
func TestRetrogradeStops(t *testing.T) {
	src, _ := buildMem(t, engine.English, 3)
	m := Material{1, 1, 0, 1} // a man and a king against a king: seeds and a queue
	ps := newPairSolver(src, engine.English, m, 1)
	require.NoError(t, ps.solve(context.Background(), func(uint64) {}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ps = newPairSolver(src, engine.English, m, 1)
	err := ps.solve(ctx, func(uint64) {})
	require.ErrorIs(t, err, context.Canceled)
	// A solved pair's retrograde pass run again under a stopped build.
	ps = newPairSolver(src, engine.English, m, 1)
	ctx, cancel = context.WithCancel(context.Background())
	require.NoError(t, ps.solve(ctx, func(uint64) {}))
	cancel()
	assert.ErrorIs(t, ps.retrograde(ctx), context.Canceled)
}

// alteredSource is a source with one entry changed.
type alteredSource struct {
	source
	m Material
	i uint64
	c uint8
}

func (a alteredSource) code(v engine.VariantID, m Material, i uint64) (uint8, bool, bool) {
	c, dtm, ok := a.source.code(v, m, i)
	if m == a.m && i == a.i {
		c = a.c
	}
	return c, dtm, ok
}

// TestVerifyFindsWrongValues: a stored value changed by hand is reported,
// at its index, in a slice with distances (a win made a draw) and in one
// without (a win made a loss, in a slice whose successors include capture
// positions, resolved once through the capture memo); the untouched
// source verifies clean.
func TestVerifyFindsWrongValues(t *testing.T) {
	src, _ := buildMem(t, engine.Russian, 3)
	for _, c := range []struct {
		m    Material
		want func(Value) bool
		to   uint8
	}{
		{Material{WK: 2, BK: 1}, func(v Value) bool { return v == Win }, codeDTMDraw},
		{Material{WM: 1, WK: 1, BM: 1}, func(v Value) bool { return v == Win }, codeLoss},
	} {
		g, _ := geomOf(engine.Russian)
		s := newSlice(c.m, g)
		var at uint64
		found := false
		for i := uint64(0); i < s.size && !found; i++ {
			p, ok := s.position(i, engine.Russian)
			if !ok || p.HasCapture() {
				continue
			}
			code, dtm, _ := src.code(engine.Russian, c.m, i)
			if v, _ := decodeCode(code, dtm); c.want(v) {
				at, found = i, true
			}
		}
		require.True(t, found, "%s", c.m)
		memo, err := newCaptureMemo(context.Background(), src, engine.Russian, c.m.Flip(), 2)
		require.NoError(t, err)
		captures := 0
		for _, e := range memo.vals {
			if e&memoPresent != 0 {
				captures++
			}
		}
		assert.NotZero(t, captures, "%s: capture positions in the memo", c.m.Flip())
		n, _, bad, err := verifySlice(context.Background(), src, engine.Russian, c.m, 2, 5)
		require.NoError(t, err)
		require.Empty(t, bad, "%s untouched", c.m)
		require.NotZero(t, n)
		n2, wrong, bad, err := verifySlice(context.Background(), alteredSource{src, c.m, at, c.to}, engine.Russian, c.m, 2, 5)
		require.NoError(t, err)
		assert.Equal(t, n, n2)
		assert.Equal(t, uint64(1), wrong)
		require.Len(t, bad, 1, "%s", c.m)
		assert.Equal(t, at, bad[0].Index)
		assert.Contains(t, bad[0].Stored, map[uint8]string{codeDTMDraw: "draw", codeLoss: "loss"}[c.to])
	}
}
