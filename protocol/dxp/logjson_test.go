package dxp

import (
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
)

// TestLogLinesUniqueKeys: with the command's logger (JSON with a
// timestamp, debug level), every line a DXP game logs is one JSON object
// without a repeated key (the move line's search time was "time", the
// timestamp's key).
func TestLogLinesUniqueKeys(t *testing.T) {
	v := engine.International
	for _, role := range []Role{Follower, Initiator} {
		a := newEndpoint(v, Initiator, "damka-I")
		b := newEndpoint(v, Follower, "damka-F")
		for _, ep := range []*endpoint{a, b} {
			ep.cfg.Logger = zerolog.New(ep.log).Level(zerolog.DebugLevel).With().Timestamp().Logger()
		}
		a.cfg.Games, a.cfg.Minutes, a.cfg.Moves = 1, 1, 10
		runPair(t, a, b, role == Initiator)
		require.NoError(t, a.err)
		require.NoError(t, b.err)
		for _, ep := range []*endpoint{a, b} {
			text := ep.log.String()
			require.Contains(t, text, `"message":"dxp: our move"`)
			require.Contains(t, text, `"think":`)
			for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
				assert.Empty(t, logjson.KeysProblem(line), "log line %d: %s", i+1, line)
			}
		}
	}
}
