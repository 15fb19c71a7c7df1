// transport.go: the session's connection: the reader goroutine, waiting
// for the next event, sending with the message gap, CHAT, the stop code of
// our GAMEEND, and closing the connection.

package dxp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// readLoop reads messages and hands them to the session loop.
func (s *session) readLoop() {
	defer close(s.readerDone)
	fr := dxpwire.NewReader(s.conn)
	for {
		raw, err := fr.ReadMessage()
		if err == nil {
			s.lastRecv.Store(int64(time.Since(s.epoch)))
		}
		var ev event
		var fe *dxpwire.FrameError
		switch {
		case err == nil:
			if len(raw) == 0 {
				continue // a stray NUL
			}
			ev.raw = append([]byte(nil), raw...)
			ev.msg, ev.err = dxpwire.Decode(raw)
			if ev.err != nil {
				ev.kind = evBad
			}
		case errors.As(err, &fe):
			ev.kind, ev.err, ev.raw = evBad, err, fe.Prefix
		default:
			ev.kind, ev.err = evClosed, err
		}
		select {
		case s.events <- ev:
		case <-s.done:
			return
		}
		if ev.kind == evClosed {
			return
		}
	}
}

// wait returns the next event: a message, the end of the stream, the
// search's result (when sr is not nil), ctx's end, or evTimeout after
// timeout (0: none).
func (s *session) wait(ctx context.Context, timeout time.Duration, sr <-chan search.Result) event {
	if s.closed != nil {
		return *s.closed
	}
	var tc <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		tc = t.C
	}
	select {
	case ev := <-s.events:
		switch ev.kind {
		case evMsg:
			s.log.Debug().Str("recv", string(ev.raw)).Msg("dxp message")
		case evBad:
			s.log.Warn().Str("recv", string(ev.raw)).Err(ev.err).Msg("dxp malformed message")
		case evClosed:
			s.log.Debug().Err(ev.err).Msg("dxp stream ended")
			s.closed = &ev // later waits see the end again
		}
		return ev
	case r := <-sr:
		return event{kind: evSearch, result: r}
	case <-tc:
		return event{kind: evTimeout}
	case <-ctx.Done():
		return event{kind: evCancel}
	}
}

// send writes m; an error means the connection is gone.
func (s *session) send(m dxpwire.Message) error { return s.sendBy(m, time.Time{}) }

// sendBy is send for a message that may wait for the message gap at most
// until by (the zero time: no bound).
func (s *session) sendBy(m dxpwire.Message, by time.Time) error {
	b, err := dxpwire.AppendFrame(make([]byte, 0, dxpwire.MaxMessageLen+1), m)
	if err != nil {
		return err
	}
	s.pause(by)
	s.log.Debug().Str("send", string(b[:len(b)-1])).Msg("dxp message")
	// Taken before the write: an answer the reader gets at once comes after.
	s.lastSend = int64(time.Since(s.epoch))
	_, err = s.conn.Write(b)
	if err != nil {
		s.log.Warn().Err(err).Msg("dxp write failed")
		return fmt.Errorf("%w: write: %v", ErrDisconnected, err)
	}
	return nil
}

// pause waits until MessageGap has passed since our last message when the
// peer has sent nothing since (see Config.MessageGap), and not past by
// unless that is the zero time.
func (s *session) pause(by time.Time) {
	gap := s.cfg.MessageGap
	if gap <= 0 || s.lastSend == 0 || s.lastRecv.Load() > s.lastSend {
		return
	}
	d := time.Duration(s.lastSend) + gap - time.Since(s.epoch)
	if !by.IsZero() {
		d = min(d, time.Until(by))
	}
	if d > 0 {
		s.log.Debug().Dur("pause", d).Msg("dxp: pause before the next message (message gap)")
		time.Sleep(d)
	}
}

// chat sends a CHAT (text made ASCII and cut to fit).
func (s *session) chat(text string) error {
	return s.send(&dxpwire.Chat{Text: dxpwire.ASCIIText(text, dxpwire.MaxChatText)})
}

// logChat logs a CHAT from the peer.
func (s *session) logChat(m *dxpwire.Chat) {
	s.log.Info().Str("text", m.Text).Msg("dxp chat from the peer")
}

// close shuts the connection down: FIN first, then a short wait for the
// peer to close its side, then close; it waits for the reader and any
// search goroutine.
func (s *session) close() {
	dxpwire.Shutdown(s.conn)
	t := time.NewTimer(min(s.cfg.AckTimeout, 2*time.Second))
	defer t.Stop()
drain:
	for {
		select {
		case ev := <-s.events:
			if ev.kind == evClosed {
				break drain
			}
		case <-s.readerDone:
			break drain
		case <-t.C:
			break drain
		}
	}
	close(s.done)
	s.conn.Close()
	<-s.readerDone
	s.searches.Wait()
}

// stopCode is the stop code of our GAMEEND messages.
func (s *session) stopCode(ctx context.Context) dxpwire.StopCode {
	if ctx.Err() != nil || (s.cfg.Role == Initiator && s.lastGame) {
		return dxpwire.StopNoMore
	}
	return dxpwire.StopContinue
}
