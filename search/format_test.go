package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

func TestFormatScore(t *testing.T) {
	for cs, want := range map[int]string{
		0: "0.00", 100: "1.00", -25: "-0.25", 1234: "12.34",
		Mate - 1: "99.99", Mate - 7: "99.93", -(Mate - 4): "-99.96",
	} {
		assert.Equal(t, want, FormatScore(cs), "%d", cs)
	}
}

func TestScoreAfterMove(t *testing.T) {
	assert.Equal(t, -30, ScoreAfterMove(30))
	// The child is lost in 2 plies for its side to move: the mover wins in 3.
	assert.Equal(t, Mate-3, ScoreAfterMove(-(Mate - 2)))
	assert.Equal(t, -(Mate - 5), ScoreAfterMove(Mate-4))
}

func TestFormatPV(t *testing.T) {
	p := engine.StartPosition(engine.Russian)
	m1, err := p.ParseMove("c3-d4")
	require.NoError(t, err)
	q := p.Play(m1)
	m2, err := q.ParseMove("f6-g5")
	require.NoError(t, err)
	assert.Equal(t, "c3-d4 f6-g5", FormatPV(&p, []engine.Move{m1, m2}, engine.FormatFull))
	// An illegal move ends the text: m1 again is not legal for Black.
	assert.Equal(t, "c3-d4", FormatPV(&p, []engine.Move{m1, m1, m2}, engine.FormatFull))
	assert.Equal(t, "", FormatPV(&p, nil, engine.FormatFull))
}

func TestFormatMNPS(t *testing.T) {
	assert.Equal(t, "1.50", FormatMNPS(3_000_000, 2))
	assert.Equal(t, "0.00", FormatMNPS(5, 0))
}
