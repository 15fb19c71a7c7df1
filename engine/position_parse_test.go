package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePosition(t *testing.T) {
	start := StartPosition(Russian)
	p, err := ParsePosition(Russian, start.FEN())
	require.NoError(t, err)
	assert.Equal(t, start, p)
	p, err = ParsePosition(Russian, start.HubPosition())
	require.NoError(t, err)
	assert.Equal(t, start, p)

	// A Hub string of the wrong length gets the Hub message, not "side to move".
	hub := start.HubPosition()
	_, err = ParsePosition(Russian, hub[:32])
	require.Error(t, err)
	assert.Contains(t, err.Error(), "length 32, want 33 for russian")
	assert.NotContains(t, err.Error(), "want W or B")
	_, err = ParsePosition(Russian, hub+"b")
	assert.ErrorContains(t, err, "length 34, want 33")
	intl := StartPosition(International)
	_, err = ParsePosition(Russian, intl.HubPosition())
	assert.ErrorContains(t, err, "51 characters is a 10x10 position (international)")
	_, err = ParsePosition(International, hub)
	assert.ErrorContains(t, err, "33 characters is an 8x8 position")

	// No pieces at all is not a game position.
	for _, s := range []string{"W", "W::", "W:W:B", "B:W:B.", "W" + strings.Repeat("e", 32)} {
		_, err := ParsePosition(Russian, s)
		assert.ErrorContains(t, err, "no pieces", s)
	}
	// One side without pieces is still a position (a finished game).
	_, err = ParsePosition(Russian, "W:W21:B")
	assert.NoError(t, err)
	_, err = ParsePosition(Russian, "X:W21")
	assert.ErrorContains(t, err, "want W or B")
}

func TestWithin8x8(t *testing.T) {
	// A Brazilian ballot read as international: every piece on a1..h8.
	ballot := "W:Wc3,e3,g3,b4,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,c5,b6,f6,h6,c7,e7,g7,b8,d8,f8,h8"
	p, err := ParseFEN(International, ballot)
	require.NoError(t, err)
	assert.True(t, p.Within8x8())
	s := StartPosition(International)
	assert.False(t, s.Within8x8())
	b, err := ParseFEN(Brazilian, ballot)
	require.NoError(t, err)
	assert.False(t, b.Within8x8())
}
