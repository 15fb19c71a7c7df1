// cycle.go: the search cycle of the engine side: level, go, the in-flight
// commands (ping, ponder-hit, stop) and the info and done answers.

package hub

import (
	"context"
	"damka/book"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"damka/engine"
	"damka/search"
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
func (s *session) level(l Line) {
	lim, clock := s.limits, s.clock
	var bad, unknown []string
	for _, a := range l.Args {
		var err error
		switch a.Name {
		case "depth":
			lim.Depth, err = parseInt(a.Value, 1, search.MaxDepth)
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
			lim.MovesToGo, err = parseInt(a.Value, 0, 1000000)
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

// bookMove picks a move for pos from the embedded book of its variant,
// among the moves within the book-margin of the best, weighted. A variant
// without a usable book gives no move (the search plays instead).
func (s *session) bookMove(pos *engine.Position) (engine.Move, bool) {
	b, err := book.Default(pos.V)
	if err != nil {
		s.log.Warn().Err(err).Msg("hub: no opening book")
		return engine.Move{}, false
	}
	return b.Pick(pos, s.bookMargin, s.rng)
}

// goSearch handles a go line and the lines that arrive during its search.
// Every go line is answered by exactly one done line. It returns a line
// that ended the search, to be handled next, and whether to quit (ctx
// ended).
func (s *session) goSearch(ctx context.Context, l Line, lines <-chan input) (pending *input, quit bool) {
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
				s.out.send(NewLine("done"))
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
		s.out.send(NewLine("done"))
		return nil, false
	}
	pos := s.game.Position()
	var list engine.MoveList
	if pos.CountMoves(&list, false) == 0 {
		side := "white"
		if pos.Side == engine.Black {
			side = "black"
		}
		s.errorf("go: %s to move has no legal move: the game is over (no search, no move)", side)
		s.out.send(NewLine("done"))
		return nil, false
	}
	if len(unknown) > 0 {
		s.errorf("go: unknown argument %s ignored", quoteList(unknown))
	}
	switch mode {
	case "ponder":
		limits.Ponder = true
	case "analyze":
		limits.Infinite = true
	}
	if mode != "analyze" && s.book {
		// Book move: answered at once, in think and ponder mode alike.
		if m, ok := s.bookMove(&pos); ok {
			s.log.Info().Str("pos", pos.HubPosition()).Str("move", pos.FormatMove(m, engine.FormatHub)).Msg("hub: book move")
			s.out.send(NewLine("done").With("move", pos.FormatMove(m, engine.FormatHub)))
			return nil, false
		}
	}
	keys := s.game.Keys()
	history := keys[:len(keys)-1]
	limits.Draw = s.game.DrawState()
	limits.MoveOverhead = s.moveOverhead()
	s.ensureSearcher()
	s.log.Info().Str("mode", mode).Str("pos", pos.HubPosition()).Int("history", len(history)).
		Int("depth", limits.Depth).Uint64("nodes", limits.Nodes).Dur("move_time", limits.MoveTime).
		Dur("time", limits.Time).Dur("inc", limits.Inc).Int("moves", limits.MovesToGo).Msg("hub: search")

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A ponder-hit that arrives before the search has begun could be
	// overwritten when Search sets up its ponder state, so it is repeated
	// at the first report, which comes after that set-up.
	var hit, started, reissued atomic.Bool
	report := func(info search.Info) {
		if !started.Swap(true) && hit.Load() && !reissued.Swap(true) {
			s.searcher.PonderHit()
		}
		s.out.send(infoLine(&pos, info))
	}
	results := make(chan search.Result, 1)
	go func() { results <- s.searcher.Search(sctx, pos, history, limits, report) }()

	for {
		select {
		case r := <-results:
			s.done(&pos, r)
			return pending, quit
		case <-ctx.Done():
			cancel()
			quit = true
		case x := <-lines:
			if !x.eof && x.tooLong == 0 {
				if fl, err := ParseLine(x.text); err == nil {
					switch fl.Command {
					case "ping":
						s.log.Debug().Str("in", x.text).Msg("hub")
						s.out.send(NewLine("pong"))
						continue
					case "ponder-hit":
						s.log.Debug().Str("in", x.text).Msg("hub")
						if mode == "ponder" && !hit.Swap(true) {
							s.searcher.PonderHit()
						}
						continue
					case "stop":
						s.log.Debug().Str("in", x.text).Msg("hub")
						cancel()
						continue
					}
				}
			}
			// Any other line ends the search and is handled after done.
			cancel()
			pending = &x
		}
		// The search is ending: wait for it without reading more input.
		r := <-results
		s.done(&pos, r)
		return pending, quit
	}
}

// done answers the end of a search of pos with its best move and the
// expected reply.
func (s *session) done(pos *engine.Position, r search.Result) {
	s.log.Info().Int("depth", r.Depth).Int("score", r.Score).Uint64("nodes", r.Nodes).
		Dur("elapsed", r.Time).Msg("hub: search done")
	if !r.HasMove {
		s.errorf("go: no legal move (no move)")
		s.out.send(NewLine("done"))
		return
	}
	if !isLegal(pos, r.Move) {
		// A search bug must not cost the game: say so and play a legal move.
		var list engine.MoveList
		pos.Generate(&list)
		s.log.Error().Str("pos", pos.HubPosition()).Msg("hub: search returned an illegal move")
		s.errorf("internal error: the search returned an illegal move; playing the first legal move")
		r.Move, r.PV = list.Moves[0], nil
	}
	d := NewLine("done").With("move", pos.FormatMove(r.Move, engine.FormatHub))
	if len(r.PV) > 1 && r.PV[0] == r.Move {
		next := pos.Play(r.Move)
		if isLegal(&next, r.PV[1]) {
			d = d.With("ponder", next.FormatMove(r.PV[1], engine.FormatHub))
		}
	}
	s.out.send(d)
}

// isLegal reports whether m is one of p's legal moves.
func isLegal(p *engine.Position, m engine.Move) bool {
	var list engine.MoveList
	p.Generate(&list)
	for _, lm := range list.Slice() {
		if lm == m {
			return true
		}
	}
	return false
}

// FormatScore writes a search score (centi-men, see search.Mate) in men
// with two decimals, as info lines give it: 100 -> "1.00". A forced win in
// n plies is 100 - n/100 men ("99.99" for a win next ply) and a forced loss
// its negative, as Scan reports won and lost positions.
func FormatScore(cs int) string {
	switch {
	case cs > search.MateBound:
		return strconv.FormatFloat(float64(10000-(search.Mate-cs))/100, 'f', 2, 64)
	case cs < -search.MateBound:
		return strconv.FormatFloat(-float64(10000-(search.Mate+cs))/100, 'f', 2, 64)
	}
	return strconv.FormatFloat(float64(cs)/100, 'f', 2, 64)
}

// infoLine writes one search report: depth, score in men, nodes, time in
// seconds, nps in millions and the PV (legal prefix only) in Hub moves.
func infoLine(root *engine.Position, info search.Info) Line {
	l := NewLine("info").
		With("depth", strconv.Itoa(info.Depth)).
		With("score", FormatScore(info.Score)).
		With("nodes", strconv.FormatUint(info.Nodes, 10)).
		With("time", strconv.FormatFloat(info.Time.Seconds(), 'f', 3, 64)).
		With("nps", strconv.FormatFloat(float64(info.NPS)/1e6, 'f', 1, 64))
	if pv := formatPV(root, info.PV); pv != "" {
		l = l.WithQuoted("pv", pv)
	}
	return l
}

// formatPV writes the legal prefix of pv from root in Hub moves, space
// separated.
func formatPV(root *engine.Position, pv []engine.Move) string {
	var b strings.Builder
	p := *root
	for i, m := range pv {
		if !isLegal(&p, m) {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.FormatMove(m, engine.FormatHub))
		p = p.Play(m)
	}
	return b.String()
}
