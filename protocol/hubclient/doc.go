// Package hubclient is the GUI side of the Hub protocol of the Scan
// draughts engine (docs/hub.md): it drives another engine (any Hub 2
// engine, damka among them) for the match runner, damka gui and damka
// solve. It imports only the rules core and the Hub line syntax
// (protocol/hubwire), not damka's own engine.
//
// Start runs an engine process (New talks over any pair of streams) and
// returns a Client: Handshake (hub, set-param, init; it fails on any error
// answer and on an engine that does not speak Hub 2), SetPosition or
// SetGame, SetLevel, then Think, or Go with Search.Stop, Search.PonderHit
// and Search.Wait, and Close. A search past its deadline is stopped; an
// engine that does not answer within the stop grace is killed
// (ErrEngineHung). Moves are read and written in Hub's notation.
//
// Files: client.go (the process, reading and sending lines, killing and
// closing), handshake.go (the commands outside a search) and search.go
// (levels, searches and their answers).
package hubclient
