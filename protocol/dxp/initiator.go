// initiator.go: the initiator's match loop: one GAMEREQ per game (opening
// positions, alternating colours) and the wait for the GAMEACC.

package dxp

import (
	"context"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/dxpwire"
)

// runInitiator plays the initiator's Config.Games games, one GAMEREQ
// each; it returns early when ctx ends, the peer wants no more games, or
// the connection fails.
func (s *session) runInitiator(ctx context.Context) error {
	for i := 0; i < s.cfg.Games; i++ {
		if ctx.Err() != nil {
			return nil
		}
		if s.peerStop {
			s.log.Info().Msg("the peer wants no more games")
			return nil
		}
		s.lastGame = i == s.cfg.Games-1
		start := engine.StartPosition(s.cfg.Variant)
		if n := len(s.cfg.Openings); n > 0 {
			start = s.cfg.Openings[(i/2)%n]
			start.V = s.cfg.Variant
		}
		req := &dxpwire.GameReq{
			Version: dxpwire.Version, Name: s.cfg.Name, FollowerColor: engine.Black,
			Minutes: s.cfg.Minutes, Moves: s.cfg.Moves,
		}
		if i%2 == 1 {
			req.FollowerColor = engine.White
		}
		req.SetStart(&start)
		if err := s.send(req); err != nil {
			return err
		}
		acc, err := s.awaitAcc(ctx)
		if err != nil || acc == nil {
			return err
		}
		switch acc.Code {
		case dxpwire.AccAccepted:
		case dxpwire.AccRefused:
			s.sum.Refused++
			s.log.Warn().Int("game", i+1).Str("peer", acc.Name).Msg("the peer refused the game")
			continue
		default:
			s.sum.Refused++
			return fmt.Errorf("dxp: the peer %q answered GAMEREQ with %s", acc.Name, acc.Code)
		}
		s.round = i + 1
		s.newGame(start, req.FollowerColor.Opp(), acc.Name, req.Minutes, req.Moves)
		if _, err := s.play(ctx); err != nil {
			return err
		}
	}
	return nil
}

// awaitAcc waits for the answer to our GAMEREQ. It returns nil, nil when
// ctx ends first.
func (s *session) awaitAcc(ctx context.Context) (*dxpwire.GameAcc, error) {
	deadline := time.Now().Add(s.cfg.AckTimeout)
	for {
		ev := s.wait(ctx, time.Until(deadline), nil)
		switch ev.kind {
		case evCancel:
			return nil, nil
		case evTimeout:
			return nil, fmt.Errorf("dxp: no GAMEACC within %v", s.cfg.AckTimeout)
		case evClosed:
			return nil, fmt.Errorf("%w before answering GAMEREQ", ErrDisconnected)
		case evBad:
			if err := s.chat(fmt.Sprintf("damka: %v", ev.err)); err != nil {
				return nil, err
			}
		case evMsg:
			switch m := ev.msg.(type) {
			case *dxpwire.GameAcc:
				return m, nil
			case *dxpwire.Chat:
				s.logChat(m)
			case *dxpwire.GameReq:
				// Two initiators: refuse, so the peer does not wait for us.
				if err := s.send(&dxpwire.GameAcc{Name: s.cfg.Name, Code: dxpwire.AccNoGames}); err != nil {
					return nil, err
				}
			default:
				s.log.Warn().Str("msg", string(ev.raw)).Msg("dxp: unexpected message while waiting for GAMEACC; ignored")
			}
		}
	}
}
