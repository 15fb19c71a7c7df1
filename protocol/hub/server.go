// server.go: the engine side of Hub (the server session, not the rules
// core): the session loop Run, the parameters, positions, limits and the
// search cycle with its in-flight commands.

package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubwire"
	"github.com/damka-draughts/damka/search"
)

// Config sets up a Hub session. The zero value is usable: damka's
// identity, a player with every setting at its default, no logging.
type Config struct {
	// Identity sent in the id line; empty fields are left out (Name
	// defaults to "damka").
	Name, Version, Author, Country string

	// AutoVariant says that nobody chose the variant (damka started
	// without --variant): until the GUI sets the variant parameter, a
	// 51-character position (or a FEN with 10x10 squares) selects
	// international, as GUIs written for Scan assume (pydraughts'
	// HubEngine never sets the variant).
	AutoVariant bool

	// Player is the player the session drives: its settings are the
	// session's parameters, their values at the start those the player
	// has (the command line's flags). nil means a player with every
	// setting at its default (player.New).
	Player *player.Player

	// Log receives every protocol line at debug level (fields "in" and
	// "out") and session events at info level. The zero Logger is silent.
	Log zerolog.Logger
}

// Run serves one Hub session: it reads commands from in and writes answers
// to out until quit, the end of in, or ctx is done. Errors in the input
// never end the session: each bad line gets one error message="..." answer
// and the session keeps its last good state. Run returns nil after quit or
// at the end of in, ctx.Err() when ctx ends it, and an error when reading
// in or writing out fails. A goroutine reading in may stay blocked in Read
// after Run returns until in delivers a line, ends or is closed.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	s := newSession(cfg, out)
	lines := make(chan input)
	quit := make(chan struct{})
	defer close(quit)
	go readLines(in, lines, quit)
	return s.loop(ctx, lines)
}

// input is one line read, or the end of the input (eof, with err set when
// reading failed).
type input struct {
	text    string
	tooLong int // >0: the line had this many bytes and was discarded
	eof     bool
	err     error
}

// readLines sends each line of in (without its "\n") to lines, then an eof
// input; it stops early when quit is closed.
func readLines(in io.Reader, lines chan<- input, quit <-chan struct{}) {
	br := bufio.NewReaderSize(in, 64<<10)
	send := func(x input) bool {
		select {
		case lines <- x:
			return true
		case <-quit:
			return false
		}
	}
	for {
		var buf []byte
		n := 0
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			n += len(chunk)
			if n <= hubwire.MaxLineBytes {
				buf = append(buf, chunk...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if n > 0 {
			x := input{}
			if n > hubwire.MaxLineBytes {
				x.tooLong = n
			} else {
				x.text = strings.TrimSuffix(string(buf), "\n")
			}
			if !send(x) {
				return
			}
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			send(input{eof: true, err: err})
			return
		}
	}
}

// session is the state of one Hub session. Only the loop goroutine touches
// it, except out (locked) and the fields of the running search.
type session struct {
	cfg Config
	log zerolog.Logger
	out *lineWriter

	// p is the player: the parameters (its settings), the searcher and
	// the game the pos lines set.
	p *player.Player
	// autoVariant: the variant was never chosen (Config.AutoVariant and
	// no set-param variant yet).
	autoVariant bool
	// refusedPos is why the last pos was refused ("" when it was taken):
	// a go then answers without a move rather than search a position the
	// GUI never sent.
	refusedPos string
	limits     search.Limits // from level lines since the last pos or done
	clock      bool          // a level line gave time= (an empty clock is not "no limit")
}

func newSession(cfg Config, out io.Writer) *session {
	if cfg.Name == "" {
		cfg.Name = "damka"
	}
	s := &session{
		cfg:         cfg,
		log:         cfg.Log,
		out:         &lineWriter{w: bufio.NewWriter(out), log: cfg.Log},
		autoVariant: cfg.AutoVariant,
	}
	s.p = cfg.Player
	if s.p == nil {
		s.p = player.New(player.Config{Log: cfg.Log})
	}
	s.p.SetNotice(func(msg string) { s.errorf("%s", msg) })
	return s
}

// lineWriter writes Hub lines, one Write and Flush per line, from any
// goroutine. The first write error is kept and later lines are dropped.
type lineWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	log zerolog.Logger
	err error
}

func (w *lineWriter) send(l hubwire.Line) {
	s := l.String()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	w.log.Debug().Str("out", s).Msg("hub")
	w.w.WriteString(s)
	w.w.WriteByte('\n')
	w.err = w.w.Flush()
}

func (w *lineWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// errorf sends one error line; the message never holds '"' (see
// Line.String).
func (s *session) errorf(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	s.log.Info().Str("error", msg).Msg("hub error answered")
	s.out.send(hubwire.NewLine("error").With("message", msg))
}

// loop handles lines until quit, the end of input or ctx.
func (s *session) loop(ctx context.Context, lines <-chan input) error {
	var pending *input
	for {
		var x input
		if pending != nil {
			x, pending = *pending, nil
		} else {
			select {
			case x = <-lines:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if x.eof {
			s.log.Info().Msg("hub: end of input")
			if x.err != nil {
				return fmt.Errorf("hub: reading input: %w", x.err)
			}
			return s.out.failed()
		}
		if x.tooLong == 0 {
			s.log.Debug().Str("in", x.text).Msg("hub")
		}
		l, ok := s.parse(x)
		quit := false
		if ok {
			if l.Command == "go" && s.refusedPos != "" {
				s.goRefused()
			} else if l.Command == "go" {
				next, stop := s.goSearch(ctx, l, lines)
				pending, quit = next, stop
			} else {
				quit = s.handle(l)
			}
		}
		if err := s.out.failed(); err != nil {
			return fmt.Errorf("hub: writing output: %w", err)
		}
		if quit {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return nil
		}
	}
}

// parse reads one input line, answering syntax errors itself.
func (s *session) parse(x input) (hubwire.Line, bool) {
	if x.tooLong > 0 {
		s.errorf("line too long: %d bytes (at most %d)", x.tooLong, hubwire.MaxLineBytes)
		return hubwire.Line{}, false
	}
	l, err := hubwire.ParseLine(x.text)
	switch {
	case errors.Is(err, hubwire.ErrEmptyLine):
		s.errorf("missing command")
		return l, false
	case err != nil:
		s.errorf("bad line: %v", err)
		return l, false
	}
	return l, true
}

// handle runs one command other than go; it reports whether to quit.
func (s *session) handle(l hubwire.Line) bool {
	switch l.Command {
	case "hub":
		s.checkArgs(l)
		s.hello()
	case "set-param":
		s.setParam(l)
	case "init":
		s.checkArgs(l)
		s.p.Init()
		s.out.send(hubwire.NewLine("ready"))
	case "new-game":
		s.checkArgs(l)
		s.p.NewGame()
	case "pos":
		s.pos(l)
	case "level":
		s.level(l)
	case "ping":
		s.checkArgs(l)
		s.out.send(hubwire.NewLine("pong"))
	case "ponder-hit", "stop":
		// Only meaningful during a search; Scan ignores them otherwise.
		s.log.Debug().Str("command", l.Command).Msg("hub: ignored outside a search")
	case "quit":
		s.checkArgs(l)
		return true
	default:
		s.errorf("bad command")
	}
	return false
}

// checkArgs answers an error naming the arguments of l outside allowed
// (in order), if any. It returns false when it answered.
func (s *session) checkArgs(l hubwire.Line, allowed ...string) bool {
	var bad []string
	for _, a := range l.Args {
		found := false
		for _, n := range allowed {
			if a.Name == n {
				found = true
				break
			}
		}
		if !found {
			bad = append(bad, a.Name)
		}
	}
	if len(bad) == 0 {
		return true
	}
	want := "none"
	if len(allowed) > 0 {
		want = strings.Join(allowed, ", ")
	}
	s.errorf("%s: unknown argument %s (ignored; known: %s)", l.Command, quoteList(bad), want)
	return false
}

// quoteList writes names as 'a', 'b'.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, ", ")
}

// hello answers hub: id, one param line per parameter, wait.
func (s *session) hello() {
	id := hubwire.NewLine("id")
	for _, f := range [][2]string{{"name", s.cfg.Name}, {"version", s.cfg.Version},
		{"author", s.cfg.Author}, {"country", s.cfg.Country}} {
		if f[1] != "" {
			id = id.With(f[0], f[1])
		}
	}
	s.out.send(id)
	for _, st := range player.Settings() {
		v, _ := s.p.Get(st.Name)
		s.out.send(paramLine(st, v))
	}
	s.out.send(hubwire.NewLine("wait"))
}

// pos handles "pos [start] [pos=P] [moves=M]". P is a Hub position
// string or a FEN ("W:W31-50:B1-20", what some clients send). A bad
// position leaves the current one, and the next go answers without a move
// (goRefused) until a pos is taken; a bad move keeps the moves before it.
// Either way the limits are reset, as by every pos line.
func (s *session) pos(l hubwire.Line) {
	s.limits, s.clock = search.Limits{}, false
	var problems []string
	for _, a := range l.Args {
		switch a.Name {
		case "start", "pos", "moves":
		default:
			problems = append(problems, fmt.Sprintf("unknown argument '%s' ignored", a.Name))
		}
	}
	defer func() {
		if len(problems) > 0 {
			s.errorf("pos: %s", strings.Join(problems, "; "))
		}
	}()
	text, hasPos := l.Get("pos")
	if hasPos && l.Has("start") {
		problems = append(problems, "bad position: both start and pos= given (position unchanged)")
		s.refusedPos = "both start and pos= given"
		return
	}
	start := engine.StartPosition(s.p.Variant())
	if hasPos {
		p, err := s.parsePosition(text)
		if err != nil {
			problems = append(problems, "bad position: "+err.Error()+" (position unchanged)")
			s.refusedPos = err.Error()
			return
		}
		start = p
	}
	s.refusedPos = ""
	g := engine.NewGame(start)
	if ms, ok := l.Get("moves"); ok {
		fields := strings.Fields(ms)
		for i, f := range fields {
			p := g.Position()
			m, err := p.ParseMove(f)
			if err != nil {
				kept := "no move applied"
				switch {
				case i == 1:
					kept = "the move before it stays applied"
				case i > 1:
					kept = fmt.Sprintf("the %d moves before it stay applied", i)
				}
				problems = append(problems, fmt.Sprintf("bad move %d of %d in moves, '%s': %s (%s)",
					i+1, len(fields), f, moveErrorText(&p, err), kept))
				break
			}
			g.Play(m)
		}
	}
	s.p.SetGame(g)
}

// parsePosition reads the pos= value: a FEN when it has a ':', else a Hub
// position string. While the variant was never chosen (autoVariant), a
// 10x10 position (51 characters, or a FEN that only fits 10x10) selects
// international.
func (s *session) parsePosition(text string) (engine.Position, error) {
	t := strings.TrimSpace(text)
	variant := s.p.Variant()
	if strings.Contains(t, ":") {
		p, err := engine.ParseFEN(variant, t)
		if err != nil && s.autoVariant && variant.Is8x8() {
			if p10, err10 := engine.ParseFEN(engine.International, t); err10 == nil {
				s.autoSelect(engine.International, "a FEN with 10x10 squares")
				return p10, nil
			}
		}
		return p, err
	}
	if len(t) == 51 && s.autoVariant && variant.Is8x8() {
		p, err := engine.ParseHubPosition(engine.International, t)
		if err != nil {
			return p, errors.New(positionHint(engine.International, t, err))
		}
		s.autoSelect(engine.International, "a 51-character position")
		return p, nil
	}
	p, err := engine.ParseHubPosition(variant, t)
	if err != nil {
		return p, errors.New(positionHint(variant, t, err))
	}
	return p, nil
}

// autoSelect switches to variant id because the GUI sent what only fits
// it, the variant never having been chosen.
func (s *session) autoSelect(id engine.VariantID, why string) {
	s.log.Info().Str("variant", id.String()).Str("why", why).Msg("hub: variant never set; selected by the position")
	s.setVariant(id)
}

// setVariant makes id the session's variant: a new board with its start
// position, and a fresh table.
func (s *session) setVariant(id engine.VariantID) { s.p.SetVariant(id) }

// goRefused answers a go that follows a refused pos: an error and a done
// without a move (searching the previous position would answer with a
// move of a position the GUI never sent). The limits are reset, as after
// every done.
func (s *session) goRefused() {
	s.limits, s.clock = search.Limits{}, false
	s.errorf("go: no search: the last pos was refused (%s); send a valid pos first", s.refusedPos)
	s.out.send(hubwire.NewLine("done"))
}

// positionHint explains a rejected position string, naming the variant
// whose length it has when that is not the current one.
func positionHint(v engine.VariantID, text string, err error) string {
	msg := err.Error()
	t := strings.TrimSpace(text)
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "hub position") {
		msg = msg[i+2:]
	}
	switch {
	case len(t) == 51 && v.Is8x8():
		msg += "; 51 characters is a 10x10 position: set-param name=variant value=international first"
	case len(t) == 33 && !v.Is8x8():
		msg += "; 33 characters is an 8x8 position: set the variant parameter first"
	}
	return msg
}

// moveErrorText is the reason of a move error of p without the quoted
// text; the candidates of an ambiguous move are given in Hub form.
func moveErrorText(p *engine.Position, err error) string {
	var me *engine.MoveError
	if errors.As(err, &me) {
		if me.Kind == engine.MoveAmbiguous {
			cands := make([]string, len(me.Candidates))
			for i, c := range me.Candidates {
				cands[i] = c
				if m, err := p.ParseMove(c); err == nil {
					cands[i] = p.FormatMove(m, engine.FormatHub)
				}
			}
			return "ambiguous: " + strings.Join(cands, " or ")
		}
		return me.Kind.String() + ": " + me.Reason
	}
	return err.Error()
}
