package hub

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonKeysProblem returns why line is not one JSON object with unique keys
// at every level ("" when it is).
func jsonKeysProblem(line string) string {
	dec := json.NewDecoder(strings.NewReader(line))
	type frame struct {
		obj     bool
		keys    map[string]bool
		wantKey bool
	}
	var stack []*frame
	objects := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "not JSON: " + err.Error()
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].wantKey = true
				}
				continue
			}
			k := tok.(string)
			if top.keys[k] {
				return fmt.Sprintf("duplicate key %q", k)
			}
			top.keys[k] = true
			top.wantKey = false
			continue
		}
		switch d, _ := tok.(json.Delim); d {
		case '{':
			if len(stack) == 0 {
				objects++
			}
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, wantKey: true})
			continue
		case '[':
			stack = append(stack, &frame{})
			continue
		case ']':
			stack = stack[:len(stack)-1]
		}
		// A value ended: the enclosing object wants its next key.
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].wantKey = true
		}
	}
	if len(stack) != 0 {
		return "not JSON: the line ends inside an object or array"
	}
	if objects != 1 {
		return fmt.Sprintf("want one JSON object, got %d", objects)
	}
	return ""
}

func TestJSONKeysProblem(t *testing.T) {
	assert.Empty(t, jsonKeysProblem(`{"a":1,"b":{"a":[1,{"a":2}]},"c":"x"}`))
	assert.Contains(t, jsonKeysProblem(`{"time":"x","n":1,"time":2}`), `duplicate key "time"`)
	assert.Contains(t, jsonKeysProblem(`{"a":{"b":1,"b":2}}`), `duplicate key "b"`)
	assert.Contains(t, jsonKeysProblem(`{"a":1`), "not JSON")
	assert.Contains(t, jsonKeysProblem(`{"a":1}{"b":2}`), "want one JSON object")
}

// TestLogLinesUniqueKeys: with the command's logger (JSON with a
// timestamp, debug level), every line a Hub session logs is one JSON
// object without a repeated key (the search line's clock was "time", the
// timestamp's key).
func TestLogLinesUniqueKeys(t *testing.T) {
	var log syncLog
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
		assert.Empty(t, jsonKeysProblem(line), "log line %d: %s", i+1, line)
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

// syncLog is a buffer safe for concurrent writes.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncLog) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
