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
