// player.go: an engine as the match runner drives it (enginePlayer),
// and its Hub form (hubPlayer); dxp.go has the DXP form.

package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"damka/engine"
	"damka/protocol/hub"
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
	move(ctx context.Context, gm *matchGame, level hub.Level, deadline time.Duration) (answer, error)
	// moved passes on the other engine's move m, played in pos after
	// used (DXP engines are sent it; Hub engines get the whole game
	// before their next move).
	moved(ctx context.Context, pos *engine.Position, m engine.Move, used time.Duration) error
	// endGame ends game gm for the engine (engine e) with result res.
	endGame(ctx context.Context, gm *matchGame, e int, res engine.Result) error
	// kill ends the engine at once; ensure starts it again.
	kill()
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
}

// newPlayer returns the player of spec for worker w (0-based; DXP engines
// started by the runner listen on a port of their own per worker).
func newPlayer(cfg *Config, spec EngineSpec, w int) enginePlayer {
	if spec.Proto == ProtoDXP {
		return newDXPPlayer(cfg, spec, w)
	}
	return &hubPlayer{spec: spec, cfg: cfg}
}

// hubPlayer is a Hub engine process, restarted when it has died.
type hubPlayer struct {
	spec EngineSpec
	cfg  *Config
	c    *hub.Client
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
	c, err := hub.Start(ctx, hub.ClientOptions{
		Path: p.spec.Command[0], Args: p.spec.Command[1:], Dir: p.spec.Dir,
		Stderr: cfg.EngineStderr, StopGrace: cfg.StopGrace,
		Log: cfg.Log.With().Str("engine", p.spec.Name).Logger(),
	})
	if err != nil {
		return startError{err}
	}
	settings := []hub.Setting{{Name: "variant", Value: cfg.Variant.String()}}
	for _, o := range p.spec.Options {
		if o.Name == "variant" {
			settings = settings[:0]
			break
		}
	}
	settings = append(settings, p.spec.Options...)
	timeout := cmp.Or(cfg.HandshakeTimeout, DefaultStartTimeout)
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, _, err := c.Handshake(hctx, settings...); err != nil {
		c.Kill()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return startError{fmt.Errorf("no `wait` from the engine within %s (--handshake-timeout): is it a Hub engine?", timeout)}
		}
		return startError{err}
	}
	p.c = c
	return nil
}

func (p *hubPlayer) newGame(ctx context.Context, gm *matchGame, e int) error {
	return p.c.NewGame()
}

func (p *hubPlayer) move(ctx context.Context, gm *matchGame, level hub.Level, deadline time.Duration) (answer, error) {
	a := answer{score: math.NaN()}
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
	d, err := p.c.Think(ctx, deadline, func(in hub.Info) {
		if in.Has["score"] {
			a.score = in.Score
		}
	})
	a.used = time.Since(began)
	if err != nil {
		a.stage = "searching"
		return a, err
	}
	a.text, a.errors = d.Move, d.Errors
	if a.text != "" {
		pos := gm.g.Position()
		a.move, a.err = pos.ParseMove(a.text)
	}
	return a, nil
}

func (p *hubPlayer) moved(context.Context, *engine.Position, engine.Move, time.Duration) error {
	return nil
}

func (p *hubPlayer) endGame(context.Context, *matchGame, int, engine.Result) error { return nil }

func (p *hubPlayer) kill() {
	if p.c != nil {
		p.c.Kill()
		<-p.c.Exited()
		p.c = nil
	}
}

func (p *hubPlayer) close() {
	if p.c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*p.cfg.StopGrace)
		_ = p.c.Close(ctx)
		cancel()
		p.c = nil
	}
}
