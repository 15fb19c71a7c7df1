// play.go: who moves and how: damka's and the external engines' moves,
// analysis, the limits, the sides, the clocks and the settings.

package web

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

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
	s.keepAnalysing = false
	switch {
	case s.analysing, s.reviewing != nil:
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
		return
	}
	s.resumeAnalysis()
}

// resumeAnalysis starts the analysis again on the position now on the
// board when the page analyses (from Analyse until Stop) and nothing else
// runs.
func (s *session) resumeAnalysis() {
	if s.keepAnalysing && s.job == nil && !s.busyThinking() && s.reviewing == nil {
		s.analyse()
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
		text := search.FormatScore(info.Score)
		if words := scoreWords(info.Score); words != "" {
			text = words
		}
		s.sendInfo(map[string]any{
			"type": "info", "analysis": analysis, "line": max(info.MultiPV, 1), "depth": info.Depth,
			"score": info.Score, "white": score, "scoreText": text, "decided": scoreWords(info.Score) != "",
			"nodes": info.Nodes, "ms": info.Time.Milliseconds(), "nps": info.NPS,
			"pv": search.FormatPV(&root, info.PV, engine.FormatFull), "fen": root.FEN(),
			"path": firstMovePath(&root, info.PV),
		})
	}
}

// scoreWords says what a decided score (centi-men, the side to move's
// view) means for the side to move: "win in 17" or "loss in 4" (plies),
// "win" or "loss" where the tables store no distance; "" for any other
// score.
func scoreWords(cs int) string {
	sign, plies, _, ok := search.Decided(cs)
	if !ok {
		return ""
	}
	w := "win"
	if sign < 0 {
		w = "loss"
	}
	if plies >= 0 {
		w += " in " + strconv.Itoa(plies)
	}
	return w
}

// firstMovePath returns the squares the first move of pv passes from root
// (for the page's arrow), none when pv is empty or its move is not legal
// there.
func firstMovePath(root *engine.Position, pv []engine.Move) []int {
	if len(pv) == 0 {
		return []int{}
	}
	var legal engine.MoveList
	root.Generate(&legal)
	for _, m := range legal.Slice() {
		if m == pv[0] {
			return squareInts(root.Path(m))
		}
	}
	return []int{}
}

func (s *session) analyse() {
	if s.busyThinking() {
		s.sendError("%s is thinking: analyse after its move", s.sides[s.game().Position().Side])
		return
	}
	root := s.game().Position()
	var legal engine.MoveList
	if root.Generate(&legal); legal.N == 0 {
		s.sendError("nothing to analyse: the side to move has no legal move")
		return
	}
	s.stopLocked()
	lim := search.Limits{Draw: s.game().DrawState()}
	s.job = s.p.Go(s.ctx, player.Analyse, lim, s.reporter(root, true))
	s.analysing, s.keepAnalysing = true, true
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
	if bound, flag := s.cfg.bound(name); ok && bound > 0 {
		if n, err := strconv.Atoi(strings.TrimSpace(value)); err == nil && n > bound {
			unit := ""
			if st.Unit != "" {
				unit = " " + st.Unit
			}
			s.sendError("set %s %s: at most %d%s on this server (damka gui %s)", st.Name, value, bound, unit, flag)
			s.send(s.settingsMsg())
			return
		}
	}
	// damka's search stops for the change and starts again under the new
	// setting; an external engine thinks on.
	thinking, analysing := s.job != nil && !s.analysing, s.analysing
	if s.job != nil {
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
		s.stopLocked() // an external engine's move belongs to the game before
		s.restartLocked()
		s.sendStateLocked()
	}
	switch {
	case analysing:
		s.analyse()
	case thinking || s.game() != before:
		s.autoplay()
	}
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
	if g.Position().Side == c {
		if s.clock.stopped {
			d += s.clock.stoppedAt.Sub(s.clock.turnStart)
		} else if res, _ := g.Result(); res == engine.Ongoing {
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
	s.clock.stopped, s.clock.stoppedAt = true, time.Now()
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
