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
