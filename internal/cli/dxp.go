// dxp.go: the `damka dxp` subcommand: play DXP matches over TCP.

package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxp"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// dxpListening, when set (by tests), is told the address a listening dxp
// command is bound to.
var dxpListening func(net.Addr)

// dxpOptions are DXP's own flags of `damka dxp`; the engine's settings
// are the player's flags (settings).
type dxpOptions struct {
	listen, connect     string
	initiator           bool
	games, minutes      int
	moves               int
	openings            string
	depth               int
	nodes               uint64
	movetime            float64
	pdn                 string
	name                string
	takeback            bool
	sessions            int
	ackTimeout, timeout time.Duration
	peerTimeout         time.Duration
	messageGap          time.Duration
	settings            *settingFlags
}

func newDXPCmd() *cobra.Command {
	var o dxpOptions
	cmd := &cobra.Command{
		Use:   "dxp (--listen ADDR | --connect ADDR) --variant V [--initiator --games N --time MIN --moves N --openings FILE]",
		Short: "play DXP (DamExchange) matches against another program over TCP",
		Long: `dxp plays draughts over the DamExchange protocol. One side listens
(--listen ADDR, e.g. :27531), the other connects (--connect HOST:PORT); the
port defaults to 27531. Independently, one side is the initiator
(--initiator): it proposes --games games, alternating colours, with --time
minutes per player for the whole game and a move limit of --moves moves
each (0: none; a game that reaches it is drawn), starting from the variant's
start position or from the --openings file, a deck in any format match
and selfplay read: .tsv (the ACF 3-move list), .json (pydraughts ballots),
.pdn (each game's final position; damka openings writes such decks) or
lines of FEN or Hub position; each opening is played with both colours.
The other side is the follower: it plays the games proposed until the
initiator stops.

International draughts is DXP's standard. For the 8x8 variants damka uses an
extension: squares 01..32 in the variant's numbering and a 32-character
position; both sides must be started with the same --variant.

It prints one line per game and a last line
games=N wins=W draws=D losses=L unfinished=U refused=R (R: game requests
refused, by the peer or by damka; not among the N games). --pdn FILE appends each game
as soon as it ends. A listening follower serves one connection after another
until interrupted (or --sessions connections). --log-level debug logs every
message sent and received.
` + wrapText("Every engine setting (docs/settings.md) is a flag of the same name: "+
			settingFlagList(player.SetVariant)+"; --variant is required.", 76),
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDXP(cmd, &o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "", "listen on this address (host:port, :port)")
	f.StringVar(&o.connect, "connect", "", "connect to this address (host:port)")
	f.BoolVar(&o.initiator, "initiator", false, "be the DXP initiator (propose the games)")
	f.IntVar(&o.games, "games", 2, "initiator: number of games")
	f.IntVar(&o.minutes, "time", 5, "initiator: thinking time per player per game in minutes (0..999; 0: no clock)")
	f.IntVar(&o.moves, "moves", 0, "initiator: move limit, moves per player (0..999; 0: none)")
	f.StringVar(&o.openings, "openings", "", "initiator: opening deck (as for damka match: .tsv, .json, .pdn, or lines of FEN or Hub position)")
	f.IntVar(&o.depth, "depth", 0, "search depth limit per move in plies (0: none; for quick tests)")
	f.Uint64Var(&o.nodes, "nodes", 0, "node limit per move (0: none; else "+nodesRange+"; for quick tests)")
	setFlagRange(f, "nodes", "0..1000000000000 (0: none)")
	f.Float64Var(&o.movetime, "movetime", 0, "fixed time per move in seconds (0: use the clock)")
	f.StringVar(&o.pdn, "pdn", "", "append every game to this PDN file as soon as it ends")
	f.StringVar(&o.name, "name", dxp.DefaultName, "name sent to the peer (at most 32 characters)")
	f.BoolVar(&o.takeback, "takeback", false, "accept BACKREQ (play against a human); refused by default")
	f.IntVar(&o.sessions, "sessions", 0, "listening follower: stop after this many connections (0: until interrupted)")
	f.DurationVar(&o.ackTimeout, "ack-timeout", dxp.DefaultAckTimeout, "how long to wait for GAMEACC and GAMEEND acknowledgements")
	f.DurationVar(&o.timeout, "connect-timeout", 10*time.Second, "how long --connect tries")
	f.DurationVar(&o.messageGap, "message-gap", dxp.DefaultMessageGap,
		"least time between two messages damka sends with none from the peer in between, for clients that read one message per socket read (pydraughts); 0: none")
	f.DurationVar(&o.peerTimeout, "peer-timeout", dxp.DefaultPeerTimeout,
		"end the game (unfinished) and the connection when the peer sends no move for its remaining clock plus this long, or a follower gets no GAMEREQ for this long (0: wait forever)")
	o.settings = registerSettings(cmd)
	return cmd
}

// checkHostPort checks a host:port address: the port a number 0..65535
// (1..65535 to connect to) or a service name, the host may be empty only
// to listen.
func checkHostPort(addr string, connect bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want host:port or :port (%v)", err)
	}
	if connect && host == "" {
		return fmt.Errorf("want host:port: no host")
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		if _, lerr := net.LookupPort("tcp", port); lerr != nil {
			return fmt.Errorf("port %q is not a number 0..65535", port)
		}
		return nil
	}
	lo := 0
	if connect {
		lo = 1
	}
	if n < lo || n > 65535 {
		return fmt.Errorf("port %d out of range %d..65535", n, lo)
	}
	return nil
}

// checkDXPOptions validates the flags.
func checkDXPOptions(cmd *cobra.Command, o *dxpOptions) error {
	if (o.listen == "") == (o.connect == "") {
		return badInput("give exactly one of --listen ADDR and --connect ADDR")
	}
	for _, a := range []struct{ flag, addr string }{{"listen", o.listen}, {"connect", o.connect}} {
		if a.addr == "" {
			continue
		}
		if err := checkHostPort(a.addr, a.flag == "connect"); err != nil {
			return badInput("--%s %q: %v", a.flag, a.addr, err)
		}
	}
	if !o.settings.changed(cmd, player.SetVariant) {
		return badInput("--variant is required (both sides must agree on it)")
	}
	if !o.initiator {
		for _, name := range []string{"games", "time", "moves", "openings"} {
			if cmd.Flags().Changed(name) {
				return badInput("--%s is for the initiator: add --initiator", name)
			}
		}
	}
	switch {
	case o.games < 1 || o.games > 100000:
		return badInput("--games %d out of range 1..100000", o.games)
	case o.minutes < 0 || o.minutes > 999:
		return badInput("--time %d out of range 0..999 minutes", o.minutes)
	case o.moves < 0 || o.moves > 999:
		return badInput("--moves %d out of range 0..999", o.moves)
	case o.depth < 0 || o.depth > search.MaxDepth:
		return badInput("--depth %d out of range 0..%d", o.depth, search.MaxDepth)
	case o.nodes > maxNodes:
		return badInput("--nodes %d out of range 0..%d (0: none)", o.nodes, uint64(maxNodes))
	case !(o.movetime >= 0 && o.movetime <= 3600): // also NaN
		return badInput("--movetime %g out of range 0..3600 seconds", o.movetime)
	case o.sessions < 0:
		return badInput("--sessions %d is negative", o.sessions)
	case o.messageGap < 0 || o.messageGap > 10*time.Second:
		return badInput("--message-gap %v out of range 0..10s", o.messageGap)
	case o.peerTimeout < 0:
		return badInput("--peer-timeout %v is negative (0: wait forever)", o.peerTimeout)
	case len(o.name) == 0 || len(o.name) > dxp.NameLen:
		return badInput("--name %q: want 1..%d characters", o.name, dxp.NameLen)
	}
	for i := 0; i < len(o.name); i++ {
		if c := o.name[i]; c < 32 || c > 126 {
			return badInput("--name %q: only printable ASCII characters", o.name)
		}
	}
	return nil
}

func runDXP(cmd *cobra.Command, o *dxpOptions) error {
	if err := checkDXPOptions(cmd, o); err != nil {
		return err
	}
	// The player: every setting flag given, files loaded and checked
	// against --variant (bad input naming the flag).
	p, err := o.settings.newPlayer(cmd, player.Config{Log: logger})
	if err != nil {
		return err
	}
	v := p.Variant()
	cfg := dxp.Config{
		Variant:        v,
		Player:         p,
		Name:           o.name,
		AcceptTakeBack: o.takeback,
		AckTimeout:     o.ackTimeout,
		PeerTimeout:    o.peerTimeout,
		MessageGap:     o.messageGap,
		Logger:         logger,
		Limits: search.Limits{
			Depth:    o.depth,
			Nodes:    o.nodes,
			MoveTime: time.Duration(o.movetime * float64(time.Second)),
		},
	}
	if o.peerTimeout == 0 {
		cfg.PeerTimeout = -1 // no limit
	}
	if o.messageGap == 0 {
		cfg.MessageGap = -1 // no gap
	}
	if o.initiator {
		cfg.Role = dxp.Initiator
		cfg.Games, cfg.Minutes, cfg.Moves = o.games, o.minutes, o.moves
		if o.openings != "" {
			ops, err := openings.Load(o.openings, v)
			if err != nil {
				return badInput("--openings: %v", err)
			}
			cfg.Openings = openings.Positions(ops)
		}
	}
	out := cmd.OutOrStdout()
	var pdnFile *os.File
	if o.pdn != "" {
		pdnFile, err = os.OpenFile(o.pdn, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return badInput("--pdn: %v", err)
		}
		defer pdnFile.Close()
	}
	var pdnErr error
	cfg.OnGame = func(r *dxp.GameRecord) {
		fmt.Fprintf(out, "game=%d color=%s opponent=%s result=%s outcome=%s plies=%d reason=%s\n",
			r.Round, colorName(r.Color), strconv.Quote(r.Opponent), r.PDN.Result, r.Outcome,
			len(r.PDN.Moves), strconv.Quote(r.Reason))
		if pdnFile == nil || pdnErr != nil {
			return
		}
		if err := pdn.Write(pdnFile, r.PDN); err != nil {
			pdnErr = err
		} else if err := pdnFile.Sync(); err != nil {
			pdnErr = err
		}
		if pdnErr != nil {
			logger.Error().Err(pdnErr).Str("file", o.pdn).Msg("cannot write the PDN file; games are no longer saved")
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var total dxp.Summary
	if o.connect != "" {
		err = dxpConnect(ctx, o, cfg, &total)
	} else {
		err = dxpListen(ctx, o, cfg, &total)
	}
	fmt.Fprintln(out, total.String())
	if err == nil {
		err = pdnErr
	}
	return err
}

// dxpConnect plays one session on a connection to o.connect.
func dxpConnect(ctx context.Context, o *dxpOptions, cfg dxp.Config, total *dxp.Summary) error {
	conn, err := dxpwire.Dial(ctx, o.connect, o.timeout)
	if err != nil {
		return fmt.Errorf("dxp: %v", err)
	}
	cfg.Site = conn.RemoteAddr().String()
	logger.Info().Str("peer", cfg.Site).Stringer("role", cfg.Role).Msg("dxp connected")
	sum, err := dxp.Run(ctx, conn, cfg)
	total.Add(sum)
	return err
}

// dxpListen accepts connections on o.listen: one for an initiator, one
// after another for a follower until ctx ends or o.sessions are served.
func dxpListen(ctx context.Context, o *dxpOptions, cfg dxp.Config, total *dxp.Summary) error {
	ln, err := dxpwire.Listen(ctx, o.listen)
	if err != nil {
		// The address given cannot be listened on (in use, not ours).
		return badInput("dxp: --listen %s: %v", o.listen, err)
	}
	defer ln.Close()
	stopAccept := context.AfterFunc(ctx, func() { ln.Close() })
	defer stopAccept()
	logger.Info().Str("addr", ln.Addr().String()).Stringer("role", cfg.Role).Msg("dxp listening")
	if dxpListening != nil {
		dxpListening(ln.Addr())
	}
	var lastErr error
	for n := 0; ; n++ {
		if n > 0 && (cfg.Role == dxp.Initiator || (o.sessions > 0 && n >= o.sessions) || ctx.Err() != nil) {
			return lastErr
		}
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return lastErr
			}
			return fmt.Errorf("dxp: accept: %v", err)
		}
		c := cfg
		c.Site = conn.RemoteAddr().String()
		logger.Info().Str("peer", c.Site).Msg("dxp connection")
		sum, err := dxp.Run(ctx, conn, c)
		total.Add(sum)
		if err != nil {
			logger.Error().Err(err).Str("peer", c.Site).Msg("dxp session ended with an error")
			lastErr = err
		}
	}
}

// colorName returns "white" or "black".
func colorName(c engine.Color) string {
	if c == engine.Black {
		return "black"
	}
	return "white"
}
