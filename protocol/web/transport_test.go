//go:build !js

package web

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/player"
)

// chanTransport is a Transport of two channels: what the test sends, and
// what the session writes. A nil message read is one that is not text.
type chanTransport struct {
	in     chan []byte
	out    chan []byte
	closed atomic.Bool
}

func (c *chanTransport) Read(ctx context.Context) ([]byte, error) {
	select {
	case b, ok := <-c.in:
		if !ok {
			return nil, io.EOF
		}
		if b == nil {
			return nil, ErrNotText
		}
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *chanTransport) Write(ctx context.Context, msg []byte) error {
	select {
	case c.out <- msg:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *chanTransport) Close() error { c.closed.Store(true); return nil }

// TestServeTransport runs a session over a Transport of its own, as the
// js/wasm build's Web Worker does: hello with no engines, a move answered
// by damka, a message that is not text, and the end when Read fails.
func TestServeTransport(t *testing.T) {
	tr := &chanTransport{in: make(chan []byte, 8), out: make(chan []byte, 64)}
	p, err := smallPlayer()
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		Serve(context.Background(), Config{Version: "t"}, tr, p)
	}()
	next := func(typ string) map[string]any {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case b := <-tr.out:
				var m map[string]any
				require.NoError(t, json.Unmarshal(b, &m))
				if m["type"] == typ {
					return m
				}
			case <-deadline:
				t.Fatalf("no %s message", typ)
			}
		}
	}
	hello := next("hello")
	require.Equal(t, "t", hello["version"])
	require.Empty(t, hello["engines"])
	require.Len(t, next("state")["played"], 0)

	tr.in <- nil
	require.Contains(t, next("error")["message"], "JSON text")
	tr.in <- []byte(`{"type":"level","nodes":200}`)
	next("level")
	tr.in <- []byte(`{"type":"move","move":"c3-d4"}`)
	for {
		st := next("state")
		if len(st["played"].([]any)) == 2 {
			break
		}
	}
	close(tr.in)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when Read failed")
	}
	require.True(t, tr.closed.Load())
}

// TestPageSettingsMatchPlayerTable: the page gets every setting of
// player.Settings, in its order, with its kind, range, values, default and
// doc, a fresh player's value being the default; a value out of range is
// answered with an error naming the setting and changes nothing, the
// range's ends are accepted, and a setting that names a file is read-only.
func TestPageSettingsMatchPlayerTable(t *testing.T) {
	tr := &chanTransport{in: make(chan []byte, 8), out: make(chan []byte, 64)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Serve(context.Background(), Config{Version: "t"}, tr, player.New(player.Config{BookSeed: 1}))
	}()
	defer func() { close(tr.in); <-done }()
	type listMsg struct {
		Type     string       `json:"type"`
		Message  string       `json:"message"`
		Settings []settingMsg `json:"settings"`
	}
	next := func(types ...string) listMsg {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case b := <-tr.out:
				var m listMsg
				require.NoError(t, json.Unmarshal(b, &m))
				if slices.Contains(types, m.Type) {
					return m
				}
			case <-deadline:
				t.Fatalf("no %v message", types)
			}
		}
	}
	table := player.Settings()
	hello := next("hello")
	require.Len(t, hello.Settings, len(table))
	for i, st := range table {
		got := hello.Settings[i]
		assert.Equal(t, st.Name, got.Name)
		assert.Equal(t, st.Kind.String(), got.Kind, st.Name)
		assert.Equal(t, st.Min, got.Min, st.Name)
		assert.Equal(t, st.Max, got.Max, st.Name)
		assert.Equal(t, st.Unit, got.Unit, st.Name)
		assert.Equal(t, st.Values, got.Values, st.Name)
		assert.Equal(t, st.Default, got.Default, st.Name)
		assert.Equal(t, st.Doc, got.Doc, st.Name)
		assert.Equal(t, st.Range(), got.Range, st.Name)
		assert.Equal(t, st.Default, got.Value, "%s: a fresh player's value", st.Name)
		assert.Equal(t, st.Kind == player.String, got.ReadOnly, st.Name)
	}
	set := func(name, value string) listMsg {
		t.Helper()
		b, err := json.Marshal(map[string]string{"type": "set", "name": name, "value": value})
		require.NoError(t, err)
		tr.in <- b
		return next("error", "settings")
	}
	valueOf := func(m listMsg, name string) string {
		for _, s := range m.Settings {
			if s.Name == name {
				return s.Value
			}
		}
		t.Fatalf("no setting %s in %+v", name, m)
		return ""
	}
	for _, st := range table {
		switch st.Kind {
		case player.Int:
			for _, bad := range []int{st.Min - 1, st.Max + 1} {
				m := set(st.Name, strconv.Itoa(bad))
				require.Equal(t, "error", m.Type, "%s %d", st.Name, bad)
				assert.Contains(t, m.Message, st.Name)
				assert.Equal(t, st.Default, valueOf(next("settings"), st.Name), "%s unchanged", st.Name)
			}
			if st.Name == player.SetHash || st.Name == player.SetThreads {
				continue // the maximum would allocate its table or start its threads
			}
			for _, end := range []int{st.Min, st.Max} {
				m := set(st.Name, strconv.Itoa(end))
				require.Equal(t, "settings", m.Type, "%s %d: %s", st.Name, end, m.Message)
				assert.Equal(t, strconv.Itoa(end), valueOf(m, st.Name))
			}
		case player.Enum, player.Bool:
			m := set(st.Name, "no-such-value")
			require.Equal(t, "error", m.Type, st.Name)
			assert.Contains(t, m.Message, st.Name)
			next("settings")
		case player.String:
			m := set(st.Name, "/etc/passwd")
			require.Equal(t, "error", m.Type, st.Name)
			assert.Contains(t, m.Message, "names a file")
		}
	}
}
