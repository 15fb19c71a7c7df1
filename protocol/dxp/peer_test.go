package dxp

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// fakeEngine plays the first legal move, after waiting think (or until
// its context ends), and records the limits of every search.
type fakeEngine struct {
	mu     sync.Mutex
	think  time.Duration
	limits []search.Limits
	clears int
}

func (f *fakeEngine) SearchJob(ctx context.Context, j *search.Job) search.Result {
	f.mu.Lock()
	f.limits = append(f.limits, j.Limits())
	think := f.think
	f.mu.Unlock()
	if think > 0 {
		t := time.NewTimer(think)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	p := j.Position()
	var list engine.MoveList
	p.Generate(&list)
	if list.N == 0 {
		return search.Result{}
	}
	return search.Result{Move: list.Moves[0], HasMove: true}
}

func (f *fakeEngine) Clear() {
	f.mu.Lock()
	f.clears++
	f.mu.Unlock()
}

func (f *fakeEngine) SetOptions(search.Options) {}

func (f *fakeEngine) setThink(d time.Duration) {
	f.mu.Lock()
	f.think = d
	f.mu.Unlock()
}

func (f *fakeEngine) searches() []search.Limits {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]search.Limits(nil), f.limits...)
}

// runResult is what Run returned.
type runResult struct {
	sum Summary
	err error
}

// peer is a scripted DXP program driven by the test goroutine.
type peer struct {
	t     *testing.T
	conn  net.Conn
	r     *dxpwire.Reader
	chats []string
}

// scripted returns a Config for damka whose player searches with a fake
// engine, and the engine.
func scripted(v engine.VariantID, role Role) (Config, *fakeEngine, *endpoint) {
	ep := newEndpoint(v, role, "damka")
	fe := &fakeEngine{}
	ep.cfg.Player = newPlayer(v, func(search.Options) player.Searcher { return fe })
	ep.cfg.Limits = search.Limits{}
	ep.cfg.AckTimeout = 2 * time.Second
	return ep.cfg, fe, ep
}

// startDamka runs damka with cfg on a loopback listener and connects the
// scripted peer to it. The channel delivers Run's result.
func startDamka(t *testing.T, ctx context.Context, cfg Config) (*peer, <-chan runResult) {
	t.Helper()
	ln, err := dxpwire.Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	done := make(chan runResult, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			done <- runResult{err: err}
			return
		}
		sum, err := Run(ctx, conn, cfg)
		done <- runResult{sum, err}
	}()
	c, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return &peer{t: t, conn: c, r: dxpwire.NewReader(c)}, done
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// send writes wire and a NUL.
func (p *peer) send(wire string) {
	p.t.Helper()
	require.NoError(p.t, p.conn.SetWriteDeadline(time.Now().Add(5*time.Second)))
	_, err := p.conn.Write([]byte(wire + "\x00"))
	require.NoError(p.t, err)
}

func (p *peer) sendMsg(m dxpwire.Message) {
	p.t.Helper()
	b, err := dxpwire.Encode(m)
	require.NoError(p.t, err)
	p.send(string(b))
}

// recvAny returns the next message, CHAT included.
func (p *peer) recvAny() dxpwire.Message {
	p.t.Helper()
	require.NoError(p.t, p.conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	raw, err := p.r.ReadMessage()
	require.NoError(p.t, err)
	m, err := dxpwire.Decode(raw)
	require.NoError(p.t, err, "damka sent a malformed message %q", raw)
	return m
}

// recv returns the next message that is not a CHAT (CHATs are kept).
func (p *peer) recv() dxpwire.Message {
	p.t.Helper()
	for {
		m := p.recvAny()
		if c, ok := m.(*dxpwire.Chat); ok {
			p.chats = append(p.chats, c.Text)
			continue
		}
		return m
	}
}

func (p *peer) expectAcc(code dxpwire.AccCode) {
	p.t.Helper()
	m := p.recv()
	acc, ok := m.(*dxpwire.GameAcc)
	require.True(p.t, ok, "want GAMEACC, got %#v", m)
	assert.Equal(p.t, code, acc.Code)
	assert.Equal(p.t, "damka", acc.Name)
}

func (p *peer) expectEnd() *dxpwire.GameEnd {
	p.t.Helper()
	m := p.recv()
	e, ok := m.(*dxpwire.GameEnd)
	require.True(p.t, ok, "want GAMEEND, got %#v", m)
	return e
}

// expectMove reads damka's MOVE and plays it in g.
func (p *peer) expectMove(g *engine.Game) {
	p.t.Helper()
	m := p.recv()
	mm, ok := m.(*dxpwire.Move)
	require.True(p.t, ok, "want MOVE, got %#v", m)
	pos := g.Position()
	mv, err := dxpwire.FindMove(&pos, mm)
	require.NoError(p.t, err)
	g.Play(mv)
}

// playMove sends the last legal move of g's position (damka's fake engine
// plays the first) and plays it in g.
func (p *peer) playMove(g *engine.Game) {
	p.t.Helper()
	pos := g.Position()
	var list engine.MoveList
	pos.Generate(&list)
	require.Positive(p.t, list.N)
	m := list.Moves[list.N-1]
	p.sendMsg(dxpwire.MoveMessage(&pos, m, 1))
	g.Play(m)
}

// expectClosed reads until damka closes the connection.
func (p *peer) expectClosed() {
	p.t.Helper()
	require.NoError(p.t, p.conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		_, err := p.r.ReadMessage()
		if err == nil {
			continue
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			p.t.Fatalf("damka did not close the connection: %v", err)
		}
		return
	}
}

// localMove plays the last legal move in g without sending it.
func (p *peer) localMove(g *engine.Game) {
	pos := g.Position()
	var list engine.MoveList
	pos.Generate(&list)
	require.Positive(p.t, list.N)
	g.Play(list.Moves[list.N-1])
}

func result(t *testing.T, done <-chan runResult) runResult {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(testTimeout):
		t.Fatal("damka's session did not end")
	}
	return runResult{}
}

func gameReq(follower engine.Color, p *engine.Position) *dxpwire.GameReq {
	r := &dxpwire.GameReq{Version: dxpwire.Version, Name: "peer", FollowerColor: follower, Minutes: 5, Moves: 0}
	if p != nil {
		r.Setup, r.ToMove, r.Board = true, p.Side, dxpwire.EncodeBoard(p)
	}
	return r
}

// TestPerMoveGameReq: a peer that sends a fresh GAMEREQ with the current
// position before every move and E00 after damka's reply. damka keeps one
// game record for the whole game.
func TestPerMoveGameReq(t *testing.T) {
	v := engine.International
	cfg, fe, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	g := engine.NewGame(engine.StartPosition(v))
	const rounds = 11
	for i := range rounds {
		pos := g.Position()
		p.sendMsg(gameReq(engine.White, &pos))
		p.expectAcc(dxpwire.AccAccepted)
		p.expectMove(g)
		if i == rounds-1 {
			break
		}
		p.send("E00")
		assert.Equal(t, &dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: dxpwire.StopContinue}, p.expectEnd())
		p.localMove(g) // not sent: the next GAMEREQ carries it
	}
	p.send("E21") // the peer, on move, claims a draw; no more games
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 1, Draws: 1}, r.sum)
	require.Len(t, ep.records, 1)
	rec := ep.records[0]
	assert.Equal(t, g.Moves(), rec.PDN.Moves, "one record with every move")
	assert.Equal(t, "GAMEEND from the peer: draw", rec.Reason)
	assert.Equal(t, 1, fe.clears, "one game, one Clear")
	assert.Len(t, fe.searches(), rounds)
}

// A per-move peer in this test sends each of its moves as a MOVE too
// (before the next GAMEREQ): damka must read it and see that the GAMEREQ
// position is the current one.
func TestPerMoveGameReqWithMoves(t *testing.T) {
	v := engine.Russian
	cfg, _, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	g := engine.NewGame(engine.StartPosition(v))
	for range 5 {
		pos := g.Position()
		p.sendMsg(gameReq(engine.Black, &pos))
		p.expectAcc(dxpwire.AccAccepted)
		if pos.Side == engine.White {
			p.playMove(g)
		}
		p.expectMove(g)
	}
	p.send("E10") // the peer resigns on its move
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 1, Wins: 1}, r.sum)
	require.Len(t, ep.records, 1)
	assert.Equal(t, g.Moves(), ep.records[0].PDN.Moves)
}

// TestGameEndOutOfTurn: the peer ends the game while damka is thinking.
func TestGameEndOutOfTurn(t *testing.T) {
	v := engine.International
	cfg, fe, ep := scripted(v, Follower)
	fe.setThink(time.Minute)
	p, done := startDamka(t, testContext(t), cfg)
	p.sendMsg(gameReq(engine.White, nil)) // damka has White and is to move
	p.expectAcc(dxpwire.AccAccepted)
	time.Sleep(50 * time.Millisecond) // damka is thinking
	start := time.Now()
	p.send("E10") // "I lose", sent while not on move
	end := p.expectEnd()
	assert.Less(t, time.Since(start), 2*time.Second, "the search is stopped at once")
	assert.Equal(t, dxpwire.EndNone, end.Reason)

	// The session goes on in a defined state.
	fe.setThink(0)
	g := engine.NewGame(engine.StartPosition(v))
	p.sendMsg(gameReq(engine.Black, nil))
	p.expectAcc(dxpwire.AccAccepted)
	p.playMove(g)
	p.expectMove(g)
	p.send("E21")
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 2, Wins: 1, Draws: 1}, r.sum)
	require.Len(t, ep.records, 2)
	assert.Empty(t, ep.records[0].PDN.Moves, "no move was sent in game 1")
	assert.Len(t, ep.records[1].PDN.Moves, 2)
}

// TestPeerDisconnects: damka as initiator; the peer loses game 1, then
// disconnects in game 2. Game 1 is kept, game 2 is recorded unfinished.
func TestPeerDisconnects(t *testing.T) {
	v := engine.Brazilian
	cfg, _, ep := scripted(v, Initiator)
	cfg.Games, cfg.Minutes, cfg.Moves = 3, 2, 50
	p, done := startDamka(t, testContext(t), cfg)

	req := p.recv().(*dxpwire.GameReq)
	assert.Equal(t, engine.Black, req.FollowerColor, "game 1: damka has White")
	assert.Equal(t, &dxpwire.GameReq{Version: 1, Name: "damka", FollowerColor: engine.Black, Minutes: 2, Moves: 50}, req)
	p.sendMsg(&dxpwire.GameAcc{Name: "peer", Code: dxpwire.AccAccepted})
	g := engine.NewGame(engine.StartPosition(v))
	p.expectMove(g)
	p.send("E10")
	assert.Equal(t, &dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: dxpwire.StopContinue}, p.expectEnd())

	req = p.recv().(*dxpwire.GameReq)
	assert.Equal(t, engine.White, req.FollowerColor, "game 2: colours alternate")
	p.sendMsg(&dxpwire.GameAcc{Name: "peer", Code: dxpwire.AccAccepted})
	g = engine.NewGame(engine.StartPosition(v))
	p.playMove(g)
	p.expectMove(g)
	p.conn.Close()

	r := result(t, done)
	assert.ErrorIs(t, r.err, ErrDisconnected)
	assert.Equal(t, Summary{Games: 2, Wins: 1, Unfinished: 1}, r.sum)
	require.Len(t, ep.records, 2)
	assert.Equal(t, Win, ep.records[0].Outcome)
	assert.Equal(t, Unfinished, ep.records[1].Outcome)
	assert.Equal(t, "*", ep.records[1].PDN.Result)
	assert.Equal(t, g.Moves(), ep.records[1].PDN.Moves, "the moves of the unfinished game are kept")
	assert.Equal(t, "peer disconnected", ep.records[1].Reason)
	assert.Contains(t, ep.pdn.String(), `[Termination "peer disconnected"]`)
}

// TestFollowerPeerDisconnects: the initiator vanishes mid-game.
func TestFollowerPeerDisconnects(t *testing.T) {
	v := engine.English
	cfg, _, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	p.sendMsg(gameReq(engine.Black, nil)) // English: Black moves first
	p.expectAcc(dxpwire.AccAccepted)
	g := engine.NewGame(engine.StartPosition(v))
	p.expectMove(g)
	p.conn.Close()
	r := result(t, done)
	assert.ErrorIs(t, r.err, ErrDisconnected)
	assert.Equal(t, Summary{Games: 1, Unfinished: 1}, r.sum)
	require.Len(t, ep.records, 1)
	assert.Len(t, ep.records[0].PDN.Moves, 1)
}

// TestGarbage: malformed messages get a CHAT naming the error; a game in
// progress is ended cleanly (GAMEEND without result) and the session goes
// on.
func TestGarbage(t *testing.T) {
	v := engine.International
	cfg, _, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)

	// Idle: only a CHAT.
	p.send("Xyz")
	c, ok := p.recvAny().(*dxpwire.Chat)
	require.True(t, ok)
	assert.Contains(t, c.Text, "unknown message type 'X'")

	garbage := []struct {
		wire string
		want string
	}{
		{"M00zz", "MOVE"},
		{"M0001010200", "move 01-02 is not legal"},
		{strings.Repeat("G", 300), "longer than 127"},
		{strings.Repeat("M", 2<<20), "longer than 127"}, // 2 MB without a NUL: one error, skipped
		{"\xff\xfe\x01", "not ASCII"},
		{"A                                0", ""}, // a stray GAMEACC is ignored, not an error
	}
	for _, gb := range garbage {
		p.sendMsg(gameReq(engine.White, nil))
		p.expectAcc(dxpwire.AccAccepted)
		g := engine.NewGame(engine.StartPosition(v))
		p.expectMove(g)
		p.send(gb.wire)
		if gb.want == "" {
			p.playMove(g)
			p.expectMove(g)
			p.send("E21")
			assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
			continue
		}
		c, ok := p.recvAny().(*dxpwire.Chat)
		require.True(t, ok, gb.wire)
		assert.Contains(t, c.Text, gb.want)
		assert.True(t, strings.HasPrefix(c.Text, "damka: "), c.Text)
		e := p.expectEnd()
		assert.Equal(t, dxpwire.EndNone, e.Reason, "no result claimed")
		p.send("E00")
	}
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 6, Draws: 1, Unfinished: 5}, r.sum)
	for _, rec := range ep.records[:5] {
		assert.Contains(t, rec.Reason, "protocol error")
		assert.Len(t, rec.PDN.Moves, 1)
	}
}

// TestBackReq: refused in match play, accepted in human play.
func TestBackReq(t *testing.T) {
	v := engine.International
	for _, human := range []bool{false, true} {
		cfg, _, ep := scripted(v, Follower)
		cfg.AcceptTakeBack = human
		p, done := startDamka(t, testContext(t), cfg)
		p.sendMsg(gameReq(engine.White, nil))
		p.expectAcc(dxpwire.AccAccepted)
		g := engine.NewGame(engine.StartPosition(v))
		p.expectMove(g)
		p.playMove(g)
		p.expectMove(g)
		p.send("B001Z") // back to Black's first move
		k, ok := p.recv().(*dxpwire.BackAcc)
		require.True(t, ok)
		if !human {
			assert.Equal(t, dxpwire.BackRefused, k.Code)
			p.playMove(g)
			p.expectMove(g)
		} else {
			assert.Equal(t, dxpwire.BackAccepted, k.Code)
			g.Undo()
			g.Undo()
			p.playMove(g)
			p.expectMove(g)
		}
		p.send("E21")
		assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
		p.conn.Close()
		r := result(t, done)
		require.NoError(t, r.err)
		require.Len(t, ep.records, 1)
		assert.Equal(t, g.Moves(), ep.records[0].PDN.Moves, "human=%v", human)
	}
}

// TestRefusals: wrong version, a position for another board, a position
// where the game is over; stray messages when no game is on.
func TestRefusals(t *testing.T) {
	v := engine.International
	cfg, _, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	req := gameReq(engine.White, nil)
	req.Version = 2
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccWrongVersion)

	ru := engine.StartPosition(engine.Russian)
	req = &dxpwire.GameReq{Version: 1, Name: "peer", Setup: true, ToMove: engine.White, Board: dxpwire.EncodeBoard(&ru)}
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccRefused)
	assert.Contains(t, p.chats[len(p.chats)-1], "position has 32 squares, international needs 50")

	lost, err := engine.ParseFEN(v, "W:W:B1")
	require.NoError(t, err)
	p.sendMsg(gameReq(engine.White, &lost))
	p.expectAcc(dxpwire.AccRefused)
	assert.Contains(t, p.chats[len(p.chats)-1], "over")

	p.send("M0012061100")
	c, ok := p.recvAny().(*dxpwire.Chat)
	require.True(t, ok)
	assert.Contains(t, c.Text, "no game in progress")
	p.send("B001W")
	k, ok := p.recv().(*dxpwire.BackAcc)
	require.True(t, ok)
	assert.Equal(t, dxpwire.BackRefused, k.Code)
	p.send("CHello from the peer")
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Refused: 3}, r.sum)
	assert.Equal(t, "games=0 wins=0 draws=0 losses=0 unfinished=0 refused=3", r.sum.String())
	assert.Contains(t, ep.log.String(), `"text":"Hello from the peer"`, "CHAT is logged")
}

// TestClockToTimeManager: the GAMEREQ clock reaches the search limits.
func TestClockToTimeManager(t *testing.T) {
	v := engine.International
	cfg, fe, _ := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	req := gameReq(engine.White, nil)
	req.Minutes, req.Moves = 2, 30
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccAccepted)
	g := engine.NewGame(engine.StartPosition(v))
	for range 3 {
		p.expectMove(g)
		p.playMove(g)
	}
	p.expectMove(g)
	p.send("E21")
	p.expectEnd()
	// A game without a clock: damka's default move time.
	req = gameReq(engine.White, nil)
	req.Minutes = 0
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccAccepted)
	g = engine.NewGame(engine.StartPosition(v))
	p.expectMove(g)
	p.send("E21")
	p.expectEnd()
	p.conn.Close()
	require.NoError(t, result(t, done).err)

	ls := fe.searches()
	require.Len(t, ls, 5)
	for i, l := range ls[:4] {
		assert.Equal(t, 30-i, l.MovesToGo, "search %d", i)
		assert.LessOrEqual(t, l.Time, 2*time.Minute)
		assert.Greater(t, l.Time, 2*time.Minute-time.Second, "damka's own clock, charged with its own (short) thinking")
		assert.Zero(t, l.MoveTime)
	}
	assert.Zero(t, ls[4].Time)
	assert.Equal(t, DefaultMoveTime, ls[4].MoveTime)
}

// TestStopMidGame: ending the context ends the game with GAMEEND (no
// result, no more games), recorded unfinished.
func TestStopMidGame(t *testing.T) {
	v := engine.International
	cfg, fe, ep := scripted(v, Follower)
	fe.setThink(time.Minute)
	ctx, cancel := context.WithCancel(testContext(t))
	p, done := startDamka(t, ctx, cfg)
	p.sendMsg(gameReq(engine.White, nil))
	p.expectAcc(dxpwire.AccAccepted)
	cancel()
	assert.Equal(t, &dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: dxpwire.StopNoMore}, p.expectEnd())
	p.send("E00")
	p.expectClosed()
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 1, Unfinished: 1}, r.sum)
	assert.Equal(t, "stopped", ep.records[0].Reason)
}

// TestRestartSamePort: damka listens, plays, closes first (its side of the
// connection goes to TIME_WAIT), and listens again on the same port at
// once.
func TestRestartSamePort(t *testing.T) {
	v := engine.International
	addr := "127.0.0.1:0"
	for round := range 2 {
		cfg, _, _ := scripted(v, Initiator)
		cfg.Games = 1
		ctx := testContext(t)
		ln, err := dxpwire.Listen(ctx, addr)
		require.NoError(t, err, "round %d: listen again on %s", round, addr)
		addr = ln.Addr().String()
		done := make(chan runResult, 1)
		go func() {
			conn, err := ln.Accept()
			if err != nil {
				done <- runResult{err: err}
				return
			}
			sum, err := Run(ctx, conn, cfg)
			done <- runResult{sum, err}
		}()
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		require.NoError(t, err)
		p := &peer{t: t, conn: c, r: dxpwire.NewReader(c)}
		p.recv()
		p.sendMsg(&dxpwire.GameAcc{Name: "peer", Code: dxpwire.AccAccepted})
		g := engine.NewGame(engine.StartPosition(v))
		p.expectMove(g)
		p.send("E10")
		assert.Equal(t, &dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: dxpwire.StopNoMore}, p.expectEnd(), "last game: no more games")
		p.expectClosed() // damka shuts down first
		c.Close()
		r := result(t, done)
		require.NoError(t, r.err)
		assert.Equal(t, Summary{Games: 1, Wins: 1}, r.sum)
		require.NoError(t, ln.Close())
	}
}

// TestMoveLimitEndedByPeer: at the move limit the peer ends the game with
// GAMEEND reason 0, as Moby Dam does; damka records the draw of the move
// limit (not an unfinished game).
func TestMoveLimitEndedByPeer(t *testing.T) {
	v := engine.International
	cfg, _, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	req := gameReq(engine.Black, nil)
	req.Moves = 2
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccAccepted)
	g := engine.NewGame(engine.StartPosition(v))
	for range 2 {
		p.playMove(g)
		p.expectMove(g)
	}
	p.send("E00")
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 1, Draws: 1}, r.sum)
	assert.Equal(t, "move limit of 2 moves", ep.records[0].Reason)
}

// TestMoveLimitEndedByDamka: damka, on move at the limit, claims the draw.
func TestMoveLimitEndedByDamka(t *testing.T) {
	v := engine.Russian
	cfg, _, ep := scripted(v, Follower)
	p, done := startDamka(t, testContext(t), cfg)
	req := gameReq(engine.White, nil)
	req.Moves = 2
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccAccepted)
	g := engine.NewGame(engine.StartPosition(v))
	for range 2 {
		p.expectMove(g)
		p.playMove(g)
	}
	assert.Equal(t, &dxpwire.GameEnd{Reason: dxpwire.EndDraw, Stop: dxpwire.StopContinue}, p.expectEnd())
	// The peer's own GAMEEND crosses damka's: it counts as the
	// acknowledgement and is not answered.
	p.send("E20")
	p.sendMsg(gameReq(engine.Black, nil))
	p.expectAcc(dxpwire.AccAccepted)
	p.send("E10")
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Games: 2, Draws: 1, Wins: 1}, r.sum)
	assert.Equal(t, 4, len(ep.records[0].PDN.Moves))
}

// TestInitiatorRefused: games the peer refuses are counted as refused (and
// in the summary line), not as games.
func TestInitiatorRefused(t *testing.T) {
	v := engine.International
	cfg, _, ep := scripted(v, Initiator)
	cfg.Games = 2
	p, done := startDamka(t, testContext(t), cfg)
	for i := 0; i < 2; i++ {
		_, ok := p.recv().(*dxpwire.GameReq)
		require.True(t, ok)
		p.sendMsg(&dxpwire.GameAcc{Name: "peer", Code: dxpwire.AccRefused})
	}
	p.expectClosed()
	r := result(t, done)
	require.NoError(t, r.err)
	assert.Equal(t, Summary{Refused: 2}, r.sum)
	assert.Equal(t, "games=0 wins=0 draws=0 losses=0 unfinished=0 refused=2", r.sum.String())
	assert.Empty(t, ep.records)
}

// TestPeerTimeout: a peer that stops answering mid-game (between messages
// or inside one) gets a CHAT and a GAMEEND without result after
// PeerTimeout; the game is recorded
// unfinished and Run returns ErrPeerTimeout. A follower that gets no
// GAMEREQ closes the connection after PeerTimeout.
func TestPeerTimeout(t *testing.T) {
	v := engine.International
	cfg, _, ep := scripted(v, Follower)
	cfg.PeerTimeout = 300 * time.Millisecond
	cfg.AckTimeout = 300 * time.Millisecond
	p, done := startDamka(t, testContext(t), cfg)
	req := gameReq(engine.White, nil)
	req.Minutes = 0
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccAccepted)
	g := engine.NewGame(engine.StartPosition(v))
	p.expectMove(g)
	began := time.Now()
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason) // the peer stays silent
	waited := time.Since(began)
	assert.GreaterOrEqual(t, waited, 250*time.Millisecond)
	assert.Less(t, waited, 5*time.Second)
	require.NotEmpty(t, p.chats)
	assert.Contains(t, p.chats[len(p.chats)-1], "no move from the peer in 0s (peer timeout 300ms)")
	r := result(t, done)
	require.ErrorIs(t, r.err, ErrPeerTimeout)
	assert.Equal(t, Summary{Games: 1, Unfinished: 1}, r.sum)
	require.Len(t, ep.records, 1)
	assert.Equal(t, Unfinished, ep.records[0].Outcome)
	assert.Contains(t, ep.records[0].Reason, "no move from the peer")
	p.expectClosed()

	// A peer that stalls in the middle of a message (half a MOVE, no
	// NUL): the same.
	cfg, _, ep = scripted(v, Follower)
	cfg.PeerTimeout = 300 * time.Millisecond
	cfg.AckTimeout = 300 * time.Millisecond
	p, done = startDamka(t, testContext(t), cfg)
	p.sendMsg(req)
	p.expectAcc(dxpwire.AccAccepted)
	g = engine.NewGame(engine.StartPosition(v))
	p.expectMove(g)
	_, err := p.conn.Write([]byte("M0012"))
	require.NoError(t, err)
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	assert.Contains(t, p.chats[len(p.chats)-1], "(peer timeout 300ms)")
	r = result(t, done)
	require.ErrorIs(t, r.err, ErrPeerTimeout)
	assert.Equal(t, Summary{Games: 1, Unfinished: 1}, r.sum)
	require.Len(t, ep.records, 1)
	assert.Contains(t, ep.records[0].Reason, "no move from the peer")
	p.expectClosed()

	// Connected, but no GAMEREQ.
	p, done = startDamka(t, testContext(t), cfg)
	r = result(t, done)
	require.ErrorIs(t, r.err, ErrPeerTimeout)
	assert.Contains(t, r.err.Error(), "no GAMEREQ from the peer in 300ms")
	assert.Equal(t, Summary{}, r.sum)
	p.expectClosed()
}

// TestPeerAllowance: the wait for the peer's move is its remaining clock
// plus PeerTimeout from the start of its turn; a negative PeerTimeout
// waits forever.
func TestPeerAllowance(t *testing.T) {
	s := &session{cfg: Config{PeerTimeout: time.Minute}}
	gs := &gameState{us: engine.White, minutes: 5, turn: time.Now()}
	gs.clock = [2]time.Duration{time.Minute, 3 * time.Minute}
	assert.Equal(t, 4*time.Minute, s.peerAllowance(gs))
	w := s.peerWait(gs)
	assert.InDelta(t, float64(4*time.Minute), float64(w), float64(time.Second))
	gs.clock[engine.Black] = -time.Second // over its time: no credit
	assert.Equal(t, time.Minute, s.peerAllowance(gs))
	gs.minutes = 0 // no clock
	gs.clock[engine.Black] = time.Hour
	assert.Equal(t, time.Minute, s.peerAllowance(gs))
	gs.turn = time.Now().Add(-2 * time.Minute) // already late: at once
	assert.Equal(t, time.Millisecond, s.peerWait(gs))
	assert.Equal(t, time.Minute, s.peerWait(nil))
	s.cfg.PeerTimeout = -1
	assert.Zero(t, s.peerWait(gs))
	assert.Zero(t, s.peerWait(nil))
}

// chunkPeer reads like pydraughts' DXP client (and DXC100): one socket
// read of at most 1024 bytes is one message, NULs dropped, so it needs
// each read to hold exactly one message. It reads lag after the previous
// message arrived (a Python thread waiting for the interpreter lock).
type chunkPeer struct {
	t    *testing.T
	conn net.Conn
	lag  time.Duration
}

// next returns the one message of the next read; two messages in one
// read fail the test (pydraughts would read "K0M0000322800" as one).
func (p *chunkPeer) next() dxpwire.Message {
	p.t.Helper()
	time.Sleep(p.lag)
	require.NoError(p.t, p.conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	buf := make([]byte, 1024)
	var got []byte
	for {
		n, err := p.conn.Read(buf)
		require.NoError(p.t, err)
		got = append(got, buf[:n]...)
		if i := strings.IndexByte(string(got), 0); i >= 0 {
			require.Equal(p.t, len(got)-1, i, "two messages in one read: %q", got)
			break
		}
	}
	m, err := dxpwire.Decode(got[:len(got)-1])
	require.NoError(p.t, err, "%q", got)
	return m
}

func (p *chunkPeer) send(wire string) {
	p.t.Helper()
	_, err := p.conn.Write([]byte(wire + "\x00"))
	require.NoError(p.t, err)
}

// TestOneMessagePerRead: the messages damka sends back to back (GAMEACC
// and its first MOVE, BACKACC and the MOVE from the position taken back,
// CHAT and GAMEEND) reach a client that reads one message per read, 40 ms
// late, in separate reads; a move answering the peer's move is not
// delayed. With MessageGap off they merge.
//
// This is the takeback of pydraughts' test_engines (damka White, BACKREQ
// to move 1, damka's move again), which hung against damka when K0 and the
// MOVE arrived in one read.
func TestOneMessagePerRead(t *testing.T) {
	v := engine.International
	play := func(t *testing.T, gap time.Duration) (merged bool) {
		cfg, _, _ := scripted(v, Follower)
		cfg.AcceptTakeBack = true
		cfg.MessageGap = gap
		dp, done := startDamka(t, testContext(t), cfg)
		p := &chunkPeer{t: t, conn: dp.conn, lag: 40 * time.Millisecond}
		if gap < 0 {
			// Only show that the messages merge without the gap.
			p.send("R01DXP Client                      W000000A")
			time.Sleep(p.lag)
			require.NoError(t, p.conn.SetReadDeadline(time.Now().Add(5*time.Second)))
			buf := make([]byte, 1024)
			n, err := p.conn.Read(buf)
			require.NoError(t, err)
			merged = strings.Count(string(buf[:n]), "\x00") > 1
			dp.conn.Close()
			<-done
			return merged
		}
		g := engine.NewGame(engine.StartPosition(v))
		apply := func(m dxpwire.Message) {
			mm, ok := m.(*dxpwire.Move)
			require.True(t, ok, "want MOVE, got %#v", m)
			pos := g.Position()
			mv, err := dxpwire.FindMove(&pos, mm)
			require.NoError(t, err)
			g.Play(mv)
		}
		p.send("R01DXP Client                      W000000A") // damka plays White, no clock
		acc, ok := p.next().(*dxpwire.GameAcc)
		require.True(t, ok)
		require.Equal(t, dxpwire.AccAccepted, acc.Code)
		apply(p.next())
		// A reply to our move comes at once (no gap).
		pos := g.Position()
		var list engine.MoveList
		pos.Generate(&list)
		m := list.Moves[list.N-1]
		sent := time.Now()
		p.send(string(mustEncode(t, dxpwire.MoveMessage(&pos, m, 0))))
		g.Play(m)
		p.lag = 0
		apply(p.next())
		assert.Less(t, time.Since(sent), DefaultMessageGap/2, "the reply to a move waited for the gap")
		p.lag = 40 * time.Millisecond
		// Take back to White's first move: BACKACC, then damka's move again.
		p.send("B001W")
		k, ok := p.next().(*dxpwire.BackAcc)
		require.True(t, ok)
		require.Equal(t, dxpwire.BackAccepted, k.Code)
		g.Undo()
		g.Undo()
		g.Undo()
		apply(p.next())
		// A bad message: CHAT naming it, then GAMEEND.
		p.send("M99")
		_, ok = p.next().(*dxpwire.Chat)
		require.True(t, ok)
		e, ok := p.next().(*dxpwire.GameEnd)
		require.True(t, ok)
		assert.Equal(t, dxpwire.EndNone, e.Reason)
		p.send("E01")
		dp.conn.Close()
		r := result(t, done)
		assert.Equal(t, Summary{Games: 1, Unfinished: 1}, r.sum)
		return false
	}
	t.Run("default-gap", func(t *testing.T) { play(t, 0) })
	t.Run("no-gap", func(t *testing.T) {
		assert.True(t, play(t, -1), "without the gap GAMEACC and the first MOVE arrive in one read")
	})
}

func mustEncode(t *testing.T, m dxpwire.Message) []byte {
	t.Helper()
	b, err := dxpwire.Encode(m)
	require.NoError(t, err)
	return b
}
