package egdb

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/engine"
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
			n, bad, err := verifySlice(context.Background(), src, v, m, 2, 5)
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
