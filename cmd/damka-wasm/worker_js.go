//go:build js && wasm

package main

import (
	"context"
	"io"
	"sync"
	"syscall/js"

	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/web"
	buildversion "github.com/damka-draughts/damka/version"
)

// main serves the page of the Web Worker it runs in: one player, one
// session, until the worker is terminated.
func main() {
	t := newWorkerTransport(js.Global())
	web.Serve(context.Background(), web.Config{Version: buildversion.String()}, t, player.New(player.Config{}))
}

// workerTransport is a web.Transport over the worker's postMessage: each
// message a JSON string each way.
type workerTransport struct {
	self    js.Value
	onMsg   js.Func
	mu      sync.Mutex
	queue   [][]byte      // the page's messages not read yet, oldest first
	arrived chan struct{} // signalled when queue grows
}

// newWorkerTransport takes over self's onmessage.
func newWorkerTransport(self js.Value) *workerTransport {
	t := &workerTransport{self: self, arrived: make(chan struct{}, 1)}
	// The callback must not block (it runs on the event loop): it queues
	// the message and signals Read.
	t.onMsg = js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		t.mu.Lock()
		if data.Type() == js.TypeString {
			t.queue = append(t.queue, []byte(data.String()))
		} else {
			t.queue = append(t.queue, nil)
		}
		t.mu.Unlock()
		select {
		case t.arrived <- struct{}{}:
		default:
		}
		return nil
	})
	self.Set("onmessage", t.onMsg)
	return t
}

// Read returns the page's next message, web.ErrNotText for one that is
// not a string.
func (t *workerTransport) Read(ctx context.Context) ([]byte, error) {
	for {
		t.mu.Lock()
		if len(t.queue) > 0 {
			b := t.queue[0]
			t.queue = t.queue[1:]
			t.mu.Unlock()
			if b == nil {
				return nil, web.ErrNotText
			}
			return b, nil
		}
		t.mu.Unlock()
		select {
		case <-t.arrived:
		case <-ctx.Done():
			return nil, io.EOF
		}
	}
}

// Write posts msg to the page as a string.
func (t *workerTransport) Write(_ context.Context, msg []byte) error {
	t.self.Call("postMessage", string(msg))
	return nil
}

// Close stops listening to the page.
func (t *workerTransport) Close() error {
	t.self.Set("onmessage", js.Null())
	t.onMsg.Release()
	return nil
}
