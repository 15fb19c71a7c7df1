package openings

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestAll: the number of N-ply openings is perft(N) with distinct moves,
// every opening is distinct, and the order is the square order of the
// moves.
func TestAll(t *testing.T) {
	for _, v := range engine.AllVariants() {
		for plies := 1; plies <= 3; plies++ {
			ops, err := All(v, plies)
			require.NoError(t, err)
			assert.Equal(t, engine.Perft(engine.StartPosition(v), plies, false), uint64(len(ops)), "%s %d", v, plies)
			seen := map[string]bool{}
			for _, o := range ops {
				assert.Len(t, o.Moves, plies)
				assert.False(t, seen[o.Name], o.Name)
				seen[o.Name] = true
			}
		}
	}
	ops, err := All(engine.English, 2)
	require.NoError(t, err)
	assert.Equal(t, "9-13 21-17", ops[0].Name)
	assert.Equal(t, "12-16 24-20", ops[len(ops)-1].Name)
	ops, err = All(engine.Russian, 1)
	require.NoError(t, err)
	assert.Equal(t, "a3-b4", ops[0].Name)

	_, err = All(engine.English, 0)
	assert.ErrorContains(t, err, "plies 0 out of range 1..12")
	_, err = All(engine.International, 9)
	assert.ErrorContains(t, err, "more than 1000000")
}

// TestWritePDNReadsBack: a written deck loads back to the same openings,
// from the start position and from a FEN with the second player to move.
func TestWritePDNReadsBack(t *testing.T) {
	for _, v := range engine.AllVariants() {
		ops, err := All(v, 2)
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, WritePDN(&b, v, "test", ops))
		back, err := Read(&b, ".pdn", v)
		require.NoError(t, err)
		require.Len(t, back, len(ops))
		for i := range ops {
			assert.Equal(t, ops[i].Name, back[i].Name)
			assert.Equal(t, ops[i].Moves, back[i].Moves)
			assert.Equal(t, ops[i].Position(), back[i].Position())
		}
	}
	p, err := engine.ParseFEN(engine.English, "W:W21,22:B9,10")
	require.NoError(t, err)
	ms := p.SortedMoves()
	o := Opening{Name: "from a FEN", Start: p, Moves: ms[:1]}
	var b bytes.Buffer
	require.NoError(t, WritePDN(&b, engine.English, "fen", []Opening{o}))
	assert.Contains(t, b.String(), "[SetUp \"1\"]\n[FEN \"W:W21,22:B9,10\"]\n\n1... 21-17 *\n")
	back, err := Read(&b, ".pdn", engine.English)
	require.NoError(t, err)
	require.Len(t, back, 1)
	assert.Equal(t, o.Position(), back[0].Position())
}
