// Package match plays matches between two draughts engines, each spoken to
// over Hub (a child process on stdin/stdout, docs/hub.md) or DXP (TCP,
// docs/dxp.md): a seeded schedule of opening pairs (Schedule, Shard), the
// runner that referees every game with the rules core and its own clocks
// (Run, Config, Limits, EngineSpec), adjudication by draw and resign rules
// or the endgame databases, each game written to PDN as it ends, and the
// statistics of the result: Elo with its interval, pentanomial counts,
// normalized Elo and the SPRT (Stats, SPRT), also recomputed from the PDN
// files of several runs (ReadPDN, MergeGames). docs/match.md describes the
// `damka match` command built on it.
//
// The engines are driven through protocol/hubclient and protocol/dxpclient:
// the runner needs the rules core, not damka's own engine, which it runs,
// when asked to, as a process like any other.
package match
