package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPositionSquaresRoundTrip(t *testing.T) {
	for _, v := range AllVariants() {
		rng := rand.New(rand.NewPCG(2, uint64(v)))
		for range 300 {
			p := randomPosition(rng, v, rng.IntN(v.Rules().Squares))
			w, b, k := p.Squares()
			assert.Zero(t, w&b)
			assert.Zero(t, k&^(w|b))
			q, err := PositionFromSquares(v, w, b, k, p.Side)
			require.NoError(t, err)
			if !assertSamePosition(t, p, q, p.FEN()) || !assert.Equal(t, p.Key, q.Key) {
				return
			}
		}
		// Square s is bit s-1.
		p := StartPosition(v)
		w, b, k := p.Squares()
		men := v.Rules().Board.Info().Men
		n := v.Rules().Squares
		assert.Equal(t, uint64(1)<<men-1, b, v.String())
		assert.Equal(t, (uint64(1)<<men-1)<<(n-men), w, v.String())
		assert.Zero(t, k)
	}
}

func TestPositionFromSquaresErrors(t *testing.T) {
	cases := []struct {
		v                  VariantID
		white, black, king uint64
		side               Color
		want               string
	}{
		{English, 1 << 32, 0, 0, White, "square set has squares above 32"},
		{International, 0, 1 << 50, 0, White, "square set has squares above 50"},
		{Russian, 0, 0, 1 << 40, White, "square set has squares above 32"},
		{Russian, 1 << 4, 1<<4 | 1, 0, White, "square 5 is both white and black"},
		{Brazilian, 1, 2, 4, Black, "king on empty square 3"},
		{International, 1, 2, 0, 2, "side to move 2"},
	}
	for _, c := range cases {
		_, err := PositionFromSquares(c.v, c.white, c.black, c.king, c.side)
		if assert.Error(t, err, c.want) {
			assert.Equal(t, c.want, err.Error())
		}
	}
	p, err := PositionFromSquares(International, 1<<49, 1, 1, Black)
	require.NoError(t, err)
	assert.Equal(t, "B:W50:BK1", p.FEN())
}
