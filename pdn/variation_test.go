package pdn

import (
	"bytes"
	"strings"
	"testing"

	"github.com/damka-draughts/damka/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadVariations reads every variation of a move, nested ones
// inside them (glyphs, numbers, NAGs and comments left out), the first
// one's moves also in Variations, and writes them back the same.
func TestReadVariations(t *testing.T) {
	src := `[GameType "25"]

1. c3-d4 (1. a3-b4 {a comment} f6-g5?! (1... b6-a5) 2. b4-a5 $2) 1... f6-g5 (1... b6-c5 2. d4xb6 a7xc5) (1... h6-g5) 2. g3-f4 *
`
	r := NewReader(strings.NewReader(src), engine.Russian)
	g, err := r.Next()
	require.NoError(t, err)
	require.Len(t, g.Moves, 3)
	require.Len(t, g.Variations, 3, "one entry per move")
	require.Len(t, g.Lines, 3, "one entry per move")
	start := g.Start
	want := []engine.Move{mustMove(t, start, "a3-b4")}
	p := start.Play(want[0])
	want = append(want, mustMove(t, p, "f6-g5"))
	nested := mustMove(t, p, "b6-a5")
	p = p.Play(want[1])
	want = append(want, mustMove(t, p, "b4-a5"))
	assert.Equal(t, want, g.Variations[0], "the first move's variation")
	require.Len(t, g.Lines[0], 1)
	assert.Equal(t, want, g.Lines[0][0].Moves)
	assert.Equal(t, [][]Line{nil, {{Moves: []engine.Move{nested}}}, nil}, g.Lines[0][0].Lines, "the variation inside it")
	require.Len(t, g.Lines[1], 2, "both variations of the second move")
	assert.Len(t, g.Lines[1][0].Moves, 3)
	assert.Len(t, g.Lines[1][1].Moves, 1)
	assert.Equal(t, g.Lines[1][0].Moves, g.Variations[1])
	assert.Nil(t, g.Variations[2])
	assert.Nil(t, g.Lines[2])

	var b bytes.Buffer
	require.NoError(t, Write(&b, g))
	text := strings.Join(strings.Fields(b.String()), " ")
	assert.Contains(t, text, "1. c3-d4 (1. a3-b4 f6-g5 (1... b6-a5) 2. b4-a5) 1... f6-g5 (1... b6-c5 2. d4:b6 a7:c5) (1... h6-g5) 2. g3-f4 *")
	back, err := NewReader(&b, engine.Russian).Next()
	require.NoError(t, err)
	assert.Equal(t, g.Variations, back.Variations, "written variations read back")
	assert.Equal(t, g.Lines, back.Lines)
}

// TestReadVariationIllegal keeps a variation's moves up to the first one
// that is not legal (the rest, nested variations with it, skipped), and
// skips a variation with none.
func TestReadVariationIllegal(t *testing.T) {
	src := "1. c3-d4 (1. a3-b4 a3-b4 (1... f6-g5) (x) b6-a5) 1... f6-g5 (1... e1-e2 (1... h6-g5)) (( *\n"
	g, err := NewReader(strings.NewReader(src), engine.Russian).Next()
	require.Error(t, err, "the unterminated variation")
	require.Len(t, g.Lines, 2)
	require.Len(t, g.Lines[0], 1)
	assert.Len(t, g.Lines[0][0].Moves, 1)
	assert.Nil(t, g.Lines[0][0].Lines)
	assert.Nil(t, g.Variations[1])
	assert.Empty(t, g.Lines[1])
}

// TestWriteVariationsOnly writes a game's Variations where it has no
// Lines, and its Lines where it has them.
func TestWriteVariationsOnly(t *testing.T) {
	g := NewGame(engine.Russian, engine.StartPosition(engine.Russian))
	g.AppendMove(mustMove(t, g.Position(), "c3-d4"))
	g.Variations = [][]engine.Move{{mustMove(t, g.Start, "a3-b4")}}
	g.AppendMove(mustMove(t, g.Position(), "f6-g5"))
	require.Len(t, g.Variations, 2, "AppendMove keeps one entry per move")
	var b bytes.Buffer
	require.NoError(t, Write(&b, g))
	assert.Contains(t, b.String(), "1. c3-d4 (1. a3-b4) 1... f6-g5 *")
	g.Lines = [][]Line{{{Moves: []engine.Move{mustMove(t, g.Start, "g3-h4")}}}, nil}
	b.Reset()
	require.NoError(t, Write(&b, g))
	assert.Contains(t, b.String(), "1. c3-d4 (1. g3-h4) 1... f6-g5 *")
}
