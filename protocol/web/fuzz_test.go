//go:build !js

package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// cappedSearcher is a real search engine whose table and thread count are
// held small, so that a fuzzed set message cannot make the test allocate
// gigabytes.
type cappedSearcher struct{ *search.Engine }

func capOptions(o search.Options) search.Options {
	return search.Options{Threads: min(o.Threads, 2), HashMiB: min(o.HashMiB, 2)}
}

func (c cappedSearcher) SetOptions(o search.Options) { c.Engine.SetOptions(capOptions(o)) }

// FuzzMessage feeds a page's session arbitrary messages, one per line of
// the input (a line "binary" stands for a message that is not text): the
// session must not panic nor hang, must write only JSON objects with a
// "type", must still answer a last {"type":"pdn"} with a PDN game that
// reads back, and must end, its searches stopped, when the page goes.
func FuzzMessage(f *testing.F) {
	seeds := []string{
		`{"type":"move","move":"c3-d4"}` + "\n" + `{"type":"go"}` + "\n" + `{"type":"undo"}`,
		`{"type":"new","variant":"international","ballot":-1}` + "\n" + `{"type":"analyse"}` + "\n" + `{"type":"stop"}`,
		`{"type":"sides","white":"damka","black":"damka"}` + "\n" + `{"type":"level","nodes":500}` + "\n" + `{"type":"clock","base":2000,"inc":100}`,
		`{"type":"fen","fen":"W:W31,32:B1,2"}` + "\n" + `{"type":"set","name":"multipv","value":"3"}` + "\n" + `{"type":"analyse"}`,
		`{"type":"loadpdn","text":"[GameType \"21\"]\n1. 11-15 23-19 *"}` + "\n" + `{"type":"state"}`,
		`{"type":"set","name":"hash","value":"99999"}` + "\n" + `{"type":"set","name":"book-file","value":"/etc/passwd"}` + "\n" + "binary",
		`{"type":"level","movetime":-5,"depth":-1}` + "\n" + `{"type":"nope"}` + "\n" + `{}` + "\n" + `[1,2]` + "\n" + `{"type":"move","move":"x","extra":1}`,
		`{"type":"new","variant":"english","ballot":7}` + "\n" + `{"type":"set","name":"strength","value":"1"}` + "\n" + `{"type":"move","move":"11-15"}`,
		`{"type":"move","move":"c3-d4"}` + "\n" + `{"type":"goto","node":0}` + "\n" + `{"type":"move","move":"a3-b4"}` + "\n" + `{"type":"goto","node":1}` + "\n" + `{"type":"review","depth":3}`,
		`{"type":"loadpdn","text":"1. c3-d4 (1. a3-b4 (1. g3-h4) f6-g5) f6-e5?? *"}` + "\n" + `{"type":"goto","node":2}` + "\n" + `{"type":"review"}` + "\n" + `{"type":"goto","node":-3}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		p := player.New(player.Config{BookSeed: 1, NewSearcher: func(o search.Options) player.Searcher {
			return cappedSearcher{search.New(capOptions(o))}
		}})
		tr := &chanTransport{in: make(chan []byte), out: make(chan []byte, 64)}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Serve(context.Background(), Config{Version: "fuzz"}, tr, p)
		}()
		// Every message written is read here. The input is followed by a
		// pdn message and one of an unknown type, endMark: the error that
		// answers it comes after the answer to the pdn message, which is
		// then the last pdn answer read.
		const endMark = "fuzz-end-of-input"
		var bad []string
		var text string
		ended := make(chan struct{})
		drained := make(chan struct{})
		go func() {
			defer close(drained)
			last, seen := "", false
			for b := range tr.out {
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					bad = append(bad, string(b))
					continue
				}
				typ, _ := m["type"].(string)
				switch typ {
				case "":
					bad = append(bad, string(b))
				case "pdn":
					last, _ = m["text"].(string)
				case "error":
					if msg, _ := m["message"].(string); strings.Contains(msg, endMark) && !seen {
						text, seen = last, true
						close(ended)
					}
				}
			}
		}()
		send := func(b []byte) {
			select {
			case tr.in <- b:
			case <-time.After(30 * time.Second):
				t.Fatalf("the session read no message for 30 s on %q", input)
			}
		}
		lines := strings.Split(input, "\n")
		if len(lines) > 16 {
			lines = lines[:16]
		}
		for _, l := range lines {
			switch l {
			case "":
			case "binary":
				send(nil)
			default:
				send([]byte(l))
			}
		}
		send([]byte(`{"type":"pdn"}`))
		send([]byte(`{"type":"` + endMark + `"}`))
		select {
		case <-ended:
		case <-time.After(30 * time.Second):
			t.Fatalf("no answer to a pdn message within 30 s after %q", input)
		}
		close(tr.in)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("Serve did not end within 30 s after the page went, on %q", input)
		}
		close(tr.out)
		<-drained
		require.Empty(t, bad, "messages that are not JSON objects with a type, on %q", input)
		require.True(t, tr.closed.Load())
		g, err := pdn.NewReader(strings.NewReader(text), engine.Russian).Next()
		require.NoError(t, err, "the page's PDN does not read back:\n%s", text)
		require.NotNil(t, g)
	})
}
