// follower.go: the follower's serve loop: answering each GAMEREQ, and
// telling a GAMEREQ that continues the game in progress (the per-move
// GAMEREQ style) from a new game.

package dxp

import (
	"context"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/dxpwire"
)

// runFollower answers the peer's GAMEREQs and plays their games until
// the peer closes the connection, goes silent, or ctx ends.
func (s *session) runFollower(ctx context.Context) error {
	var pending *dxpwire.GameReq
	for {
		if pending != nil {
			req := pending
			pending = nil
			var err error
			if pending, err = s.answer(ctx, req); err != nil {
				return err
			}
			continue
		}
		ev := s.wait(ctx, s.peerWait(s.game), nil)
		switch ev.kind {
		case evCancel:
			return nil
		case evTimeout:
			return s.followerSilent()
		case evClosed:
			if s.game != nil && !s.game.suspended {
				return fmt.Errorf("%w mid-game: %v", ErrDisconnected, ev.err)
			}
			return nil
		case evBad:
			if err := s.chat(fmt.Sprintf("damka: %v", ev.err)); err != nil {
				return err
			}
		case evMsg:
			switch m := ev.msg.(type) {
			case *dxpwire.GameReq:
				pending = m
			case *dxpwire.Chat:
				s.logChat(m)
			case *dxpwire.GameEnd:
				if m.Stop == dxpwire.StopNoMore {
					s.peerStop = true
				}
				if s.game != nil && m.Reason != dxpwire.EndNone {
					// A result for the game the peer suspended.
					if err := s.send(&dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: s.stopCode(ctx)}); err != nil {
						return err
					}
					s.peerResult(m)
				} else if m.Reason != dxpwire.EndNone {
					if err := s.send(&dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: s.stopCode(ctx)}); err != nil {
						return err
					}
				}
				// A GAMEEND without result and without a game is a late
				// acknowledgement: answering it could start a ping-pong.
			case *dxpwire.BackReq:
				if err := s.send(&dxpwire.BackAcc{Code: dxpwire.BackRefused}); err != nil {
					return err
				}
			case *dxpwire.Move:
				if err := s.chat("damka: unexpected MOVE: no game in progress"); err != nil {
					return err
				}
			default:
				s.log.Warn().Str("msg", string(ev.raw)).Msg("dxp: unexpected message; ignored")
			}
		}
	}
}

// answer accepts or refuses a GAMEREQ and plays the game. It returns a
// GAMEREQ that arrived during the game.
func (s *session) answer(ctx context.Context, req *dxpwire.GameReq) (*dxpwire.GameReq, error) {
	refuse := func(code dxpwire.AccCode, why string) (*dxpwire.GameReq, error) {
		s.log.Warn().Str("why", why).Stringer("code", code).Msg("dxp: refusing GAMEREQ")
		if code != dxpwire.AccNoGames {
			s.sum.Refused++
		}
		if err := s.chat("damka: " + why); err != nil {
			return nil, err
		}
		return nil, s.send(&dxpwire.GameAcc{Name: s.cfg.Name, Code: code})
	}
	if ctx.Err() != nil {
		return refuse(dxpwire.AccNoGames, "stopping")
	}
	if req.Version != dxpwire.Version {
		return refuse(dxpwire.AccWrongVersion, fmt.Sprintf("DXP version %02d is not supported (want 01)", req.Version))
	}
	start := engine.StartPosition(s.cfg.Variant)
	if req.Setup {
		p, err := dxpwire.DecodeBoard(s.cfg.Variant, req.ToMove, req.Board)
		if err != nil {
			return refuse(dxpwire.AccRefused, fmt.Sprintf("GAMEREQ %v", err))
		}
		start = p
	}
	if r, why := engine.NewGame(start).Result(); r != engine.Ongoing {
		return refuse(dxpwire.AccRefused, fmt.Sprintf("the game is over in that position (%v)", why))
	}
	us := req.FollowerColor
	if gs := s.game; gs != nil {
		if m, ok := s.continues(gs, us, &start); ok {
			if err := s.send(&dxpwire.GameAcc{Name: s.cfg.Name, Code: dxpwire.AccAccepted}); err != nil {
				return nil, err
			}
			if m != nil {
				s.log.Debug().Str("move", s.movetext(gs, *m)).Msg("dxp: the new GAMEREQ continues the game")
				s.applyMove(gs, *m, -1)
			}
			gs.suspended = false
			gs.opponent = req.Name
			if req.Minutes != gs.minutes {
				// The peer gives the time left in each GAMEREQ.
				gs.minutes = req.Minutes
				gs.clock = [2]time.Duration{time.Duration(req.Minutes) * time.Minute, time.Duration(req.Minutes) * time.Minute}
			}
			gs.moves = req.Moves
			gs.turn = time.Now()
			return s.play(ctx)
		}
		s.finish(engine.Ongoing, "superseded by a new GAMEREQ")
	}
	if err := s.send(&dxpwire.GameAcc{Name: s.cfg.Name, Code: dxpwire.AccAccepted}); err != nil {
		return nil, err
	}
	s.round++
	s.newGame(start, us, req.Name, req.Minutes, req.Moves)
	return s.play(ctx)
}

// continues reports whether a GAMEREQ for position p with damka playing us
// continues game gs: p is gs's current position, or follows from it by
// one legal move (returned).
func (s *session) continues(gs *gameState, us engine.Color, p *engine.Position) (*engine.Move, bool) {
	if gs.us != us {
		return nil, false
	}
	cur := gs.g.Position()
	if samePlacement(&cur, p) {
		return nil, true
	}
	if r, _ := gs.g.Result(); r != engine.Ongoing {
		return nil, false
	}
	var list engine.MoveList
	cur.Generate(&list)
	for _, m := range list.Slice() {
		next := cur.Play(m)
		if samePlacement(&next, p) {
			return &m, true
		}
	}
	return nil, false
}

// followerSilent ends a follower's session whose peer sent no GAMEREQ in
// time (a game it suspended is recorded unfinished).
func (s *session) followerSilent() error {
	why := fmt.Sprintf("no GAMEREQ from the peer in %v (peer timeout)", s.cfg.PeerTimeout)
	if gs := s.game; gs != nil {
		why = s.silence(gs)
		s.finish(engine.Ongoing, why)
	}
	s.log.Warn().Str("why", why).Msg("dxp: the peer went silent; closing the connection")
	return fmt.Errorf("%w: %s", ErrPeerTimeout, why)
}

// samePlacement reports whether a and b have the same pieces and side to
// move.
func samePlacement(a, b *engine.Position) bool {
	return a.Pieces == b.Pieces && a.Kings == b.Kings && a.Side == b.Side
}
