// guidxp.go: an external DXP engine on the gui's page (web.Engine): damka
// starts it (or connects to it) as match does, proposes a game with GAMEREQ
// from the page's position, passes the opponent's moves on and reads the
// engine's.

package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/protocol/dxpclient"
	"github.com/damka-draughts/damka/search"
)

// dxpGuiMoves is the number of moves a move time is given for: a DXP
// engine gets a clock for the whole game, about this many of its moves.
const dxpGuiMoves = 50

// dxpGuiMinutes is the DXP clock of a game whose page level is a depth or
// a number of nodes, which DXP cannot tell.
const dxpGuiMinutes = 5

// dxpGuiStopGrace is the DXPEngine StopGrace of the page's DXP engines:
// a closed page or a stopped damka gui waits twice this for the engine's
// process to exit once its connection and input are closed, then kills
// it (an engine serving further sessions, as damka dxp --listen does,
// never exits by itself).
const dxpGuiStopGrace = 250 * time.Millisecond

// dxpEngine is an external DXP engine for the page. The engine plays one
// DXP game at a time: Think continues it when the page's game is the
// game so far plus the opponent's move, and otherwise ends it and proposes
// a new one from the page's position.
type dxpEngine struct {
	mu   sync.Mutex
	spec match.EngineSpec
	d    *match.DXPEngine // nil until the first Think

	inGame    bool            // a game was accepted and not ended
	color     engine.Color    // the colour the engine plays in it
	startFEN  string          // the page game's start position
	known     []engine.Move   // the page game's moves the engine knows
	last      engine.Position // the position after them
	turnStart time.Time       // when the engine's last move came
	games     int             // the games proposed
	exited    <-chan struct{} // the started process's exit, for tests
}

// newDXPEngine returns the DXP engine e, started at its first move.
func newDXPEngine(e match.EngineSpec) *dxpEngine { return &dxpEngine{spec: e} }

// dxpClock returns the GAMEREQ clock (minutes per player for the whole
// game) for the page's limits lim: the time left plus dxpGuiMoves
// increments under a clock, dxpGuiMoves move times for a move time,
// dxpGuiMinutes for a depth or nodes; in whole minutes rounded up, 1..999.
func dxpClock(lim search.Limits) int {
	var d time.Duration
	switch {
	case lim.Time > 0:
		d = lim.Time + dxpGuiMoves*lim.Inc
	case lim.MoveTime > 0:
		d = dxpGuiMoves * lim.MoveTime
	default:
		return dxpGuiMinutes
	}
	return min(max(int(math.Ceil(d.Minutes())), 1), 999)
}

// continues reports whether g is the engine's game so far plus one move of
// its opponent, the engine to move.
func (x *dxpEngine) continues(g *engine.Game) bool {
	moves := g.Moves()
	if !x.inGame || !x.d.Alive() || g.Position().Side != x.color || len(moves) != len(x.known)+1 {
		return false
	}
	if start := g.Start(); start.FEN() != x.startFEN {
		return false
	}
	for i, m := range x.known {
		if moves[i] != m {
			return false
		}
	}
	return true
}

// Think passes the opponent's move on (or proposes a new game from g's
// position) and returns the engine's move. When ctx ends first, the game
// is ended at the next Think (a DXP engine cannot be told to stop).
func (x *dxpEngine) Think(ctx context.Context, g *engine.Game, lim search.Limits) (engine.Move, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	pos := g.Position()
	if x.d != nil && x.d.Variant != pos.V {
		x.endGame()
		x.d.Close()
		x.d = nil
	}
	if x.d == nil {
		x.d = &match.DXPEngine{Spec: x.spec, Variant: pos.V, Name: "damka gui", Log: logger, StopGrace: dxpGuiStopGrace}
	}
	if x.continues(g) {
		m := g.Moves()[len(x.known)]
		if err := x.d.Client().SendMove(&x.last, m, int(time.Since(x.turnStart).Seconds())); err != nil {
			x.d.Break()
			x.inGame = false
			return engine.Move{}, err
		}
	} else {
		x.endGame()
		if err := x.d.Connect(ctx); err != nil {
			return engine.Move{}, err
		}
		x.exited = x.d.Exited()
		x.games++
		if _, err := x.d.Client().NewGame(ctx, pos, pos.Side, dxpClock(lim), 0); err != nil {
			if !errors.Is(err, dxpclient.ErrRefused) {
				x.d.Break()
			}
			return engine.Move{}, err
		}
		start := g.Start()
		x.inGame, x.color, x.startFEN = true, pos.Side, start.FEN()
	}
	x.known = append(x.known[:0], g.Moves()...)
	rm, err := x.d.Client().ReadMove(ctx, &pos)
	var end *dxpclient.GameEnd
	switch {
	case errors.As(err, &end):
		x.inGame = false
		return engine.Move{}, fmt.Errorf("the engine ended the game: %s", end.Reason)
	case err != nil && ctx.Err() != nil:
		// Its move comes later: the next Think ends this game first.
		x.known = nil
		return engine.Move{}, err
	case err != nil:
		x.d.Break()
		x.inGame = false
		return engine.Move{}, err
	case rm.Err != nil:
		x.endGame()
		return engine.Move{}, fmt.Errorf("%s: %v", rm.Text, rm.Err)
	}
	x.known = append(x.known, rm.Move)
	x.last = pos.Play(rm.Move)
	x.turnStart = time.Now()
	return rm.Move, nil
}

// endGame ends the game in progress, without a result (the page keeps
// it); a connection that does not answer is broken.
func (x *dxpEngine) endGame() {
	if !x.inGame {
		return
	}
	x.inGame = false
	if !x.d.Alive() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), match.DefaultStartTimeout)
	defer cancel()
	if err := x.d.Client().EndGame(ctx, engine.Ongoing, x.color); err != nil {
		x.d.Break()
	}
}

// Close ends the game in progress and the connection, and the process
// when it was started here (its input closed, then killed).
func (x *dxpEngine) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.d == nil {
		return nil
	}
	x.endGame()
	x.d.Close()
	return nil
}
