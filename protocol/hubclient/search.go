// search.go: searches: the level line, go in its modes, the info lines and
// the done that ends a search, stop and ponder-hit, and the deadline.

package hubclient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/protocol/hubwire"
)

// Level holds the limits of one level line; zero fields are left out.
type Level struct {
	Depth     int
	Nodes     uint64
	MoveTime  time.Duration
	Moves     int           // moves to the next time control; 0: sudden death
	Time      time.Duration // clock before this move's increment
	Inc       time.Duration
	Infinite  bool
	SendMoves bool // send moves= even when Moves is 0 (moves=0: sudden death)
}

// Line returns the level line for l, or false when l sets nothing.
func (l Level) Line() (hubwire.Line, bool) {
	out := hubwire.NewLine("level")
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }
	if l.Depth > 0 {
		out = out.With("depth", strconv.Itoa(l.Depth))
	}
	if l.Nodes > 0 {
		out = out.With("nodes", strconv.FormatUint(l.Nodes, 10))
	}
	if l.MoveTime > 0 {
		out = out.With("move-time", secs(l.MoveTime))
	}
	if l.Moves > 0 || l.SendMoves {
		out = out.With("moves", strconv.Itoa(l.Moves))
	}
	if l.Time > 0 || l.Inc > 0 {
		out = out.With("time", secs(max(l.Time, 0)))
	}
	if l.Inc > 0 {
		out = out.With("inc", secs(l.Inc))
	}
	if l.Infinite {
		out = out.WithFlag("infinite")
	}
	return out, len(out.Args) > 0
}

// Mode is the mode of a go line.
type Mode string

// The search modes.
const (
	Think   Mode = "think"
	Ponder  Mode = "ponder"
	Analyze Mode = "analyze"
)

// Info is one info line as read (fields absent from the line are zero;
// Has tells which were present).
type Info struct {
	Depth     int
	MeanDepth float64
	Score     float64 // men; about +-99 for a won or lost position
	Nodes     uint64
	Time      time.Duration
	NPS       float64 // millions of nodes per second
	PV        []string
	Has       map[string]bool
	Line      hubwire.Line
}

// Done is the answer ending a search. Move is "" when the engine gave no
// move (it then wrote an error line, kept in Errors).
type Done struct {
	Move   string
	Ponder string
	Errors []string // error lines received during the search
	Line   hubwire.Line
}

// SetLevel sends the level line of l (nothing when l sets nothing).
func (c *Client) SetLevel(l Level) error {
	if c.searching {
		return ErrSearching
	}
	if line, ok := l.Line(); ok {
		return c.send(line)
	}
	return nil
}

// Search is a running search started by Go.
type Search struct {
	c       *Client
	mode    Mode
	mu      sync.Mutex
	stopped bool
	ended   bool
}

// Go sends go with the mode and returns the running search; Wait reads
// its answer.
func (c *Client) Go(mode Mode) (*Search, error) {
	if c.searching {
		return nil, ErrSearching
	}
	c.TakeErrors()
	if err := c.send(hubwire.NewLine("go").WithFlag(string(mode))); err != nil {
		return nil, err
	}
	c.searching = true
	return &Search{c: c, mode: mode}, nil
}

// Stop sends stop (once); the engine answers done soon.
func (s *Search) Stop() error {
	s.mu.Lock()
	if s.stopped || s.ended {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	s.mu.Unlock()
	return s.c.send(hubwire.NewLine("stop"))
}

// PonderHit sends ponder-hit: the expected move was played and the search
// goes on under its clock from now.
func (s *Search) PonderHit() error {
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended {
		return nil
	}
	return s.c.send(hubwire.NewLine("ponder-hit"))
}

// Ping sends ping during the search; the pong is skipped by Wait.
func (s *Search) Ping() error { return s.c.send(hubwire.NewLine("ping")) }

// Wait reads info lines (passing each to onInfo when not nil) until done.
// When ctx ends first it sends stop and allows the stop grace; an engine
// that still does not answer is killed and Wait returns ErrEngineHung.
// The stop and the kill are logged as warnings when ctx's deadline passed
// (context.Cause(ctx) is context.DeadlineExceeded, as for Think's
// timeout), and at debug level when ctx was cancelled otherwise: the
// caller gave the search up, which is no fault of the engine.
func (s *Search) Wait(ctx context.Context, onInfo func(Info)) (Done, error) {
	c := s.c
	defer func() {
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
		c.searching = false
	}()
	var d Done
	handle := func(r recvLine) {
		if r.err != nil {
			return
		}
		switch r.line.Command {
		case "info":
			if onInfo != nil {
				onInfo(parseInfo(r.line))
			}
		case "error":
			d.Errors = append(d.Errors, errorText(r.line, r.text))
		}
	}
	l, err := c.waitFor(ctx, "done", handle)
	if err != nil && ctx.Err() != nil && !errors.Is(err, ErrEngineExited) {
		// Out of time (or given up): stop, then give the engine its grace.
		late := errors.Is(context.Cause(ctx), context.DeadlineExceeded)
		warn, fail := zerolog.DebugLevel, zerolog.DebugLevel
		if late {
			warn, fail = zerolog.WarnLevel, zerolog.ErrorLevel
			c.log.Warn().Msg("hub client: search deadline passed, sending stop")
		} else {
			c.log.Debug().Msg("hub client: search cancelled, sending stop")
		}
		if serr := s.Stop(); serr != nil {
			c.kill(warn, fmt.Sprintf("stop could not be sent: %v", serr))
			return d, fmt.Errorf("%w (%v)", ErrEngineHung, serr)
		}
		gctx, cancel := context.WithTimeout(context.Background(), c.stopGrace)
		l, err = c.waitFor(gctx, "done", handle)
		cancel()
		if err != nil && !errors.Is(err, ErrEngineExited) {
			c.kill(fail, fmt.Sprintf("no done within %s after stop", c.stopGrace))
			return d, ErrEngineHung
		}
	}
	if err != nil {
		return d, err
	}
	c.TakeErrors() // kept in d.Errors
	d.Line = l
	d.Move, _ = l.Get("move")
	d.Ponder, _ = l.Get("ponder")
	return d, nil
}

// Think runs one go think with the current position and level and waits
// for done up to timeout (0: no limit), after which it stops the search and
// kills the engine if it does not answer within the stop grace.
func (c *Client) Think(ctx context.Context, timeout time.Duration, onInfo func(Info)) (Done, error) {
	s, err := c.Go(Think)
	if err != nil {
		return Done{}, err
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return s.Wait(ctx, onInfo)
}

// parseInfo reads the fields of an info line; malformed values are left
// zero and not marked in Has.
func parseInfo(l hubwire.Line) Info {
	in := Info{Line: l, Has: map[string]bool{}}
	for _, a := range l.Args {
		ok := true
		switch a.Name {
		case "depth":
			n, err := strconv.Atoi(a.Value)
			in.Depth, ok = n, err == nil
		case "mean-depth":
			f, err := strconv.ParseFloat(a.Value, 64)
			in.MeanDepth, ok = f, err == nil
		case "score":
			f, err := strconv.ParseFloat(a.Value, 64)
			in.Score, ok = f, err == nil
		case "nodes":
			n, err := strconv.ParseUint(a.Value, 10, 64)
			in.Nodes, ok = n, err == nil
		case "time":
			f, err := strconv.ParseFloat(a.Value, 64)
			in.Time, ok = time.Duration(f*float64(time.Second)), err == nil
		case "nps":
			f, err := strconv.ParseFloat(a.Value, 64)
			in.NPS, ok = f, err == nil
		case "pv":
			in.PV = strings.Fields(a.Value)
		}
		if ok {
			in.Has[a.Name] = true
		}
	}
	return in
}
