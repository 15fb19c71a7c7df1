package pdn

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestCheckResult: a recorded result must agree with the game: the final
// position's rule loss (no piece, no legal move) and the Result tag.
func TestCheckResult(t *testing.T) {
	for _, c := range []struct {
		v    engine.VariantID
		text string
		want string // "" when the result agrees
	}{
		{engine.Russian, `[FEN "W:Wc3:Bd4"] 1. c3:e5 1-0`, ""},
		{engine.Russian, `[FEN "W:Wc3:Bd4"] 1. c3:e5 *`, ""},
		{engine.Russian, `[FEN "W:Wc3:Bd4"] 1. c3:e5 0-0`, ""},
		{engine.Russian, `[FEN "W:Wc3:Bd4"] 1. c3:e5 0-1`, "result 0-1 (Black wins) contradicts the final position: Black to move has no pieces left, so White wins (1-0)"},
		{engine.Russian, `[FEN "W:Wc3:Bd4"] 1. c3:e5 1/2-1/2`, "result 1/2-1/2 (a draw) contradicts"},
		// English files put Black's (the first mover's) score first.
		{engine.English, `[FEN "B:W18:B14"] 1. 14x23 1-0`, ""},
		{engine.English, `[FEN "B:W18:B14"] 1. 14x23 0-1`, "White to move has no pieces left, so Black wins (1-0)"},
		{engine.International, `[FEN "W:W28:B23"] 1. 28x19 2-0`, ""},
		{engine.International, `[FEN "W:W28:B23"] 1. 28x19 1-1`, "contradicts the final position"},
		// A position the rules leave open: any result (resignation,
		// agreement) agrees.
		{engine.Russian, `1. c3-d4 f6-g5 0-1`, ""},
		{engine.Russian, `1. c3-d4 f6-g5 1/2-1/2`, ""},
		{engine.Russian, `[Result "1-0"] 1. c3-d4 f6-g5 0-1`, `the Result tag "1-0" contradicts the movetext's result "0-1"`},
		{engine.International, `[Result "1-0"] 1. 32-28 19-23 2-0`, ""},
	} {
		g, err := NewReader(strings.NewReader(c.text), c.v).Next()
		require.NoError(t, err, c.text)
		err = CheckResult(g)
		if c.want == "" {
			assert.NoError(t, err, c.text)
			continue
		}
		require.Error(t, err, c.text)
		assert.Contains(t, err.Error(), c.want, c.text)
	}
}

// TestWriteVariation: a variation is written in parentheses after its
// move and comment, numbered as the main line, as far as its moves are
// legal; the reader skips it and reads the main line back.
func TestWriteVariation(t *testing.T) {
	start := engine.StartPosition(engine.Russian)
	g := NewGame(engine.Russian, start)
	p := start
	for _, s := range []string{"c3-d4", "f6-g5", "g3-f4"} {
		m, err := p.ParseMove(s)
		require.NoError(t, err)
		g.AppendMove(m)
		p = p.Play(m)
	}
	p1 := start.Play(g.Moves[0])
	var line []engine.Move
	q := p1
	for _, s := range []string{"b6-a5", "d4-c5", "d6:b4"} {
		m, err := q.ParseMove(s)
		require.NoError(t, err)
		line = append(line, m)
		q = q.Play(m)
	}
	g.Comments = []string{"", "mistake", ""}
	g.Variations = [][]engine.Move{nil, append(line, g.Moves[0]), nil} // the last move is illegal there
	var b strings.Builder
	require.NoError(t, Write(&b, g))
	assert.Contains(t, b.String(), "1. c3-d4 f6-g5 {mistake} (1... b6-a5 2. d4-c5 d6:b4) 2. g3-f4 *")
	back, err := NewReader(strings.NewReader(b.String()), engine.Russian).Next()
	require.NoError(t, err)
	assert.Equal(t, g.Moves, back.Moves)
}
