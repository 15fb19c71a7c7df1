// Package dxp is damka's DamExchange protocol (DXP): engine-against-engine
// play over TCP (docs/dxp.md).
//
// Layers:
//   - The wire (package protocol/dxpwire, shared with the client that
//     drives other engines, protocol/dxpclient): the messages as Go values
//     with their fixed-width encoding, NUL framing, DXP position strings
//     and MOVE messages to and from engine positions and moves, and TCP
//     (Listen with SO_REUSEADDR, Dial, the default port 27531).
//   - Sessions (session.go, with its methods by role in transport.go,
//     initiator.go, follower.go, play.go, think.go, record.go and
//     endings.go): Run plays a session in either DXP role on any
//     io.ReadWriteCloser, playing damka's side through a player.Player
//     (Config.Player: the engine's settings, its book and its search).
//
// damka's readings of what the spec leaves open:
//   - 8x8 variants: squares 01..32 in the variant's own numbering, a
//     32-character position after 'B', and 'A' meaning the variant's start
//     position with its first mover to move (Black in English draughts).
//     Both sides must be started with the same variant.
//   - The GAMEREQ "number of moves" is the game's move limit: the time is
//     for that many moves per player, and a game that reaches it is drawn
//     (the side to move sends GAMEEND draw; a peer's GAMEEND without result
//     at that point is read the same way).
//   - A GAMEEND without result (E00) from the initiator keeps the game
//     open on the follower's side: a GAMEREQ whose position is the current
//     one, or follows from it by one legal move, continues it (peers that
//     send a fresh GAMEREQ before every move). Any other GAMEREQ starts a
//     new game and the old one is recorded as unfinished.
//   - BACKACC: 0 accepted, 1 not supported, 2 refused (damka in match
//     play).
//   - Two messages damka sends back to back (GAMEACC then its first MOVE,
//     BACKACC then the MOVE after a takeback) are Config.MessageGap apart,
//     for clients that take one socket read for one message.
//   - A silent peer: after its remaining clock plus Config.PeerTimeout the
//     game is ended without result and the session ends.
package dxp
