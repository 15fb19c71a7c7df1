// session.go: one page's session: the messages it reads and writes, the
// game it plays and its player.

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// Who plays a side: a person at the page, damka, or an external engine by
// its name.
const (
	Human = "human"
	Damka = "damka"
)

// DefaultMoveTime is damka's time per move until the page sets a level.
const DefaultMoveTime = time.Second

// ballotPlies is the length of the openings a new game can start from.
const ballotPlies = 3

// inMsg is a message from the page: Type says which, the other fields are
// that message's (see the package's docs/gui.md for the list).
type inMsg struct {
	Type     string `json:"type"`
	Variant  string `json:"variant"`
	FEN      string `json:"fen"`
	Ballot   int    `json:"ballot"` // new: 0 none, -1 a random one, n the n-th
	Move     string `json:"move"`
	Name     string `json:"name"`
	Value    string `json:"value"`
	Text     string `json:"text"`
	White    string `json:"white"`
	Black    string `json:"black"`
	MoveTime int    `json:"movetime"` // ms
	Depth    int    `json:"depth"`
	Nodes    uint64 `json:"nodes"`
	Base     int    `json:"base"` // clock: ms per side
	Inc      int    `json:"inc"`  // clock: ms added after each move
	Game     int    `json:"game"` // loadpdn: the game's number in the text, from 1 (0: the first)
	Node     int    `json:"node"` // goto: the move of the tree to show (0: the start)
}

// session is one page, behind its Transport: its player, the sides, damka's limits, the clocks
// and the engine running for it.
type session struct {
	cfg    Config
	t      Transport
	p      *player.Player
	ctx    context.Context
	cancel context.CancelFunc
	out    chan []byte

	mu        sync.Mutex
	gen       int         // changes whenever the game changes under a search
	job       *search.Job // damka's running search, nil when none
	analysing bool        // job is an analysis
	extStop   context.CancelFunc
	extBusy   bool
	sides     [2]string // who plays White, Black
	limits    search.Limits
	clock     gameClock
	shown     *engine.Game // the game the clock belongs to
	flag      *time.Timer
	engines   map[string]Engine
	names     [2]string          // the players' names for PDN, fixed when a side moves
	tree      *moveTree          // the game's moves and variations; the game is its line to the node shown
	gameID    int                // counts the games (a new tree), so that the page knows a new game
	reviewing context.CancelFunc // ends the running review, nil when none
	reviewN   int                // counts the reviews started, so that a review's end knows it is the one running
	wg        sync.WaitGroup

	// keepAnalysing: the page analyses (from Analyse until Stop), and the
	// analysis starts again on each new position.
	keepAnalysing bool
}

// gameClock is the clock of both sides: base and increment (none when both
// are zero) and the time each ply took. When a flag falls the clock stops,
// the turn that ran counted up to stoppedAt.
type gameClock struct {
	base, inc time.Duration
	fromPly   int
	spent     []time.Duration
	turnStart time.Time
	stopped   bool
	stoppedAt time.Time
}

func newSession(cfg Config, t Transport, p *player.Player) *session {
	return &session{
		cfg: cfg, t: t, p: p,
		out:     make(chan []byte, 256),
		sides:   [2]string{Human, Damka},
		limits:  search.Limits{MoveTime: DefaultMoveTime},
		engines: map[string]Engine{},
	}
}

// run serves the page until it goes: reads its messages and answers them.
// When it returns, the search is stopped, the engines are closed and every
// goroutine of the session has ended.
func (s *session) run(parent context.Context) {
	s.ctx, s.cancel = context.WithCancel(parent)
	defer s.cancel()
	s.p.SetNotice(func(msg string) { s.send(map[string]any{"type": "notice", "message": msg}) })
	writerDone := make(chan struct{})
	go s.writer(writerDone)
	s.mu.Lock()
	s.restartLocked()
	s.mu.Unlock()
	s.send(s.hello())
	s.sendState()
	for {
		data, err := s.t.Read(s.ctx)
		if errors.Is(err, ErrNotText) {
			s.sendError("%v", ErrNotText)
			continue
		}
		if err != nil {
			break
		}
		s.handle(data)
	}
	s.shutdown()
	s.cancel()
	<-writerDone
	_ = s.t.Close()
}

// shutdown stops everything the session runs and waits for it.
func (s *session) shutdown() {
	s.cancel() // before the lock: an engine started from now on is closed at once
	s.mu.Lock()
	s.stopLocked()
	if s.flag != nil {
		s.flag.Stop()
	}
	engines := s.engines
	s.engines = map[string]Engine{}
	s.mu.Unlock()
	s.wg.Wait()
	for name, e := range engines {
		if err := e.Close(); err != nil {
			s.cfg.Log.Warn().Err(err).Str("engine", name).Msg("closing engine")
		}
	}
}

// writer sends the queued messages to the page until the session ends.
func (s *session) writer(done chan struct{}) {
	defer close(done)
	for {
		select {
		case b := <-s.out:
			ctx, cancel := context.WithTimeout(s.ctx, writeTimeout)
			err := s.t.Write(ctx, b)
			cancel()
			if err != nil {
				s.cancel()
				return
			}
		case <-s.ctx.Done():
			return
		}
	}
}

// send queues v, as JSON, for the page; it drops it when the session has
// ended.
func (s *session) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.cfg.Log.Error().Err(err).Msg("encoding a message")
		return
	}
	select {
	case s.out <- b:
	case <-s.ctx.Done():
	}
}

// sendInfo queues a search report, dropping it when the page reads too
// slowly (the next one replaces it).
func (s *session) sendInfo(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	select {
	case s.out <- b:
	default:
	}
}

func (s *session) sendError(format string, a ...any) {
	s.send(map[string]any{"type": "error", "message": fmt.Sprintf(format, a...)})
}

// handle answers one message of the page. A bad message is answered with
// an error message; the connection stays.
func (s *session) handle(data []byte) {
	var m inMsg
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		s.sendError("bad message: %v (want a JSON object with a \"type\")", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case "new":
		s.newGame(m)
	case "move":
		s.move(m.Move)
	case "go":
		s.goNow()
	case "stop":
		s.stop()
	case "analyse":
		s.analyse()
	case "sides":
		s.setSides(m.White, m.Black)
	case "level":
		s.setLevel(m)
	case "clock":
		s.setClock(m)
	case "set":
		s.set(m.Name, m.Value)
	case "undo":
		s.undo()
	case "fen":
		s.setFEN(m.FEN)
	case "pdn":
		s.send(map[string]any{"type": "pdn", "text": s.pdnText()})
	case "loadpdn":
		s.loadPDN(m.Text, m.Game)
	case "state":
		s.sendStateLocked()
	case "goto":
		s.gotoNode(m.Node)
	case "review":
		s.startReview(m.Depth)
	case "":
		s.sendError("bad message: no \"type\"")
	default:
		s.sendError("unknown message type %q; known: %s", m.Type, strings.Join(msgTypes, ", "))
	}
}

// msgTypes are the types of the page's messages.
var msgTypes = []string{"new", "move", "go", "stop", "analyse", "sides", "level", "clock", "set", "undo", "fen", "pdn", "loadpdn", "state", "goto", "review"}

func (s *session) game() *engine.Game { return s.p.Game() }

// stopLocked stops any search and forgets its result.
func (s *session) stopLocked() {
	s.gen++
	if s.job != nil {
		s.p.Stop()
		s.job.Wait()
		s.job = nil
	}
	s.analysing = false
	if s.reviewing != nil {
		s.reviewing()
		s.reviewing = nil
	}
	if s.extStop != nil {
		s.extStop()
		s.extStop = nil
	}
	s.extBusy = false
}

// restartLocked makes the player's game the one the clocks belong to,
// counting from now.
func (s *session) restartLocked() {
	g := s.game()
	s.shown = g
	s.clock.spent = append(s.clock.spent[:0], make([]time.Duration, g.Ply())...)
	s.clock.fromPly = g.Ply()
	s.clock.turnStart, s.clock.stopped = time.Now(), false
	s.names = [2]string{}
	s.tree = newMoveTree(g)
	s.gameID++
}

func (s *session) newGame(m inMsg) {
	s.stopLocked()
	if m.Variant != "" {
		v, err := engine.ParseVariant(m.Variant)
		if err != nil {
			s.sendError("%v", err)
			return
		}
		if v != s.p.Variant() {
			s.p.SetVariant(v)
			s.send(s.settingsMsg())
		}
	}
	v := s.p.Variant()
	var g *engine.Game
	switch {
	case m.FEN != "":
		pos, err := engine.ParsePosition(v, m.FEN)
		if err != nil {
			s.sendError("bad position: %v", err)
			return
		}
		g = engine.NewGame(pos)
	case m.Ballot != 0:
		ops, err := openings.All(v, ballotPlies)
		if err != nil || len(ops) == 0 {
			s.sendError("no %d-move openings of %s: %v", ballotPlies, v, err)
			return
		}
		i := m.Ballot - 1
		if m.Ballot < 0 {
			i = rand.IntN(len(ops))
		}
		if i < 0 || i >= len(ops) {
			s.sendError("ballot %d: there are %d openings of %d plies in %s", m.Ballot, len(ops), ballotPlies, v)
			return
		}
		op := ops[i]
		g = engine.NewGame(op.Start)
		for _, mv := range op.Moves {
			g.Play(mv)
		}
	}
	s.p.NewGame()
	if g != nil {
		s.p.SetGame(g)
	}
	s.restartLocked()
	s.sendStateLocked()
	s.autoplay()
}

func (s *session) move(text string) {
	if res, _ := s.ended(); res != engine.Ongoing {
		s.sendError("the game is over: start a new one or take back")
		return
	}
	if s.busyThinking() {
		s.sendError("%s is thinking: wait, or stop it", s.sides[s.game().Position().Side])
		return
	}
	pos := s.game().Position()
	mv, err := pos.ParseMove(text)
	if err != nil {
		s.sendError("%v", err)
		return
	}
	s.stopLocked() // an analysis of the position before the move
	s.playLocked(mv, Human)
	s.sendStateLocked()
	s.autoplay()
}

// busyWhat says what runs: "think", "analyse" or "".
func (s *session) busyWhat() string {
	switch {
	case s.analysing:
		return "analyse"
	case s.reviewing != nil:
		return "review"
	case s.busyThinking():
		return "think"
	}
	return ""
}

// busyThinking reports whether damka or an engine is choosing a move.
func (s *session) busyThinking() bool { return (s.job != nil && !s.analysing) || s.extBusy }

// playLocked plays mv for who and charges the time of the turn to the
// mover.
func (s *session) playLocked(mv engine.Move, who string) {
	g := s.game()
	side := g.Position().Side
	if s.names[side] == "" {
		s.names[side] = who
	}
	now := time.Now()
	s.clock.spent = append(s.clock.spent[:g.Ply()], now.Sub(s.clock.turnStart))
	s.clock.turnStart, s.clock.stopped = now, false
	g.Play(mv)
}
