package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"damka/engine"
	"damka/openings"
	"damka/pdn"
	"damka/player"
	"damka/search"
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
	names     [2]string // the players' names for PDN, fixed when a side moves
	wg        sync.WaitGroup
}

// gameClock is the clock of both sides: base and increment (none when both
// are zero) and the time each ply took.
type gameClock struct {
	base, inc time.Duration
	fromPly   int
	spent     []time.Duration
	turnStart time.Time
	stopped   bool
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
		s.loadPDN(m.Text)
	case "state":
		s.sendStateLocked()
	case "":
		s.sendError("bad message: no \"type\"")
	default:
		s.sendError("unknown message type %q; known: %s", m.Type, strings.Join(msgTypes, ", "))
	}
}

// msgTypes are the types of the page's messages.
var msgTypes = []string{"new", "move", "go", "stop", "analyse", "sides", "level", "clock", "set", "undo", "fen", "pdn", "loadpdn", "state"}

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

// goNow makes damka move now for the side to move (or the engine that
// plays it).
func (s *session) goNow() {
	if res, _ := s.ended(); res != engine.Ongoing {
		s.sendError("the game is over: start a new one or take back")
		return
	}
	if s.busyThinking() {
		return
	}
	s.stopLocked()
	who := s.sides[s.game().Position().Side]
	if who == Human {
		who = Damka
	}
	s.think(who)
}

// stop ends an analysis, or makes damka play its best move so far.
func (s *session) stop() {
	switch {
	case s.analysing:
		s.stopLocked()
		s.send(map[string]any{"type": "busy", "what": ""})
	case s.job != nil:
		s.p.Stop()
	}
}

// autoplay starts the player of the side to move when it is not a person
// and the game goes on.
func (s *session) autoplay() {
	s.armFlag()
	if res, _ := s.ended(); res != engine.Ongoing {
		return
	}
	who := s.sides[s.game().Position().Side]
	if who != Human && !s.busyThinking() {
		s.think(who)
	}
}

// limitsFor returns the limits of the side to move: the game clock when
// there is one, else damka's level.
func (s *session) limitsFor(side engine.Color) search.Limits {
	if s.timed() {
		return search.Limits{Time: max(s.remaining(side), time.Millisecond), Inc: s.clock.inc}
	}
	return s.limits
}

// think starts who (damka or an engine's name) choosing a move for the side
// to move; the move is played when it comes, unless the game has changed
// meanwhile.
func (s *session) think(who string) {
	g := s.game()
	root := g.Position()
	lim := s.limitsFor(root.Side)
	lim.Draw = g.DrawState()
	gen := s.gen
	s.send(map[string]any{"type": "busy", "what": "think", "who": who})
	if who == Damka {
		job := s.p.Go(s.ctx, player.Think, lim, s.reporter(root, false))
		s.job = job
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			c := job.Wait()
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.gen != gen {
				return
			}
			s.job = nil
			s.send(map[string]any{"type": "busy", "what": ""})
			if !c.HasMove {
				s.sendError("damka has no move")
				return
			}
			if c.Problem != "" {
				s.sendError("damka: %s", c.Problem)
			}
			s.engineMoved(c.Move, Damka, root.Side)
		}()
		return
	}
	eng, ok := s.engines[who]
	ctx, cancel := context.WithCancel(s.ctx)
	s.extStop, s.extBusy = cancel, true
	replay := engine.NewGame(g.Start())
	for _, mv := range g.Moves() {
		replay.Play(mv)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		var err error
		if !ok {
			eng, err = s.cfg.StartEngine(ctx, who)
			if err == nil {
				s.mu.Lock()
				if s.ctx.Err() != nil {
					s.mu.Unlock()
					_ = eng.Close()
					return
				}
				s.engines[who] = eng
				s.mu.Unlock()
			}
		}
		var mv engine.Move
		if err == nil {
			mv, err = eng.Think(ctx, replay, lim)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.gen != gen {
			return
		}
		s.extBusy, s.extStop = false, nil
		s.send(map[string]any{"type": "busy", "what": ""})
		if err != nil {
			s.sendError("engine %s: %v", who, err)
			return
		}
		s.engineMoved(mv, who, root.Side)
	}()
}

// engineMoved plays the move an engine chose for side, unless its flag fell
// first, and goes on.
func (s *session) engineMoved(mv engine.Move, who string, side engine.Color) {
	if s.timed() && s.remaining(side) < 0 {
		s.ended()
		s.sendStateLocked()
		return
	}
	s.playLocked(mv, who)
	s.sendStateLocked()
	s.autoplay()
}

// reporter returns the report function of a search from root: each line as
// an info message.
func (s *session) reporter(root engine.Position, analysis bool) func(search.Info) {
	return func(info search.Info) {
		score := info.Score
		if root.Side == engine.Black {
			score = -score // White's point of view for the graph
		}
		s.sendInfo(map[string]any{
			"type": "info", "analysis": analysis, "line": max(info.MultiPV, 1), "depth": info.Depth,
			"score": info.Score, "white": score, "scoreText": search.FormatScore(info.Score),
			"nodes": info.Nodes, "ms": info.Time.Milliseconds(), "nps": info.NPS,
			"pv": search.FormatPV(&root, info.PV, engine.FormatFull), "fen": root.FEN(),
		})
	}
}

func (s *session) analyse() {
	if s.busyThinking() {
		s.sendError("%s is thinking: analyse after its move", s.sides[s.game().Position().Side])
		return
	}
	s.stopLocked()
	root := s.game().Position()
	lim := search.Limits{Draw: s.game().DrawState()}
	s.job = s.p.Go(s.ctx, player.Analyse, lim, s.reporter(root, true))
	s.analysing = true
	s.send(map[string]any{"type": "busy", "what": "analyse", "who": Damka})
}

func (s *session) setSides(white, black string) {
	for _, who := range []string{white, black} {
		if who != Human && who != Damka && !slices.Contains(s.cfg.Engines, who) {
			s.sendError("no player %q: human, damka or an engine of the command line (%s)", who, strings.Join(s.cfg.Engines, ", "))
			return
		}
	}
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	s.sides = [2]string{white, black}
	s.sendStateLocked()
	s.autoplay()
}

func (s *session) setLevel(m inMsg) {
	if m.MoveTime < 0 || m.Depth < 0 || m.Depth > 200 || m.MoveTime > 3600_000 {
		s.sendError("level: want movetime 0..3600000 ms and depth 0..200")
		return
	}
	lim := search.Limits{MoveTime: time.Duration(m.MoveTime) * time.Millisecond, Depth: m.Depth, Nodes: m.Nodes}
	if lim == (search.Limits{}) {
		lim.MoveTime = DefaultMoveTime
	}
	s.limits = lim
	s.send(map[string]any{"type": "level", "movetime": m.MoveTime, "depth": m.Depth, "nodes": m.Nodes})
}

func (s *session) setClock(m inMsg) {
	if m.Base < 0 || m.Inc < 0 || m.Base > 24*3600_000 || m.Inc > 3600_000 {
		s.sendError("clock: want base 0..86400000 ms and inc 0..3600000 ms")
		return
	}
	s.clock.base = time.Duration(m.Base) * time.Millisecond
	s.clock.inc = time.Duration(m.Inc) * time.Millisecond
	s.clock.fromPly = s.game().Ply()
	s.clock.turnStart, s.clock.stopped = time.Now(), false
	s.armFlag()
	s.sendStateLocked()
}

// set sets one of the player's settings. Settings that name a file or a
// directory are not set from the page: the server reads no file by the
// page's name.
func (s *session) set(name, value string) {
	st, ok := player.Lookup(name)
	if ok && st.Kind == player.String {
		s.sendError("setting %s names a file or directory: set it on the command line (damka gui --%s ...), not from the page", name, name)
		return
	}
	if s.busyThinking() || s.analysing {
		s.stopLocked()
		s.send(map[string]any{"type": "busy", "what": ""})
	}
	before := s.game()
	if err := s.p.Set(name, value); err != nil {
		if errors.Is(err, player.ErrUnknownSetting) {
			s.sendError("%v", err)
		} else {
			s.sendError("set %s %q: %v", name, value, err)
		}
	}
	s.send(s.settingsMsg())
	if s.game() != before {
		s.restartLocked()
		s.sendStateLocked()
	}
}

// undo takes back moves until a person is to move again, at least one.
func (s *session) undo() {
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	g := s.game()
	if !g.Undo() {
		s.sendError("nothing to take back")
		return
	}
	hasHuman := s.sides[0] == Human || s.sides[1] == Human
	for hasHuman && g.Ply() > 0 && s.sides[g.Position().Side] != Human {
		g.Undo()
	}
	g.SetResult(engine.Ongoing, engine.ReasonNone)
	s.clock.spent = s.clock.spent[:g.Ply()]
	s.clock.fromPly = min(s.clock.fromPly, g.Ply())
	s.clock.turnStart, s.clock.stopped = time.Now(), false
	s.sendStateLocked()
	s.autoplay()
}

func (s *session) setFEN(fen string) {
	pos, err := engine.ParsePosition(s.p.Variant(), fen)
	if err != nil {
		s.sendError("bad position: %v", err)
		return
	}
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	s.p.NewGame()
	s.p.SetGame(engine.NewGame(pos))
	s.restartLocked()
	s.sendStateLocked()
	s.autoplay()
}

// loadPDN plays the first game of a PDN text (its variant, start and
// moves): the text itself, never a file it names.
func (s *session) loadPDN(text string) {
	pg, err := pdn.NewReader(strings.NewReader(text), s.p.Variant()).Next()
	if errors.Is(err, io.EOF) {
		s.sendError("PDN: no game in the text")
		return
	}
	if err != nil {
		s.sendError("PDN: %v", err)
		return
	}
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	g := engine.NewGame(pg.Start)
	for _, mv := range pg.Moves {
		g.Play(mv)
	}
	variant := s.p.Variant()
	s.p.NewGame()
	s.p.SetGame(g)
	if s.p.Variant() != variant {
		s.send(s.settingsMsg())
	}
	s.restartLocked()
	s.names = [2]string{pg.Tag("White"), pg.Tag("Black")}
	if r, err := engine.ParseResult(pg.Variant, pg.Result); err == nil && r != engine.Ongoing {
		if res, _ := g.Result(); res == engine.Ongoing {
			g.SetResult(r, engine.Resignation)
		}
	}
	s.sendStateLocked()
}

// pdnText is the game as a PDN file.
func (s *session) pdnText() string {
	g := s.game()
	v := g.Start().V
	pg := pdn.NewGame(v, g.Start())
	pg.SetTag("Event", "damka gui")
	pg.SetTag("Date", time.Now().Format("2006.01.02"))
	pg.SetTag("White", s.playerName(engine.White))
	pg.SetTag("Black", s.playerName(engine.Black))
	for _, mv := range g.Moves() {
		pg.AppendMove(mv)
	}
	res, _ := s.ended()
	pg.Result = res.PDN(v)
	var b bytes.Buffer
	if err := pdn.Write(&b, pg); err != nil {
		return ""
	}
	return b.String()
}

func (s *session) playerName(c engine.Color) string {
	if s.names[c] != "" {
		return s.names[c]
	}
	return s.sides[c]
}

// timed reports whether a game clock runs.
func (s *session) timed() bool { return s.clock.base > 0 || s.clock.inc > 0 }

// used returns the time c has spent since the clocks started, its running
// turn included.
func (s *session) used(c engine.Color) time.Duration {
	g := s.game()
	var d time.Duration
	for i := s.clock.fromPly; i < g.Ply() && i < len(s.clock.spent); i++ {
		if g.PositionAt(i).Side == c {
			d += s.clock.spent[i]
		}
	}
	if g.Position().Side == c && !s.clock.stopped {
		if res, _ := g.Result(); res == engine.Ongoing {
			d += time.Since(s.clock.turnStart)
		}
	}
	return d
}

// remaining returns c's time left: the base, plus the increment for each
// move c has made since the clocks started, less the time used.
func (s *session) remaining(c engine.Color) time.Duration {
	g := s.game()
	moves := 0
	for i := s.clock.fromPly; i < g.Ply(); i++ {
		if g.PositionAt(i).Side == c {
			moves++
		}
	}
	return s.clock.base + time.Duration(moves)*s.clock.inc - s.used(c)
}

// ended returns the game's result: by the rules, or a loss on time
// (recorded in the game) when the side to move has run out of time.
func (s *session) ended() (engine.Result, engine.Reason) {
	g := s.game()
	res, why := g.Result()
	if res != engine.Ongoing || !s.timed() {
		return res, why
	}
	side := g.Position().Side
	if s.remaining(side) >= 0 {
		return engine.Ongoing, engine.ReasonNone
	}
	s.clock.stopped = true
	res = engine.WhiteWins
	if side == engine.White {
		res = engine.BlackWins
	}
	g.SetResult(res, engine.TimeForfeit)
	return res, engine.TimeForfeit
}

// armFlag sets a timer for the flag of the side to move, so that the page
// learns of a loss on time while nobody moves.
func (s *session) armFlag() {
	if s.flag != nil {
		s.flag.Stop()
		s.flag = nil
	}
	if !s.timed() {
		return
	}
	if res, _ := s.ended(); res != engine.Ongoing {
		return
	}
	side := s.game().Position().Side
	ply := s.game().Ply()
	s.flag = time.AfterFunc(s.remaining(side)+5*time.Millisecond, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.ctx.Err() != nil || s.game().Ply() != ply {
			return
		}
		if res, _ := s.ended(); res != engine.Ongoing {
			s.stopLocked()
			s.send(map[string]any{"type": "busy", "what": ""})
			s.sendStateLocked()
		}
	})
}

func (s *session) sendState() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sendStateLocked()
}

// moveMsg is one legal move for the page: its text (FormatFull, which the
// move message takes back), the squares of its path and the captured
// squares.
type moveMsg struct {
	Text     string `json:"text"`
	Path     []int  `json:"path"`
	Captured []int  `json:"captured"`
}

// sendStateLocked sends the whole state: the position, its legal moves,
// the moves played, the result and the clocks.
func (s *session) sendStateLocked() {
	if s.game() != s.shown {
		s.restartLocked()
	}
	g := s.game()
	pos := g.Position()
	v := pos.V
	r := v.Rules()
	board := make([]string, r.Squares+1) // board[sq]: "", "w", "W", "b", "B"
	for sq := 1; sq <= r.Squares; sq++ {
		switch pos.PieceAt(engine.Square(sq)) {
		case engine.WhiteMan:
			board[sq] = "w"
		case engine.WhiteKing:
			board[sq] = "W"
		case engine.BlackMan:
			board[sq] = "b"
		case engine.BlackKing:
			board[sq] = "B"
		}
	}
	res, why := s.ended()
	var moves []moveMsg
	if res == engine.Ongoing {
		for _, mv := range pos.SortedMoves() {
			mm := moveMsg{Text: pos.FormatMove(mv, engine.FormatFull), Path: squareInts(pos.Path(mv)), Captured: []int{}}
			for set := engine.SquareSet(v, mv.Captured); set != 0; set &= set - 1 {
				mm.Captured = append(mm.Captured, bits.TrailingZeros64(set)+1)
			}
			moves = append(moves, mm)
		}
	}
	played := make([]string, 0, g.Ply())
	for i, mv := range g.Moves() {
		p := g.PositionAt(i)
		played = append(played, p.FormatMove(mv, engine.FormatFull))
	}
	squares := make([]map[string]any, 0, r.Squares)
	for sq := 1; sq <= r.Squares; sq++ {
		row, col := engine.SquareRowCol(v, engine.Square(sq))
		squares = append(squares, map[string]any{"sq": sq, "row": row, "col": col, "name": engine.SquareName(v, engine.Square(sq), r.Notation)})
	}
	var last []int
	if g.Ply() > 0 {
		prev := g.PositionAt(g.Ply() - 1)
		last = squareInts(prev.Path(g.Moves()[g.Ply()-1]))
	}
	state := map[string]any{
		"type":      "state",
		"variant":   v.String(),
		"size":      r.BoardSize,
		"algebraic": r.Notation == engine.Algebraic,
		"first":     colourWord(r.FirstToMove),
		"squares":   squares,
		"board":     board,
		"side":      colourWord(pos.Side),
		"fen":       pos.FENStyle(r.Notation),
		"moves":     moves,
		"played":    played,
		"startSide": colourWord(g.Start().Side),
		"last":      last,
		"white":     s.sides[engine.White],
		"black":     s.sides[engine.Black],
		"busy":      s.busyWhat(),
		"result":    "",
		"reason":    "",
	}
	if res != engine.Ongoing {
		state["result"] = res.PDN(v)
		state["reason"] = resultText(res, why)
	}
	clock := map[string]any{"timed": s.timed(), "running": res == engine.Ongoing && !s.clock.stopped}
	for _, c := range []engine.Color{engine.White, engine.Black} {
		if s.timed() {
			clock[colourWord(c)] = s.remaining(c).Milliseconds()
		} else {
			clock[colourWord(c)] = s.used(c).Milliseconds()
		}
	}
	state["clock"] = clock
	s.send(state)
}

// squareInts returns the squares as numbers (a []uint8 would be
// written to JSON as base64).
func squareInts(sqs []engine.Square) []int {
	out := make([]int, len(sqs))
	for i, sq := range sqs {
		out[i] = int(sq)
	}
	return out
}

func colourWord(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

// resultText says who won and why, or why the game is drawn.
func resultText(res engine.Result, why engine.Reason) string {
	switch res {
	case engine.Draw:
		if why == engine.Repetition {
			return "draw by threefold repetition"
		}
		return "draw: " + why.String()
	case engine.WhiteWins:
		return "White wins: " + why.String()
	case engine.BlackWins:
		return "Black wins: " + why.String()
	}
	return ""
}

// settingMsg is one setting for the page: its declaration and value.
type settingMsg struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	Unit     string   `json:"unit"`
	Values   []string `json:"values"`
	Default  string   `json:"default"`
	Doc      string   `json:"doc"`
	Range    string   `json:"range"`
	Value    string   `json:"value"`
	ReadOnly bool     `json:"readonly"` // names a file: set on the command line only
}

// settingsMsg lists every setting of player.Settings with its value, so
// that a new setting appears on the page by itself.
func (s *session) settingsMsg() map[string]any {
	var list []settingMsg
	for _, st := range player.Settings() {
		v, err := s.p.Get(st.Name)
		if err != nil {
			v = ""
		}
		list = append(list, settingMsg{
			Name: st.Name, Kind: st.Kind.String(), Min: st.Min, Max: st.Max, Unit: st.Unit,
			Values: st.Values, Default: st.Default, Doc: st.Doc, Range: st.Range(), Value: v,
			ReadOnly: st.Kind == player.String,
		})
	}
	return map[string]any{"type": "settings", "settings": list}
}

// hello is the first message: the version, the variants, the external
// engines and the settings.
func (s *session) hello() map[string]any {
	m := s.settingsMsg()
	m["type"] = "hello"
	m["version"] = s.cfg.Version
	m["variants"] = engine.VariantNames()
	engines := s.cfg.Engines
	if engines == nil {
		engines = []string{}
	}
	m["engines"] = engines
	m["messages"] = msgTypes
	return m
}
