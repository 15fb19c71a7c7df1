// client.go: the GUI side of Hub: start an engine process, run the
// handshake, send positions, limits and searches, read the answers, and
// stop or kill an engine that does not answer.

package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/childproc"
)

// Errors of the client.
var (
	// ErrEngineHung: the engine did not answer in time (also after stop);
	// the client has killed it.
	ErrEngineHung = errors.New("hub engine did not answer in time and was killed")
	// ErrEngineExited: the engine's output ended (it exited or closed stdout).
	ErrEngineExited = errors.New("hub engine exited")
	// ErrSearching: a command other than stop, ponder-hit and ping was
	// attempted while a search runs.
	ErrSearching = errors.New("hub client: a search is running")
	// ErrUnreadableLine: the line the client waited for (done, wait, ...)
	// came but does not parse (a NUL, an escape or DEL byte, an unbalanced
	// quote): the error quotes it. The engine is alive; its answer is
	// lost.
	ErrUnreadableLine = errors.New("hub engine line unreadable")
	// ErrLineTooLong: the line the client waited for (done, wait, ...)
	// came longer than MaxLineBytes (the limit the engine side applies to
	// its input): the wait fails with this error as soon as the limit is
	// passed, and the rest of the line is read and dropped. The engine is
	// alive; its answer is lost. A long line of another kind (an info
	// line) is skipped, with a warning, and the wait goes on.
	ErrLineTooLong = errors.New("hub engine line too long")
	// ErrNotHub2: the engine's answer to hub is not Hub 2's: no id line
	// before wait (an older dialect, such as Scan 2.0's `scan hub`), or no
	// variant parameter while the settings ask for a variant other than
	// international. The error's text names what was missing.
	ErrNotHub2 = errors.New("the engine does not speak Hub 2")
)

// DefaultStopGrace is how long an engine may take to answer done after
// stop before the client kills it.
const DefaultStopGrace = 2 * time.Second

// ClientOptions describe the engine process Start runs.
type ClientOptions struct {
	Path string   // the engine executable
	Args []string // its arguments (damka needs none; "hub" forces Hub)
	Dir  string   // working directory; "" is the current one
	Env  []string // environment; nil inherits

	// Stderr receives the engine's standard error (its logs); nil
	// discards it.
	Stderr io.Writer

	// StopGrace is how long the engine may take to answer done after a
	// stop; 0 means DefaultStopGrace.
	StopGrace time.Duration

	// OwnGroup starts the engine in a process group of its own (Unix),
	// so that a terminal's Ctrl-C reaches only the caller, which stops
	// the engine itself, instead of killing the engine in mid-search.
	OwnGroup bool

	// Log receives every line sent and received at debug level (fields
	// "send" and "recv"). The zero Logger is silent.
	Log zerolog.Logger
}

// Identity is the engine's id line.
type Identity struct {
	Name, Version, Author, Country string
}

// Param is one parameter the engine declared (a param line).
type Param struct {
	Name, Value, Type string
	Min, Max          string   // int and real
	Values            []string // enum
}

// Setting is a parameter value for Handshake. With IfDeclared it is sent
// only to an engine that declared the parameter (a feature the engine may
// lack, such as ponder) and left out for the others.
type Setting struct {
	Name, Value string
	IfDeclared  bool
}

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
func (l Level) Line() (Line, bool) {
	out := NewLine("level")
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
	Line      Line
}

// Done is the answer ending a search. Move is "" when the engine gave no
// move (it then wrote an error line, kept in Errors).
type Done struct {
	Move   string
	Ponder string
	Errors []string // error lines received during the search
	Line   Line
}

// Client is the GUI side of a Hub session with one engine. Its methods are
// meant to be called from one goroutine, except that Search.Stop and
// Search.PonderHit may be called from another while Search.Wait runs, and
// Kill and Abort at any time.
type Client struct {
	w         io.Writer
	closeIn   func() error
	wmu       sync.Mutex
	in        chan recvLine
	log       zerolog.Logger
	stopGrace time.Duration

	cmd    *exec.Cmd
	exited chan struct{} // closed when the engine's output has ended (and the process was waited for)
	exitMu sync.Mutex
	exitEr error

	errMu  sync.Mutex
	errors []string // engine error lines not yet taken

	searching bool

	killMu sync.Mutex
	killed bool // Kill or Abort has run: the kill is logged once
}

// recvLine is one line read from the engine (or a read failure).
type recvLine struct {
	text string
	line Line
	err  error // the line's syntax error
	// tooLong is set for a line over MaxLineBytes (text is then its
	// start): an ErrLineTooLong error naming the line.
	tooLong error
	num     int // the line's number in the engine's output
}

// Start runs the engine process of opts and returns a client talking to
// it. ctx bounds only the start; the process lives until Close or Kill.
func Start(ctx context.Context, opts ClientOptions) (*Client, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.Command(opts.Path, opts.Args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	cmd.Stderr = opts.Stderr
	childproc.Tie(cmd)
	if opts.OwnGroup {
		childproc.OwnGroup(cmd)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("hub client: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("hub client: starting %s: %w", opts.Path, err)
	}
	c := newClient(stdout, stdin, opts.Log, opts.StopGrace)
	c.cmd = cmd
	c.log.Info().Str("path", opts.Path).Int("pid", cmd.Process.Pid).Msg("hub client: engine started")
	go c.read(stdout)
	return c, nil
}

// NewClient returns a client talking to an engine over streams: engineOut
// is what the engine writes, engineIn what it reads (closed by Close).
// Tests connect it to Run over pipes.
func NewClient(engineOut io.Reader, engineIn io.WriteCloser, log zerolog.Logger) *Client {
	c := newClient(engineOut, engineIn, log, 0)
	go c.read(engineOut)
	return c
}

func newClient(out io.Reader, in io.WriteCloser, log zerolog.Logger, grace time.Duration) *Client {
	if grace <= 0 {
		grace = DefaultStopGrace
	}
	return &Client{
		w: in, closeIn: in.Close, in: make(chan recvLine, 256), log: log, stopGrace: grace,
		exited: make(chan struct{}),
	}
}

// read delivers the engine's lines to c.in until its output ends, then
// waits for the process and closes c.exited. A line longer than
// MaxLineBytes is delivered, as soon as the limit is passed, as its first
// bytes with an ErrLineTooLong error (waitFor decides whether it was the
// answer waited for or is skipped); the rest of it is read and dropped, so
// memory stays bounded however long the line.
func (c *Client) read(out io.Reader) {
	br := bufio.NewReaderSize(out, 64<<10)
	var err error
	buf := make([]byte, 0, 4096)
	nlines := 0
	for err == nil {
		buf = buf[:0]
		n := 0
		reported := false
		var chunk []byte
		for {
			chunk, err = br.ReadSlice('\n')
			n += len(chunk)
			switch {
			case n <= MaxLineBytes:
				buf = append(buf, chunk...)
			case !reported:
				// Over the limit: deliver it at once, then read on to the
				// newline without keeping anything.
				reported = true
				nlines++
				buf = append(buf, chunk[:min(len(chunk), 40)]...)
				prefix := string(buf[:min(len(buf), 40)])
				c.in <- recvLine{text: prefix, num: nlines, tooLong: fmt.Errorf("%w: line %d is over %d bytes (starts %q)", ErrLineTooLong, nlines, MaxLineBytes, prefix)}
				buf = buf[:0]
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if n == 0 || n > MaxLineBytes {
			continue
		}
		nlines++
		s := strings.TrimRight(string(buf), "\r\n")
		c.log.Debug().Str("recv", s).Msg("hub client")
		l, perr := ParseLine(s)
		if perr == nil && l.Command == "error" {
			msg := errorText(l, s)
			c.errMu.Lock()
			c.errors = append(c.errors, msg)
			c.errMu.Unlock()
		}
		c.in <- recvLine{text: s, line: l, err: perr}
	}
	if c.cmd != nil {
		werr := c.cmd.Wait()
		if werr != nil {
			err = werr
		}
	}
	c.exitMu.Lock()
	if err != io.EOF {
		c.exitEr = err
	}
	c.exitMu.Unlock()
	c.log.Info().Err(err).Msg("hub client: engine output ended")
	close(c.exited)
}

// errorText returns what an error line says: its message value, or the
// whole line as received when it has no message= (older dialects write
// `error bad position`).
func errorText(l Line, text string) string {
	if msg, ok := l.Get("message"); ok && msg != "" {
		return msg
	}
	return strings.TrimSpace(text)
}

// ExitErr returns why the engine's output ended (nil while it runs or
// after a clean exit).
func (c *Client) ExitErr() error {
	c.exitMu.Lock()
	defer c.exitMu.Unlock()
	return c.exitEr
}

// TakeErrors returns the error lines the engine wrote since the last call
// (their message values) and forgets them.
func (c *Client) TakeErrors() []string {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	e := c.errors
	c.errors = nil
	return e
}

// send writes one line to the engine.
func (c *Client) send(l Line) error {
	s := l.String()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.log.Debug().Str("send", s).Msg("hub client")
	if _, err := io.WriteString(c.w, s+"\n"); err != nil {
		return fmt.Errorf("hub client: sending %q: %w", s, err)
	}
	return nil
}

// Send writes a raw line (for commands the client has no method for).
func (c *Client) Send(line string) error {
	l, err := ParseLine(line)
	if err != nil {
		return fmt.Errorf("hub client: bad line %q: %w", line, err)
	}
	return c.send(l)
}

// next returns the next line from the engine, or an error when ctx ends or
// the engine's output ends.
func (c *Client) next(ctx context.Context) (recvLine, error) {
	select {
	case r := <-c.in:
		return r, nil
	default:
	}
	select {
	case r := <-c.in:
		return r, nil
	case <-c.exited:
		// Lines may still be queued.
		select {
		case r := <-c.in:
			return r, nil
		default:
		}
		if err := c.ExitErr(); err != nil {
			return recvLine{}, fmt.Errorf("%w: %v", ErrEngineExited, err)
		}
		return recvLine{}, ErrEngineExited
	case <-ctx.Done():
		return recvLine{}, ctx.Err()
	}
}

// waitFor reads lines until one with command want, which it returns.
// Lines it skips go to skip (when not nil). A line over MaxLineBytes that
// starts with want fails the wait (ErrLineTooLong); another is skipped
// with a warning, and not passed to skip.
func (c *Client) waitFor(ctx context.Context, want string, skip func(recvLine)) (Line, error) {
	for {
		r, err := c.next(ctx)
		if err != nil {
			return Line{}, fmt.Errorf("hub client: waiting for %s: %w", want, err)
		}
		if r.tooLong != nil {
			if firstWord(r.text) == want {
				c.log.Error().Str("want", want).Int("line", r.num).Int("max", MaxLineBytes).Str("starts", r.text).
					Msg("hub client: engine line too long: the answer waited for is lost")
				return Line{}, fmt.Errorf("hub client: waiting for %s: %w", want, r.tooLong)
			}
			c.log.Warn().Str("want", want).Int("line", r.num).Int("max", MaxLineBytes).Str("starts", r.text).
				Msg("hub client: engine line too long, skipped")
			continue
		}
		if r.err == nil && r.line.Command == want {
			return r.line, nil
		}
		if r.err != nil && firstWord(r.text) == want {
			// The answer waited for, unreadable: waiting on would only
			// end in a hang.
			return Line{}, fmt.Errorf("hub client: waiting for %s: %w: %q: %v", want, ErrUnreadableLine, r.text, r.err)
		}
		if skip != nil {
			skip(r)
		}
	}
}

// firstWord returns the first word of s (up to a space or tab).
func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// Hello sends hub and reads the id line and the parameters up to wait. An
// answer without an id line before wait fails with ErrNotHub2 (the lines
// received are named in the error).
func (c *Client) Hello(ctx context.Context) (Identity, []Param, error) {
	if c.searching {
		return Identity{}, nil, ErrSearching
	}
	if err := c.send(NewLine("hub")); err != nil {
		return Identity{}, nil, err
	}
	var id Identity
	var params []Param
	hasID := false
	var other []string // lines that are neither id nor param, for the error
	_, err := c.waitFor(ctx, "wait", func(r recvLine) {
		if r.err != nil {
			other = append(other, r.text)
			return
		}
		get := func(n string) string { v, _ := r.line.Get(n); return v }
		switch r.line.Command {
		default:
			other = append(other, r.text)
		case "id":
			hasID = true
			id = Identity{Name: get("name"), Version: get("version"), Author: get("author"), Country: get("country")}
		case "param":
			p := Param{Name: get("name"), Value: get("value"), Type: get("type"), Min: get("min"), Max: get("max")}
			if v, ok := r.line.Get("values"); ok {
				p.Values = strings.Fields(v)
			}
			params = append(params, p)
		}
	})
	if err == nil && !hasID {
		got := "nothing"
		if len(other) > 0 {
			got = fmt.Sprintf("%q", other[:min(len(other), 4)])
		}
		err = fmt.Errorf("%w: no `id` line before `wait` in its answer to `hub` (got %s): an older Hub dialect (Scan 2.0's `scan hub`?)", ErrNotHub2, got)
	}
	return id, params, err
}

// declared returns the parameter named name among params, if any.
func declared(params []Param, name string) (Param, bool) {
	for _, p := range params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// SetParam sends set-param name=... value=....
func (c *Client) SetParam(name, value string) error {
	if c.searching {
		return ErrSearching
	}
	return c.send(NewLine("set-param").With("name", name).With("value", value))
}

// Init sends init and waits for ready.
func (c *Client) Init(ctx context.Context) error {
	if c.searching {
		return ErrSearching
	}
	if err := c.send(NewLine("init")); err != nil {
		return err
	}
	_, err := c.waitFor(ctx, "ready", nil)
	return err
}

// Handshake runs the start-up: hub (id, params, wait), one set-param per
// setting, init (ready). It fails when the engine answered any of it with
// an error line, e.g. an unknown parameter or a value out of range.
//
// It fails with ErrNotHub2, before sending any set-param, when the engine
// is not a Hub 2 engine (see Hello) or when a variant setting other than
// international names a parameter the engine never declared (or a value
// its enum lacks): such an engine would play international draughts
// whatever it was told. A variant=international setting for an engine
// that declared no variant parameter (Hub 2 without the 8x8 extension
// plays international) is not sent.
func (c *Client) Handshake(ctx context.Context, settings ...Setting) (Identity, []Param, error) {
	c.TakeErrors()
	id, params, err := c.Hello(ctx)
	if err != nil {
		return id, params, err
	}
	var send []Setting
	for _, s := range settings {
		if _, ok := declared(params, s.Name); s.IfDeclared && !ok {
			continue
		}
		if s.Name != "variant" {
			send = append(send, s)
			continue
		}
		p, ok := declared(params, "variant")
		intl := s.Value == engine.International.String()
		switch {
		case !ok && intl:
			continue // Hub 2's own variant
		case !ok:
			return id, params, fmt.Errorf("%w: %s declared no `variant` parameter, so it cannot be set to play %s", ErrNotHub2, orName(id.Name), s.Value)
		case len(p.Values) > 0 && !slices.Contains(p.Values, s.Value) && !(s.Value == "english" && slices.Contains(p.Values, "american")):
			if intl {
				continue // e.g. Scan 3's variant "normal"
			}
			return id, params, fmt.Errorf("%w: %s's `variant` parameter has no value %s (values %q)", ErrNotHub2, orName(id.Name), s.Value, p.Values)
		}
		send = append(send, s)
	}
	for _, s := range send {
		if err := c.SetParam(s.Name, s.Value); err != nil {
			return id, params, err
		}
	}
	if err := c.Init(ctx); err != nil {
		return id, params, err
	}
	if errs := c.TakeErrors(); len(errs) > 0 {
		return id, params, fmt.Errorf("hub client: the engine refused the handshake: %s", strings.Join(errs, "; "))
	}
	return id, params, nil
}

// orName returns "the engine NAME", or "the engine" without a name.
func orName(name string) string {
	if name == "" {
		return "the engine"
	}
	return "the engine " + strconv.Quote(name)
}

// Ping sends ping and waits for pong: every line sent before it has been
// handled.
func (c *Client) Ping(ctx context.Context) error {
	if c.searching {
		return ErrSearching
	}
	if err := c.send(NewLine("ping")); err != nil {
		return err
	}
	_, err := c.waitFor(ctx, "pong", nil)
	return err
}

// NewGame sends new-game.
func (c *Client) NewGame() error {
	if c.searching {
		return ErrSearching
	}
	return c.send(NewLine("new-game"))
}

// SetPosition sends pos with the position (a Hub position string; "" for
// the start position) and the moves played from it, then pings the engine
// and fails when it answered the pos with an error line.
func (c *Client) SetPosition(ctx context.Context, pos string, moves []string) error {
	if c.searching {
		return ErrSearching
	}
	c.TakeErrors()
	l := NewLine("pos")
	if pos == "" {
		l = l.WithFlag("start")
	} else {
		l = l.With("pos", pos)
	}
	if len(moves) > 0 {
		l = l.With("moves", strings.Join(moves, " "))
	}
	if err := c.send(l); err != nil {
		return err
	}
	if err := c.Ping(ctx); err != nil {
		return err
	}
	if errs := c.TakeErrors(); len(errs) > 0 {
		return fmt.Errorf("hub client: the engine refused the position: %s", strings.Join(errs, "; "))
	}
	return nil
}

// SetGame sends the start position of g and all its moves in full Hub form.
func (c *Client) SetGame(ctx context.Context, g *engine.Game) error {
	start := g.Start()
	moves := make([]string, g.Ply())
	for i, m := range g.Moves() {
		p := g.PositionAt(i)
		moves[i] = p.FormatMove(m, engine.FormatHub)
	}
	return c.SetPosition(ctx, start.HubPosition(), moves)
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
	if err := c.send(NewLine("go").WithFlag(string(mode))); err != nil {
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
	return s.c.send(NewLine("stop"))
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
	return s.c.send(NewLine("ponder-hit"))
}

// Ping sends ping during the search; the pong is skipped by Wait.
func (s *Search) Ping() error { return s.c.send(NewLine("ping")) }

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
func parseInfo(l Line) Info {
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

// Kill ends the engine process at once (a no-op for a stream client, whose
// input it closes instead). The first kill of a running engine is logged
// as a warning; a second kill, or that of an engine that has exited
// already, is not logged.
func (c *Client) Kill() { c.kill(zerolog.WarnLevel, "") }

// Abort ends the engine process at once as Kill does, for a caller that
// gives the session up (its work was cancelled, e.g. a match interrupted
// by Ctrl-C): no fault of the engine, so the kill is logged at debug
// level only.
func (c *Client) Abort() { c.kill(zerolog.DebugLevel, "the session was given up") }

// kill is Kill, logged at level with the reason why (when not "").
func (c *Client) kill(level zerolog.Level, why string) {
	if c.cmd != nil && c.cmd.Process != nil {
		c.killMu.Lock()
		first := !c.killed
		c.killed = true
		c.killMu.Unlock()
		if first && !c.hasExited() {
			ev := c.log.WithLevel(level).Int("pid", c.cmd.Process.Pid)
			if why != "" {
				ev = ev.Str("reason", why)
			}
			ev.Msg("hub client: killing the engine")
		}
		_ = c.cmd.Process.Kill()
	}
	_ = c.closeIn()
}

// hasExited reports whether the engine's output has ended.
func (c *Client) hasExited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// Close sends quit, closes the engine's input and waits for its output to
// end (and the process to exit) until ctx ends or the stop grace passes;
// then it kills the engine. It returns the process's exit error, if any.
func (c *Client) Close(ctx context.Context) error {
	select {
	case <-c.exited:
		return c.ExitErr()
	default:
	}
	_ = c.send(NewLine("quit"))
	_ = c.closeIn()
	timer := time.NewTimer(c.stopGrace)
	defer timer.Stop()
	drain := func() {
		for {
			select {
			case <-c.in:
			default:
				return
			}
		}
	}
	for {
		drain()
		select {
		case <-c.exited:
			drain()
			return c.ExitErr()
		case <-c.in:
		case <-timer.C:
			c.Kill()
			c.waitExited()
			return ErrEngineHung
		case <-ctx.Done():
			c.Kill()
			c.waitExited()
			return ctx.Err()
		}
	}
}

// waitExited discards the engine's lines until its output has ended.
func (c *Client) waitExited() {
	for {
		select {
		case <-c.in:
		case <-c.exited:
			return
		}
	}
}

// Exited is closed when the engine's output has ended.
func (c *Client) Exited() <-chan struct{} { return c.exited }
