package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func movesText(p *Position, ms []Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.FormatMove(m, FormatFull)
	}
	return out
}

// TestSortMoves: the start positions' moves in square order (numbers in
// English and international, file then rank in Russian), whatever order
// they come in, and captures by their landing squares.
func TestSortMoves(t *testing.T) {
	cases := []struct {
		v    VariantID
		fen  string
		want []string
	}{
		{English, "", []string{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}},
		{Russian, "", []string{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}},
		{International, "", []string{"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}},
		{English, "B:W14,15,22,23:B10,11", []string{"10x17x26", "10x19x26", "11x18x25", "11x18x27"}},
	}
	for _, c := range cases {
		p := StartPosition(c.v)
		if c.fen != "" {
			var err error
			p, err = ParseFEN(c.v, c.fen)
			require.NoError(t, err)
		}
		assert.Equal(t, c.want, movesText(&p, p.SortedMoves()), "%s", c.v)
		ms := p.SortedMoves()
		rng := rand.New(rand.NewPCG(1, 2))
		for range 5 {
			rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
			SortMoves(&p, ms)
			assert.Equal(t, c.want, movesText(&p, ms), "%s shuffled", c.v)
		}
		assert.True(t, slices.Equal(ms, p.SortedMoves()))
	}
}
