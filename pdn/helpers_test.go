package pdn

import (
	"math/rand/v2"
	"testing"

	"github.com/damka-draughts/damka/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomPosition returns a position of v with up to n pieces on random
// squares, men on their crowning row made kings.
func randomPosition(rng *rand.Rand, v engine.VariantID, n int) engine.Position {
	p := engine.Position{V: v, Side: engine.Color(rng.IntN(2))}
	sq := v.Rules().Squares
	size := v.Rules().Board.Info().Size
	for i := 0; i < n; i++ {
		s := engine.Square(1 + rng.IntN(sq))
		b := engine.SquareBit(v, s)
		c := engine.Color(rng.IntN(2))
		king := rng.IntN(3) == 0
		row, _ := engine.SquareRowCol(v, s)
		if !king && ((c == engine.White && row == 0) || (c == engine.Black && row == size-1)) {
			king = true
		}
		if p.Occupied()&b != 0 {
			continue
		}
		p.Pieces[c] |= b
		if king {
			p.Kings |= b
		}
	}
	p.Key = p.ComputeKey()
	return p
}

func mustFEN(t *testing.T, v engine.VariantID, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err, fen)
	return p
}

func mustMove(t *testing.T, p engine.Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	require.NoError(t, err, text)
	return m
}

func assertSamePosition(t *testing.T, p, q engine.Position, msg string) bool {
	t.Helper()
	return assert.Equal(t, p.Pieces, q.Pieces, "pieces: %s", msg) &&
		assert.Equal(t, p.Kings, q.Kings, "kings: %s", msg) &&
		assert.Equal(t, p.Side, q.Side, "side: %s", msg) &&
		assert.Equal(t, p.V, q.V, "variant: %s", msg) &&
		assert.Equal(t, p.ComputeKey(), q.Key, "key: %s", msg) &&
		assert.Equal(t, p.Key, q.Key, "key: %s", msg)
}
