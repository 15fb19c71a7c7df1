package dxp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// firstLegal is a searcher that plays the first legal move at once.
type firstLegal struct{}

func (firstLegal) SearchJob(_ context.Context, j *search.Job) search.Result {
	p := j.Position()
	var l engine.MoveList
	p.Generate(&l)
	if l.N == 0 {
		return search.Result{}
	}
	return search.Result{Move: l.Moves[0], HasMove: true, Depth: 1}
}
func (firstLegal) Clear()                    {}
func (firstLegal) SetOptions(search.Options) {}

// pacedConn is the peer of a fuzzed session: it delivers a script of DXP
// frames and records what damka writes. An empty frame in the script (a
// NUL right after a NUL, or at its start) is a pause, not sent: the script
// goes on once damka has written one more frame than the pauses so far
// asked for, or after pauseWait without one, so that a script can answer
// damka's moves in turn.
type pacedConn struct {
	data   []byte
	pos    int
	target int // frames of damka the pauses so far waited for
	pauses int

	mu     sync.Mutex
	out    bytes.Buffer
	frames int
	wrote  chan struct{}
}

const (
	pauseWait = 10 * time.Millisecond
	maxPauses = 64 // pauses after these are not waited for
)

func newPacedConn(script []byte) *pacedConn {
	return &pacedConn{data: script, wrote: make(chan struct{}, 1)}
}

func (c *pacedConn) Read(b []byte) (int, error) {
	for c.pos < len(c.data) && c.data[c.pos] == 0 && (c.pos == 0 || c.data[c.pos-1] == 0) {
		c.pos++
		c.target++
		if c.pauses++; c.pauses <= maxPauses {
			c.await()
		}
	}
	if c.pos >= len(c.data) {
		return 0, io.EOF
	}
	// Up to the end of the frame: the pause after it is seen in time.
	n := len(c.data) - c.pos
	if i := bytes.IndexByte(c.data[c.pos:], 0); i >= 0 {
		n = i + 1
	}
	n = copy(b, c.data[c.pos:c.pos+n])
	c.pos += n
	return n, nil
}

// await waits until damka has written c.target frames, or for pauseWait
// without one (then the pauses start counting from what it wrote).
func (c *pacedConn) await() {
	t := time.NewTimer(pauseWait)
	defer t.Stop()
	for {
		c.mu.Lock()
		n := c.frames
		c.mu.Unlock()
		if n >= c.target {
			return
		}
		select {
		case <-c.wrote:
		case <-t.C:
			c.target = n
			return
		}
	}
}

func (c *pacedConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.out.Write(b)
	c.frames += bytes.Count(b, []byte{0})
	c.mu.Unlock()
	select {
	case c.wrote <- struct{}{}:
	default:
	}
	return len(b), nil
}

func (c *pacedConn) Close() error { return nil }

// fuzzSession is what a fuzzed session did.
type fuzzSession struct {
	sum     Summary
	err     error
	records []*GameRecord
	sent    []dxpwire.Message // damka's messages, in order
}

// runFuzzSession runs damka (variant v, role) against script, damka
// playing the first legal move, and checks what every session must
// satisfy: it ends when the script does (no hang), with no error or one
// that says the peer disconnected or what failed; damka writes only
// well-formed frames; every game begun is recorded once, counted once in
// the summary, and its PDN record writes and reads back the same.
func runFuzzSession(t *testing.T, v engine.VariantID, role Role, script []byte) fuzzSession {
	t.Helper()
	p := player.New(player.Config{BookSeed: 1, NewSearcher: func(search.Options) player.Searcher { return firstLegal{} }})
	p.SetVariant(v)
	if err := p.Set(player.SetBook, "false"); err != nil {
		t.Fatal(err)
	}
	var fs fuzzSession
	cfg := Config{
		Variant: v, Role: role, Name: "damka", Player: p, Games: 2, Minutes: 1,
		AckTimeout: 5 * time.Second, PeerTimeout: 5 * time.Second, MessageGap: -1,
		Logger: zerolog.Nop(),
		OnGame: func(r *GameRecord) { fs.records = append(fs.records, r) },
	}
	conn := newPacedConn(script)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fs.sum, fs.err = Run(ctx, conn, cfg)
	if ctx.Err() != nil {
		t.Fatalf("the session did not end with the script (%v)", fs.err)
	}
	if fs.err != nil && !errors.Is(fs.err, ErrDisconnected) && !strings.HasPrefix(fs.err.Error(), "dxp: ") {
		t.Fatalf("session error %v: neither a disconnection nor a dxp error", fs.err)
	}

	out := conn.out.Bytes()
	if len(out) > 0 && out[len(out)-1] != 0 {
		t.Fatalf("damka's last message has no NUL: %q", out)
	}
	for f := range bytes.SplitSeq(out, []byte{0}) {
		if len(f) == 0 {
			continue // after the last NUL
		}
		m, err := dxpwire.Decode(f)
		if err != nil || len(f) > dxpwire.MaxMessageLen {
			t.Fatalf("damka sent %q: %v", f, err)
		}
		fs.sent = append(fs.sent, m)
	}

	s := fs.sum
	if s.Games != s.Wins+s.Draws+s.Losses+s.Unfinished || len(fs.records) != s.Games {
		t.Fatalf("summary %v, %d games recorded", s, len(fs.records))
	}
	for i, r := range fs.records {
		var b bytes.Buffer
		if err := pdn.Write(&b, r.PDN); err != nil {
			t.Fatalf("game %d (%s): its PDN does not write: %v", i+1, r.Reason, err)
		}
		g, err := pdn.NewReader(&b, engine.Russian).Next()
		if err != nil || g.Variant != v || !slices.Equal(g.Moves, r.PDN.Moves) || g.Result != r.Result.PDN(v) {
			t.Fatalf("game %d (%s): its PDN does not read back (%v):\n%s", i+1, r.Reason, err, b.String())
		}
		if (r.Outcome == Unfinished) != (r.Result == engine.Ongoing) {
			t.Fatalf("game %d: outcome %v, result %v", i+1, r.Outcome, r.Result)
		}
	}
	return fs
}

// scriptWriter builds a fuzz seed: the peer's frames and pauses.
type scriptWriter struct{ b []byte }

func (w *scriptWriter) msg(m dxpwire.Message) {
	b, err := dxpwire.AppendFrame(w.b, m)
	if err != nil {
		panic(err)
	}
	w.b = b
}

// wait pauses until damka has written n more frames.
func (w *scriptWriter) wait(n int) { w.b = append(w.b, make([]byte, n)...) }

// play appends plies plies of a game from start in which damka plays us
// (its first legal move; the script waits for it) and the peer its last
// legal move, and returns the position reached.
func (w *scriptWriter) play(start engine.Position, us engine.Color, plies int) engine.Position {
	p := start
	for range plies {
		var l engine.MoveList
		p.Generate(&l)
		if l.N == 0 {
			break
		}
		m := l.Moves[l.N-1]
		if p.Side == us {
			m = l.Moves[0]
			w.wait(1)
		} else {
			w.msg(dxpwire.MoveMessage(&p, m, 1))
		}
		p = p.Play(m)
	}
	return p
}

// gameReqFor is the peer's GAMEREQ of a game from start, damka (the
// follower) playing us.
func gameReqFor(start *engine.Position, us engine.Color) *dxpwire.GameReq {
	m := &dxpwire.GameReq{Version: dxpwire.Version, Name: "peer", FollowerColor: us, Minutes: 1}
	m.SetStart(start)
	return m
}

// dxpSeeds are scripts for either role of variant v: games played in turn,
// a set-up position, per-move GAMEREQs, a take-back request, garbage.
func dxpSeeds(v engine.VariantID) (follower, initiator [][]byte) {
	start := engine.StartPosition(v)
	first := v.Rules().FirstToMove
	var w scriptWriter
	// A game with damka second, left by the peer without a result; then
	// one with damka first, drawn by the peer, no more games.
	w.msg(gameReqFor(&start, first.Opp()))
	w.wait(1) // GAMEACC
	w.play(start, first.Opp(), 10)
	w.msg(&dxpwire.GameEnd{Reason: dxpwire.EndNone})
	w.wait(1) // its acknowledgement
	w.msg(gameReqFor(&start, first))
	w.wait(1) // GAMEACC
	w.play(start, first, 9)
	w.msg(&dxpwire.Chat{Text: "hello"})
	w.msg(&dxpwire.BackReq{MoveNumber: 2, ToMove: first})
	w.wait(1) // BACKACC
	w.msg(&dxpwire.GameEnd{Reason: dxpwire.EndDraw, Stop: dxpwire.StopNoMore})
	w.wait(1)
	follower = append(follower, w.b)

	// A set-up position, suspended and continued by a GAMEREQ one move on
	// (the per-move GAMEREQ style); garbage mid-game and between games; a
	// GAMEREQ of another version.
	w = scriptWriter{}
	p := start
	for range 6 {
		var l engine.MoveList
		p.Generate(&l)
		p = p.Play(l.Moves[l.N/2])
	}
	us := p.Side.Opp()
	w.msg(gameReqFor(&p, us))
	w.wait(1) // GAMEACC
	q := w.play(p, us, 4)
	w.msg(&dxpwire.GameEnd{Reason: dxpwire.EndNone})
	w.wait(1)
	var l engine.MoveList
	q.Generate(&l)
	if l.N > 0 {
		q = q.Play(l.Moves[l.N-1])
	}
	w.msg(gameReqFor(&q, us))
	w.wait(2) // GAMEACC, MOVE
	w.b = append(w.b, "M00zz\x00"...)
	w.wait(2) // CHAT, GAMEEND
	w.msg(&dxpwire.GameEnd{Reason: dxpwire.EndNone})
	w.b = append(w.b, "Xyz\x00"...)
	w.wait(1) // CHAT
	w.msg(&dxpwire.GameReq{Version: 2, Name: "old", FollowerColor: engine.White})
	w.wait(2) // CHAT, GAMEACC
	follower = append(follower, w.b)

	// Initiator: the peer accepts game 1 (damka White), plays, claims a
	// win; it refuses game 2.
	w = scriptWriter{}
	w.wait(1) // GAMEREQ
	w.msg(&dxpwire.GameAcc{Name: "peer", Code: dxpwire.AccAccepted})
	w.play(start, engine.White, 7)
	w.msg(&dxpwire.GameEnd{Reason: dxpwire.EndWin})
	w.wait(2) // the acknowledgement, GAMEREQ
	w.msg(&dxpwire.GameAcc{Name: "peer", Code: dxpwire.AccRefused})
	initiator = append(initiator, w.b)
	return follower, initiator
}

// FuzzDXPSession plays a DXP session of damka against a peer that sends an
// arbitrary script of frames (seeds: games played in turn, see pacedConn
// for the pauses). Besides runFuzzSession's checks, a follower keeps
// serving: it answers every well-formed GAMEREQ with one GAMEACC, whatever
// came before, and the games it refused are those its GAMEACCs refused.
func FuzzDXPSession(f *testing.F) {
	for v := range engine.NumVariants {
		fol, ini := dxpSeeds(v)
		for _, s := range fol {
			f.Add(s, uint8(v), false)
		}
		for _, s := range ini {
			f.Add(s, uint8(v), true)
		}
	}
	f.Fuzz(func(t *testing.T, script []byte, vb uint8, initiator bool) {
		v := engine.VariantID(vb % uint8(engine.NumVariants))
		role := Follower
		if initiator {
			role = Initiator
		}
		fs := runFuzzSession(t, v, role, script)
		if role != Follower {
			return
		}
		reqs := 0
		r := dxpwire.NewReader(bytes.NewReader(script))
		for {
			raw, err := r.ReadMessage()
			if err != nil {
				var fe *dxpwire.FrameError
				if errors.As(err, &fe) {
					continue
				}
				break
			}
			if m, err := dxpwire.Decode(raw); err == nil && m.Kind() == dxpwire.KindGameReq {
				reqs++
			}
		}
		accs, refused := 0, 0
		for _, m := range fs.sent {
			if a, ok := m.(*dxpwire.GameAcc); ok {
				accs++
				if a.Code == dxpwire.AccRefused || a.Code == dxpwire.AccWrongVersion {
					refused++
				}
			}
		}
		if accs != reqs || refused != fs.sum.Refused {
			t.Fatalf("%d GAMEREQs, %d GAMEACCs (%d refusing); summary %v", reqs, accs, refused, fs.sum)
		}
	})
}

// FuzzDXPBoard reads arbitrary GAMEREQ position strings as damka's
// follower does (dxpwire.DecodeBoard). An error names the wrong length, or
// the first square whose character is not e, w, z, W or Z, or what is
// wrong with the position; a position it accepts writes back to the same
// string, with the side to move of the request, reads back from its FEN,
// and every legal move in it goes through a MOVE message and back; and a
// follower given the GAMEREQ accepts exactly the positions it decodes (the
// game not over), refusing the others with a CHAT that names the fault.
func FuzzDXPBoard(f *testing.F) {
	for v := range engine.NumVariants {
		p := engine.StartPosition(v)
		b := dxpwire.EncodeBoard(&p)
		f.Add(b, uint8(v), false)
		f.Add(strings.Replace(b, "w", "Z", 3), uint8(v), true)
		f.Add(strings.Replace(b, "e", "x", 1), uint8(v), false)
		f.Add("W"+b[1:len(b)-1]+"w", uint8(v), true) // a white man on its crowning row
		f.Add(strings.Repeat("e", len(b)-2)+"wz", uint8(v), false)
	}
	f.Fuzz(func(t *testing.T, board string, vb uint8, black bool) {
		v := engine.VariantID(vb % uint8(engine.NumVariants))
		side := engine.White
		if black {
			side = engine.Black
		}
		p, err := dxpwire.DecodeBoard(v, side, board)
		n := v.Rules().Squares
		if err != nil {
			msg := err.Error()
			bad := strings.IndexFunc(board, func(r rune) bool { return !strings.ContainsRune("ewzWZ", r) })
			switch {
			case len(board) != n:
				if want := fmt.Sprintf("position has %d squares, %s needs %d", len(board), v.Rules().Name, n); msg != want {
					t.Fatalf("%q: error %q, want %q", board, msg, want)
				}
			case bad >= 0:
				if !strings.HasPrefix(msg, fmt.Sprintf("position: square %d is ", bad+1)) {
					t.Fatalf("%q: error %q does not name square %d", board, msg, bad+1)
				}
			case !strings.HasPrefix(msg, "position: ") || len(msg) <= len("position: "):
				t.Fatalf("%q: error %q says nothing", board, msg)
			}
		} else {
			if back := dxpwire.EncodeBoard(&p); back != board || p.Side != side || p.V != v || p.Key != p.ComputeKey() {
				t.Fatalf("%q decodes to %s (side %v), which encodes as %q", board, p.FEN(), p.Side, back)
			}
			q, err := engine.ParseFEN(v, p.FEN())
			if err != nil || q.Pieces != p.Pieces || q.Kings != p.Kings || q.Side != p.Side {
				t.Fatalf("%q: its FEN %s reads back as %s (%v)", board, p.FEN(), q.FEN(), err)
			}
			var l engine.MoveList
			p.Generate(&l)
			for _, m := range l.Slice() {
				enc, err := dxpwire.Encode(dxpwire.MoveMessage(&p, m, 0))
				if err != nil {
					t.Fatalf("%s: move %s does not encode: %v", p.FEN(), p.FormatMove(m, engine.FormatFull), err)
				}
				dm, err := dxpwire.Decode(enc)
				if err != nil {
					t.Fatalf("%s: move %s: %q does not decode: %v", p.FEN(), p.FormatMove(m, engine.FormatFull), enc, err)
				}
				if back, err := dxpwire.FindMove(&p, dm.(*dxpwire.Move)); err != nil || back != m {
					t.Fatalf("%s: move %s as %q comes back as %v (%v)", p.FEN(), p.FormatMove(m, engine.FormatFull), enc, back, err)
				}
			}
		}

		// The follower, given the request (its board as sent, when the
		// frame can carry it).
		if len(board) != n || strings.ContainsAny(board, "\x00") {
			return
		}
		req := gameReqFor(&p, side.Opp())
		req.Setup, req.ToMove, req.Board = true, side, board
		raw, eerr := dxpwire.Encode(req)
		if eerr != nil {
			return // not a board the wire form can carry (Decode never gives one)
		}
		fs := runFuzzSession(t, v, Follower, append(raw, 0, 0))
		var acc *dxpwire.GameAcc
		var chat string
		for _, m := range fs.sent {
			switch m := m.(type) {
			case *dxpwire.GameAcc:
				if acc != nil {
					t.Fatalf("%q: two GAMEACCs", board)
				}
				acc = m
			case *dxpwire.Chat:
				chat = m.Text
			}
		}
		if acc == nil {
			t.Fatalf("%q: no GAMEACC", board)
		}
		over := err == nil && func() bool { r, _ := engine.NewGame(p).Result(); return r != engine.Ongoing }()
		switch {
		case err == nil && !over:
			if acc.Code != dxpwire.AccAccepted || fs.sum.Games != 1 || fs.sum.Refused != 0 {
				t.Fatalf("%s (%q): not accepted: %v, CHAT %q", p.FEN(), board, acc.Code, chat)
			}
			if st := fs.records[0].PDN.Start; st.Pieces != p.Pieces || st.Kings != p.Kings || st.Side != p.Side {
				t.Fatalf("%q: the game starts from %s, not %s", board, st.FEN(), p.FEN())
			}
		case acc.Code != dxpwire.AccRefused || fs.sum.Games != 0 || fs.sum.Refused != 1:
			t.Fatalf("%q (%v): answered %v, summary %v", board, err, acc.Code, fs.sum)
		case err != nil && !strings.Contains(chat, dxpwire.ASCIIText(err.Error(), dxpwire.MaxChatText-len("damka: GAMEREQ "))):
			t.Fatalf("%q: refused with CHAT %q, not naming %v", board, chat, err)
		}
	})
}
