// Package layers holds no code: its test checks, with `go list -deps`, that
// damka's imports point one way, from the front ends down to the rules core:
//
//	engine                        the rules core
//	pdn, protocol/hubwire,        PDN files and binary game records; the
//	protocol/dxpwire              Hub line syntax; DXP on the wire
//	eval, book, egdb, openings,   evaluation, opening book, endgame
//	protocol/hubclient,           databases, opening decks; the clients
//	protocol/dxpclient            that drive other engines over Hub and DXP
//	search, learn                 search, TT, time; the evaluation's trainer
//	player, review                the settings, their resources and one game;
//	                              game review (PDN games annotated by the
//	                              search: damka review and the page)
//	protocol/hub, protocol/dxp,   the front ends: Hub, DXP, CheckerBoard and
//	protocol/cb, protocol/text,   the text mode (a person at a terminal)
//	protocol/web                  and the browser page (damka gui)
//	bench, match                  perft, bench, suites, self-play; the match
//	                              runner and its statistics (drives engines
//	                              through the clients)
//	internal/cli, internal/soak   the damka command: subcommands and flags;
//	                              make soak (many fast games, every front end)
//	cmd/damka                     the single binary (main calls internal/cli);
//	cmd/damka-cb, cmd/damka-wasm  damka.dll; damka.wasm for the page with no server
//
// A package may import only packages of lower layers, never one beside it
// (hub does not import dxp or text, eval does not import book); internal/testfiles
// is for tests only. A new package gets its layer in the test's table.
//
// The clients of other engines, the match runner and the soak do not link
// damka's engine (search, player, eval, book) at all, even through a
// package of a lower layer: the test checks that too.
package layers
