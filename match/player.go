// player.go: an engine as the match runner drives it (enginePlayer),
// and its Hub form (hubPlayer, with its ponder searches); dxp.go has the
// DXP form.

package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// enginePlayer is one engine of a worker: a Hub engine process
// (hubPlayer) or a DXP engine (dxpPlayer). The runner referees every game
// itself: it keeps the game, the rules and the clocks, and asks the
// engine only for its moves. Errors of the engine (it exited, hung, or
// refused a command) come back as errors that worker.clientFault
// classifies; a player whose engine failed is killed and started again by
// ensure before the next game.
type enginePlayer interface {
	// name is the engine's name in the match (EngineSpec.Name).
	name() string
	// ensure starts the engine (process, connection, handshake) unless it
	// is running. Its errors are startErrors.
	ensure(ctx context.Context) error
	// alive reports whether the engine is running.
	alive() bool
	// newGame tells the engine that game gm begins, in which it is
	// engine e (0 = A, 1 = B).
	newGame(ctx context.Context, gm *matchGame, e int) error
	// move has the engine, which is to move in gm, choose its move under
	// level (Hub engines) within deadline (from when it is asked): the
	// answer says what it played, how long it took and its score.
	move(ctx context.Context, gm *matchGame, level hubclient.Level, deadline time.Duration) (answer, error)
	// moved passes on the other engine's move m, played in pos after
	// used (DXP engines are sent it; Hub engines get the whole game
	// before their next move).
	moved(ctx context.Context, pos *engine.Position, m engine.Move, used time.Duration) error
	// ponder has the engine, which has just moved in gm, think on its
	// opponent's time on reply, the opponent's move it expects, under
	// level (that of its own next move); it reports whether a ponder
	// search began. The next move, newGame, endGame, kill and close end
	// that search first (DXP engines never ponder).
	ponder(ctx context.Context, gm *matchGame, level hubclient.Level, reply string) (bool, error)
	// endGame ends game gm for the engine (engine e) with result res.
	endGame(ctx context.Context, gm *matchGame, e int, res engine.Result) error
	// kill ends the engine at once; ensure starts it again.
	kill()
	// abort is kill for a game the match gave up (its context was
	// cancelled: Ctrl-C): no fault of the engine, so nothing is logged
	// above debug level.
	abort()
	// close quits the engine (politely, then killed after the stop grace).
	close()
}

// answer is an engine's answer to move.
type answer struct {
	text   string        // the move as the engine gave it; "" when it gave none
	move   engine.Move   // the legal move text names, when err is nil
	err    error         // why text names no legal move
	errors []string      // the engine's error lines during the search (Hub)
	used   time.Duration // from asking to the answer, as the runner measured it
	score  float64       // the engine's last reported score (men, its own view); NaN: none
	stage  string        // what the runner was doing when an error came: "searching", ...
	reply  string        // the opponent's move the engine expects (Hub done's ponder=); "" when none
	// ponderHit: the move is the answer of a ponder search whose
	// expected reply was played (used counts from the ponder-hit).
	ponderHit bool
}

// newPlayer returns the player of engine e of cfg for worker w (0-based;
// DXP engines started by the runner listen on a port of their own per
// worker). noPonder logs, once for all the workers, that a Hub engine that
// should ponder has no ponder parameter.
func newPlayer(cfg *Config, e, w int, noPonder *sync.Once) enginePlayer {
	spec := cfg.Engines[e]
	if spec.Proto == ProtoDXP {
		return newDXPPlayer(cfg, spec, w)
	}
	return &hubPlayer{spec: spec, cfg: cfg, wantPonder: cfg.EnginePonder(e), noPonder: noPonder}
}

// hubPlayer is a Hub engine process, restarted when it has died.
type hubPlayer struct {
	spec EngineSpec
	cfg  *Config
	c    *hubclient.Client

	wantPonder bool       // the match has the engine ponder
	canPonder  bool       // ... and the engine declared a ponder parameter
	noPonder   *sync.Once // logs that it has none
	pond       *pondering // the ponder search running, or nil
}

func (p *hubPlayer) name() string { return p.spec.Name }

func (p *hubPlayer) alive() bool {
	if p.c == nil {
		return false
	}
	select {
	case <-p.c.Exited():
		return false
	default:
		return true
	}
}

func (p *hubPlayer) ensure(ctx context.Context) error {
	if p.alive() {
		return nil
	}
	if p.c != nil {
		p.c.Kill()
		p.c = nil
	}
	cfg := p.cfg
	c, err := hubclient.Start(ctx, hubclient.Options{
		Path: p.spec.Command[0], Args: p.spec.Command[1:], Dir: p.spec.Dir,
		Stderr: cfg.EngineStderr, StopGrace: cfg.StopGrace, OwnGroup: true,
		Log: cfg.Log.With().Str("engine", p.spec.Name).Logger(),
	})
	if err != nil {
		return startError{err}
	}
	settings := []hubclient.Setting{{Name: "variant", Value: cfg.Variant.String()}}
	for _, o := range p.spec.Options {
		if o.Name == "variant" {
			settings = settings[:0]
			break
		}
	}
	settings = append(settings, p.spec.Options...)
	if p.wantPonder {
		settings = append(settings, hubclient.Setting{Name: "ponder", Value: "true", IfDeclared: true})
	}
	timeout := cmp.Or(cfg.HandshakeTimeout, DefaultStartTimeout)
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, params, err := c.Handshake(hctx, settings...)
	if err != nil {
		if ctx.Err() != nil {
			c.Abort()
		} else {
			c.Kill()
		}
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return startError{fmt.Errorf("no `wait` from the engine within %s (--handshake-timeout): is it a Hub engine?", timeout)}
		}
		return startError{err}
	}
	p.c = c
	p.canPonder = false
	if p.wantPonder {
		p.canPonder = slices.ContainsFunc(params, func(q hubclient.Param) bool { return q.Name == "ponder" })
		if !p.canPonder {
			p.noPonder.Do(func() {
				cfg.Log.Warn().Str("engine", p.spec.Name).Msg("match: the engine has no ponder parameter: it plays without pondering")
			})
		}
	}
	return nil
}

func (p *hubPlayer) newGame(ctx context.Context, gm *matchGame, e int) error {
	if err := p.endPonder(); err != nil {
		return err
	}
	return p.c.NewGame()
}

func (p *hubPlayer) move(ctx context.Context, gm *matchGame, level hubclient.Level, deadline time.Duration) (answer, error) {
	a := answer{score: math.NaN()}
	if pd := p.pond; pd != nil {
		if n := pd.ply; gm.g.Ply() == n+1 && gm.g.Moves()[n] == pd.reply {
			return p.ponderHit(gm, deadline)
		}
		if err := p.endPonder(); err != nil {
			a.stage = "stopping its ponder search"
			return a, err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, DefaultStartTimeout)
	err := p.c.SetGame(sctx, gm.g)
	cancel()
	if err != nil {
		a.stage = "setting the position"
		return a, err
	}
	if err := p.c.SetLevel(level); err != nil {
		a.stage = "sending the level"
		return a, err
	}
	began := time.Now()
	d, err := p.c.Think(ctx, deadline, func(in hubclient.Info) {
		if in.Has["score"] {
			a.score = in.Score
		}
	})
	a.used = time.Since(began)
	if err != nil {
		a.stage = "searching"
		return a, err
	}
	a.setDone(gm, d)
	return a, nil
}

// setDone fills in a from the engine's done d in gm's current position.
func (a *answer) setDone(gm *matchGame, d hubclient.Done) {
	a.text, a.errors, a.reply = d.Move, d.Errors, d.Ponder
	if a.text != "" {
		pos := gm.g.Position()
		a.move, a.err = pos.ParseMove(a.text)
	}
}

func (p *hubPlayer) moved(context.Context, *engine.Position, engine.Move, time.Duration) error {
	return nil
}

func (p *hubPlayer) endGame(context.Context, *matchGame, int, engine.Result) error {
	return p.endPonder()
}

func (p *hubPlayer) kill() { p.end((*hubclient.Client).Kill) }

func (p *hubPlayer) abort() { p.end((*hubclient.Client).Abort) }

// end ends the engine with kill (the client's Kill or Abort) and joins
// its ponder search, if any.
func (p *hubPlayer) end(kill func(*hubclient.Client)) {
	if p.c != nil {
		kill(p.c)
		<-p.c.Exited()
		if pd := p.pond; pd != nil {
			<-pd.res // the search ends with the engine's output
			pd.cancel(nil)
			p.pond = nil
		}
		p.c = nil
	}
}

func (p *hubPlayer) close() {
	if p.c != nil && p.endPonder() != nil {
		p.kill()
	}
	if p.c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*p.cfg.StopGrace)
		_ = p.c.Close(ctx)
		cancel()
		p.c = nil
	}
}

// pondering is a Hub engine's ponder search: go ponder on the game after
// its move and the reply it expects, answered (done) to res.
type pondering struct {
	s     *hubclient.Search
	ply   int         // the game's plies when it began: the reply is move ply
	reply engine.Move // the expected reply
	res   chan ponderResult
	// cancel ends the Wait (stop, the stop grace, then kill); a cause of
	// context.DeadlineExceeded says the engine ran out of time.
	cancel context.CancelCauseFunc
}

// ponderResult is the end of a ponder search: its done (or the error of
// the wait) and the engine's last reported score (NaN: none).
type ponderResult struct {
	d     hubclient.Done
	err   error
	score float64
}

// ponder starts a ponder search: pos with the game's moves and reply, the
// level of the engine's next move (its clock as it will be after reply),
// go ponder. It starts none when the engine does not ponder or reply is
// not a legal move after the engine's. A goroutine waits for the done,
// since the engine answers only after ponder-hit or stop, while the
// opponent thinks; the client's searching state refuses every other
// command until that wait has ended (move, endPonder and kill join it).
func (p *hubPlayer) ponder(ctx context.Context, gm *matchGame, level hubclient.Level, reply string) (bool, error) {
	if !p.canPonder || p.pond != nil {
		return false, nil
	}
	pos := gm.g.Position()
	m, err := pos.ParseMove(reply)
	if err != nil {
		p.cfg.Log.Debug().Str("engine", p.spec.Name).Str("ponder", reply).Err(err).Msg("match: expected reply not legal, no pondering")
		return false, nil
	}
	g := engine.NewGame(gm.g.Start())
	for _, mv := range gm.g.Moves() {
		g.Play(mv)
	}
	g.Play(m)
	sctx, cancel := context.WithTimeout(ctx, DefaultStartTimeout)
	err = p.c.SetGame(sctx, g)
	cancel()
	if err != nil {
		return false, err
	}
	if err := p.c.SetLevel(level); err != nil {
		return false, err
	}
	s, err := p.c.Go(hubclient.Ponder)
	if err != nil {
		return false, err
	}
	wctx, wcancel := context.WithCancelCause(ctx)
	pd := &pondering{s: s, ply: gm.g.Ply(), reply: m, res: make(chan ponderResult, 1), cancel: wcancel}
	go func() {
		r := ponderResult{score: math.NaN()}
		r.d, r.err = s.Wait(wctx, func(in hubclient.Info) {
			if in.Has["score"] {
				r.score = in.Score
			}
		})
		pd.res <- r
	}()
	p.pond = pd
	return true, nil
}

// ponderHit ends the ponder search whose expected reply was played: it
// sends ponder-hit and waits for the done, the engine's move, within
// deadline from now, as move does for go think; the engine's time counts
// from the ponder-hit. A search that has answered already (the engine may
// answer early, e.g. from its book) gets no ponder-hit.
func (p *hubPlayer) ponderHit(gm *matchGame, deadline time.Duration) (answer, error) {
	pd := p.pond
	p.pond = nil
	defer pd.cancel(nil)
	a := answer{score: math.NaN(), ponderHit: true}
	began := time.Now()
	var r ponderResult
	select {
	case r = <-pd.res:
	default:
		if err := pd.s.PonderHit(); err != nil {
			p.c.Kill()
			<-pd.res
			a.stage = "sending ponder-hit"
			return a, err
		}
		timer := time.AfterFunc(deadline, func() { pd.cancel(context.DeadlineExceeded) })
		r = <-pd.res
		timer.Stop()
	}
	a.used = time.Since(began)
	a.score = r.score
	if r.err != nil {
		a.stage = "searching"
		return a, r.err
	}
	a.setDone(gm, r.d)
	return a, nil
}

// endPonder ends the ponder search, if any, whose reply was not played (or
// whose game ended): it sends stop and waits for the done, which is
// discarded, up to the stop grace; an engine that does not answer is
// killed (ErrEngineHung).
func (p *hubPlayer) endPonder() error {
	pd := p.pond
	if pd == nil {
		return nil
	}
	p.pond = nil
	defer pd.cancel(nil)
	var r ponderResult
	select {
	case r = <-pd.res:
	default:
		err := pd.s.Stop()
		timer := time.NewTimer(p.cfg.StopGrace)
		defer timer.Stop()
		select {
		case r = <-pd.res:
		case <-timer.C:
			p.c.Kill()
			<-pd.res
			return hubclient.ErrEngineHung
		}
		if err != nil && r.err == nil {
			r.err = err
		}
	}
	if r.err != nil {
		return r.err
	}
	p.cfg.Log.Debug().Str("engine", p.spec.Name).Str("move", r.d.Move).Msg("match: ponder search stopped, its move discarded")
	return nil
}
