// Package hub is the engine side of the Hub protocol of the Scan draughts
// engine (docs/hub.md).
//
// Run reads Hub lines from an io.Reader and answers on an io.Writer,
// driving a player (Config.Player, a *player.Player: the Hub parameters
// are its settings): GUIs and match tools start damka and talk to it over
// stdin/stdout, and tests run whole sessions as transcripts. The GUI side,
// which drives other engines, is package protocol/hubclient; the line
// syntax both sides share (ParseLine, Line.String) is package
// protocol/hubwire.
//
// Moves are read in any Hub form (captured squares in any order; a single
// capture with or without its captured square) and written in the full Hub
// form: "32-28", "28x19x23" with the captured squares in ascending order.
//
// On 8x8 boards positions have 33 characters and the variant is chosen with
// the "variant" parameter, as other 8x8 Hub clients do. With
// Config.AutoVariant (the variant never chosen), a 10x10 position selects
// international, as GUIs written for Scan expect. pos also reads a FEN.
package hub
