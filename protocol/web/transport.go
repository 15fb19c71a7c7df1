// Package web is damka in a browser: an HTTP server of one embedded page
// (plain HTML, CSS and JavaScript) and a WebSocket that speaks small JSON
// messages with it. Each WebSocket connection drives a *player.Player of its
// own: the board, the legal moves with their paths, damka's moves and
// analysis, the settings, FEN and PDN in and out, the clocks and games
// against external engines named on the command line.
//
// The session behind a page talks to it through a Transport: the server's
// WebSocket, or in the js/wasm build (cmd/damka-wasm) a Web Worker's
// postMessage, where the same page runs with no server and no external
// engines.
//
// It is a front end beside Hub, DXP, CheckerBoard and the text mode. It never
// starts a program or reads a file by name on the page's request: external
// engines are started through Config.StartEngine, by a name the command line
// gave; settings that name files are shown but not set from the page.
package web

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// Engine is an external engine the page can play against: a Hub engine the
// command line named. Its methods are called from one goroutine at a time.
type Engine interface {
	// Think returns the engine's move in g's current position under
	// limits; it returns early with an error when ctx ends.
	Think(ctx context.Context, g *engine.Game, limits search.Limits) (engine.Move, error)
	// Close ends the engine and its process.
	Close() error
}

// Config sets up a Server.
type Config struct {
	// NewPlayer makes the player of one page (required): a fresh one for
	// each WebSocket connection.
	NewPlayer func() (*player.Player, error)
	// Engines are the names of the external engines the page may pick
	// (none: damka only).
	Engines []string
	// StartEngine starts the external engine called name, one of
	// Engines; the server closes it when the page goes.
	StartEngine func(ctx context.Context, name string) (Engine, error)
	// Version is damka's version, shown on the page.
	Version string
	// Loopback, when true, refuses requests whose Host is not a loopback
	// name or address (localhost, 127.0.0.1, ::1): a page of another site
	// cannot reach the server through a name that resolves to 127.0.0.1.
	Loopback bool
	// Token, when not empty, is the secret every request must carry: the
	// page's address holds it as ?token=..., which also sets a cookie for
	// the page's other requests and its WebSocket. Requests without it are
	// refused with 403.
	Token string
	// MaxPages bounds the pages (WebSocket sessions) open at once; a page
	// past it is told so and closed. 0: no bound.
	MaxPages int
	// MaxHashMiB bounds the hash setting a page may set, in MiB (the
	// command line's own value is not bounded). 0: the setting's maximum.
	MaxHashMiB int
	// MaxThreads bounds the threads setting a page may set (the command
	// line's own value is not bounded). 0: the setting's maximum.
	MaxThreads int
	// Log receives connections and errors. The zero Logger is silent.
	Log zerolog.Logger
}

// bound is the server's bound on the page's setting name and the gui flag
// that sets it (0 and "" when the server bounds it no further than the
// setting's own range).
func (c *Config) bound(name string) (int, string) {
	switch name {
	case player.SetHash:
		return c.MaxHashMiB, "--max-hash"
	case player.SetThreads:
		return c.MaxThreads, "--max-threads"
	}
	return 0, ""
}

// Transport carries one page's messages, JSON text each way: the server's
// WebSocket, or a Web Worker's postMessage in the js/wasm build. The session
// calls Read from one goroutine and Write from another.
type Transport interface {
	// Read returns the page's next message. An error wrapping ErrNotText
	// is answered with an error message and the session reads on; any
	// other error ends the session.
	Read(ctx context.Context) ([]byte, error)
	// Write sends one message to the page; an error ends the session.
	Write(ctx context.Context, msg []byte) error
	// Close ends the transport; the session calls it last.
	Close() error
}

// ErrNotText is what a Transport's Read returns for a message that is not
// text (a binary WebSocket message).
var ErrNotText = errors.New("messages are JSON text, not binary")

// MaxMessageBytes bounds one message from the page (a pasted PDN text is
// the largest): the page refuses to send a longer one and says so, and the
// server closes a WebSocket that sends one anyway, with the reason.
const MaxMessageBytes = 16 << 20

// writeTimeout bounds the sending of one message to the page.
const writeTimeout = 10 * time.Second

// Serve runs the session of one page over t with p as its player, until
// t's Read fails or ctx ends (cfg's NewPlayer, Loopback are not used).
// When it returns, the search is stopped, the engines are closed, every
// goroutine of the session has ended and t is closed.
func Serve(ctx context.Context, cfg Config, t Transport, p *player.Player) {
	newSession(cfg, t, p).run(ctx)
}
