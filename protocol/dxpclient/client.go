// client.go: the initiator's side of a DXP connection to an engine that
// the caller referees: GAMEREQ and GAMEACC, relaying the opponent's moves
// and reading the engine's, and GAMEEND either way.

package dxpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/dxpwire"
)

// Defaults of a Client.
const (
	// DefaultName is the initiator name New sends in GAMEREQ for an empty
	// name.
	DefaultName = "damka"
	// DefaultAckTimeout is the default of Client.AckTimeout.
	DefaultAckTimeout = 30 * time.Second
)

// Errors of a Client.
var (
	// ErrClosed: the connection to the engine ended (it exited or closed
	// it), or Close was called.
	ErrClosed = errors.New("dxp: the engine closed the connection")
	// ErrRefused: the engine did not accept the game (GAMEACC with a code
	// other than 0).
	ErrRefused = errors.New("dxp: the engine refused the game")
)

// GameEnd is the engine's GAMEEND, sent instead of a move (a resignation
// or a claim), returned by Client.ReadMove as its error.
type GameEnd struct {
	// Result is the result the engine claims (its reason read for the
	// colour it plays); engine.Ongoing for a GAMEEND without result.
	Result engine.Result
	// Reason is the GAMEEND reason in words: "I lose", "draw", "I win" or
	// "none".
	Reason string
}

// Error describes the GAMEEND.
func (e *GameEnd) Error() string {
	return fmt.Sprintf("dxp: the engine sent GAMEEND (%s) instead of a move", e.Reason)
}

// Move is a move read from the engine.
type Move struct {
	Move    engine.Move // the legal move it names (when Err is nil)
	Text    string      // the MOVE message as received
	Seconds int         // the thinking time it reported
	Err     error       // why the MOVE names no legal move; nil when Move is set
}

// Client is the initiator's side of a DXP session with an engine that the
// caller referees: it proposes each game (NewGame), passes the opponent's
// moves on (SendMove), reads the engine's (ReadMove) and ends the game
// (EndGame). It runs no search of its own; the caller keeps the game, the
// rules and the clocks. Its methods are called from one goroutine; Close
// may be called from any.
type Client struct {
	conn io.ReadWriteCloser
	v    engine.VariantID
	name string
	log  zerolog.Logger
	msgs chan remoteMsg
	done chan struct{} // closed by Close
	once sync.Once
	// AckTimeout bounds the wait for GAMEACC and for the acknowledgement
	// of our GAMEEND (default DefaultAckTimeout).
	AckTimeout time.Duration
}

// remoteMsg is one message read from the engine, or the end of the stream.
type remoteMsg struct {
	raw []byte
	msg dxpwire.Message
	err error // malformed message (bad) or the end of the stream (closed)
	end bool  // the stream ended
}

// New starts a Client on conn (a connection from dxpwire.Dial, or any
// stream) for variant v; name is the initiator name sent in GAMEREQ (cut
// to dxpwire.NameLen printable ASCII characters; "" gives DefaultName).
// Every message is logged at debug level.
func New(conn io.ReadWriteCloser, v engine.VariantID, name string, log zerolog.Logger) *Client {
	if name == "" {
		name = DefaultName
	}
	r := &Client{
		conn: conn, v: v, name: dxpwire.ASCIIText(name, dxpwire.NameLen), log: log,
		msgs: make(chan remoteMsg, 16), done: make(chan struct{}), AckTimeout: DefaultAckTimeout,
	}
	go r.read()
	return r
}

// read delivers the engine's messages until the stream ends.
func (r *Client) read() {
	fr := dxpwire.NewReader(r.conn)
	for {
		raw, err := fr.ReadMessage()
		var m remoteMsg
		var fe *dxpwire.FrameError
		switch {
		case err == nil:
			if len(raw) == 0 {
				continue
			}
			m.raw = append([]byte(nil), raw...)
			m.msg, m.err = dxpwire.Decode(raw)
			r.log.Debug().Str("recv", string(raw)).Msg("dxp remote")
		case errors.As(err, &fe):
			m.raw, m.err = fe.Prefix, err
		default:
			m.err, m.end = err, true
		}
		select {
		case r.msgs <- m:
		case <-r.done:
			return
		}
		if m.end {
			return
		}
	}
}

// send writes one message.
func (r *Client) send(m dxpwire.Message) error {
	b, err := dxpwire.AppendFrame(nil, m)
	if err != nil {
		return err
	}
	r.log.Debug().Str("send", string(b[:len(b)-1])).Msg("dxp remote")
	if _, err := r.conn.Write(b); err != nil {
		return fmt.Errorf("%w: write: %v", ErrClosed, err)
	}
	return nil
}

// next returns the next message that is not a CHAT (chats are logged),
// or ctx's error, or ErrClosed at the end of the stream. A
// malformed message comes back with its error in err.
func (r *Client) next(ctx context.Context) (remoteMsg, error) {
	for {
		select {
		case m := <-r.msgs:
			if m.end {
				// Later reads see the end again.
				r.msgs <- m
				return m, fmt.Errorf("%w (%v)", ErrClosed, m.err)
			}
			if c, ok := m.msg.(*dxpwire.Chat); ok {
				r.log.Info().Str("text", c.Text).Msg("dxp remote: chat from the engine")
				continue
			}
			return m, nil
		case <-r.done:
			return remoteMsg{}, ErrClosed
		case <-ctx.Done():
			return remoteMsg{}, ctx.Err()
		}
	}
}

// NewGame proposes a game from start in which the engine plays colour
// engineColor, with minutes of thinking time per player (0..999) and moves
// for that time (0..999, 0 = none: DXP peers often end the game there),
// and waits for GAMEACC. It returns the engine's name from GAMEACC;
// ErrRefused (with the code) when it did not accept.
func (r *Client) NewGame(ctx context.Context, start engine.Position, engineColor engine.Color, minutes, moves int) (string, error) {
	if start.V != r.v {
		return "", fmt.Errorf("dxp remote: the start position is %s, the session %s", start.V, r.v)
	}
	req := &dxpwire.GameReq{
		Version: dxpwire.Version, Name: r.name, FollowerColor: engineColor,
		Minutes: min(max(minutes, 0), 999), Moves: min(max(moves, 0), 999),
	}
	req.SetStart(&start)
	if err := r.send(req); err != nil {
		return "", err
	}
	actx, cancel := context.WithTimeout(ctx, r.AckTimeout)
	defer cancel()
	for {
		m, err := r.next(actx)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				return "", fmt.Errorf("dxp remote: no GAMEACC within %v", r.AckTimeout)
			}
			return "", err
		}
		if m.err != nil {
			return "", fmt.Errorf("dxp remote: malformed answer to GAMEREQ %q: %v", m.raw, m.err)
		}
		switch a := m.msg.(type) {
		case *dxpwire.GameAcc:
			if a.Code != dxpwire.AccAccepted {
				return a.Name, fmt.Errorf("%w: GAMEACC %q: %s", ErrRefused, a.Name, a.Code)
			}
			return a.Name, nil
		default:
			r.log.Warn().Str("recv", string(m.raw)).Msg("dxp remote: unexpected message while waiting for GAMEACC; ignored")
		}
	}
}

// SendMove passes on the opponent's move m, legal in pos, which took
// seconds.
func (r *Client) SendMove(pos *engine.Position, m engine.Move, seconds int) error {
	return r.send(dxpwire.MoveMessage(pos, m, seconds))
}

// ReadMove waits for the engine's move in pos (the engine to move) until
// ctx ends. A MOVE that names no legal move comes back with its Err set
// (and a nil error). A GAMEEND instead of a move is acknowledged and
// returned as a *GameEnd error; a malformed message is an error naming
// it; so is a message of another kind (a BACKREQ is refused first).
func (r *Client) ReadMove(ctx context.Context, pos *engine.Position) (Move, error) {
	for {
		m, err := r.next(ctx)
		if err != nil {
			return Move{}, err
		}
		if m.err != nil {
			return Move{Text: string(m.raw)}, fmt.Errorf("dxp remote: malformed message %q: %v", m.raw, m.err)
		}
		switch x := m.msg.(type) {
		case *dxpwire.Move:
			mv, ferr := dxpwire.FindMove(pos, x)
			return Move{Move: mv, Text: string(m.raw), Seconds: x.Seconds, Err: ferr}, nil
		case *dxpwire.GameEnd:
			if err := r.send(&dxpwire.GameEnd{Reason: dxpwire.EndNone, Stop: dxpwire.StopContinue}); err != nil {
				return Move{}, err
			}
			return Move{Text: string(m.raw)}, &GameEnd{Result: x.Reason.Result(pos.Side), Reason: x.Reason.String()}
		case *dxpwire.BackReq:
			if err := r.send(&dxpwire.BackAcc{Code: dxpwire.BackRefused}); err != nil {
				return Move{}, err
			}
		default:
			return Move{Text: string(m.raw)}, fmt.Errorf("dxp remote: %s instead of a move", x.Kind())
		}
	}
}

// EndGame ends the game with GAMEEND from the initiator's side (the
// engine's opponent): result is the game's result and engineColor the
// colour the engine played (engine.Ongoing: no result). It then waits for
// the engine's GAMEEND up to AckTimeout, skipping a MOVE it may still
// send; no answer in time is an error (the session is then unusable).
func (r *Client) EndGame(ctx context.Context, result engine.Result, engineColor engine.Color) error {
	reason := dxpwire.ReasonFor(result, engineColor.Opp()) // from our side: the engine's opponent
	if err := r.send(&dxpwire.GameEnd{Reason: reason, Stop: dxpwire.StopContinue}); err != nil {
		return err
	}
	actx, cancel := context.WithTimeout(ctx, r.AckTimeout)
	defer cancel()
	for {
		m, err := r.next(actx)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				return fmt.Errorf("dxp remote: no GAMEEND answer within %v", r.AckTimeout)
			}
			return err
		}
		if _, ok := m.msg.(*dxpwire.GameEnd); ok {
			return nil
		}
		r.log.Debug().Str("recv", string(m.raw)).Msg("dxp remote: skipped while waiting for the GAMEEND answer")
	}
}

// Close closes the connection (sending side first) and stops the reader.
func (r *Client) Close() error {
	var err error
	r.once.Do(func() {
		dxpwire.Shutdown(r.conn)
		close(r.done)
		err = r.conn.Close()
	})
	return err
}
