// record.go: the game in progress: its state and clocks, damka's search
// limits, game end by the rules or the move limit, GAMEEND reasons and
// results, and the finished game's PDN record.

package dxp

import (
	"fmt"
	"strconv"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// gameState is the game in progress.
type gameState struct {
	g        *engine.Game
	pdn      *pdn.Game
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

// newGame starts recording a game from start with damka playing us; the
// player starts a new game (its table cleared).
func (s *session) newGame(start engine.Position, us engine.Color, opponent string, minutes, moves int) {
	s.cfg.Player.NewGame()
	start.V = s.cfg.Variant
	pdn := pdn.NewGame(s.cfg.Variant, start)
	gs := &gameState{
		g: engine.NewGame(start), pdn: pdn, us: us, round: s.round, opponent: opponent,
		minutes: minutes, moves: moves, turn: time.Now(),
	}
	t := time.Duration(minutes) * time.Minute
	gs.clock = [2]time.Duration{t, t}
	s.game = gs
	s.sum.Games++
	s.log.Info().Int("game", gs.round).Str("opponent", opponent).Str("color", dxpwire.SideName(us)).
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

// limits returns the search limits for damka's next move in gs (the
// player's Go adds its move overhead).
func (s *session) limits(gs *gameState) search.Limits {
	l := s.cfg.Limits
	l.Time, l.Inc, l.MovesToGo, l.Infinite, l.Ponder, l.MoveOverhead = 0, 0, 0, false, false, 0
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
