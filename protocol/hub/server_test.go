package hub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubwire"
	"github.com/damka-draughts/damka/search"
)

// Positions of the transcripts, from PDN FEN.
var (
	blockedRussian = hubOf(engine.Russian, "W:W29:B25,22") // white to move is blocked
	singleEnglish  = hubOf(engine.English, "B:W26,27:B22") // one legal move: 22x31
)

func hubOf(v engine.VariantID, fen string) string {
	p, err := engine.ParseFEN(v, fen)
	if err != nil {
		panic(err)
	}
	return p.HubPosition()
}

// Golden transcripts: whole sessions, one per command and situation. Done
// moves are matched by pattern (the search improves) and checked for
// legality against the position given with "=".
var transcripts = []struct{ name, script string }{
	{"handshake", `
> hub` + helloRussian + `
> init
< ready
> ping
< pong
> quit
`},
	{"set-param before init", `
> hub` + helloRussian + `
> set-param name=variant value=english
> set-param name=threads value=2
> set-param name=hash value=8
> set-param name=book value=true
> set-param name=book-margin value=25
> set-param name=ponder value=on
> hub
< id name=damka version=test author="the damka authors"
< param name=variant value=english type=enum values="russian english brazilian international"
< param name=threads value=2 type=int min=1 max=256
< param name=hash value=8 type=int min=1 max=16384
< param name=book value=true type=bool
< param name=book-margin value=25 type=int min=0 max=1000
< param name=book-file value="" type=string
< param name=ponder value=true type=bool
< param name=move-overhead value=10 type=int min=0 max=10000
< param name=eval-file value="" type=string
< param name=egdb-path value="" type=string
< param name=egdb-pieces value=7 type=int min=0 max=7
< param name=multipv value=1 type=int min=1 max=32
< param name=strength value=10 type=int min=1 max=10
< wait
> init
< ready
> set-param name=book value=false
> pos pos=` + startEnglish + `
> level depth=2
> go think
= english ` + startEnglish + `
<~ done move=\S+ ponder=\S+
`},
	{"set-param after init, variant and table change without restart", `
> init
< ready
> pos
> level depth=2
> go think
= russian ` + startRussian + `
<~ done move=\S+ ponder=\S+
> set-param name=variant value=international
> set-param name=hash value=2
> set-param name=threads value=2
> pos pos=` + startIntl + `
> level depth=2
> go think
= international ` + startIntl + `
<~ done move=\S+ ponder=\S+
> set-param name=variant value=american
> init
< ready
> pos start
> level depth=2
> go think
= english ` + startEnglish + `
<~ done move=\S+ ponder=\S+
`},
	{"go without init", `
> pos
> level nodes=2000
> go think
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
`},
	{"new-game", `
> init
< ready
> new-game
> ping
< pong
`},
	{"stop during think", `
> init
< ready
> pos
> go think
> ping
< pong
> stop
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
> ping
< pong
`},
	{"ponder then ponder-hit", `
> init
< ready
> pos
> level depth=3
> go ponder
> ping
< pong
> ping
< pong
> ponder-hit
= russian ` + startRussian + `
<~ done move=\S+ ponder=\S+
`},
	{"ponder then stop", `
> init
< ready
> pos
> level move-time=0.01
> go ponder
> ping
< pong
> stop
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
`},
	{"ponder-hit with a clock", `
> init
< ready
> pos
> level time=1 inc=0.01
> go ponder
> ponder-hit
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
`},
	{"analyze until stop", `
> init
< ready
> pos
> level depth=2
> go analyze
<info info depth=2 .*
> ping
< pong
> stop
= russian ` + startRussian + `
<~ done move=\S+ ponder=\S+
`},
	{"analyze a single legal move", `
> init
< ready
> set-param name=variant value=english
> pos pos=` + singleEnglish + `
> go analyze
> ping
< pong
> stop
= english ` + singleEnglish + `
<~ done move=22x31x26( ponder=27-23)?
`},
	{"another line ends the search and is handled after done", `
> init
< ready
> pos
> go analyze
> ping
< pong
> hello
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
< error message="bad command"
> pos
> go think
> level depth=1
<~ done move=\S+( ponder=\S+)?
> go think
> pos
<~ done move=\S+( ponder=\S+)?
> ping
< pong
`},
	{"quit during a search", `
> init
< ready
> pos
> go analyze
> ping
< pong
> quit
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
`},
	{"an empty or negative clock answers at once", `
> pos
> level time=0
> go think
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
> level moves=3 time=-0.2
> go think
<~ done move=\S+( ponder=\S+)?
> level time=-0.05 inc=0.05
> go think
<~ done move=\S+( ponder=\S+)?
`},
	{"variant aliases", `
> set-param name=variant value=normal
> pos pos=` + startIntl + `
> set-param name=variant value=Standard
> set-param name=variant value=AMERICAN
> pos pos=` + startEnglish + `
> set-param name=variant value=frisian
< error message="set-param variant: unknown variant 'frisian' (want russian, english, brazilian, international; also accepted: american and checkers for english, normal and standard for international) (kept english)"
`},
	{"an empty value written '' or \"\"", `
> set-param name=book-file value=''
> set-param name=eval-file value=""
> set-param name=book-file value=
< error message="bad line: column 32: argument 'value' has '=' but no value (an empty value is written value='')"
> ping
< pong
`},
	{"a bad egdb-path is answered and the session goes on (a bad --egdb-path flag exits 2)", `
> set-param name=egdb-path value=/nonexistent/damka-egdb
<~ error message="set-param egdb-path: endgame tables: .*/nonexistent/damka-egdb.*\(playing with the embedded endgame tables\)"
> ping
< pong
`},
	{"stop and ponder-hit outside a search are ignored", `
> stop
> ponder-hit
> ping
< pong
`},
	{"no legal move", `
> pos pos=Webeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
> level depth=3
> go think
< error message="go: white to move has no legal move: the game is over (no search, no move)"
< done
> go ponder
< error message="go: white to move has no legal move: the game is over (no search, no move)"
< done
> pos pos=` + blockedRussian + `
> go analyze
< error message="go: white to move has no legal move: the game is over (no search, no move)"
< done
`},
	{"bad go", `
> go
< error message="go: missing mode: want go think, go ponder or go analyze (no search)"
< done
> go fast
< error message="go: missing mode: want go think, go ponder or go analyze: 'fast' is not one (no search)"
< done
> go think ponder
< error message="go: two modes, think and ponder (want one of think, ponder, analyze; no search)"
< done
> level depth=1
> go think now
< error message="go: unknown argument 'now' ignored"
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
`},
	{"bad lines", `
> foo
< error message="bad command"
> GO think
< error message="bad command"
>
< error message="missing command"
> pos pos="Wbbb
< error message="bad line: column 5: missing closing quote in the value of 'pos'"
> "go" think
< error message="bad line: column 1: unexpected ''' where the command should start (only a value, after name=, may be quoted)"
> level depth=
< error message="bad line: column 13: argument 'depth' has '=' but no value (an empty value is written depth='')"
> ping
< pong
`},
	{"unknown arguments of simple commands", `
> hub foo` + strings.Replace(helloRussian, "\n", "\n< error message=\"hub: unknown argument 'foo' (ignored; known: none)\"\n", 1) + `
> init foo
< error message="init: unknown argument 'foo' (ignored; known: none)"
< ready
> ping foo=1
< error message="ping: unknown argument 'foo' (ignored; known: none)"
< pong
> new-game bar
< error message="new-game: unknown argument 'bar' (ignored; known: none)"
> quit now
< error message="quit: unknown argument 'now' (ignored; known: none)"
`},
	{"set-param errors keep the old values", `
> set-param name=nosuch value=1
< error message="set-param: unknown parameter 'nosuch' (known: variant, threads, hash, book, book-margin, book-file, ponder, move-overhead, eval-file, egdb-path, egdb-pieces, multipv, strength)"
> set-param name=hash value=abc
< error message="set-param hash: value 'abc' is not an integer (want 1..16384) (kept 4)"
> set-param name=hash value=0
< error message="set-param hash: value 0 out of range 1..16384 (kept 4)"
> set-param name=hash value=16385
< error message="set-param hash: value 16385 out of range 1..16384 (kept 4)"
> set-param name=threads value=257
< error message="set-param threads: value 257 out of range 1..256 (kept 1)"
> set-param name=threads value=1.5
< error message="set-param threads: value '1.5' is not an integer (want 1..256) (kept 1)"
> set-param name=book value=maybe
< error message="set-param book: value 'maybe' is not a bool (want true or false) (kept false)"
> set-param name=ponder value=""
< error message="set-param ponder: value '' is not a bool (want true or false) (kept false)"
> set-param name=variant value=chess
< error message="set-param variant: unknown variant 'chess' (want russian, english, brazilian, international; also accepted: american and checkers for english, normal and standard for international) (kept russian)"
> set-param value=3
< error message="set-param: missing name="
> set-param name=hash
< error message="set-param: missing value= for 'hash'"
> set-param name=hash value=5 foo
< error message="set-param: unknown argument 'foo' ignored"
> set-param name=hash value=0 foo
< error message="set-param hash: value 0 out of range 1..16384 (kept 5); unknown argument 'foo' ignored"
> set-param name=hash value=4
> Set-Param name=hash value=8
< error message="bad command"
> set-param name=Hash value=8
< error message="set-param: unknown parameter 'Hash' (known: variant, threads, hash, book, book-margin, book-file, ponder, move-overhead, eval-file, egdb-path, egdb-pieces, multipv, strength)"
> hub` + helloRussian + `
`},
	{"level errors keep the old limits", `
> level depth=0
< error message="level: depth: value 0 out of range 1..120 (limits unchanged)"
> level depth=121
< error message="level: depth: value 121 out of range 1..120 (limits unchanged)"
> level depth=x nodes=-1
< error message="level: depth: value 'x' is not an integer (want 1..120); nodes: value '-1' is not a node count (want 1..9223372036854775807) (limits unchanged)"
> level nodes=0
< error message="level: nodes: value '0' is not a node count (want 1..9223372036854775807) (limits unchanged)"
> level move-time=0
< error message="level: move-time: 0 seconds out of range (more than 0 up to 1e+07) (limits unchanged)"
> level move-time=1e9
< error message="level: move-time: 1e9 seconds out of range (more than 0 up to 1e+07) (limits unchanged)"
> level time=1e8 inc=abc
< error message="level: time: 1e8 seconds out of range (0 up to 1e+07); inc: 'abc' is not a number of seconds (limits unchanged)"
> level inc=-1
< error message="level: inc: -1 seconds out of range (0 up to 1e+07) (limits unchanged)"
> level time=NaN
< error message="level: time: 'NaN' is not a number of seconds (limits unchanged)"
> level inc=+Inf
< error message="level: inc: '+Inf' is not a number of seconds (limits unchanged)"
> level moves=-1
< error message="level: moves: value -1 out of range 0..1000000 (limits unchanged)"
> level infinite=3
< error message="level: infinite: takes no value (write level infinite) (limits unchanged)"
> level depth=1 bogus
< error message="level: unknown argument 'bogus' ignored"
> level depth=x bogus
< error message="level: depth: value 'x' is not an integer (want 1..120) (limits unchanged); unknown argument 'bogus' ignored"
> go think
= russian ` + startRussian + `
<~ done move=\S+( ponder=\S+)?
`},
	{"pos errors", `
> pos pos=Wbad
< error message="pos: bad position: length 4, want 33 for russian (side to move and 32 squares) (position unchanged)"
> pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww
< error message="pos: bad position: character 0 is 'X': the side to move must be W or B (position unchanged)"
> pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx
< error message="pos: bad position: character 32 (square 32) is 'x': want w, b, W, B or e (position unchanged)"
> pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwb
< error message="pos: bad position: character 32: black man on square 32 stands on black's crowning row (position unchanged)"
> pos start pos=` + startRussian + `
< error message="pos: bad position: both start and pos= given (position unchanged)"
> pos pos=` + startIntl + `
< error message="pos: bad position: length 51, want 33 for russian (side to move and 32 squares); 51 characters is a 10x10 position: set-param name=variant value=international first (position unchanged)"
> pos start bogus
< error message="pos: unknown argument 'bogus' ignored"
> pos moves="22-17 11-15 99-1"
< error message="pos: bad move 3 of 3 in moves, '99-1': malformed: square '99': out of range 1..32 for russian (the 2 moves before it stay applied)"
> pos moves="22-18 11-15 21-17"
< error message="pos: bad move 3 of 3 in moves, '21-17': illegal: capture is compulsory; the piece on a3 has no legal move (the 2 moves before it stay applied)"
> pos moves="22-18 11-15 18-14"
< error message="pos: bad move 3 of 3 in moves, '18-14': illegal: capture is compulsory; no legal move of the piece on d4 matches (its moves: d4:f6) (the 2 moves before it stay applied)"
> pos moves="22-18 11-15 17-14"
< error message="pos: bad move 3 of 3 in moves, '17-14': illegal: white is to move and has no piece on b4 (it is empty) (the 2 moves before it stay applied)"
> pos moves="a1-b2 c3-d4"
< error message="pos: bad move 1 of 2 in moves, 'a1-b2': illegal: the piece on a1 has no legal move (no move applied)"
> pos moves="22-18 x"
< error message="pos: bad move 2 of 2 in moves, 'x': malformed: unexpected character 'x' at offset 0 (want a square) (the move before it stays applied)"
`},
	{"crlf input", "\n> hub\r" + strings.ReplaceAll(helloRussian, "\n<", "\n<") + "\n> init\r\n< ready\n> ping \r\n< pong\n"},
}

func TestTranscripts(t *testing.T) {
	for _, tc := range transcripts {
		t.Run(tc.name, func(t *testing.T) {
			transcript(t, tc.script)
		})
	}
}

// TestPosErrorsKeepState: a bad move keeps the good prefix of the moves,
// which the next go searches; after a refused position the next go gets
// an error and a done without a move, with no search (the old position is
// not one the GUI sent), until a pos is taken.
func TestPosErrorsKeepState(t *testing.T) {
	hs := startSession(t, testConfig())
	start := engine.StartPosition(engine.Russian)
	after := func(moves ...string) *engine.Position {
		g := playHub(t, start, moves...)
		p := g.Position()
		return &p
	}
	hs.send("pos moves=\"22-18 11-15\"")
	steps := []struct {
		send string
		want *engine.Position // nil: refused, no search
	}{
		{"pos pos=Wbad", nil},
		{"pos moves=\"22-17 11-15 99-1\"", after("22-17", "11-15")},
		{"pos start pos=" + startRussian, nil},
		{"pos pos=" + strings.Repeat("e", 51), nil}, // no side to move
		{"pos moves=\"22-18 11-15 21-17\"", after("22-18", "11-15")},
		{"pos pos=W:W99:B1", nil},
		{"pos moves=\"a1-b2 c3-d4\"", &start},
	}
	searches := 0
	for _, st := range steps {
		hs.send(st.send)
		hs.expect("~error message=.*")
		hs.send("level depth=1", "go think")
		if st.want == nil {
			hs.expect("~error message=\"go: no search: the last pos was refused \\(.+\\); send a valid pos first\"")
			hs.expect("done")
			if searches > 0 {
				hs.spy.mu.Lock()
				n := len(hs.spy.calls)
				hs.spy.mu.Unlock()
				require.Equal(t, searches, n, "no search after %s", st.send)
			}
			continue
		}
		hs.expect("~done move=.*")
		searches++
		got := hs.spy.last(t)
		assert.Equal(t, st.want.HubPosition(), got.pos.HubPosition(), "after %s", st.send)
		assert.Equal(t, 1, got.limits.Depth)
	}
	hs.finish()
}

// playHub plays Hub move texts from p, failing the test on a bad one.
func playHub(t *testing.T, p engine.Position, moves ...string) *engine.Game {
	t.Helper()
	g := engine.NewGame(p)
	for _, s := range moves {
		cur := g.Position()
		m, err := cur.ParseMove(s)
		require.NoError(t, err)
		g.Play(m)
	}
	return g
}

// TestLevelAccumulation: level lines add up, pos and done reset them, and
// go ponder / go analyze add their mode.
func TestLevelAccumulation(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("pos", "level depth=3", "level nodes=5000", "level moves=40 time=60.5 inc=0.25", "level move-time=2", "go think")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{Depth: 3, Nodes: 5000, MovesToGo: 40, Time: 60500 * time.Millisecond,
		Inc: 250 * time.Millisecond, MoveTime: 2 * time.Second}, hs.spy.last(t).limits)

	// Reset after done: no limit at all, the search waits for stop.
	hs.send("go think", "ping")
	hs.expect("pong")
	hs.send("stop")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{}, hs.spy.last(t).limits)

	// An empty clock is a clock, not "no limit"; a negative one counts as 0.
	hs.send("level moves=2 time=-1.5", "go think")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{MovesToGo: 2, MoveTime: time.Millisecond}, hs.spy.last(t).limits)
	hs.send("level time=-0.5 inc=0.1", "go think")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{Inc: 100 * time.Millisecond}, hs.spy.last(t).limits)

	// Reset by pos.
	hs.send("level depth=5", "pos", "level nodes=300", "go think")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{Nodes: 300}, hs.spy.last(t).limits)

	// A later value replaces an earlier one; a bad line changes nothing.
	hs.send("level depth=5", "level depth=2", "level depth=9 nodes=x", "go ponder", "ping")
	hs.expect("~error.*")
	hs.expect("pong")
	hs.send("stop")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{Depth: 2, Ponder: true}, hs.spy.last(t).limits)

	hs.send("level infinite", "go analyze", "ping")
	hs.expect("pong")
	hs.send("stop")
	hs.expect("~done.*")
	assert.Equal(t, search.Limits{Infinite: true}, hs.spy.last(t).limits)
	hs.finish()
}

// TestMoveOverheadParam: move-overhead reaches the search limits (0: none;
// the default: the search's default) and the session's player sets its
// starting value.
func TestMoveOverheadParam(t *testing.T) {
	hs := startSession(t, testConfig())
	for _, c := range []struct {
		value string
		want  time.Duration
	}{{"25", 25 * time.Millisecond}, {"0", -1}, {"10", 0}, {"10000", 10 * time.Second}} {
		hs.send("set-param name=move-overhead value="+c.value, "pos", "level move-time=0.01", "go think")
		hs.expect("~done.*")
		assert.Equal(t, search.Limits{MoveTime: 10 * time.Millisecond, MoveOverhead: c.want}, hs.spy.last(t).limits, c.value)
	}
	hs.send("set-param name=move-overhead value=-1", "set-param name=move-overhead value=10001")
	hs.expect(`error message="set-param move-overhead: value -1 out of range 0..10000 (kept 10000)"`)
	hs.expect(`error message="set-param move-overhead: value 10001 out of range 0..10000 (kept 10000)"`)
	hs.finish()

	// The player's setting is the parameter's value from the start.
	for _, c := range []struct {
		value string
		want  time.Duration
	}{{"3", 3 * time.Millisecond}, {"0", -1}} {
		hs := startSession(t, testConfig(), player.SetMoveOverhead, c.value)
		hs.send("pos", "level move-time=0.01", "go think")
		hs.expect("~done.*")
		assert.Equal(t, search.Limits{MoveTime: 10 * time.Millisecond, MoveOverhead: c.want}, hs.spy.last(t).limits, c.value)
		hs.finish()
	}
}

// TestHistoryAndDrawState: the moves of pos become the repetition history
// and draw counters of the search.
func TestHistoryAndDrawState(t *testing.T) {
	// Kings only: the Hub GUI sends the king moves since the last
	// irreversible move after the position.
	p, err := engine.ParseFEN(engine.Russian, "W:WK30:BK3")
	require.NoError(t, err)
	kings := p.HubPosition()
	g := engine.NewGame(p)
	moves := []string{}
	for len(moves) < 6 {
		cur := g.Position()
		var l engine.MoveList
		cur.Generate(&l)
		played := false
		for _, m := range l.Slice() {
			next := cur.Play(m)
			if m.Captured == 0 && !next.HasCapture() {
				moves = append(moves, cur.FormatMove(m, engine.FormatHub))
				g.Play(m)
				played = true
				break
			}
		}
		require.True(t, played, "no quiet king move in %s", cur.FEN())
	}
	hs := startSession(t, testConfig())
	hs.send("pos pos="+kings+" moves=\""+strings.Join(moves, " ")+"\"", "level depth=2", "go think")
	hs.expect("~done.*")
	c := hs.spy.last(t)
	keys := g.Keys()
	assert.Equal(t, keys[:len(keys)-1], c.history)
	assert.Equal(t, g.Position(), c.pos)
	assert.Equal(t, engine.DrawState{Reversible: 6, Balance: 6}, c.limits.Draw)

	// Without moves: no history, fresh counters.
	hs.send("pos pos="+kings, "level depth=2", "go think")
	hs.expect("~done.*")
	c = hs.spy.last(t)
	assert.Empty(t, c.history)
	assert.Equal(t, engine.DrawState{}, c.limits.Draw)
	hs.finish()
}

// TestPydraughtsCases: the move forms other Hub clients send.
func TestPydraughtsCases(t *testing.T) {
	// Brazilian: a capture with its captured squares in another order.
	const br = "Bbbbbebbbbbwbeeeewweeweeewwewwwww"
	for _, mv := range []string{"8x13x11x17x18", "8x13x18x17x11", "8x13x17x11x18"} {
		hs := startSession(t, testConfig())
		hs.send("set-param name=variant value=brazilian", "pos pos="+br+" moves="+mv, "level depth=1", "go think")
		hs.expect("~done.*")
		p, _ := engine.ParseHubPosition(engine.Brazilian, br)
		want := playHub(t, p, "g7:e5:c3:a5").Position()
		assert.Equal(t, want.HubPosition(), hs.spy.lastHub(t), mv)
		hs.finish()
	}

	// English: a single capture with and without its captured square.
	for _, mv := range []string{"15x24", "15x24x19"} {
		hs := startSession(t, testConfig())
		hs.send("set-param name=variant value=english", "pos moves=\"11-15 24-19 "+mv+"\"", "level depth=1", "go think")
		hs.expect("~done.*")
		want := playHub(t, engine.StartPosition(engine.English), "11-15", "24-19", "15x24x19").Position()
		assert.Equal(t, want.HubPosition(), hs.spy.lastHub(t), mv)
		hs.finish()
	}

	// Russian: two captures with the same origin and destination.
	const ru1 = "WbeeeebebeeweebbbeeeeeeBeeeeweeee"
	p1, err := engine.ParseHubPosition(engine.Russian, ru1)
	require.NoError(t, err)
	for mv, want := range map[string]string{
		"11x20x16":          "11x20x16",
		"11x20":             "11x20x16", // a complete single jump
		"11x20x16x15x14x6":  "11x20x6x14x15x16",
		"11x20x6x14x15x16":  "11x20x6x14x15x16",
		"11x20x15x6x16x14 ": "11x20x6x14x15x16",
	} {
		hs := startSession(t, testConfig())
		hs.send("pos pos="+ru1+" moves=\""+mv+"\"", "level depth=1", "go think")
		hs.expect("~done.*")
		wp := playHub(t, p1, want).Position()
		assert.Equal(t, wp.HubPosition(), hs.spy.lastHub(t), mv)
		hs.finish()
	}
	// ... and one where the ends alone are ambiguous.
	const ru2 = "BeeeeeeeeeeBebeweeeeeeewweweeeeee"
	p2 := playHub(t, mustHub(t, engine.Russian, ru2), "11x20x15x23x24").Position()
	ru2After := p2.HubPosition()
	transcript(t, `
> pos pos=`+ru2+` moves=11x20
< error message="pos: bad move 1 of 1 in moves, '11x20': ambiguous: 11x20x15x23x24 or 11x20x15x24x26 (no move applied)"
> pos pos=`+ru2+` moves=11x20x24x15x23
> level depth=2
> go think
= russian `+ru2After+`
<~ done move=\S+( ponder=\S+)?
`)
}

func mustHub(t *testing.T, v engine.VariantID, s string) engine.Position {
	t.Helper()
	p, err := engine.ParseHubPosition(v, s)
	require.NoError(t, err)
	return p
}

// TestWholeGame: every move of real games sent in one moves= list, with
// the captured squares written in descending order.
func TestWholeGame(t *testing.T) {
	path := testfiles.Path(t, "russian_ussr_championship_X.pdn")
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r := pdn.NewReader(f, engine.Russian)
	var longest *pdn.Game
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			continue
		}
		final := g.Position()
		if final.CountMoves(&engine.MoveList{}, false) > 0 && (longest == nil || len(g.Moves) > len(longest.Moves)) {
			longest = g
		}
	}
	require.NotNil(t, longest)
	game := longest.Game()
	require.Greater(t, game.Ply(), 40)
	var texts []string
	for i, m := range game.Moves() {
		p := game.PositionAt(i)
		texts = append(texts, descendingHub(p.FormatMove(m, engine.FormatHub)))
	}
	hs := startSession(t, testConfig())
	start := game.Start()
	hs.send("pos pos="+start.HubPosition()+" moves=\""+strings.Join(texts, " ")+"\"", "level depth=1", "go analyze", "ping")
	hs.expect("pong")
	hs.send("stop")
	final := game.Position()
	got := hs.expect("~done.*")
	checkDone(t, &final, got)
	c := hs.spy.last(t)
	assert.Equal(t, final.HubPosition(), c.pos.HubPosition())
	assert.Len(t, c.history, game.Ply())
	assert.Equal(t, game.DrawState(), c.limits.Draw)
	hs.finish()
}

// descendingHub rewrites a Hub capture with its captured squares in
// descending order.
func descendingHub(s string) string {
	parts := strings.Split(s, "x")
	if len(parts) < 4 {
		return s
	}
	capt := parts[2:]
	for i, j := 0, len(capt)-1; i < j; i, j = i+1, j-1 {
		capt[i], capt[j] = capt[j], capt[i]
	}
	return strings.Join(parts, "x")
}

// TestEndOfInput: the session ends cleanly at the end of input, also in
// the middle of a search (which is answered first) and of a line.
func TestEndOfInput(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("init")
	hs.expect("ready")
	hs.send("go analyze", "ping")
	hs.expect("pong")
	hs.in.Close()
	hs.expect("~done move=\\S+( ponder=\\S+)?")
	hs.end()

	hs = startSession(t, testConfig())
	hs.sendRaw("ping") // no line ending
	hs.in.Close()
	hs.expect("pong")
	hs.end()
}

// TestContextCancel: cancelling the context ends Run, also during a search.
func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	var out logjson.Buffer
	errc := make(chan error, 1)
	cfg := testConfig()
	cfg.Player = testPlayer(t, player.Config{})
	go func() { errc <- Run(ctx, inR, &out, cfg) }()
	_, err := io.WriteString(inW, "go analyze\n")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "info ") }, waitLimit, time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(waitLimit):
		require.FailNow(t, "Run did not return after cancel")
	}
	assert.Regexp(t, `(?m)^done move=\S+`, out.String())
}

// TestLongLine: a line over hubwire.MaxLineBytes is refused and the session goes on.
func TestLongLine(t *testing.T) {
	hs := startSession(t, testConfig())
	go func() {
		_, _ = io.WriteString(hs.in, "pos moves=\""+strings.Repeat("x", hubwire.MaxLineBytes+10)+"\"\nping\n")
	}()
	hs.expect(fmt.Sprintf("error message=\"line too long: %d bytes (at most %d)\"", hubwire.MaxLineBytes+23, hubwire.MaxLineBytes))
	hs.expect("pong")
	hs.finish()
}

// TestGarbageLines: a 2 MB line (during a search: it ends the search, as
// any line but ping, stop and ponder-hit does, and is then refused),
// binary garbage (NUL, invalid UTF-8, control bytes), a lone carriage
// return and an unterminated quote are each answered with an error line
// and the session goes on, to a last line without a newline at the end of
// input.
func TestGarbageLines(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("init")
	hs.expect("ready")
	hs.send("go analyze")
	long := strings.Repeat("pos pos=x ", 2<<20/10) + "\n"
	go func() { _, _ = io.WriteString(hs.in, long) }()
	hs.expect(`~done move=\S+( ponder=\S+)?`)
	hs.expect(fmt.Sprintf("error message=\"line too long: %d bytes (at most %d)\"", len(long), hubwire.MaxLineBytes))
	for _, garbage := range []string{
		"\x00\x01\x02\xff\xfe garbage \x1b[0m",
		"\xc3\x28 \xa0\xa1",
		"\r",
		`set-param name="threads value=2`,
		"ping \x00",
	} {
		hs.send(garbage)
		hs.expect(`~error message=".+"`)
	}
	hs.send("pos", "level depth=2", "go think")
	hs.expect(`~done move=\S+( ponder=\S+)?`)
	hs.sendRaw("ping")
	hs.in.Close()
	hs.expect("pong")
	hs.end()
}

// TestWriteError: Run returns when its output fails.
func TestWriteError(t *testing.T) {
	err := Run(context.Background(), strings.NewReader("ping\nping\n"), failingWriter{}, testConfig())
	assert.ErrorContains(t, err, "writing output")
}

type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errors.New("broken pipe") }

func TestFormatScore(t *testing.T) {
	cases := map[int]string{
		0: "0.00", 1: "0.01", -1: "-0.01", 100: "1.00", -250: "-2.50", 1234: "12.34",
		search.Mate - 1: "99.99", search.Mate - 7: "99.93", -(search.Mate - 2): "-99.98",
		search.MateBound + 1: "98.73",
	}
	for cs, want := range cases {
		assert.Equal(t, want, search.FormatScore(cs), "%d", cs)
	}
}

// brokenSearcher runs the real search and then spoils its result, to check
// that a search bug never reaches the GUI as an illegal move.
type brokenSearcher struct {
	*search.Engine
	spoil func(*search.Result)
}

func (b brokenSearcher) SearchJob(ctx context.Context, j *search.Job) search.Result {
	r := b.Engine.SearchJob(ctx, j)
	b.spoil(&r)
	return r
}

func TestSearchResultGuards(t *testing.T) {
	run := func(spoil func(*search.Result)) string {
		cfg := testConfig()
		cfg.Player = testPlayer(t, player.Config{NewSearcher: func(o search.Options) player.Searcher { return brokenSearcher{search.New(o), spoil} }})
		var out bytes.Buffer
		require.NoError(t, Run(context.Background(), strings.NewReader("level depth=1\ngo think\n"), &out, cfg))
		return out.String()
	}
	// An illegal move: reported, and the first legal move is played instead.
	out := run(func(r *search.Result) { r.Move = engine.Move{From: 1, To: 2} })
	start := engine.StartPosition(engine.Russian)
	var l engine.MoveList
	start.Generate(&l)
	first := start.FormatMove(l.Moves[0], engine.FormatHub)
	assert.Contains(t, out, "error message=\"internal error: the search returned an illegal move; playing the first legal move\"\ndone move="+first+"\n")
	// No move at all: the same.
	out = run(func(r *search.Result) { r.HasMove = false })
	assert.Contains(t, out, "error message=\"internal error: the search returned no move; playing the first legal move\"\ndone move="+first+"\n")
	// A ponder move that is not legal after the move is left out.
	out = run(func(r *search.Result) { r.PV = []engine.Move{r.Move, {From: 1, To: 2}} })
	assert.Regexp(t, `(?m)^done move=\S+$`, out)
}

// TestBookMoves checks the book parameter: with the book on (the default)
// go think and go ponder answer a book position at once with a legal book
// move and no search; go analyze and book off search.
func TestBookMoves(t *testing.T) {
	for _, v := range engine.AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			cfg := testConfig()
			sp := &spy{}
			cfg.Player = testPlayer(t, player.Config{BookSeed: 7,
				NewSearcher: func(o search.Options) player.Searcher { sp.Engine = search.New(o); return sp }},
				player.SetBook, "true")
			in := fmt.Sprintf("hub\nset-param name=variant value=%s\ninit\npos\nlevel depth=2\ngo think\npos\nlevel depth=2\ngo ponder\n"+
				"pos\nlevel depth=2\ngo analyze\nstop\nset-param name=book value=false\npos\nlevel depth=2\ngo think\nquit\n", v)
			var out bytes.Buffer
			require.NoError(t, Run(context.Background(), strings.NewReader(in), &out, cfg))
			var dones []string
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(line, "done") {
					dones = append(dones, line)
				}
			}
			require.Len(t, dones, 4, out.String())
			start := engine.StartPosition(v)
			b, err := book.Default(v)
			require.NoError(t, err)
			for _, d := range dones[:2] { // think and ponder: a book move, no ponder move
				f := strings.Fields(d)
				require.Len(t, f, 2, d)
				m, err := start.ParseMove(strings.TrimPrefix(f[1], "move="))
				require.NoError(t, err, d)
				found := false
				for _, e := range b.Probe(&start) {
					found = found || e.Move == m
				}
				assert.True(t, found, "%s is not a book move", d)
			}
			sp.mu.Lock()
			defer sp.mu.Unlock()
			assert.Len(t, sp.calls, 2, "only analyze and the book-off think search")
		})
	}
}

// TestAutoVariant: while the variant was never chosen (Config.AutoVariant,
// no set-param variant), a 51-character position or a FEN with 10x10
// squares selects international, as pydraughts' HubEngine and other GUIs
// written for Scan expect; a chosen variant is kept and such a position
// refused. A FEN is read as well as a Hub position string.
func TestAutoVariant(t *testing.T) {
	intl := engine.StartPosition(engine.International)
	intlHub := intl.HubPosition()
	require.Len(t, intlHub, 51)

	cfg := testConfig()
	cfg.AutoVariant = true
	hs := startSession(t, cfg)
	hs.send("hub")
	skipTo(hs, "wait")
	hs.send("init")
	hs.expect("ready")
	hs.send("pos pos="+intlHub+" moves=\"32-28 19-23\"", "level depth=2", "go think")
	done := hs.expect("~done move=.*")
	got := hs.spy.last(t)
	assert.Equal(t, engine.International, got.pos.V)
	g := playHub(t, intl, "32-28", "19-23")
	want := g.Position()
	assert.Equal(t, want.HubPosition(), got.pos.HubPosition())
	requireHubMove(t, &want, strings.TrimPrefix(strings.Fields(done)[1], "move="))
	hs.send("hub")
	hs.expect("~id .*")
	hs.expect("~param name=variant value=international .*")
	skipTo(hs, "wait")
	// pydraughts also sends FENs.
	hs.send("pos pos=W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 moves=35-30",
		"level depth=1", "go think")
	hs.expect("~done move=.*")
	got = hs.spy.last(t)
	g = playHub(t, intl, "35-30")
	want = g.Position()
	assert.Equal(t, want.HubPosition(), got.pos.HubPosition())
	hs.finish()

	// A FEN that only fits 10x10 selects international too.
	hs = startSession(t, cfg)
	hs.send("pos pos=B:W45:B5", "level depth=1", "go think")
	hs.expect("~done move=.*")
	assert.Equal(t, engine.International, hs.spy.last(t).pos.V)
	hs.finish()

	// A Russian FEN in a Russian session.
	hs = startSession(t, cfg)
	hs.send("pos pos=W:W21-32:B1-12", "level depth=1", "go think")
	hs.expect("~done move=.*")
	ru, searched := engine.StartPosition(engine.Russian), hs.spy.last(t).pos
	assert.Equal(t, engine.Russian, searched.V)
	assert.Equal(t, ru.HubPosition(), searched.HubPosition())
	hs.finish()

	// The variant chosen by set-param (or by --variant: AutoVariant off)
	// is kept: the 10x10 position is refused and go answers no move.
	for _, chosen := range []bool{true, false} {
		c := testConfig()
		c.AutoVariant = chosen
		hs = startSession(t, c)
		if chosen {
			hs.send("set-param name=variant value=russian")
		}
		hs.send("pos pos="+intlHub, "go think")
		hs.expect("~error message=\"pos: bad position: length 51, want 33 for russian .*51 characters is a 10x10 position: set-param name=variant value=international first.*")
		hs.expect("~error message=\"go: no search: the last pos was refused .*")
		hs.expect("done")
		hs.send("hub")
		hs.expect("~id .*")
		hs.expect("~param name=variant value=russian .*")
		skipTo(hs, "wait")
		hs.finish()
	}
}

// TestDefaultPlayer: without Config.Player the session drives a player
// with every setting at the table's default, and the zero Config answers
// hub with damka's name.
func TestDefaultPlayer(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, Run(context.Background(), strings.NewReader("hub\n"), &out, Config{}))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	settings := player.Settings()
	require.Len(t, lines, len(settings)+2, out.String())
	assert.Equal(t, "id name=damka", lines[0])
	for i, st := range settings {
		assert.Equal(t, paramLine(st, st.Default).String(), lines[i+1])
	}
	assert.Equal(t, "wait", lines[len(lines)-1])
}

// TestManyKingsAnswersInTime: in a position whose first iteration is huge
// (20 kings against 20, capture trees), a 0.2 s move is answered in time,
// and an analysis ends at once at stop and when the input closes.
func TestManyKingsAnswersInTime(t *testing.T) {
	const manyKings = "BWWBeWBBBWWBWBWWBeeWBeeBBBBBWBBBeWeWeBeBWBWWWWBWeWW"
	hs := startSession(t, testConfig())
	hs.send("set-param name=variant value=international", "init")
	hs.expect("ready")
	hs.send("pos pos="+manyKings, "level move-time=0.2")
	start := time.Now()
	hs.send("go think")
	hs.expect("~done move=\\S+(?: ponder=\\S+)?")
	assert.Less(t, time.Since(start), 2*time.Second, "a 0.2 s move")

	hs.send("pos pos="+manyKings, "level infinite", "go analyze")
	time.Sleep(300 * time.Millisecond)
	start = time.Now()
	hs.send("stop")
	hs.expect("~done move=\\S+(?: ponder=\\S+)?")
	assert.Less(t, time.Since(start), time.Second, "stop")

	hs.send("pos pos="+manyKings, "level infinite", "go analyze")
	time.Sleep(300 * time.Millisecond)
	start = time.Now()
	hs.in.Close()
	hs.expect("~done move=\\S+(?: ponder=\\S+)?")
	assert.Less(t, time.Since(start), time.Second, "end of input")
	hs.end()
}
