// dxp.go: a DXP engine as a match player: the runner starts the
// engine (or finds it listening), connects as DXP initiator, proposes each
// game with GAMEREQ (the opening's position, the clock in minutes and
// moves), passes the opponent's moves on and reads the engine's. DXPEngine,
// the process and the connection, serves damka gui as well.

package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/childproc"
	"github.com/damka-draughts/damka/protocol/dxpclient"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// DefaultDXPPort is the port a DXP engine started by the runner listens
// on when its EngineSpec gives none (DXP's own default).
const DefaultDXPPort = dxpwire.DefaultPort

// DXPEngine is a DXP engine as its initiator sees it: the engine's process
// (when it is started here, from Spec.Command) and the connection to it.
// Connect starts and connects it; Client then plays games over DXP.
type DXPEngine struct {
	// Spec describes the engine: Command (with {port}) and Dir, Port and
	// Stdin, or Host to connect to an engine already listening.
	Spec EngineSpec
	// Worker is added to Spec.Port (and to DefaultDXPPort without one):
	// each of several engines started at once listens on a port of its own.
	Worker int
	// Variant is the variant of the games over the connection.
	Variant engine.VariantID
	// Name is this side's name in GAMEREQ.
	Name string
	// Timeout bounds connecting (0: DefaultStartTimeout); AckTimeout is
	// the wait for GAMEACC and GAMEEND answers (0: Timeout).
	Timeout, AckTimeout time.Duration
	// StopGrace is half of how long Close waits for the process to exit
	// after its connection and input close before killing it (0:
	// hubclient.DefaultStopGrace).
	StopGrace time.Duration
	// Stderr receives the process's standard output and error (nil: none).
	Stderr io.Writer
	// Log receives the connection's events.
	Log zerolog.Logger

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	exited chan struct{} // closed when the process has exited
	r      *dxpclient.Client
	broken bool // the connection failed: kill and start again
}

// Client is the connection to the engine; nil until Connect.
func (p *DXPEngine) Client() *dxpclient.Client { return p.r }

// Break marks the connection unusable: the next Connect kills the engine
// and starts it again.
func (p *DXPEngine) Break() { p.broken = true }

// Exited is closed when the process started here has exited; nil when
// none runs.
func (p *DXPEngine) Exited() <-chan struct{} { return p.exited }

// Alive reports whether the connection is up and unbroken and the
// process, when it was started here, still runs.
func (p *DXPEngine) Alive() bool {
	if p.r == nil || p.broken {
		return false
	}
	if p.exited != nil {
		select {
		case <-p.exited:
			return false
		default:
		}
	}
	return true
}

// port returns the port the engine of this worker listens on.
func (p *DXPEngine) port() (int, error) {
	if p.Spec.Port > 0 {
		return p.Spec.Port + p.Worker, nil
	}
	for _, a := range p.Spec.Command {
		if strings.Contains(a, "{port}") {
			return freePort()
		}
	}
	return DefaultDXPPort + p.Worker, nil
}

// freePort returns a TCP port free on 127.0.0.1 just now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Connect starts the engine when Spec has a command and connects to it
// (retrying until Timeout: a starting engine takes a moment to listen).
// It does nothing when the connection is alive; after a failure it kills
// the engine first.
func (p *DXPEngine) Connect(ctx context.Context) error {
	if p.Alive() {
		return nil
	}
	p.Kill()
	timeout := cmp.Or(p.Timeout, DefaultStartTimeout)
	addr := p.Spec.Host
	if addr == "" {
		port, err := p.port()
		if err != nil {
			return startError{fmt.Errorf("dxp: no free port: %w", err)}
		}
		if err := p.start(port); err != nil {
			return startError{err}
		}
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var conn net.Conn
	var err error
	for {
		conn, err = dxpwire.Dial(dctx, addr, time.Second)
		if err == nil {
			break
		}
		if p.exited != nil {
			select {
			case <-p.exited:
				state := p.cmd.ProcessState // Kill clears p.cmd
				p.Kill()
				return startError{fmt.Errorf("dxp: the engine exited before it listened on %s: %v", addr, state)}
			default:
			}
		}
		select {
		case <-dctx.Done():
			p.Kill()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return startError{fmt.Errorf("dxp: could not connect to %s within %s (--handshake-timeout): %v", addr, timeout, err)}
		case <-time.After(50 * time.Millisecond):
		}
	}
	p.r = dxpclient.New(conn, p.Variant, p.Name, p.Log.With().Str("engine", p.Spec.Name).Logger())
	p.r.AckTimeout = cmp.Or(p.AckTimeout, timeout)
	p.broken = false
	p.Log.Info().Str("engine", p.Spec.Name).Str("addr", addr).Msg("dxp: connected to the engine")
	return nil
}

// start runs the engine's command listening on port.
func (p *DXPEngine) start(port int) error {
	argv := make([]string, len(p.Spec.Command))
	for i, a := range p.Spec.Command {
		argv[i] = strings.ReplaceAll(a, "{port}", strconv.Itoa(port))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = p.Spec.Dir
	cmd.Stdout, cmd.Stderr = p.Stderr, p.Stderr
	childproc.Tie(cmd)
	childproc.OwnGroup(cmd) // Ctrl-C stops the match, which ends the engine
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("dxp: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("dxp: starting %s: %w", argv[0], err)
	}
	p.cmd, p.stdin, p.exited = cmd, stdin, make(chan struct{})
	exited := p.exited
	go func() { _ = cmd.Wait(); close(exited) }()
	if p.Spec.Stdin != "" {
		go func() {
			for _, l := range strings.Split(p.Spec.Stdin, ";") {
				if _, err := io.WriteString(stdin, strings.TrimSpace(l)+"\n"); err != nil {
					return
				}
			}
		}()
	}
	p.Log.Info().Str("engine", p.Spec.Name).Int("pid", cmd.Process.Pid).Int("port", port).Msg("dxp: engine started")
	return nil
}

// Kill closes the connection and kills the process started here.
func (p *DXPEngine) Kill() {
	if p.r != nil {
		_ = p.r.Close()
		p.r = nil
	}
	if p.cmd != nil {
		_ = p.cmd.Process.Kill()
		<-p.exited
		p.cmd, p.stdin, p.exited = nil, nil, nil
	}
}

// Close closes the connection (which ends a DXP engine's session: Moby Dam
// and Scan exit) and the engine's input, and kills it when it has not
// exited after twice the stop grace.
func (p *DXPEngine) Close() {
	if p.r != nil {
		_ = p.r.Close()
		p.r = nil
	}
	if p.cmd != nil {
		_ = p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(2 * cmp.Or(p.StopGrace, hubclient.DefaultStopGrace)):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		p.cmd, p.stdin, p.exited = nil, nil, nil
	}
}

// dxpPlayer is a DXP engine as a match player: the engine and the game in
// progress.
type dxpPlayer struct {
	DXPEngine
	spec EngineSpec
	cfg  *Config

	color     engine.Color // the colour it plays in the game in progress
	turnStart time.Time    // when it was given the turn (GAMEACC or our MOVE)
	inGame    bool         // a game was accepted and not ended
}

// newDXPPlayer returns the DXP engine spec for worker w of the match cfg.
func newDXPPlayer(cfg *Config, spec EngineSpec, w int) *dxpPlayer {
	return &dxpPlayer{spec: spec, cfg: cfg, DXPEngine: DXPEngine{
		Spec: spec, Worker: w, Variant: cfg.Variant, Name: "damka match",
		Timeout:    cmp.Or(cfg.HandshakeTimeout, DefaultStartTimeout),
		AckTimeout: max(cmp.Or(cfg.HandshakeTimeout, DefaultStartTimeout), 2*cfg.StopGrace),
		StopGrace:  cfg.StopGrace, Stderr: cfg.EngineStderr, Log: cfg.Log,
	}}
}

func (p *dxpPlayer) name() string { return p.spec.Name }

func (p *dxpPlayer) alive() bool { return p.Alive() }

func (p *dxpPlayer) ensure(ctx context.Context) error { return p.Connect(ctx) }

// gameClock returns the GAMEREQ time (minutes per player) and moves of
// limits lim: a clock's base time in whole minutes and its moves; for a
// move time, the whole minutes that maxPlies/2 such moves take (at least
// 1). Config.check refuses other limits for DXP engines.
func gameClock(lim Limits, maxPlies int) (minutes, moves int) {
	switch {
	case lim.Clocked():
		return int(math.Round(lim.Base.Minutes())), lim.Moves
	case lim.MoveTime > 0:
		m := int(math.Ceil(lim.MoveTime.Minutes() * float64(maxPlies) / 2))
		return min(max(m, 1), 999), 0
	}
	return 0, 0
}

// CheckDXPLimits reports why limits lim cannot be told to a DXP engine
// (nil when they can): a clock in whole minutes without increment, or a
// move time.
func CheckDXPLimits(lim Limits) error {
	switch {
	case lim.Depth > 0 || lim.Nodes > 0:
		return errors.New("a DXP engine takes a clock (tc=) or a move time (movetime=), not depth= or nodes=")
	case lim.Clocked() && lim.Inc > 0:
		return errors.New("DXP has no increment: give a DXP engine tc=[moves/]base with base in whole minutes")
	case lim.Clocked():
		m := lim.Base.Minutes()
		if m < 1 || m > 999 || math.Abs(m-math.Round(m)) > 1e-9 {
			return fmt.Errorf("DXP gives the time in whole minutes (1..999): tc base %s s is not", strconv.FormatFloat(lim.Base.Seconds(), 'f', -1, 64))
		}
		if lim.Moves > 999 {
			return fmt.Errorf("DXP gives at most 999 moves, not %d", lim.Moves)
		}
	}
	return nil
}

func (p *dxpPlayer) newGame(ctx context.Context, gm *matchGame, e int) error {
	p.color = engine.White
	if gm.engOf[engine.Black] == e {
		p.color = engine.Black
	}
	minutes, moves := gameClock(gm.lims[e], gm.cfg.MaxPlies)
	peer, err := p.r.NewGame(ctx, gm.g.Position(), p.color, minutes, moves)
	if err != nil {
		p.broken = !errors.Is(err, dxpclient.ErrRefused)
		return err
	}
	p.inGame = true
	p.turnStart = time.Now()
	gm.cfg.Log.Debug().Str("engine", p.spec.Name).Str("dxp-name", peer).Msg("match: the DXP engine accepted the game")
	return nil
}

// move waits for the engine's MOVE until the deadline plus the stop
// grace (a DXP engine cannot be told to stop); its time runs from when it
// got the turn.
func (p *dxpPlayer) move(ctx context.Context, gm *matchGame, _ hubclient.Level, deadline time.Duration) (answer, error) {
	a := answer{score: math.NaN(), stage: "searching"}
	wctx, cancel := context.WithDeadline(ctx, p.turnStart.Add(deadline+p.cfg.StopGrace))
	defer cancel()
	pos := gm.g.Position()
	rm, err := p.r.ReadMove(wctx, &pos)
	a.used = time.Since(p.turnStart)
	var end *dxpclient.GameEnd
	switch {
	case errors.As(err, &end):
		p.inGame = false
		return a, err
	case err != nil:
		p.broken = true
		return a, err
	}
	a.text, a.move, a.err = rm.Text, rm.Move, rm.Err
	return a, nil
}

func (p *dxpPlayer) moved(_ context.Context, pos *engine.Position, m engine.Move, used time.Duration) error {
	if err := p.r.SendMove(pos, m, int(math.Round(used.Seconds()))); err != nil {
		p.broken = true
		return err
	}
	p.turnStart = time.Now()
	return nil
}

func (p *dxpPlayer) endGame(ctx context.Context, gm *matchGame, e int, res engine.Result) error {
	if !p.inGame || !p.alive() {
		return nil
	}
	p.inGame = false
	if err := p.r.EndGame(ctx, res, p.color); err != nil {
		p.broken = true
		return err
	}
	return nil
}

func (p *dxpPlayer) kill() {
	p.Kill()
	p.inGame = false
}

// abort is kill: a DXP engine's kill logs nothing.
func (p *dxpPlayer) abort() { p.kill() }

func (p *dxpPlayer) close() { p.Close() }

func (p *dxpPlayer) ponder(context.Context, *matchGame, hubclient.Level, string) (bool, error) {
	return false, nil
}
