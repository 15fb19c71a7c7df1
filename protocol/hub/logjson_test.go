package hub

import (
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/internal/logjson"
)

// TestLogLinesUniqueKeys: with the command's logger (JSON with a
// timestamp, debug level), every line a Hub session logs is one JSON
// object without a repeated key (the search line's clock was "time", the
// timestamp's key).
func TestLogLinesUniqueKeys(t *testing.T) {
	var log logjson.Buffer
	cfg := testConfig()
	cfg.Log = zerolog.New(&log).Level(zerolog.DebugLevel).With().Timestamp().Logger()
	hs := startSession(t, cfg)
	hs.send("hub")
	skipTo(hs, "wait")
	hs.send("set-param name=hash value=2", "init")
	skipTo(hs, "ready")
	hs.send("pos start", "level time=5 inc=0.1 moves=30", "level depth=2", "go think")
	skipTo(hs, "done")
	hs.send("pos pos=Wxyz", "set-param name=nope value=1", "ping")
	skipTo(hs, "pong")
	hs.finish()
	text := log.String()
	require.Contains(t, text, `"message":"hub: search"`)
	require.Contains(t, text, `"clock":`)
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		assert.Empty(t, logjson.KeysProblem(line), "log line %d: %s", i+1, line)
	}
}

// skipTo reads output lines up to one that starts with prefix.
func skipTo(hs *hubSession, prefix string) {
	hs.t.Helper()
	for {
		l, ok := hs.next(false)
		require.True(hs.t, ok, "the session ended before %q", prefix)
		if strings.HasPrefix(l, prefix) {
			return
		}
	}
}
