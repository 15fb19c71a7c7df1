// client.go: the client's engine: starting the process (or taking a pair
// of streams), reading its lines, sending lines, waiting for an answer,
// and stopping, killing or closing the engine.

package hubclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/internal/childproc"
	"github.com/damka-draughts/damka/protocol/hubwire"
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
	// came longer than hubwire.MaxLineBytes (the limit the engine side
	// applies to its input too): the wait fails with this error as soon
	// as the limit is passed, and the rest of the line is read and
	// dropped. The engine is alive; its answer is lost. A long line of
	// another kind (an info line) is skipped, with a warning, and the wait
	// goes on.
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

// Options describe the engine process Start runs.
type Options struct {
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
	line hubwire.Line
	err  error // the line's syntax error
	// tooLong is set for a line over hubwire.MaxLineBytes (text is then its
	// start): an ErrLineTooLong error naming the line.
	tooLong error
	num     int // the line's number in the engine's output
}

// Start runs the engine process of opts and returns a client talking to
// it. ctx bounds only the start; the process lives until Close or Kill.
func Start(ctx context.Context, opts Options) (*Client, error) {
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

// New returns a client talking to an engine over streams: engineOut is
// what the engine writes, engineIn what it reads (closed by Close). Tests
// connect it to an engine in the same process over pipes.
func New(engineOut io.Reader, engineIn io.WriteCloser, log zerolog.Logger) *Client {
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
// hubwire.MaxLineBytes is delivered, as soon as the limit is passed, as its first
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
			case n <= hubwire.MaxLineBytes:
				buf = append(buf, chunk...)
			case !reported:
				// Over the limit: deliver it at once, then read on to the
				// newline without keeping anything.
				reported = true
				nlines++
				buf = append(buf, chunk[:min(len(chunk), 40)]...)
				prefix := string(buf[:min(len(buf), 40)])
				c.in <- recvLine{text: prefix, num: nlines, tooLong: fmt.Errorf("%w: line %d is over %d bytes (starts %q)", ErrLineTooLong, nlines, hubwire.MaxLineBytes, prefix)}
				buf = buf[:0]
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if n == 0 || n > hubwire.MaxLineBytes {
			continue
		}
		nlines++
		s := strings.TrimRight(string(buf), "\r\n")
		c.log.Debug().Str("recv", s).Msg("hub client")
		l, perr := hubwire.ParseLine(s)
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
func errorText(l hubwire.Line, text string) string {
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
func (c *Client) send(l hubwire.Line) error {
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
	l, err := hubwire.ParseLine(line)
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
// Lines it skips go to skip (when not nil). A line over hubwire.MaxLineBytes that
// starts with want fails the wait (ErrLineTooLong); another is skipped
// with a warning, and not passed to skip.
func (c *Client) waitFor(ctx context.Context, want string, skip func(recvLine)) (hubwire.Line, error) {
	for {
		r, err := c.next(ctx)
		if err != nil {
			return hubwire.Line{}, fmt.Errorf("hub client: waiting for %s: %w", want, err)
		}
		if r.tooLong != nil {
			if firstWord(r.text) == want {
				c.log.Error().Str("want", want).Int("line", r.num).Int("max", hubwire.MaxLineBytes).Str("starts", r.text).
					Msg("hub client: engine line too long: the answer waited for is lost")
				return hubwire.Line{}, fmt.Errorf("hub client: waiting for %s: %w", want, r.tooLong)
			}
			c.log.Warn().Str("want", want).Int("line", r.num).Int("max", hubwire.MaxLineBytes).Str("starts", r.text).
				Msg("hub client: engine line too long, skipped")
			continue
		}
		if r.err == nil && r.line.Command == want {
			return r.line, nil
		}
		if r.err != nil && firstWord(r.text) == want {
			// The answer waited for, unreadable: waiting on would only
			// end in a hang.
			return hubwire.Line{}, fmt.Errorf("hub client: waiting for %s: %w: %q: %v", want, ErrUnreadableLine, r.text, r.err)
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
	_ = c.send(hubwire.NewLine("quit"))
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
