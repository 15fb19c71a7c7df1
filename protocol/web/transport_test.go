//go:build !js

package web

import (
	"context"
	"encoding/json"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
