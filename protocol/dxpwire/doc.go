// Package dxpwire is the DamExchange protocol (DXP, docs/dxp.md) on the
// wire, shared by both sides of it: damka's engine (package protocol/dxp)
// and the client that drives other engines (package protocol/dxpclient).
// It imports only the rules core.
//   - Messages (message.go): GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT,
//     BACKREQ and BACKACC as Go values, with Encode/Decode of their
//     fixed-width wire form. Decode accepts exactly the spec's layouts and
//     names the field and offset of anything else.
//   - Framing (frame.go): Reader splits a byte stream at NUL bytes; an
//     over-long message is an error, never a hang or unbounded memory.
//   - Conversion (convert.go): DXP position strings and MOVE messages to and
//     from engine positions and moves, for 10x10 and damka's 8x8 extension;
//     a GAMEREQ's start position; game results to and from GAMEEND reasons;
//     names and texts made printable ASCII.
//   - TCP (net.go): the default port 27531, Listen (SO_REUSEADDR), Dial,
//     Shutdown.
package dxpwire
