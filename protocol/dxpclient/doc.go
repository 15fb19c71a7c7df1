// Package dxpclient drives another engine over the DamExchange protocol
// (DXP, docs/dxp.md) as the initiator of its games, for a caller that
// referees them: the match runner and damka gui. It imports only the rules
// core and the DXP wire (protocol/dxpwire), not damka's own engine, whose
// DXP side is package protocol/dxp.
//
// Connect with dxpwire.Dial (or use any stream) and start a Client with
// New; then per game NewGame (GAMEREQ, waiting for GAMEACC), SendMove and
// ReadMove in turn, and EndGame (GAMEEND either way); Close ends the
// session. The caller keeps the game, the rules and the clocks: ReadMove
// returns the engine's move checked legal, or a *GameEnd when the engine
// ended the game instead.
package dxpclient
