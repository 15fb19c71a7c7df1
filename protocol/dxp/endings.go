// endings.go: the end of a game either way: the peer's GAMEEND, ours (by
// the rules, a protocol error, a stop) and the wait for its
// acknowledgement, and what real peers do that the spec does not say.

package dxp

import (
	"context"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/dxpwire"
)

// peerEnd handles the peer's GAMEEND: acknowledge, then record the result.
func (s *session) peerEnd(ctx context.Context, m *dxpwire.GameEnd) (*dxpwire.GameReq, error) {
	if m.Stop == dxpwire.StopNoMore {
		s.peerStop = true
	}
	if err := s.send(&dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: s.stopCode(ctx)}); err != nil {
		s.finish(engine.Ongoing, "write failed")
		return nil, err
	}
	if r, _ := ruleEnd(s.game); m.Reason == dxpwire.EndNone && r == engine.Ongoing && s.cfg.Role == Follower && ctx.Err() == nil {
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
func (s *session) peerResult(m *dxpwire.GameEnd) {
	gs := s.game
	claim := m.Reason.Result(gs.us.Opp())
	r, why := ruleEnd(gs)
	switch {
	case r != engine.Ongoing:
		switch {
		case claim == r:
		case m.Reason == dxpwire.EndNone:
			// Moby Dam ends a game at the move limit with reason 0.
			s.log.Info().Str("rules", r.String()+" "+why).Msg("dxp: the peer ended a finished game without a result")
		default:
			s.log.Warn().Stringer("claim", m.Reason).Str("rules", r.String()+" "+why).Msg("dxp: the peer's GAMEEND differs from the rules")
		}
	case m.Reason == dxpwire.EndNone:
		r, why = engine.Ongoing, "the peer ended the game without a result"
	default:
		r, why = claim, "GAMEEND from the peer: "+m.Reason.String()
	}
	s.finish(r, why)
}

// endGame sends our GAMEEND for result r (damka is to move), waits for the
// acknowledgement and records the game.
func (s *session) endGame(ctx context.Context, r engine.Result, why string) (*dxpwire.GameReq, error) {
	gs := s.game
	if err := s.send(&dxpwire.GameEnd{Reason: dxpwire.ReasonFor(r, gs.us), Stop: s.stopCode(ctx)}); err != nil {
		s.finish(r, why)
		return nil, err
	}
	s.finish(r, why)
	return s.awaitAck(ctx)
}

// protocolError ends the game after a malformed or impossible message: a
// CHAT naming the error, GAMEEND without result, the acknowledgement; the
// game is recorded as unfinished.
func (s *session) protocolError(ctx context.Context, what string) (*dxpwire.GameReq, error) {
	s.log.Warn().Str("error", what).Msg("dxp: protocol error; ending the game")
	if err := s.chat("damka: " + what); err != nil {
		s.finish(engine.Ongoing, "protocol error: "+what)
		return nil, err
	}
	return s.endUnfinished(ctx, "protocol error: "+what)
}

// abandon ends the game because the session stops.
func (s *session) abandon(ctx context.Context, why string) (*dxpwire.GameReq, error) {
	return s.endUnfinished(ctx, why)
}

// endUnfinished sends GAMEEND without result, records the game as
// unfinished and waits for the acknowledgement.
func (s *session) endUnfinished(ctx context.Context, why string) (*dxpwire.GameReq, error) {
	if err := s.send(&dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: s.stopCode(ctx)}); err != nil {
		s.finish(engine.Ongoing, why)
		return nil, err
	}
	s.finish(engine.Ongoing, why)
	return s.awaitAck(ctx)
}

// awaitAck waits (at most AckTimeout) for the GAMEEND that acknowledges
// ours. A GAMEREQ (a peer that skips the acknowledgement) is returned to
// be answered.
func (s *session) awaitAck(ctx context.Context) (*dxpwire.GameReq, error) {
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
		case *dxpwire.GameEnd:
			if m.Stop == dxpwire.StopNoMore {
				s.peerStop = true
			}
			return nil, nil
		case *dxpwire.GameReq:
			if s.cfg.Role == Follower {
				return m, nil
			}
			if err := s.send(&dxpwire.GameAcc{Name: s.cfg.Name, Code: dxpwire.AccNoGames}); err != nil {
				return nil, err
			}
		case *dxpwire.Chat:
			s.logChat(m)
		default:
			s.log.Debug().Str("msg", string(ev.raw)).Msg("dxp: message after our GAMEEND ignored")
		}
	}
}
