// cycle.go: the search cycle of the engine side: level, go, the in-flight
// commands (ping, ponder-hit, stop) and the info and done answers.

package hub

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubwire"
	"github.com/damka-draughts/damka/search"
)

// maxSeconds bounds the time values of a level line (about 115 days).
const maxSeconds = 1e7

// Lower bounds of parseSeconds.
const (
	nonNegative = iota // 0 or more
	positive           // more than 0
	clampToZero        // any; a negative value counts as 0
)

// parseSeconds reads a time in seconds (a real number) with lower bound
// lo (nonNegative, positive or clampToZero) and upper bound maxSeconds.
func parseSeconds(v string, lo int) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("'%s' is not a number of seconds", v)
	}
	if lo == clampToZero && f < 0 {
		f = 0
	}
	mustBePositive := lo == positive
	if f < 0 || (mustBePositive && f == 0) || f > maxSeconds {
		lo := "0"
		if mustBePositive {
			lo = "more than 0"
		}
		return 0, fmt.Errorf("%s seconds out of range (%s up to %g)", v, lo, float64(maxSeconds))
	}
	return time.Duration(f * float64(time.Second)), nil
}

// level handles a level line. Each line sets only the fields it names and
// adds to the earlier ones (until the next pos or done). A bad value
// rejects the whole line; unknown arguments are ignored. Either is answered
// with one error line.
func (s *session) level(l hubwire.Line) {
	lim, clock := s.limits, s.clock
	var bad, unknown []string
	for _, a := range l.Args {
		var err error
		switch a.Name {
		case "depth":
			lim.Depth, err = player.ParseInt(a.Value, 1, search.MaxDepth)
		case "nodes":
			var n uint64
			n, err = strconv.ParseUint(a.Value, 10, 63)
			if err != nil || n == 0 {
				err = fmt.Errorf("value '%s' is not a node count (want 1..%d)", a.Value, uint64(math.MaxInt64))
			}
			lim.Nodes = n
		case "move-time":
			lim.MoveTime, err = parseSeconds(a.Value, positive)
		case "moves":
			lim.MovesToGo, err = player.ParseInt(a.Value, 0, 1000000)
		case "time":
			// Some clients subtract the increment first and can send a
			// negative clock: it counts as an empty one.
			lim.Time, err = parseSeconds(a.Value, clampToZero)
			clock = true
		case "inc":
			lim.Inc, err = parseSeconds(a.Value, nonNegative)
		case "infinite":
			if !a.Flag && a.Value != "" {
				err = fmt.Errorf("takes no value (write level infinite)")
			}
			lim.Infinite = true
		default:
			unknown = append(unknown, a.Name)
			continue
		}
		if err != nil {
			bad = append(bad, a.Name+": "+err.Error())
		}
	}
	var msg []string
	if len(bad) > 0 {
		msg = append(msg, strings.Join(bad, "; ")+" (limits unchanged)")
	} else {
		s.limits, s.clock = lim, clock
	}
	if len(unknown) > 0 {
		msg = append(msg, "unknown argument "+quoteList(unknown)+" ignored")
	}
	if len(msg) > 0 {
		s.errorf("level: %s", strings.Join(msg, "; "))
	}
}

// goSearch handles a go line and the lines that arrive during its search.
// Every go line is answered by exactly one done line. It returns a line
// that ended the search, to be handled next, and whether to quit (ctx
// ended).
func (s *session) goSearch(ctx context.Context, l hubwire.Line, lines <-chan input) (pending *input, quit bool) {
	limits := s.limits
	if s.clock && limits.Time == 0 && limits.Inc == 0 && limits.MoveTime == 0 {
		// An empty clock: answer at once rather than search unlimited.
		limits.MoveTime = time.Millisecond
	}
	s.limits, s.clock = search.Limits{}, false // limits reset after done
	mode := ""
	var unknown []string
	for _, a := range l.Args {
		switch a.Name {
		case "think", "ponder", "analyze":
			if mode != "" && mode != a.Name {
				s.errorf("go: two modes, %s and %s (want one of think, ponder, analyze; no search)", mode, a.Name)
				s.out.send(hubwire.NewLine("done"))
				return nil, false
			}
			mode = a.Name
		default:
			unknown = append(unknown, a.Name)
		}
	}
	if mode == "" {
		not := ""
		if len(unknown) > 0 {
			not = ": " + quoteList(unknown) + " is not one"
		}
		s.errorf("go: missing mode: want go think, go ponder or go analyze%s (no search)", not)
		s.out.send(hubwire.NewLine("done"))
		return nil, false
	}
	if len(unknown) > 0 {
		s.errorf("go: unknown argument %s ignored", quoteList(unknown))
	}
	pmode := player.Think
	switch mode {
	case "ponder":
		pmode = player.Ponder
	case "analyze":
		pmode = player.Analyse // never from the book
	}
	g := s.p.Game()
	pos := g.Position()
	s.log.Info().Str("mode", mode).Str("pos", pos.HubPosition()).Int("history", g.Ply()).
		Int("depth", limits.Depth).Uint64("nodes", limits.Nodes).Dur("move_time", limits.MoveTime).
		Dur("clock", limits.Time).Dur("inc", limits.Inc).Int("moves", limits.MovesToGo).Msg("hub: search")
	multi := s.p.MultiPV() > 1
	var order lineOrder
	send := func(info search.Info) { s.out.send(infoLine(&pos, info, multi)) }
	job := s.p.Go(ctx, pmode, limits, func(info search.Info) { order.add(info, multi, send) })
	for {
		select {
		case <-job.Done():
			c := job.Wait()
			order.flush(send)
			s.done(c)
			return pending, quit
		case <-ctx.Done():
			job.Stop()
			quit = true
		case x := <-lines:
			if !x.eof && x.tooLong == 0 {
				if fl, err := hubwire.ParseLine(x.text); err == nil {
					switch fl.Command {
					case "ping":
						s.log.Debug().Str("in", x.text).Msg("hub")
						s.out.send(hubwire.NewLine("pong"))
						continue
					case "ponder-hit":
						s.log.Debug().Str("in", x.text).Msg("hub")
						if mode == "ponder" {
							job.PonderHit()
						}
						continue
					case "stop":
						s.log.Debug().Str("in", x.text).Msg("hub")
						job.Stop()
						continue
					}
				}
			}
			// Any other line ends the search and is handled after done.
			job.Stop()
			pending = &x
		}
		// The search is ending: wait for it without reading more input.
		c := job.Wait()
		order.flush(send)
		s.done(c)
		return pending, quit
	}
}

// done answers the end of a move choice with its move and the expected
// reply (legal, as the Choice guarantees).
func (s *session) done(c search.Choice) {
	root := &c.Root
	switch c.Source {
	case search.NoMove:
		side := "white"
		if root.Side == engine.Black {
			side = "black"
		}
		s.errorf("go: %s to move has no legal move: the game is over (no search, no move)", side)
		s.out.send(hubwire.NewLine("done"))
		return
	case search.FromBook:
		s.log.Info().Str("pos", root.HubPosition()).Str("move", root.FormatMove(c.Move, engine.FormatHub)).Msg("hub: book move")
	default:
		if c.BookErr != nil {
			s.log.Warn().Err(c.BookErr).Msg("hub: no opening book")
		}
		s.log.Info().Int("depth", c.Depth).Int("score", c.Score).Uint64("nodes", c.Nodes).
			Dur("elapsed", c.Time).Bool("partial", c.Partial).Msg("hub: search done")
	}
	if c.Problem != "" {
		// A search bug must not cost the game: say so (a legal move is played).
		s.log.Error().Str("pos", root.HubPosition()).Str("problem", c.Problem).Msg("hub: bad search result")
		s.errorf("internal error: %s", c.Problem)
	}
	d := hubwire.NewLine("done").With("move", root.FormatMove(c.Move, engine.FormatHub))
	if len(c.PV) > 1 {
		next := root.Play(c.Move)
		d = d.With("ponder", next.FormatMove(c.PV[1], engine.FormatHub))
	}
	s.out.send(d)
}

// lineOrder holds the info lines of one multi-PV iteration until its last
// line has come, so that they go out best last: lines N..1, line 1 (the
// line of the move played) being the last info line of each depth, for
// clients that take the last info line as the main line. The search
// reports an iteration's lines 1..N one after another (search.Info.Lines
// is N).
type lineOrder struct {
	held []search.Info
}

// add passes info on to send, or holds it until its iteration's last line
// has come (multi: the multipv setting is above 1).
func (o *lineOrder) add(info search.Info, multi bool, send func(search.Info)) {
	if !multi || info.Lines <= 1 {
		o.flush(send)
		send(info)
		return
	}
	if len(o.held) > 0 && info.MultiPV <= o.held[len(o.held)-1].MultiPV {
		o.flush(send) // a new iteration before the last one ended
	}
	o.held = append(o.held, info)
	if info.MultiPV >= info.Lines {
		o.flush(send)
	}
}

// flush sends the lines held, the last reported first.
func (o *lineOrder) flush(send func(search.Info)) {
	for i := len(o.held) - 1; i >= 0; i-- {
		send(o.held[i])
	}
	o.held = o.held[:0]
}

// infoLine writes one search report: depth, score in men, nodes, time in
// seconds, nps in millions and the PV in Hub moves; with multi (the
// multipv parameter above 1) the line's number first, multipv=K.
func infoLine(root *engine.Position, info search.Info, multi bool) hubwire.Line {
	// One argument slice for the whole line (With copies the arguments
	// on each call): a search sends one line an iteration.
	l := hubwire.Line{Command: "info", Args: make([]hubwire.Arg, 0, 7)}
	if multi {
		l.Args = append(l.Args, hubwire.Arg{Name: "multipv", Value: strconv.Itoa(max(info.MultiPV, 1))})
	}
	l.Args = append(l.Args,
		hubwire.Arg{Name: "depth", Value: strconv.Itoa(info.Depth)},
		hubwire.Arg{Name: "score", Value: search.FormatScore(info.Score)},
		hubwire.Arg{Name: "nodes", Value: strconv.FormatUint(info.Nodes, 10)},
		hubwire.Arg{Name: "time", Value: strconv.FormatFloat(info.Time.Seconds(), 'f', 3, 64)},
		hubwire.Arg{Name: "nps", Value: strconv.FormatFloat(float64(info.NPS)/1e6, 'f', 1, 64)})
	if pv := search.FormatPV(root, info.PV, engine.FormatHub); pv != "" {
		l.Args = append(l.Args, hubwire.Arg{Name: "pv", Value: pv, Quoted: true})
	}
	return l
}
