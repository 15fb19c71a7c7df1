// play.go: the play of one game: the loop, the peer's turn (MOVE, GAMEEND,
// silence), the messages that may come at any time (GAMEREQ, CHAT,
// BACKREQ) and taking moves back.

package dxp

import (
	"context"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/dxpwire"
)

// play runs the current game until it ends or the peer suspends it. It
// returns a GAMEREQ that arrived meanwhile (to be answered next), and an
// error when the session must end.
func (s *session) play(ctx context.Context) (*dxpwire.GameReq, error) {
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
func (s *session) peerTurn(ctx context.Context, gs *gameState, ev event) (*dxpwire.GameReq, bool, error) {
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
	case *dxpwire.Move:
		if r, why := ruleEnd(gs); r != engine.Ongoing {
			// The peer plays on in a finished game: end it ourselves.
			if err := s.chat("damka: the game is over: " + why); err != nil {
				return nil, true, err
			}
			req, err := s.endGame(ctx, r, why)
			return req, true, err
		}
		pos := gs.g.Position()
		mv, err := dxpwire.FindMove(&pos, m)
		if err != nil {
			req, err := s.protocolError(ctx, err.Error())
			return req, true, err
		}
		s.applyMove(gs, mv, m.Seconds)
		return nil, false, nil
	case *dxpwire.GameEnd:
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

// anyTime handles the messages that may come on either side's turn:
// GAMEREQ (ends or continues the game), CHAT, BACKREQ, stray GAMEACC and
// BACKACC.
func (s *session) anyTime(ctx context.Context, gs *gameState, ev event) (*dxpwire.GameReq, bool, error) {
	switch m := ev.msg.(type) {
	case *dxpwire.GameReq:
		if s.cfg.Role == Initiator {
			return nil, false, s.send(&dxpwire.GameAcc{Name: s.cfg.Name, Code: dxpwire.AccNoGames})
		}
		// A GAMEREQ in the middle of a game: answer decides whether it
		// continues this one.
		gs.suspended = true
		return m, true, nil
	case *dxpwire.Chat:
		s.logChat(m)
	case *dxpwire.BackReq:
		return nil, false, s.backReq(gs, m)
	default:
		s.log.Warn().Str("msg", string(ev.raw)).Msg("dxp: unexpected message during a game; ignored")
	}
	return nil, false, nil
}

// backReq answers a BACKREQ: refused in match play, else the game goes
// back to that move and side to move.
func (s *session) backReq(gs *gameState, m *dxpwire.BackReq) error {
	if !s.cfg.AcceptTakeBack {
		s.log.Info().Int("move", m.MoveNumber).Msg("dxp: BACKREQ refused (match play)")
		return s.send(&dxpwire.BackAcc{Code: dxpwire.BackRefused})
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
		return s.send(&dxpwire.BackAcc{Code: dxpwire.BackRefused})
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
	s.log.Info().Int("move", m.MoveNumber).Str("side", dxpwire.SideName(m.ToMove)).Msg("dxp: moves taken back")
	return s.send(&dxpwire.BackAcc{Code: dxpwire.BackAccepted})
}
