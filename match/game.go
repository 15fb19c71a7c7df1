// game.go: one game of the match: a worker's pair of engines, the game
// set up from its opening, each move asked for, refereed and charged to
// the clock, pondering between moves, the result scored (faults,
// adjudication, the rules) and the PDN record completed.

package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/protocol/dxpclient"
	"github.com/damka-draughts/damka/protocol/hubclient"
	"github.com/damka-draughts/damka/protocol/hubwire"
)

// worker plays games one after another with its own pair of engines.
type worker struct {
	cfg     *Config
	id      int
	players [2]enginePlayer // A, B
}

// close quits both engines.
func (w *worker) close() {
	for _, p := range w.players {
		if p != nil {
			p.close()
		}
	}
}

// fault describes a game lost by an engine's fault, or by its
// resignation (resigned: not counted as a fault).
type fault struct {
	engine   int
	term     string
	detail   string
	ended    bool // the engine ended the game itself (DXP GAMEEND, acknowledged)
	resigned bool
}

// play plays one game of the schedule: it sets the game up, (re)starts both
// engines, has them move until the game ends (each engine that ponders
// pondering after its moves), then scores it and completes its PDN record. A game cancelled by ctx comes back with aborted set.
func (w *worker) play(ctx context.Context, j GameJob) GameResult {
	gm := w.newGame(j)
	flt := gm.startEngines(ctx)
	if gm.r.aborted {
		return gm.r
	}
	var res engine.Result
	var why engine.Reason
	adj := adjudicator{draw: w.cfg.Draw, resign: w.cfg.Resign}
	for flt == nil && gm.adjudged == "" {
		if res, why = gm.g.Result(); res != engine.Ongoing {
			break
		}
		if gm.r.Plies >= w.cfg.MaxPlies {
			break
		}
		side := gm.g.Position().Side
		flt = gm.move(ctx)
		if gm.r.aborted {
			return gm.r
		}
		if r, _ := gm.g.Result(); flt == nil && r == engine.Ongoing {
			pos := gm.g.Position()
			if r, detail := adjudicateEGDB(w.cfg.EGDB, &pos, gm.g.DrawState()); r != engine.Ongoing {
				res, gm.adjudged, gm.adjDetail = r, TermEGDBRule, detail
				break
			}
			e := gm.engOf[side]
			sc := gm.scores[e][len(gm.scores[e])-1]
			res, gm.adjudged, gm.adjDetail = adj.after(side, sc, gm.g.Ply())
		}
		if r, _ := gm.g.Result(); flt == nil && gm.adjudged == "" && r == engine.Ongoing && gm.r.Plies < w.cfg.MaxPlies {
			flt = gm.ponder(ctx, gm.engOf[side])
			if gm.r.aborted {
				return gm.r
			}
		}
	}
	for e := range gm.clock {
		if gm.lims[e].Clocked() {
			gm.r.ClockLeft[e] = gm.clock[e]
		}
	}
	gm.score(flt, res, why)
	for e, p := range w.players {
		if flt != nil && flt.engine == e && flt.ended {
			continue // the engine ended the game itself
		}
		if err := p.endGame(ctx, gm, e, gm.r.Result); err != nil && ctx.Err() == nil {
			w.cfg.Log.Warn().Str("engine", p.name()).Err(err).Msg("match: ending the game failed; the engine is restarted")
			p.kill()
		}
	}
	gm.record()
	return gm.r
}

// matchGame is one game being played by a worker: who plays which colour,
// the refereed game and its PDN record, the clocks, and the result so far.
type matchGame struct {
	w     *worker
	cfg   *Config
	job   GameJob
	t0    time.Time // when the game was set up
	engOf [2]int    // colour -> engine index
	g     *engine.Game
	rec   *pdn.Game
	lims  [2]Limits        // per engine
	clock [2]time.Duration // per engine: time left on a clocked limit
	toGo  [2]int           // per engine: moves to the next time control
	// scores are each engine's reported scores (men, its own point of
	// view) after each of its moves; NaN where it reported none.
	scores [2][]float64
	// adjudged is the Termination of an adjudicated game (TermDrawRule,
	// TermResignRule, TermEGDBRule), adjDetail its detail; "" while not adjudicated.
	adjudged, adjDetail string
	r                   GameResult

	// reply is each engine's expected reply to its last move (the
	// ponder= of its done), "" when it gave none.
	reply [2]string
}

// newGame sets up the game of j: the colours, the opening's moves played
// into the game and its record, and both engines' clocks at their base time.
func (w *worker) newGame(j GameJob) *matchGame {
	cfg := w.cfg
	gm := &matchGame{w: w, cfg: cfg, job: j, t0: time.Now()}
	if j.AWhite() {
		gm.engOf = [2]int{engine.White: 0, engine.Black: 1}
	} else {
		gm.engOf = [2]int{engine.White: 1, engine.Black: 0}
	}
	gm.r = GameResult{
		Job: j, Loser: -1,
		White: cfg.Engines[gm.engOf[engine.White]].Name, Black: cfg.Engines[gm.engOf[engine.Black]].Name,
	}
	op := j.Opening
	gm.g = engine.NewGame(op.Start)
	for _, m := range op.Moves {
		gm.g.Play(m)
	}
	gm.rec = openingRecord(cfg.Variant, op)

	gm.lims = [2]Limits{cfg.EngineLimits(0), cfg.EngineLimits(1)}
	for e := range gm.clock {
		gm.clock[e], gm.toGo[e] = gm.lims[e].Base, gm.lims[e].Moves
	}
	return gm
}

// openingRecord returns the PDN record of a game of variant v from op, up
// to the position the engines start from: op's moves from op.Start, or,
// for a ballot given only by its end position whose name lists the moves
// (openings.MovesFromName), those moves from the start position, so that
// the record numbers the opening's moves from move 1 as PDN readers
// (CheckerBoard, lidraughts) expect, instead of a FEN tag and "1..." where
// they belong.
func openingRecord(v engine.VariantID, op *Opening) *pdn.Game {
	start, moves := op.Start, op.Moves
	if len(moves) == 0 {
		if ms, ok := openings.MovesFromName(v, op.Name, op.Start); ok {
			start, moves = engine.StartPosition(v), ms
		}
	}
	rec := pdn.NewGame(v, start)
	for _, m := range moves {
		rec.AppendMove(m)
	}
	return rec
}

// startEngines starts (or restarts) each engine that is not running and
// tells it a new game begins. It returns the fault of the first engine that
// fails, or nil; when ctx is cancelled it sets r.aborted instead.
func (gm *matchGame) startEngines(ctx context.Context) *fault {
	for e, p := range gm.w.players {
		if err := p.ensure(ctx); err != nil {
			if ctx.Err() != nil {
				gm.r.aborted = true
				return nil
			}
			return &fault{engine: e, term: TermCrash, detail: "could not be restarted: " + err.Error()}
		}
	}
	for e, p := range gm.w.players {
		if err := p.newGame(ctx, gm, e); err != nil {
			if ctx.Err() != nil {
				gm.r.aborted = true
				return nil
			}
			return gm.w.clientFault(e, err, "starting the game")
		}
	}
	return nil
}

// move has the side to move's engine play one move: it has the engine
// think under its level (see enginePlayer.move), referees the answer,
// charges the clock, plays the move and passes it on to the other engine.
// It returns the engine's fault, or nil; when ctx is cancelled it sets
// r.aborted instead.
func (gm *matchGame) move(ctx context.Context) *fault {
	pos := gm.g.Position()
	e := gm.engOf[pos.Side]
	p := gm.w.players[e]
	level, deadline := gm.level(e)
	a, err := p.move(ctx, gm, level, deadline)
	gm.reply[e] = a.reply
	if a.ponderHit {
		gm.r.PonderHits[e]++
	}
	if a.used > 0 {
		gm.r.Longest[e] = max(gm.r.Longest[e], a.used)
		gm.r.Answers[e] = append(gm.r.Answers[e], a.used)
	}
	if err != nil {
		if ctx.Err() != nil {
			p.abort()
			gm.r.aborted = true
			return nil
		}
		var end *dxpclient.GameEnd
		if errors.As(err, &end) {
			return gm.claim(e, end)
		}
		return gm.w.clientFault(e, err, a.stage)
	}
	m, flt := gm.referee(e, &pos, a, deadline)
	if flt != nil {
		return flt
	}
	gm.charge(e, a.used)
	gm.g.Play(m)
	gm.rec.AppendMove(m)
	gm.r.Plies++
	gm.scores[e] = append(gm.scores[e], a.score)
	if res, _ := gm.g.Result(); res == engine.Ongoing && gm.r.Plies < gm.cfg.MaxPlies {
		if err := gm.w.players[1-e].moved(ctx, &pos, m, a.used); err != nil {
			if ctx.Err() != nil {
				gm.r.aborted = true
				return nil
			}
			return gm.w.clientFault(1-e, err, "receiving the opponent's move")
		}
	}
	return nil
}

// ponder has engine e, which has just moved, think on its opponent's time
// on the reply it expects (gm.reply[e]), under the level of its next move,
// when it ponders at all. It returns the engine's fault, or nil; when ctx
// is cancelled it sets r.aborted instead.
func (gm *matchGame) ponder(ctx context.Context, e int) *fault {
	if gm.reply[e] == "" {
		return nil
	}
	level, _ := gm.level(e)
	started, err := gm.w.players[e].ponder(ctx, gm, level, gm.reply[e])
	if started {
		gm.r.Ponders[e]++
	}
	if err != nil {
		if ctx.Err() != nil {
			gm.w.players[e].abort()
			gm.r.aborted = true
			return nil
		}
		return gm.w.clientFault(e, err, "starting to ponder")
	}
	return nil
}

// claim scores the GAMEEND a DXP engine e sent instead of a move in a game
// the rules have not ended: a resignation loses, any other claim is false
// and loses too (as cutechess-cli scores a false claim).
func (gm *matchGame) claim(e int, end *dxpclient.GameEnd) *fault {
	name := gm.w.players[e].name()
	ply := gm.g.Ply() + 1
	if end.Result != engine.Ongoing && end.Result != engine.Draw && (end.Result == engine.WhiteWins) != (gm.engOf[engine.White] == e) {
		return &fault{engine: e, term: TermNormal, detail: fmt.Sprintf("%s resigned (GAMEEND %q) at ply %d", name, end.Reason, ply), ended: true, resigned: true}
	}
	return &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s ended the game (GAMEEND %q) at ply %d, which the rules do not end", name, end.Reason, ply), ended: true}
}

// level returns the Hub level engine e searches its next move under, and
// the deadline of that search: the clock (or the time per move) plus the
// time margin, or the hang timeout for a depth or node limit.
func (gm *matchGame) level(e int) (hubclient.Level, time.Duration) {
	lim := gm.lims[e]
	switch {
	case lim.Clocked():
		return hubclient.Level{Moves: gm.toGo[e], Time: max(gm.clock[e], time.Millisecond), Inc: lim.Inc},
			max(gm.clock[e], 0) + lim.Inc + gm.cfg.TimeMargin
	case lim.MoveTime > 0:
		return hubclient.Level{MoveTime: lim.MoveTime}, lim.MoveTime + gm.cfg.TimeMargin
	default:
		return hubclient.Level{Depth: lim.Depth, Nodes: lim.Nodes}, gm.cfg.HangTimeout
	}
}

// referee checks engine e's answer a in pos, given for a search whose
// deadline was deadline: it returns the move, or the fault (on time, hang,
// no move, a move that does not parse or is illegal).
func (gm *matchGame) referee(e int, pos *engine.Position, a answer, deadline time.Duration) (engine.Move, *fault) {
	name := gm.w.players[e].name()
	lim := gm.lims[e]
	ply := gm.g.Ply() + 1
	used := a.used
	if used > deadline {
		if lim.Clocked() || lim.MoveTime > 0 {
			return engine.Move{}, &fault{engine: e, term: TermTime, detail: fmt.Sprintf("%s used %.3f s of %.3f s (margin %.3f s) at ply %d",
				name, used.Seconds(), (deadline - gm.cfg.TimeMargin).Seconds(), gm.cfg.TimeMargin.Seconds(), ply)}
		}
		return engine.Move{}, &fault{engine: e, term: TermHang, detail: fmt.Sprintf("%s answered only after stop, %.1f s into a %s search at ply %d",
			name, used.Seconds(), lim, ply)}
	}
	if a.text == "" {
		return engine.Move{}, &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s gave no move at ply %d (%s)", name, ply, strings.Join(a.errors, "; "))}
	}
	if a.err != nil {
		return engine.Move{}, &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s played %q at ply %d in %s: %v", name, a.text, ply, pos.FEN(), a.err)}
	}
	return a.move, nil
}

// charge takes used off engine e's clock under a clocked limit, adds the
// increment, and adds the base time again at each time control.
func (gm *matchGame) charge(e int, used time.Duration) {
	lim := gm.lims[e]
	if !lim.Clocked() {
		return
	}
	gm.clock[e] += lim.Inc - used
	gm.clock[e] = max(gm.clock[e], 0) // an overrun within the margin is forgiven
	if lim.Moves > 0 {
		if gm.toGo[e]--; gm.toGo[e] == 0 {
			gm.toGo[e] = lim.Moves
			gm.clock[e] += lim.Base
		}
	}
}

// score sets the game's result and termination: a loss for the engine at
// fault (crashed or hung engines are killed, to be restarted before the
// next game), a draw by adjudication at the move cap when the game is still
// going (res Ongoing), or the rules' result res for reason why.
func (gm *matchGame) score(flt *fault, res engine.Result, why engine.Reason) {
	cfg, r := gm.cfg, &gm.r
	switch {
	case flt != nil:
		if !flt.resigned {
			r.Loser = flt.engine
		}
		r.Termination, r.Detail = flt.term, flt.detail
		if gm.engOf[engine.White] == flt.engine {
			res = engine.BlackWins
		} else {
			res = engine.WhiteWins
		}
		if flt.term == TermCrash || flt.term == TermHang {
			gm.w.players[flt.engine].kill() // restarted before the next game
		}
		log := cfg.Log.With().Str("round", gm.job.RoundTag()).Logger()
		log.Warn().Str("engine", cfg.Engines[flt.engine].Name).Str("termination", flt.term).Str("detail", flt.detail).Msg("match: engine fault")
	case gm.adjudged != "":
		r.Termination, r.Detail = gm.adjudged, gm.adjDetail
	case res == engine.Ongoing:
		res = engine.Draw
		r.Termination = TermAdjudication
		r.Detail = fmt.Sprintf("move cap: %d plies played without a result", cfg.MaxPlies)
	default:
		r.Termination, r.Detail = TermNormal, why.String()
	}
	r.Result = res
	r.Duration = time.Since(gm.t0)
}

// record completes the game's PDN record (result, the roster and the match
// tags, the time controls) and stores it in r.PDN.
func (gm *matchGame) record() {
	cfg, r, rec, v := gm.cfg, &gm.r, gm.rec, gm.cfg.Variant
	rec.Result = r.Result.PDN(v)
	for _, t := range [][2]string{
		{"Event", cfg.Event},
		{"Site", "?"},
		{"Date", gm.t0.UTC().Format("2006.01.02")},
		{"Round", gm.job.RoundTag()},
		{"White", r.White},
		{"Black", r.Black},
		{"GameType", fmt.Sprint(v.Rules().GameType)},
		{"Opening", gm.job.Opening.Name},
		{SeedTag, fmt.Sprint(cfg.Seed)},
		{"Termination", r.Termination},
		{"TerminationDetail", r.Detail},
		{"PlyCount", fmt.Sprint(len(rec.Moves))},
	} {
		rec.SetTag(t[0], t[1])
	}
	wl, bl := gm.lims[gm.engOf[engine.White]], gm.lims[gm.engOf[engine.Black]]
	if wl == bl {
		rec.SetTag("TimeControl", wl.String())
	} else {
		rec.SetTag("WhiteTimeControl", wl.String())
		rec.SetTag("BlackTimeControl", bl.String())
	}
	r.PDN = rec
}

// clientFault classifies an error of engine e's Hub client or DXP
// connection during what.
func (w *worker) clientFault(e int, err error, what string) *fault {
	name := w.players[e].name()
	what = cmp.Or(what, "playing")
	switch {
	case errors.Is(err, hubclient.ErrEngineHung) || errors.Is(err, context.DeadlineExceeded):
		w.players[e].kill()
		return &fault{engine: e, term: TermHang, detail: fmt.Sprintf("%s did not answer while %s: %v", name, what, err)}
	case errors.Is(err, hubclient.ErrEngineExited) || errors.Is(err, dxpclient.ErrClosed):
		w.players[e].kill()
		return &fault{engine: e, term: TermCrash, detail: fmt.Sprintf("%s exited while %s: %v", name, what, err)}
	case errors.Is(err, hubclient.ErrUnreadableLine):
		w.players[e].kill() // restarted for the next game
		return &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s gave an unreadable answer while %s: %v", name, what, err)}
	case errors.Is(err, hubclient.ErrLineTooLong):
		w.players[e].kill() // restarted for the next game
		return &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s gave an answer over %d bytes while %s: %v", name, hubwire.MaxLineBytes, what, err)}
	case !w.players[e].alive():
		w.players[e].kill()
		return &fault{engine: e, term: TermCrash, detail: fmt.Sprintf("%s died while %s: %v", name, what, err)}
	}
	// The engine is alive but refused a command (an error line): a
	// broken engine; restart it for the next game.
	w.players[e].kill()
	return &fault{engine: e, term: TermCrash, detail: fmt.Sprintf("%s failed while %s: %v", name, what, err)}
}
