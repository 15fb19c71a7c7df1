// gui.go: `damka gui`, damka in a browser (protocol/web): a local web
// server of the embedded page, the default browser opened on it, and the
// external Hub and DXP engines named by --engine offered on the page by
// name.

package cli

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/google/shlex"
	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubclient"
	"github.com/damka-draughts/damka/protocol/web"
	"github.com/damka-draughts/damka/search"
)

const guiLong = `gui starts a web server on this machine and opens the default browser on
its page: a board of the variant played, moves by click, damka's answers at a
time per move or under a clock, analysis lines, an evaluation graph, a
position editor, FEN and PDN in and out, the engine's settings. Each page is
a game of its own with a player of its own.

The server listens on 127.0.0.1 at a free port unless --listen says otherwise
(a warning is logged when it is not a loopback address); it prints the address
on standard output. --no-browser only prints it. Beyond loopback the address
carries a random token (?token=...) that every request must have; --token
sets it (on any address). --max-pages bounds the pages open at once,
--max-hash the hash and --max-threads the threads a page may set.

--engine name=X cmd=COMMAND [dir=DIR] [option.P=V ...] (as damka match takes
it; repeatable) makes a Hub engine available on the page by its name, to play
against damka, a person or another engine. With proto=dxp (and port=N, or
{port} in cmd=, or host=HOST:PORT for an engine already listening) it is a
DXP engine: each game is proposed to it with GAMEREQ from the page's
position, with a clock in whole minutes for the game made from the page's
limits (see docs/gui.md). The page can pick only these names; the server
starts no other program and reads no file for the page.`

func newGuiCmd() *cobra.Command {
	var sf *settingFlags
	var listen, token string
	var noBrowser bool
	var limits guiLimits
	cmd := &cobra.Command{
		Use:   "gui [--listen ADDR] [--no-browser] [--engine name=X cmd=... ...] [setting flags]",
		Short: "play and analyse in a browser: a local web server and its page",
		Long:  guiLong,
		// --engine takes several words (see parseWithEngines).
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, help, err := parseWithEngines(cmd, args)
			if err != nil || help {
				return err
			}
			engines, err := guiEngines(specs)
			if err != nil {
				return err
			}
			// The flags are checked once, before the server starts.
			if _, err := sf.newPlayer(cmd, player.Config{Log: logger}); err != nil {
				return err
			}
			newPlayer := func() (*player.Player, error) { return sf.newPlayer(cmd, player.Config{Log: logger}) }
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runGui(ctx, cmd, listen, token, limits, !noBrowser, newPlayer, engines)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&listen, "listen", "127.0.0.1:0", "the address to listen on (port 0: a free port)")
	fl.BoolVar(&noBrowser, "no-browser", false, "do not open a browser, only print the address")
	fl.StringVar(&token, "token", "", "the secret every request must carry (?token= in the address); default: a random one when --listen is not a loopback address, none on loopback")
	fl.IntVar(&limits.pages, "max-pages", 16, "the most pages (each a game with a player of its own) open at once")
	fl.IntVar(&limits.hashMiB, "max-hash", 1024, "the most hash (MiB) a page may set")
	fl.IntVar(&limits.threads, "max-threads", runtime.NumCPU(), "the most search threads a page may set (default: this machine's logical CPUs)")
	fl.String(engineFlag, "", "an external engine offered on the page: name=NAME cmd=COMMAND [dir=DIR] [option.P=V ...], or proto=dxp (repeatable)")
	sf = registerSettings(cmd)
	return cmd
}

// guiEngines reads the --engine descriptions: Hub or DXP engines with
// distinct names, none called human or damka.
func guiEngines(specs [][]string) ([]match.EngineSpec, error) {
	var out []match.EngineSpec
	for i, words := range specs {
		e, err := match.ParseEngineSpec(words, shlex.Split)
		if err != nil {
			return nil, badInput("--engine %d: %v", i+1, err)
		}
		if err := checkEngineCommand(e); err != nil {
			return nil, badInput("--engine %d (%s): %v", i+1, e.Name, err)
		}
		if e.Ponder != nil {
			return nil, badInput("--engine %d (%s): ponder= is for damka match (the gui's engines do not ponder)", i+1, e.Name)
		}
		if e.Name == web.Human || e.Name == web.Damka {
			return nil, badInput("--engine %d: the name %q is taken: give another name=", i+1, e.Name)
		}
		if slices.ContainsFunc(out, func(o match.EngineSpec) bool { return o.Name == e.Name }) {
			return nil, badInput("two engines are named %q: give each a different name=", e.Name)
		}
		out = append(out, e)
	}
	return out, nil
}

// maxGuiPages is the largest --max-pages: each page holds a player with
// its own transposition table.
const maxGuiPages = 1024

// guiLimits are the bounds of damka gui's pages: how many at once and the
// hash (MiB) and search threads each may set.
type guiLimits struct{ pages, hashMiB, threads int }

// runGui serves the page on listen until ctx ends.
func runGui(ctx context.Context, cmd *cobra.Command, listen, token string, limits guiLimits, browser bool, newPlayer func() (*player.Player, error), engines []match.EngineSpec) error {
	if limits.pages < 1 || limits.pages > maxGuiPages {
		return badInput("--max-pages %d out of range 1..%d", limits.pages, maxGuiPages)
	}
	if limits.hashMiB < 1 || limits.hashMiB > search.MaxHashMiB {
		return badInput("--max-hash %d out of range 1..%d", limits.hashMiB, search.MaxHashMiB)
	}
	if limits.threads < 1 || limits.threads > search.MaxThreads {
		return badInput("--max-threads %d out of range 1..%d", limits.threads, search.MaxThreads)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return badInput("--listen %s: %v", listen, err)
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	ip := net.ParseIP(host)
	loopback := ip != nil && ip.IsLoopback()
	if !loopback {
		logger.Warn().Str("listen", ln.Addr().String()).Msg("the gui listens beyond this machine: anyone who reaches this address with its token can use damka (and the --engine programs)")
		if token == "" {
			token = rand.Text()
		}
	}
	var names []string
	for _, e := range engines {
		names = append(names, e.Name)
	}
	srv := web.New(web.Config{
		NewPlayer: newPlayer,
		Engines:   names,
		StartEngine: func(ctx context.Context, name string) (web.Engine, error) {
			for _, e := range engines {
				if e.Name == name {
					return startGuiEngine(ctx, e)
				}
			}
			return nil, fmt.Errorf("no engine %q", name)
		},
		Version:    version,
		Loopback:   loopback,
		Token:      token,
		MaxPages:   limits.pages,
		MaxHashMiB: limits.hashMiB,
		MaxThreads: limits.threads,
		Log:        logger,
	})
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + net.JoinHostPort(host, portOf(ln.Addr())) + "/"
	if ip != nil && ip.IsUnspecified() {
		// Every address of this machine: the browser here goes through loopback.
		url = "http://" + net.JoinHostPort("127.0.0.1", portOf(ln.Addr())) + "/"
	}
	if token != "" {
		url += "?token=" + neturl.QueryEscape(token)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "damka gui: %s\n", url)
	if browser {
		openBrowser(url)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	srv.Close()
	return nil
}

func portOf(a net.Addr) string {
	_, p, _ := net.SplitHostPort(a.String())
	return p
}

// openBrowser opens url in the default browser where there is one; a
// machine without one only logs it.
func openBrowser(url string) {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	if err := c.Start(); err != nil {
		logger.Info().Err(err).Msg("no browser opened: open the address yourself")
		return
	}
	go func() { _ = c.Wait() }()
}

// startGuiEngine starts engine e for the page: a Hub engine at once, a DXP
// engine at its first move (it needs the page's variant).
func startGuiEngine(ctx context.Context, e match.EngineSpec) (web.Engine, error) {
	if e.Proto == match.ProtoDXP {
		return newDXPEngine(e), nil
	}
	h, err := startHubEngine(ctx, e)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// hubEngine is an external Hub engine for the page (web.Engine).
type hubEngine struct {
	mu      sync.Mutex
	c       *hubclient.Client
	variant engine.VariantID
}

// startHubEngine starts e's program and shakes hands with it.
func startHubEngine(ctx context.Context, e match.EngineSpec) (*hubEngine, error) {
	c, err := hubclient.Start(ctx, hubclient.Options{
		Path: e.Command[0], Args: e.Command[1:], Dir: e.Dir,
		Log: logger.With().Str("engine", e.Name).Logger(),
	})
	if err != nil {
		return nil, err
	}
	hctx, cancel := context.WithTimeout(ctx, match.DefaultStartTimeout)
	defer cancel()
	if _, _, err := c.Handshake(hctx, e.Options...); err != nil {
		c.Kill()
		<-c.Exited()
		return nil, err
	}
	return &hubEngine{c: c, variant: engine.NumVariants}, nil
}

// Think sets the game and the limits and returns the engine's move.
func (h *hubEngine) Think(ctx context.Context, g *engine.Game, lim search.Limits) (engine.Move, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v := g.Start().V
	if v != h.variant {
		if err := h.c.SetParam("variant", v.String()); err != nil {
			return engine.Move{}, err
		}
		h.variant = v
	}
	sctx, cancel := context.WithTimeout(ctx, match.DefaultStartTimeout)
	err := h.c.SetGame(sctx, g)
	cancel()
	if err != nil {
		return engine.Move{}, err
	}
	if err := h.c.SetLevel(hubclient.Level{Depth: lim.Depth, Nodes: lim.Nodes, MoveTime: lim.MoveTime, Time: lim.Time, Inc: lim.Inc}); err != nil {
		return engine.Move{}, err
	}
	d, err := h.c.Think(ctx, 0, nil)
	if err != nil {
		return engine.Move{}, err
	}
	if d.Move == "" {
		return engine.Move{}, fmt.Errorf("no move: %v", d.Errors)
	}
	pos := g.Position()
	return pos.ParseMove(d.Move)
}

// Close ends the engine's process: quit, then kill after a moment.
func (h *hubEngine) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := h.c.Close(ctx)
	<-h.c.Exited()
	return err
}
