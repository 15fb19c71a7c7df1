// Package hubwire is the line syntax of the Hub protocol (docs/hub.md "Line
// syntax"), shared by both sides of it: damka's engine (package
// protocol/hub) and the client that drives other engines (package
// protocol/hubclient).
//
// A line is "command name=value flag ...": ParseLine reads one into a Line
// (its command and its arguments in order), Line.String writes one back.
// Values are tokens or double-quoted strings without escapes; MaxLineBytes
// bounds the lines either side reads.
package hubwire
