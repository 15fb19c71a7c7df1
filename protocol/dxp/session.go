// session.go: a DXP session on one connection: the initiator's match loop,
// the follower's serve loop, and the play of one game (clocks, game end by
// the rules, the move limit or the peer, CHAT, BACKREQ, and what real peers
// do that the spec does not say).

package dxp

import (
	"context"
	"damka/book"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"damka/engine"
	"damka/search"
)

// Role is a session's DXP role (independent of who listens on TCP).
type Role uint8

// The DXP roles.
const (
	// Follower accepts or refuses the games the peer proposes and plays
	// until the peer stops.
	Follower Role = iota
	// Initiator proposes Config.Games games, alternating colours.
	Initiator
)

// String returns "follower" or "initiator".
func (r Role) String() string {
	if r == Initiator {
		return "initiator"
	}
	return "follower"
}

// Engine is the search a session plays with; *search.Engine implements it.
// The session chooses each move with search.Start (the book first, then
// SearchJob, which must return soon after its context is done). Clear
// forgets what earlier games taught it.
type Engine interface {
	search.Searcher
	Clear()
}

// Defaults used when a Config field is zero.
const (
	// DefaultAckTimeout is how long a session waits for a GAMEACC or for the
	// acknowledgement of its GAMEEND.
	DefaultAckTimeout = 30 * time.Second
	// DefaultMoveTime is the time per move when the game has no clock (0
	// minutes) and Config.Limits sets no depth, node or time limit.
	DefaultMoveTime = time.Second
	// DefaultName is the name damka gives in GAMEREQ and GAMEACC.
	DefaultName = "damka"
	// DefaultMessageGap is the default of Config.MessageGap: pydraughts'
	// client under heavy CPU load (load average 18-22 on 2 cores) missed
	// a 200 ms gap about once in 50 takebacks, and no 500 ms gap in 150.
	DefaultMessageGap = 500 * time.Millisecond
	// DefaultPeerTimeout is how long a session waits for a silent peer
	// beyond the peer's remaining clock (see Config.PeerTimeout).
	DefaultPeerTimeout = 10 * time.Minute
)

// Config configures a session.
type Config struct {
	Variant engine.VariantID // agreed out of band: both sides set the same
	Role    Role
	Name    string // our name in GAMEREQ/GAMEACC (default DefaultName; cut to 32 ASCII characters)
	Engine  Engine // required

	// Book, when not nil, gives damka's moves in book positions (chosen
	// among moves within BookMargin centi-men of the best, weighted); the
	// engine searches the others.
	Book       *book.Book
	BookMargin int

	// Limits are extra per-move limits (Depth, Nodes, MoveTime) for quick
	// games. The session fills in the clock fields (Time, MovesToGo) from
	// the GAMEREQ; a MoveTime takes precedence over the clock.
	Limits search.Limits

	// Initiator only: the number of games, the thinking time per player
	// in minutes (0..999) and the move limit (moves per player, 0..999,
	// 0 = none) sent in GAMEREQ, and opening positions: game i starts from
	// Openings[(i/2) % len(Openings)] (each opening is played with both
	// colours), or from the variant's start position when there are none.
	Games    int
	Minutes  int
	Moves    int
	Openings []engine.Position

	// AcceptTakeBack answers BACKREQ with "accepted" and takes the moves
	// back (play against a human); by default BACKREQ is refused (match).
	AcceptTakeBack bool

	// AckTimeout bounds the wait for a GAMEACC or a GAMEEND acknowledgement
	// (default DefaultAckTimeout).
	AckTimeout time.Duration

	// MessageGap is the least time between two messages damka sends with
	// no message from the peer in between (GAMEACC then damka's first
	// MOVE, BACKACC then the MOVE from the position taken back, CHAT then
	// GAMEACC or GAMEEND). Some clients (pydraughts, DXC100) take one
	// socket read for one message and drop the NULs in it, so two
	// messages that reach the socket before the client reads merge into
	// one. TCP_NODELAY and separate writes do not prevent that; a pause
	// long enough for the client to read does. A move answering the
	// peer's move is never delayed, nor a move whose search took longer
	// than the gap (the gap counts from the previous message). 0 means
	// DefaultMessageGap; negative: no gap.
	MessageGap time.Duration

	// PeerTimeout bounds the wait for the peer: for its move, at most its
	// remaining clock time (games with a clock) plus PeerTimeout from the
	// start of its turn; for the follower's next GAMEREQ, PeerTimeout.
	// When it passes, a game in progress is ended (GAMEEND without result)
	// and recorded unfinished, and Run returns an error wrapping
	// ErrPeerTimeout. 0 means DefaultPeerTimeout; negative: no limit.
	PeerTimeout time.Duration

	// Event and Site are written as the PDN tags of each game
	// (default "DXP match" and "?").
	Event string
	Site  string

	// Logger receives the session's logs; every message sent and received
	// is logged at debug level.
	Logger zerolog.Logger

	// OnGame, if set, is called (on the session's goroutine) as soon as a
	// game ends, finished or not, before the next one starts.
	OnGame func(*GameRecord)
}

// Outcome is how a game ended for damka.
type Outcome uint8

// The outcomes.
const (
	Unfinished Outcome = iota // no result: disconnect, malformed message, stopped, GAMEEND without result
	Win
	Draw
	Loss
)

// String returns unfinished, win, draw or loss.
func (o Outcome) String() string {
	switch o {
	case Win:
		return "win"
	case Draw:
		return "draw"
	case Loss:
		return "loss"
	}
	return "unfinished"
}

// GameRecord is a game played (or begun) in a session.
type GameRecord struct {
	Round    int             // 1-based number of the game in the session (the initiator's game index)
	Color    engine.Color    // the colour damka played
	Opponent string          // the peer's name from its GAMEREQ or GAMEACC
	Result   engine.Result   // engine.Ongoing when unfinished
	Outcome  Outcome         // from damka's side
	Reason   string          // why the game ended, in a few words
	PDN      *engine.PDNGame // tags, start position, moves and result token
}

// Summary counts a session's games from damka's side.
type Summary struct {
	Games      int // games begun (accepted)
	Wins       int
	Draws      int
	Losses     int
	Unfinished int
	Refused    int // games the follower refused (initiator) or damka refused (follower)
}

// Add adds o's counts to s.
func (s *Summary) Add(o Summary) {
	s.Games += o.Games
	s.Wins += o.Wins
	s.Draws += o.Draws
	s.Losses += o.Losses
	s.Unfinished += o.Unfinished
	s.Refused += o.Refused
}

// String returns "games=N wins=W draws=D losses=L unfinished=U refused=R"
// (refused games are not among the N games begun).
func (s Summary) String() string {
	return fmt.Sprintf("games=%d wins=%d draws=%d losses=%d unfinished=%d refused=%d",
		s.Games, s.Wins, s.Draws, s.Losses, s.Unfinished, s.Refused)
}

// ErrDisconnected is wrapped by Run's error when the peer closed the
// connection or it failed in the middle of a game or before the initiator's
// games were all played.
var ErrDisconnected = errors.New("peer disconnected")

// ErrPeerTimeout is wrapped by Run's error when the peer sent nothing
// within Config.PeerTimeout (beyond its clock) while damka waited for it.
var ErrPeerTimeout = errors.New("the peer went silent")

// Run plays a DXP session on conn in cfg.Role and closes conn when done
// (sending side shut down first). The initiator returns after its games
// (or when the peer refuses all games or disconnects); the follower
// returns when the peer closes the connection. Both stop when ctx is
// done: a game in progress is then ended with GAMEEND (no result, no more
// games) and recorded as unfinished. Every game that was begun is passed to
// cfg.OnGame and counted in the Summary, whatever the error. The error is
// nil for a normal end and for ctx's end; it wraps ErrDisconnected when the
// connection ended mid-game or mid-match, and describes a protocol failure
// otherwise (a wrong version, no GAMEACC in time).
func Run(ctx context.Context, conn io.ReadWriteCloser, cfg Config) (Summary, error) {
	if cfg.Engine == nil {
		conn.Close()
		return Summary{}, errors.New("dxp: Config.Engine is nil")
	}
	if cfg.Name == "" {
		cfg.Name = DefaultName
	}
	cfg.Name = asciiText(cfg.Name, NameLen)
	if cfg.AckTimeout <= 0 {
		cfg.AckTimeout = DefaultAckTimeout
	}
	if cfg.PeerTimeout == 0 {
		cfg.PeerTimeout = DefaultPeerTimeout
	}
	if cfg.MessageGap == 0 {
		cfg.MessageGap = DefaultMessageGap
	}
	if cfg.Event == "" {
		cfg.Event = "DXP match"
	}
	if cfg.Site == "" {
		cfg.Site = "?"
	}
	s := &session{
		cfg:        cfg,
		log:        cfg.Logger.With().Str("dxp", cfg.Role.String()).Logger(),
		conn:       conn,
		epoch:      time.Now().Add(-time.Nanosecond),
		events:     make(chan event),
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	go s.readLoop()
	var err error
	if cfg.Role == Initiator {
		err = s.runInitiator(ctx)
	} else {
		err = s.runFollower(ctx)
	}
	if s.game != nil {
		why := "session ended"
		if errors.Is(err, ErrDisconnected) {
			why = "peer disconnected"
		}
		s.finish(engine.Ongoing, why)
	}
	s.close()
	if ctx.Err() != nil && !errors.Is(err, ErrDisconnected) {
		err = nil
	}
	return s.sum, err
}

// event is what the reader goroutine and the search deliver to the
// session's loop.
type event struct {
	kind   eventKind
	raw    []byte        // evMsg, evBad: the message as received
	msg    Message       // evMsg
	err    error         // evBad: why the message is malformed; evClosed: how the stream ended
	result search.Result // evSearch
}

type eventKind uint8

const (
	evMsg     eventKind = iota // a well-formed message
	evBad                      // a malformed message or frame
	evClosed                   // the stream ended
	evTimeout                  // the wait's timeout passed
	evCancel                   // the session's context is done
	evSearch                   // the search finished
)

// gameState is the game in progress.
type gameState struct {
	g        *engine.Game
	pdn      *engine.PDNGame
	us       engine.Color
	round    int
	opponent string
	minutes  int // from the GAMEREQ; 0: no clock
	moves    int // move limit per player; 0: none
	clock    [2]time.Duration
	turn     time.Time // when the side to move's turn began
	// suspended: the peer ended the game without a result (E00); a
	// GAMEREQ with the same or the next position continues it (the
	// per-move GAMEREQ style).
	suspended bool
}

type session struct {
	cfg        Config
	log        zerolog.Logger
	conn       io.ReadWriteCloser
	events     chan event
	done       chan struct{} // closed when the session ends: the reader stops
	readerDone chan struct{}
	searches   sync.WaitGroup
	sum        Summary
	round      int
	game       *gameState
	peerStop   bool   // the peer said "no more games"
	lastGame   bool   // initiator: the game in progress is the last
	closed     *event // the end of the stream, once seen
	// For MessageGap: when our last message began to be written and when
	// the reader last got a message, in nanoseconds since epoch (so 0 is
	// never).
	epoch    time.Time
	lastSend int64
	lastRecv atomic.Int64
}

// readLoop reads messages and hands them to the session loop.
func (s *session) readLoop() {
	defer close(s.readerDone)
	fr := NewReader(s.conn)
	for {
		raw, err := fr.ReadMessage()
		if err == nil {
			s.lastRecv.Store(int64(time.Since(s.epoch)))
		}
		var ev event
		var fe *FrameError
		switch {
		case err == nil:
			if len(raw) == 0 {
				continue // a stray NUL
			}
			ev.raw = append([]byte(nil), raw...)
			ev.msg, ev.err = Decode(raw)
			if ev.err != nil {
				ev.kind = evBad
			}
		case errors.As(err, &fe):
			ev.kind, ev.err, ev.raw = evBad, err, fe.Prefix
		default:
			ev.kind, ev.err = evClosed, err
		}
		select {
		case s.events <- ev:
		case <-s.done:
			return
		}
		if ev.kind == evClosed {
			return
		}
	}
}

// wait returns the next event: a message, the end of the stream, the
// search's result (when sr is not nil), ctx's end, or evTimeout after
// timeout (0: none).
func (s *session) wait(ctx context.Context, timeout time.Duration, sr <-chan search.Result) event {
	if s.closed != nil {
		return *s.closed
	}
	var tc <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		tc = t.C
	}
	select {
	case ev := <-s.events:
		switch ev.kind {
		case evMsg:
			s.log.Debug().Str("recv", string(ev.raw)).Msg("dxp message")
		case evBad:
			s.log.Warn().Str("recv", string(ev.raw)).Err(ev.err).Msg("dxp malformed message")
		case evClosed:
			s.log.Debug().Err(ev.err).Msg("dxp stream ended")
			s.closed = &ev // later waits see the end again
		}
		return ev
	case r := <-sr:
		return event{kind: evSearch, result: r}
	case <-tc:
		return event{kind: evTimeout}
	case <-ctx.Done():
		return event{kind: evCancel}
	}
}

// send writes m; an error means the connection is gone.
func (s *session) send(m Message) error {
	b, err := AppendFrame(make([]byte, 0, MaxMessageLen+1), m)
	if err != nil {
		return err
	}
	s.pause()
	s.log.Debug().Str("send", string(b[:len(b)-1])).Msg("dxp message")
	// Taken before the write: an answer the reader gets at once comes after.
	s.lastSend = int64(time.Since(s.epoch))
	_, err = s.conn.Write(b)
	if err != nil {
		s.log.Warn().Err(err).Msg("dxp write failed")
		return fmt.Errorf("%w: write: %v", ErrDisconnected, err)
	}
	return nil
}

// pause waits until MessageGap has passed since our last message when the
// peer has sent nothing since (see Config.MessageGap).
func (s *session) pause() {
	gap := s.cfg.MessageGap
	if gap <= 0 || s.lastSend == 0 || s.lastRecv.Load() > s.lastSend {
		return
	}
	if d := time.Duration(s.lastSend) + gap - time.Since(s.epoch); d > 0 {
		s.log.Debug().Dur("pause", d).Msg("dxp: pause before the next message (message gap)")
		time.Sleep(d)
	}
}

// chat sends a CHAT (text made ASCII and cut to fit).
func (s *session) chat(text string) error {
	return s.send(&Chat{Text: asciiText(text, maxChatText)})
}

// asciiText replaces characters outside printable ASCII by '?' and cuts s
// to max bytes.
func asciiText(s string, max int) string {
	b := []byte(s)
	for i, c := range b {
		if c < 32 || c > 126 {
			b[i] = '?'
		}
	}
	if len(b) > max {
		b = b[:max]
	}
	if len(b) == 0 {
		return "?"
	}
	return string(b)
}

// close shuts the connection down: FIN first, then a short wait for the
// peer to close its side, then close; it waits for the reader and any
// search goroutine.
func (s *session) close() {
	shutdown(s.conn)
	t := time.NewTimer(min(s.cfg.AckTimeout, 2*time.Second))
	defer t.Stop()
drain:
	for {
		select {
		case ev := <-s.events:
			if ev.kind == evClosed {
				break drain
			}
		case <-s.readerDone:
			break drain
		case <-t.C:
			break drain
		}
	}
	close(s.done)
	s.conn.Close()
	<-s.readerDone
	s.searches.Wait()
}

// stopCode is the stop code of our GAMEEND messages.
func (s *session) stopCode(ctx context.Context) StopCode {
	if ctx.Err() != nil || (s.cfg.Role == Initiator && s.lastGame) {
		return StopNoMore
	}
	return StopContinue
}

// ---------------------------------------------------------------------------
// Initiator.

func (s *session) runInitiator(ctx context.Context) error {
	for i := 0; i < s.cfg.Games; i++ {
		if ctx.Err() != nil {
			return nil
		}
		if s.peerStop {
			s.log.Info().Msg("the peer wants no more games")
			return nil
		}
		s.lastGame = i == s.cfg.Games-1
		start := engine.StartPosition(s.cfg.Variant)
		if n := len(s.cfg.Openings); n > 0 {
			start = s.cfg.Openings[(i/2)%n]
			start.V = s.cfg.Variant
		}
		req := &GameReq{
			Version: Version, Name: s.cfg.Name, FollowerColor: engine.Black,
			Minutes: s.cfg.Minutes, Moves: s.cfg.Moves,
		}
		if i%2 == 1 {
			req.FollowerColor = engine.White
		}
		std := engine.StartPosition(s.cfg.Variant)
		if !samePlacement(&start, &std) {
			req.Setup, req.ToMove, req.Board = true, start.Side, EncodeBoard(&start)
		}
		if err := s.send(req); err != nil {
			return err
		}
		acc, err := s.awaitAcc(ctx)
		if err != nil || acc == nil {
			return err
		}
		switch acc.Code {
		case AccAccepted:
		case AccRefused:
			s.sum.Refused++
			s.log.Warn().Int("game", i+1).Str("peer", acc.Name).Msg("the peer refused the game")
			continue
		default:
			s.sum.Refused++
			return fmt.Errorf("dxp: the peer %q answered GAMEREQ with %s", acc.Name, acc.Code)
		}
		s.round = i + 1
		s.newGame(start, req.FollowerColor.Opp(), acc.Name, req.Minutes, req.Moves)
		if _, err := s.play(ctx); err != nil {
			return err
		}
	}
	return nil
}

// awaitAcc waits for the answer to our GAMEREQ. It returns nil, nil when
// ctx ends first.
func (s *session) awaitAcc(ctx context.Context) (*GameAcc, error) {
	deadline := time.Now().Add(s.cfg.AckTimeout)
	for {
		ev := s.wait(ctx, time.Until(deadline), nil)
		switch ev.kind {
		case evCancel:
			return nil, nil
		case evTimeout:
			return nil, fmt.Errorf("dxp: no GAMEACC within %v", s.cfg.AckTimeout)
		case evClosed:
			return nil, fmt.Errorf("%w before answering GAMEREQ", ErrDisconnected)
		case evBad:
			if err := s.chat(fmt.Sprintf("damka: %v", ev.err)); err != nil {
				return nil, err
			}
		case evMsg:
			switch m := ev.msg.(type) {
			case *GameAcc:
				return m, nil
			case *Chat:
				s.logChat(m)
			case *GameReq:
				// Two initiators: refuse, so the peer does not wait for us.
				if err := s.send(&GameAcc{Name: s.cfg.Name, Code: AccNoGames}); err != nil {
					return nil, err
				}
			default:
				s.log.Warn().Str("msg", string(ev.raw)).Msg("dxp: unexpected message while waiting for GAMEACC; ignored")
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Follower.

func (s *session) runFollower(ctx context.Context) error {
	var pending *GameReq
	for {
		if pending != nil {
			req := pending
			pending = nil
			var err error
			if pending, err = s.answer(ctx, req); err != nil {
				return err
			}
			continue
		}
		ev := s.wait(ctx, s.peerWait(s.game), nil)
		switch ev.kind {
		case evCancel:
			return nil
		case evTimeout:
			return s.followerSilent()
		case evClosed:
			if s.game != nil && !s.game.suspended {
				return fmt.Errorf("%w mid-game: %v", ErrDisconnected, ev.err)
			}
			return nil
		case evBad:
			if err := s.chat(fmt.Sprintf("damka: %v", ev.err)); err != nil {
				return err
			}
		case evMsg:
			switch m := ev.msg.(type) {
			case *GameReq:
				pending = m
			case *Chat:
				s.logChat(m)
			case *GameEnd:
				if m.Stop == StopNoMore {
					s.peerStop = true
				}
				if s.game != nil && m.Reason != EndNone {
					// A result for the game the peer suspended.
					if err := s.send(&GameEnd{Reason: EndNone, Stop: s.stopCode(ctx)}); err != nil {
						return err
					}
					s.peerResult(m)
				} else if m.Reason != EndNone {
					if err := s.send(&GameEnd{Reason: EndNone, Stop: s.stopCode(ctx)}); err != nil {
						return err
					}
				}
				// A GAMEEND without result and without a game is a late
				// acknowledgement: answering it could start a ping-pong.
			case *BackReq:
				if err := s.send(&BackAcc{Code: BackRefused}); err != nil {
					return err
				}
			case *Move:
				if err := s.chat("damka: unexpected MOVE: no game in progress"); err != nil {
					return err
				}
			default:
				s.log.Warn().Str("msg", string(ev.raw)).Msg("dxp: unexpected message; ignored")
			}
		}
	}
}

// answer accepts or refuses a GAMEREQ and plays the game. It returns a
// GAMEREQ that arrived during the game.
func (s *session) answer(ctx context.Context, req *GameReq) (*GameReq, error) {
	refuse := func(code AccCode, why string) (*GameReq, error) {
		s.log.Warn().Str("why", why).Stringer("code", code).Msg("dxp: refusing GAMEREQ")
		if code != AccNoGames {
			s.sum.Refused++
		}
		if err := s.chat("damka: " + why); err != nil {
			return nil, err
		}
		return nil, s.send(&GameAcc{Name: s.cfg.Name, Code: code})
	}
	if ctx.Err() != nil {
		return refuse(AccNoGames, "stopping")
	}
	if req.Version != Version {
		return refuse(AccWrongVersion, fmt.Sprintf("DXP version %02d is not supported (want 01)", req.Version))
	}
	start := engine.StartPosition(s.cfg.Variant)
	if req.Setup {
		p, err := DecodeBoard(s.cfg.Variant, req.ToMove, req.Board)
		if err != nil {
			return refuse(AccRefused, fmt.Sprintf("GAMEREQ %v", err))
		}
		start = p
	}
	if r, why := engine.NewGame(start).Result(); r != engine.Ongoing {
		return refuse(AccRefused, fmt.Sprintf("the game is over in that position (%v)", why))
	}
	us := req.FollowerColor
	if gs := s.game; gs != nil {
		if m, ok := s.continues(gs, us, &start); ok {
			if err := s.send(&GameAcc{Name: s.cfg.Name, Code: AccAccepted}); err != nil {
				return nil, err
			}
			if m != nil {
				s.log.Debug().Str("move", s.movetext(gs, *m)).Msg("dxp: the new GAMEREQ continues the game")
				s.applyMove(gs, *m, -1)
			}
			gs.suspended = false
			gs.opponent = req.Name
			if req.Minutes != gs.minutes {
				// The peer gives the time left in each GAMEREQ.
				gs.minutes = req.Minutes
				gs.clock = [2]time.Duration{time.Duration(req.Minutes) * time.Minute, time.Duration(req.Minutes) * time.Minute}
			}
			gs.moves = req.Moves
			gs.turn = time.Now()
			return s.play(ctx)
		}
		s.finish(engine.Ongoing, "superseded by a new GAMEREQ")
	}
	if err := s.send(&GameAcc{Name: s.cfg.Name, Code: AccAccepted}); err != nil {
		return nil, err
	}
	s.round++
	s.newGame(start, us, req.Name, req.Minutes, req.Moves)
	return s.play(ctx)
}

// continues reports whether a GAMEREQ for position p with damka playing us
// continues game gs: p is gs's current position, or follows from it by
// one legal move (returned).
func (s *session) continues(gs *gameState, us engine.Color, p *engine.Position) (*engine.Move, bool) {
	if gs.us != us {
		return nil, false
	}
	cur := gs.g.Position()
	if samePlacement(&cur, p) {
		return nil, true
	}
	if r, _ := gs.g.Result(); r != engine.Ongoing {
		return nil, false
	}
	var list engine.MoveList
	cur.Generate(&list)
	for _, m := range list.Slice() {
		next := cur.Play(m)
		if samePlacement(&next, p) {
			return &m, true
		}
	}
	return nil, false
}

func samePlacement(a, b *engine.Position) bool {
	return a.Pieces == b.Pieces && a.Kings == b.Kings && a.Side == b.Side
}

// ---------------------------------------------------------------------------
// One game.

// newGame starts recording a game from start with damka playing us.
func (s *session) newGame(start engine.Position, us engine.Color, opponent string, minutes, moves int) {
	s.cfg.Engine.Clear()
	start.V = s.cfg.Variant
	pdn := engine.NewPDNGame(s.cfg.Variant, start)
	gs := &gameState{
		g: engine.NewGame(start), pdn: pdn, us: us, round: s.round, opponent: opponent,
		minutes: minutes, moves: moves, turn: time.Now(),
	}
	t := time.Duration(minutes) * time.Minute
	gs.clock = [2]time.Duration{t, t}
	s.game = gs
	s.sum.Games++
	s.log.Info().Int("game", gs.round).Str("opponent", opponent).Str("color", sideName(us)).
		Str("fen", start.FEN()).Int("minutes", minutes).Int("moves", moves).Msg("dxp game starts")
}

// movetext returns m in the variant's notation in gs's current position.
func (s *session) movetext(gs *gameState, m engine.Move) string {
	p := gs.g.Position()
	return p.FormatMove(m, engine.FormatFull)
}

// applyMove plays m in gs and charges the mover's clock: seconds as
// reported (the peer) or measured when negative.
func (s *session) applyMove(gs *gameState, m engine.Move, seconds int) {
	now := time.Now()
	p := gs.g.Position()
	used := now.Sub(gs.turn)
	if seconds >= 0 {
		used = time.Duration(seconds) * time.Second
	}
	gs.clock[p.Side] -= used
	gs.turn = now
	gs.pdn.AppendMove(m)
	gs.g.Play(m)
}

// ourMoves returns how many moves damka has played in gs.
func ourMoves(gs *gameState) int {
	k := gs.g.Ply()
	if gs.g.Start().Side == gs.us {
		return (k + 1) / 2
	}
	return k / 2
}

// limits returns the search limits for damka's next move in gs.
func (s *session) limits(gs *gameState) search.Limits {
	l := s.cfg.Limits
	l.Time, l.Inc, l.MovesToGo, l.Infinite, l.Ponder = 0, 0, 0, false, false
	if gs.minutes > 0 {
		l.Time = max(gs.clock[gs.us], 10*time.Millisecond)
		if gs.moves > 0 {
			l.MovesToGo = max(gs.moves-ourMoves(gs), 1)
		}
	} else if l.Depth == 0 && l.Nodes == 0 && l.MoveTime == 0 {
		l.MoveTime = DefaultMoveTime
	}
	return l
}

// ruleEnd returns the result of gs's current position by the rules or the
// move limit, and why; engine.Ongoing when the game goes on.
func ruleEnd(gs *gameState) (engine.Result, string) {
	if r, why := gs.g.Result(); r != engine.Ongoing {
		return r, why.String()
	}
	if gs.moves > 0 && gs.g.Ply() >= 2*gs.moves {
		return engine.Draw, fmt.Sprintf("move limit of %d moves", gs.moves)
	}
	return engine.Ongoing, ""
}

// endReason returns the GAMEEND reason that reports r from colour c's side.
func endReason(r engine.Result, c engine.Color) EndReason {
	switch {
	case r == engine.Draw:
		return EndDraw
	case (r == engine.WhiteWins) == (c == engine.White) && r != engine.Ongoing:
		return EndWin
	case r != engine.Ongoing:
		return EndLose
	}
	return EndNone
}

// resultFor returns the game result when colour c reports reason.
func resultFor(reason EndReason, c engine.Color) engine.Result {
	win, loss := engine.WhiteWins, engine.BlackWins
	if c == engine.Black {
		win, loss = loss, win
	}
	switch reason {
	case EndWin:
		return win
	case EndLose:
		return loss
	case EndDraw:
		return engine.Draw
	}
	return engine.Ongoing
}

// play runs the current game until it ends or the peer suspends it. It
// returns a GAMEREQ that arrived meanwhile (to be answered next), and an
// error when the session must end.
func (s *session) play(ctx context.Context) (*GameReq, error) {
	for s.game != nil && !s.game.suspended {
		gs := s.game
		pos := gs.g.Position()
		if pos.Side == gs.us {
			if r, why := ruleEnd(gs); r != engine.Ongoing {
				return s.endGame(ctx, r, why)
			}
			req, over, err := s.think(ctx)
			if over || err != nil {
				return req, err
			}
			continue
		}
		ev := s.wait(ctx, s.peerWait(gs), nil)
		if req, over, err := s.peerTurn(ctx, gs, ev); over || err != nil {
			return req, err
		}
	}
	return nil, nil
}

// peerTurn handles an event while the peer is to move. over reports that
// the game is over (or suspended) and play must return.
func (s *session) peerTurn(ctx context.Context, gs *gameState, ev event) (*GameReq, bool, error) {
	switch ev.kind {
	case evCancel:
		req, err := s.abandon(ctx, "stopped")
		return req, true, err
	case evClosed:
		s.finish(engine.Ongoing, "peer disconnected")
		return nil, true, fmt.Errorf("%w mid-game: %v", ErrDisconnected, ev.err)
	case evBad:
		req, err := s.protocolError(ctx, fmt.Sprintf("%v", ev.err))
		return req, true, err
	case evTimeout:
		return nil, true, s.peerSilent(ctx, gs)
	}
	switch m := ev.msg.(type) {
	case *Move:
		if r, why := ruleEnd(gs); r != engine.Ongoing {
			// The peer plays on in a finished game: end it ourselves.
			if err := s.chat("damka: the game is over: " + why); err != nil {
				return nil, true, err
			}
			req, err := s.endGame(ctx, r, why)
			return req, true, err
		}
		pos := gs.g.Position()
		mv, err := FindMove(&pos, m)
		if err != nil {
			req, err := s.protocolError(ctx, err.Error())
			return req, true, err
		}
		s.applyMove(gs, mv, m.Seconds)
		return nil, false, nil
	case *GameEnd:
		req, err := s.peerEnd(ctx, m)
		return req, true, err
	default:
		req, over, err := s.anyTime(ctx, gs, ev)
		return req, over, err
	}
}

// peerWait returns how long to wait now for the peer in game gs (nil:
// between games): until its remaining clock plus PeerTimeout have passed
// since its turn began; 0 (no limit) when PeerTimeout is negative.
func (s *session) peerWait(gs *gameState) time.Duration {
	if s.cfg.PeerTimeout <= 0 {
		return 0
	}
	if gs == nil {
		return s.cfg.PeerTimeout
	}
	return max(time.Until(gs.turn.Add(s.peerAllowance(gs))), time.Millisecond)
}

// peerAllowance is how long the peer may take for its move in gs: its
// remaining clock (games with a clock) plus PeerTimeout.
func (s *session) peerAllowance(gs *gameState) time.Duration {
	d := s.cfg.PeerTimeout
	if gs.minutes > 0 {
		d += max(gs.clock[gs.us.Opp()], 0)
	}
	return d
}

// silence describes how long the peer has been silent in gs.
func (s *session) silence(gs *gameState) string {
	why := fmt.Sprintf("no move from the peer in %v", time.Since(gs.turn).Round(time.Second))
	if gs.minutes > 0 {
		return why + fmt.Sprintf(" (its clock plus the peer timeout of %v)", s.cfg.PeerTimeout)
	}
	return why + fmt.Sprintf(" (peer timeout %v)", s.cfg.PeerTimeout)
}

// peerSilent ends game gs, whose peer sent nothing in time: CHAT, GAMEEND
// without result, recorded unfinished; the session then ends.
func (s *session) peerSilent(ctx context.Context, gs *gameState) error {
	why := s.silence(gs)
	s.log.Warn().Str("why", why).Msg("dxp: the peer went silent; ending the game")
	if err := s.chat("damka: " + why + "; ending the game"); err != nil {
		s.finish(engine.Ongoing, why)
		return err
	}
	if _, err := s.endUnfinished(ctx, why); err != nil {
		return err
	}
	return fmt.Errorf("%w: %s", ErrPeerTimeout, why)
}

// followerSilent ends a follower's session whose peer sent no GAMEREQ in
// time (a game it suspended is recorded unfinished).
func (s *session) followerSilent() error {
	why := fmt.Sprintf("no GAMEREQ from the peer in %v (peer timeout)", s.cfg.PeerTimeout)
	if gs := s.game; gs != nil {
		why = s.silence(gs)
		s.finish(engine.Ongoing, why)
	}
	s.log.Warn().Str("why", why).Msg("dxp: the peer went silent; closing the connection")
	return fmt.Errorf("%w: %s", ErrPeerTimeout, why)
}

// anyTime handles the messages that may come on either side's turn:
// GAMEREQ (ends or continues the game), CHAT, BACKREQ, stray GAMEACC and
// BACKACC.
func (s *session) anyTime(ctx context.Context, gs *gameState, ev event) (*GameReq, bool, error) {
	switch m := ev.msg.(type) {
	case *GameReq:
		if s.cfg.Role == Initiator {
			return nil, false, s.send(&GameAcc{Name: s.cfg.Name, Code: AccNoGames})
		}
		// A GAMEREQ in the middle of a game: answer decides whether it
		// continues this one.
		gs.suspended = true
		return m, true, nil
	case *Chat:
		s.logChat(m)
	case *BackReq:
		return nil, false, s.backReq(gs, m)
	default:
		s.log.Warn().Str("msg", string(ev.raw)).Msg("dxp: unexpected message during a game; ignored")
	}
	return nil, false, nil
}

// think searches damka's move while handling what the peer sends meanwhile,
// and sends the move. over reports that the game ended or was suspended.
func (s *session) think(ctx context.Context) (req *GameReq, over bool, err error) {
	gs := s.game
	job := search.Start(ctx, s.cfg.Engine, search.Request{
		Game:   gs.g,
		Limits: s.limits(gs),
		Book:   search.BookOptions{Use: s.cfg.Book != nil, Book: s.cfg.Book, Margin: s.cfg.BookMargin},
	})
	defer job.Stop()
	ch := make(chan search.Result, 1)
	s.searches.Add(1)
	go func() {
		defer s.searches.Done()
		c := job.Wait()
		switch {
		case c.Source == search.FromBook:
			s.log.Debug().Str("move", c.Root.FormatMove(c.Move, engine.FormatNumeric)).Msg("dxp: book move")
		case c.Problem != "":
			s.log.Error().Str("problem", c.Problem).Msg("dxp: bad search result")
		}
		ch <- c.Result
	}()
	stop := func() {
		job.Stop()
		<-ch
	}
	for {
		ev := s.wait(ctx, 0, ch)
		switch ev.kind {
		case evSearch:
			res := ev.result
			pos := gs.g.Position()
			if !res.HasMove {
				// Result() said the game goes on; never send no move.
				req, err := s.endGame(ctx, resultFor(EndLose, gs.us), "no move found")
				return req, true, err
			}
			secs := int((time.Since(gs.turn) + time.Second/2) / time.Second)
			mm := MoveMessage(&pos, res.Move, secs)
			s.log.Debug().Str("move", pos.FormatMove(res.Move, engine.FormatFull)).Int("depth", res.Depth).
				Int("score", res.Score).Uint64("nodes", res.Nodes).Dur("think", res.Time).Msg("dxp: our move")
			if err := s.send(mm); err != nil {
				s.finish(engine.Ongoing, "write failed")
				return nil, true, err
			}
			s.applyMove(gs, res.Move, -1)
			if gs.minutes > 0 && gs.clock[gs.us] < 0 {
				s.log.Warn().Dur("clock", gs.clock[gs.us]).Msg("dxp: damka's time is used up")
			}
			return nil, false, nil
		case evCancel:
			stop()
			req, err := s.abandon(ctx, "stopped")
			return req, true, err
		case evClosed:
			stop()
			s.finish(engine.Ongoing, "peer disconnected")
			return nil, true, fmt.Errorf("%w mid-game: %v", ErrDisconnected, ev.err)
		case evBad:
			stop()
			req, err := s.protocolError(ctx, fmt.Sprintf("%v", ev.err))
			return req, true, err
		}
		switch m := ev.msg.(type) {
		case *GameEnd:
			// GAMEEND out of turn: real peers send it while we think.
			stop()
			req, err := s.peerEnd(ctx, m)
			return req, true, err
		case *Move:
			stop()
			req, err := s.protocolError(ctx, "MOVE out of turn: damka is to move")
			return req, true, err
		case *BackReq:
			if !s.cfg.AcceptTakeBack {
				if err := s.send(&BackAcc{Code: BackRefused}); err != nil {
					stop()
					s.finish(engine.Ongoing, "write failed")
					return nil, true, err
				}
				continue
			}
			stop()
			return nil, false, s.backReq(gs, m)
		default:
			req, over, err := s.anyTime(ctx, gs, ev)
			if over || err != nil {
				stop()
				return req, true, err
			}
		}
	}
}

// backReq answers a BACKREQ: refused in match play, else the game goes
// back to that move and side to move.
func (s *session) backReq(gs *gameState, m *BackReq) error {
	if !s.cfg.AcceptTakeBack {
		s.log.Info().Int("move", m.MoveNumber).Msg("dxp: BACKREQ refused (match play)")
		return s.send(&BackAcc{Code: BackRefused})
	}
	first := s.cfg.Variant.Rules().FirstToMove
	offset := 0
	if gs.g.Start().Side != first {
		offset = 1
	}
	side := 0
	if m.ToMove != first {
		side = 1
	}
	ply := 2*(m.MoveNumber-1) + side - offset
	if m.MoveNumber < 1 || ply < 0 || ply > gs.g.Ply() {
		s.log.Warn().Int("move", m.MoveNumber).Msg("dxp: BACKREQ to a move not in the game refused")
		return s.send(&BackAcc{Code: BackRefused})
	}
	for gs.g.Ply() > ply {
		gs.g.Undo()
	}
	gs.pdn.Moves = gs.pdn.Moves[:ply]
	gs.pdn.MoveTexts = gs.pdn.MoveTexts[:ply]
	if gs.pdn.Comments != nil {
		gs.pdn.Comments = gs.pdn.Comments[:ply]
	}
	gs.turn = time.Now()
	s.log.Info().Int("move", m.MoveNumber).Str("side", sideName(m.ToMove)).Msg("dxp: moves taken back")
	return s.send(&BackAcc{Code: BackAccepted})
}

// peerEnd handles the peer's GAMEEND: acknowledge, then record the result.
func (s *session) peerEnd(ctx context.Context, m *GameEnd) (*GameReq, error) {
	if m.Stop == StopNoMore {
		s.peerStop = true
	}
	if err := s.send(&GameEnd{Reason: EndNone, Stop: s.stopCode(ctx)}); err != nil {
		s.finish(engine.Ongoing, "write failed")
		return nil, err
	}
	if r, _ := ruleEnd(s.game); m.Reason == EndNone && r == engine.Ongoing && s.cfg.Role == Follower && ctx.Err() == nil {
		// No result in an unfinished game: keep it, a GAMEREQ may
		// continue it (the per-move GAMEREQ style).
		s.game.suspended = true
		s.log.Debug().Msg("dxp: the peer ended the game without a result; kept in case it continues")
		return nil, nil
	}
	s.peerResult(m)
	return nil, nil
}

// peerResult records the game's end by the peer's GAMEEND m. When the
// rules decide the position, their result is recorded (and a different
// claim logged).
func (s *session) peerResult(m *GameEnd) {
	gs := s.game
	claim := resultFor(m.Reason, gs.us.Opp())
	r, why := ruleEnd(gs)
	switch {
	case r != engine.Ongoing:
		switch {
		case claim == r:
		case m.Reason == EndNone:
			// Moby Dam ends a game at the move limit with reason 0.
			s.log.Info().Str("rules", r.String()+" "+why).Msg("dxp: the peer ended a finished game without a result")
		default:
			s.log.Warn().Stringer("claim", m.Reason).Str("rules", r.String()+" "+why).Msg("dxp: the peer's GAMEEND differs from the rules")
		}
	case m.Reason == EndNone:
		r, why = engine.Ongoing, "the peer ended the game without a result"
	default:
		r, why = claim, "GAMEEND from the peer: "+m.Reason.String()
	}
	s.finish(r, why)
}

// endGame sends our GAMEEND for result r (damka is to move), waits for the
// acknowledgement and records the game.
func (s *session) endGame(ctx context.Context, r engine.Result, why string) (*GameReq, error) {
	gs := s.game
	if err := s.send(&GameEnd{Reason: endReason(r, gs.us), Stop: s.stopCode(ctx)}); err != nil {
		s.finish(r, why)
		return nil, err
	}
	s.finish(r, why)
	return s.awaitAck(ctx)
}

// protocolError ends the game after a malformed or impossible message: a
// CHAT naming the error, GAMEEND without result, the acknowledgement; the
// game is recorded as unfinished.
func (s *session) protocolError(ctx context.Context, what string) (*GameReq, error) {
	s.log.Warn().Str("error", what).Msg("dxp: protocol error; ending the game")
	if err := s.chat("damka: " + what); err != nil {
		s.finish(engine.Ongoing, "protocol error: "+what)
		return nil, err
	}
	return s.endUnfinished(ctx, "protocol error: "+what)
}

// abandon ends the game because the session stops.
func (s *session) abandon(ctx context.Context, why string) (*GameReq, error) {
	return s.endUnfinished(ctx, why)
}

// endUnfinished sends GAMEEND without result, records the game as
// unfinished and waits for the acknowledgement.
func (s *session) endUnfinished(ctx context.Context, why string) (*GameReq, error) {
	if err := s.send(&GameEnd{Reason: EndNone, Stop: s.stopCode(ctx)}); err != nil {
		s.finish(engine.Ongoing, why)
		return nil, err
	}
	s.finish(engine.Ongoing, why)
	return s.awaitAck(ctx)
}

// awaitAck waits (at most AckTimeout) for the GAMEEND that acknowledges
// ours. A GAMEREQ (a peer that skips the acknowledgement) is returned to
// be answered.
func (s *session) awaitAck(ctx context.Context) (*GameReq, error) {
	deadline := time.Now().Add(s.cfg.AckTimeout)
	for {
		ev := s.wait(ctx, time.Until(deadline), nil)
		switch ev.kind {
		case evCancel:
			// Stopping: wait no longer than a short while.
			if soon := time.Now().Add(time.Second); soon.Before(deadline) {
				deadline = soon
			}
			ctx = context.WithoutCancel(ctx)
			continue
		case evTimeout:
			s.log.Warn().Dur("timeout", s.cfg.AckTimeout).Msg("dxp: no acknowledgement of our GAMEEND")
			return nil, nil
		case evClosed:
			if s.cfg.Role == Initiator && !s.lastGame {
				return nil, fmt.Errorf("%w: %v", ErrDisconnected, ev.err)
			}
			return nil, nil
		case evBad:
			if err := s.chat(fmt.Sprintf("damka: %v", ev.err)); err != nil {
				return nil, err
			}
			continue
		}
		switch m := ev.msg.(type) {
		case *GameEnd:
			if m.Stop == StopNoMore {
				s.peerStop = true
			}
			return nil, nil
		case *GameReq:
			if s.cfg.Role == Follower {
				return m, nil
			}
			if err := s.send(&GameAcc{Name: s.cfg.Name, Code: AccNoGames}); err != nil {
				return nil, err
			}
		case *Chat:
			s.logChat(m)
		default:
			s.log.Debug().Str("msg", string(ev.raw)).Msg("dxp: message after our GAMEEND ignored")
		}
	}
}

// finish records the current game with result r (engine.Ongoing:
// unfinished) and calls OnGame.
func (s *session) finish(r engine.Result, why string) {
	gs := s.game
	if gs == nil {
		return
	}
	s.game = nil
	rec := &GameRecord{Round: gs.round, Color: gs.us, Opponent: gs.opponent, Result: r, Reason: why, PDN: gs.pdn}
	switch {
	case r == engine.Ongoing:
		rec.Outcome = Unfinished
		s.sum.Unfinished++
	case r == engine.Draw:
		rec.Outcome = Draw
		s.sum.Draws++
	case (r == engine.WhiteWins) == (gs.us == engine.White):
		rec.Outcome = Win
		s.sum.Wins++
	default:
		rec.Outcome = Loss
		s.sum.Losses++
	}
	p := gs.pdn
	p.Result = r.PDN(s.cfg.Variant)
	white, black := s.cfg.Name, gs.opponent
	if gs.us == engine.Black {
		white, black = black, white
	}
	p.SetTag("Event", s.cfg.Event)
	p.SetTag("Site", s.cfg.Site)
	p.SetTag("Date", time.Now().Format("2006.01.02"))
	p.SetTag("Round", strconv.Itoa(gs.round))
	p.SetTag("White", white)
	p.SetTag("Black", black)
	p.SetTag("GameType", strconv.Itoa(s.cfg.Variant.Rules().GameType))
	if gs.minutes > 0 {
		tc := strconv.Itoa(gs.minutes) + "min"
		if gs.moves > 0 {
			tc += "/" + strconv.Itoa(gs.moves) + "moves"
		}
		p.SetTag("TimeControl", tc)
	}
	p.SetTag("Termination", why)
	s.log.Info().Int("game", gs.round).Str("result", p.Result).Stringer("outcome", rec.Outcome).
		Str("reason", why).Int("plies", gs.g.Ply()).Msg("dxp game ends")
	if s.cfg.OnGame != nil {
		s.cfg.OnGame(rec)
	}
}

// logChat logs a CHAT from the peer.
func (s *session) logChat(m *Chat) {
	s.log.Info().Str("text", m.Text).Msg("dxp chat from the peer")
}
