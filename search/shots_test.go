package search

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// TestQuiescenceFindsShots: positions where a one-ply search sees a shot
// (a sacrifice that wins back more) only through the quiescence search's
// shots (the experiment switch params.shots). With them, the one-ply search
// plays the move and scores what a depth-9 search does; without them it
// misses both. The searches evaluate with the material-and-mobility prior
// (eval.NewWeights), so that the test follows the shot's material, not a
// learned file's view of the position it leads to.
func TestQuiescenceFindsShots(t *testing.T) {
	for _, c := range []struct {
		v        engine.VariantID
		fen      string
		shot     string // the move a deep search plays
		min, max int    // the one-ply score with shots lies in min..max; without, below min
	}{
		// 27-23 10x17 23-19 16x23 26x19x10x3: two men given, three taken and a king.
		{engine.English, "W:W14,24,26,27,28,29,30,31,32:B1,2,4,5,7,10,12,15,16", "27-23", 150, 300},
		// 16-21 27x16 7-12 16x7x18 13x22x33x44x35 wins the man back.
		{engine.International, "B:W27,28,31,36,39,40,41,42,43,47,48,49,50:B1,2,4,5,6,7,9,10,11,13,16,29", "16-21", -60, 60},
	} {
		p := mustFEN(t, c.v, c.fen)
		shot, err := p.ParseMove(c.shot)
		require.NoError(t, err)
		prior := eval.NewWeights(c.v)
		deep := New(Options{Threads: 1, HashMiB: 8, Eval: prior}).Search(context.Background(), p, nil, Limits{Depth: 9}, nil)
		assert.Equal(t, shot, deep.Move, "%s: depth 9", c.fen)

		with := New(Options{Threads: 1, HashMiB: 1, Eval: prior})
		with.params.shots = true
		r := with.Search(context.Background(), p, nil, Limits{Depth: 1}, nil)
		assert.Equal(t, shot, r.Move, "%s: depth 1 with shots", c.fen)
		assert.True(t, r.Score >= c.min && r.Score <= c.max, "%s: depth 1 with shots scores %d", c.fen, r.Score)

		without := New(Options{Threads: 1, HashMiB: 1, Eval: prior})
		r = without.Search(context.Background(), p, nil, Limits{Depth: 1}, nil)
		assert.NotEqual(t, shot, r.Move, "%s: depth 1 without shots", c.fen)
		assert.Less(t, r.Score, c.min, "%s: depth 1 without shots", c.fen)
	}
}
