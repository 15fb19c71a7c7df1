package dxpwire

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostPort(t *testing.T) {
	cases := map[string]string{
		"":               ":27531",
		":":              ":27531",
		"localhost":      "localhost:27531",
		"127.0.0.1:1234": "127.0.0.1:1234",
		"[::1]":          "[::1]:27531",
		"::1":            "[::1]:27531",
		"[::1]:99":       "[::1]:99",
		"host:":          "host:27531",
	}
	for in, want := range cases {
		assert.Equal(t, want, HostPort(in), in)
	}
}

// TestListenDialShutdown: Dial reaches Listen's listener, and after
// Shutdown the peer reads the messages sent and then the end of the
// stream while the connection still reads.
func TestListenDialShutdown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ln, err := Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		b, _ := io.ReadAll(c)
		_, _ = c.Write([]byte("bye\x00"))
		got <- b
	}()
	c, err := Dial(ctx, ln.Addr().String(), 5*time.Second)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, WriteMessage(c, &Chat{Text: "hi"}))
	Shutdown(c)
	assert.Equal(t, []byte("Chi\x00"), <-got)
	b, err := NewReader(c).ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "bye", string(b))
	Shutdown(io.NopCloser(nil)) // no CloseWrite: nothing to do
}
