// think.go: damka's turn: the search (book first) while the peer's
// messages are handled, then the MOVE.

package dxp

import (
	"context"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// think chooses damka's move through the player (its book first, then its
// search) while handling what the peer sends meanwhile, and sends the
// move. over reports that the game ended or was suspended.
func (s *session) think(ctx context.Context) (req *dxpwire.GameReq, over bool, err error) {
	gs := s.game
	s.cfg.Player.SetGame(gs.g)
	l := s.limits(gs)
	job := s.cfg.Player.Go(ctx, player.Think, l, nil)
	defer job.Stop()
	ch := make(chan search.Result, 1)
	s.searches.Add(1)
	go func() {
		defer s.searches.Done()
		c := job.Wait()
		switch {
		case c.Source == search.FromBook:
			s.log.Debug().Str("move", c.Root.FormatMove(c.Move, engine.FormatNumeric)).Msg("dxp: book move")
		case c.Problem != "":
			s.log.Error().Str("problem", c.Problem).Msg("dxp: bad search result")
		}
		ch <- c.Result
	}()
	stop := func() {
		job.Stop()
		<-ch
	}
	for {
		ev := s.wait(ctx, 0, ch)
		switch ev.kind {
		case evSearch:
			res := ev.result
			pos := gs.g.Position()
			if !res.HasMove {
				// Result() said the game goes on; never send no move.
				req, err := s.endGame(ctx, dxpwire.EndLose.Result(gs.us), "no move found")
				return req, true, err
			}
			secs := int((time.Since(gs.turn) + time.Second/2) / time.Second)
			mm := dxpwire.MoveMessage(&pos, res.Move, secs)
			s.log.Debug().Str("move", pos.FormatMove(res.Move, engine.FormatFull)).Int("depth", res.Depth).
				Int("score", res.Score).Uint64("nodes", res.Nodes).Dur("think", res.Time).Msg("dxp: our move")
			if err := s.sendBy(mm, moveDeadline(gs.turn, l)); err != nil {
				s.finish(engine.Ongoing, "write failed")
				return nil, true, err
			}
			s.applyMove(gs, res.Move, -1)
			if gs.minutes > 0 && gs.clock[gs.us] < 0 {
				s.log.Warn().Dur("clock", gs.clock[gs.us]).Msg("dxp: damka's time is used up")
			}
			return nil, false, nil
		case evCancel:
			stop()
			req, err := s.abandon(ctx, "stopped")
			return req, true, err
		case evClosed:
			stop()
			s.finish(engine.Ongoing, "peer disconnected")
			return nil, true, fmt.Errorf("%w mid-game: %v", ErrDisconnected, ev.err)
		case evBad:
			stop()
			req, err := s.protocolError(ctx, fmt.Sprintf("%v", ev.err))
			return req, true, err
		}
		switch m := ev.msg.(type) {
		case *dxpwire.GameEnd:
			// GAMEEND out of turn: real peers send it while we think.
			stop()
			req, err := s.peerEnd(ctx, m)
			return req, true, err
		case *dxpwire.Move:
			stop()
			req, err := s.protocolError(ctx, "MOVE out of turn: damka is to move")
			return req, true, err
		case *dxpwire.BackReq:
			if !s.cfg.AcceptTakeBack {
				if err := s.send(&dxpwire.BackAcc{Code: dxpwire.BackRefused}); err != nil {
					stop()
					s.finish(engine.Ongoing, "write failed")
					return nil, true, err
				}
				continue
			}
			stop()
			return nil, false, s.backReq(gs, m)
		default:
			req, over, err := s.anyTime(ctx, gs, ev)
			if over || err != nil {
				stop()
				return req, true, err
			}
		}
	}
}

// moveDeadline is the latest time a move of the turn that began at turn
// under limits l may wait for the message gap until: the move time, or a
// thirtieth of the clock left, after the turn's start; the zero time (no
// bound) for a depth or node limit.
func moveDeadline(turn time.Time, l search.Limits) time.Time {
	switch {
	case l.MoveTime > 0:
		return turn.Add(l.MoveTime)
	case l.Time > 0:
		return turn.Add(l.Time / 30)
	}
	return time.Time{}
}
