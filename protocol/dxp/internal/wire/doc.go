// Package wire is DXP's codec (docs/dxp.md), used by package dxp's
// sessions:
//   - Messages (message.go): GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT,
//     BACKREQ and BACKACC as Go values, with Encode/Decode of their
//     fixed-width wire form. Decode accepts exactly the spec's layouts and
//     names the field and offset of anything else.
//   - Framing (frame.go): Reader splits a byte stream at NUL bytes; an
//     over-long message is an error, never a hang or unbounded memory.
//   - Conversion (convert.go): DXP position strings and MOVE messages to and
//     from engine positions and moves, for 10x10 and damka's 8x8 extension.
package wire
