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

// TestBuildStopsInRetrogradePass: a build stopped once every forward pass
// is done (so during the last pair's retrograde pass) returns the
// context's error instead of finishing, and does not write that pair.
func TestBuildStopsInRetrogradePass(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	_, err := Build(ctx, BuildOptions{Variant: engine.English, Pieces: 3, Dir: dir, Threads: 1,
		Progress: func(done, total uint64) {
			if done >= total {
				cancel()
			}
		}})
	require.ErrorIs(t, err, context.Canceled)
	ms := Materials(engine.English, 3)
	last := ms[len(ms)-1]
	_, _, err = readSlice(dir, engine.English, last)
	assert.Error(t, err, "the stopped pair %s was written", last)
}
