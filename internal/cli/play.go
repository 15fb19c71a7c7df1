// play.go: `damka play` and damka in a terminal: the text mode
// (protocol/text) for a person, with a player made from the setting flags.

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/text"
	"github.com/damka-draughts/damka/search"
)

func newPlayCmd() *cobra.Command {
	var sf *settingFlags
	var lv playLevel
	cmd := &cobra.Command{
		Use:   "play",
		Short: "play damka in the text mode, whatever stdin is (a terminal, a pipe, a script)",
		Long: `play runs the text mode: the board drawn in text, moves typed in the variant's
notation, damka answering ("help" lists the commands). damka without a
command does the same when its input is a terminal; play does it on a pipe
too, for scripts and tests. The flags set the engine's settings; in the
text mode "settings" lists them and "set NAME VALUE" changes one.
damka's level is one of --movetime, --depth, --nodes or --clock (as the
text mode's "level" command sets it later; 1 s a move without them).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := lv.config(cmd.Flags().Changed)
			if err != nil {
				return err
			}
			p, err := sf.newPlayer(cmd, player.Config{Log: logger})
			if err != nil {
				return err
			}
			cfg.Player = p
			return runTextConfig(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cfg)
		},
	}
	sf = registerSettings(cmd)
	f := cmd.Flags()
	f.Float64Var(&lv.movetime, "movetime", 0, "damka's time per move in seconds (more than 0, at most 3600; text mode: level time S)")
	f.IntVar(&lv.depth, "depth", 0, fmt.Sprintf("damka searches this many plies a move (1..%d; text mode: level depth N)", search.MaxDepth))
	f.Int64Var(&lv.nodes, "nodes", 0, "damka searches this many nodes a move ("+nodesRange+"; text mode: level nodes N)")
	f.StringVar(&lv.clock, "clock", "", "a game clock M+I: M minutes each, I seconds added a move (text mode: level clock M+I)")
	return cmd
}

// playLevel is damka play's level flags.
type playLevel struct {
	movetime float64
	depth    int
	nodes    int64
	clock    string
}

// config returns the text mode's Config of the level flags (Player unset),
// or a bad-input error naming the flag; changed tells whether a flag was
// given (a flag given as 0 is out of range, not absent).
func (lv *playLevel) config(changed func(string) bool) (text.Config, error) {
	var cfg text.Config
	given := 0
	if lv.movetime != 0 || changed("movetime") {
		given++
		if !(lv.movetime > 0 && lv.movetime <= 3600) { // also NaN
			return cfg, badInput("--movetime %g out of range (more than 0, at most 3600 seconds)", lv.movetime)
		}
		cfg.Limits.MoveTime = time.Duration(lv.movetime * float64(time.Second))
	}
	if lv.depth != 0 || changed("depth") {
		given++
		if lv.depth < 1 || lv.depth > search.MaxDepth {
			return cfg, badInput("--depth %d out of range 1..%d", lv.depth, search.MaxDepth)
		}
		cfg.Limits.Depth = lv.depth
	}
	if lv.nodes != 0 || changed("nodes") {
		given++
		if err := checkNodes(lv.nodes); err != nil {
			return cfg, err
		}
		cfg.Limits.Nodes = uint64(lv.nodes)
	}
	if lv.clock != "" {
		given++
		base, inc, err := text.ParseClock(lv.clock)
		if err != nil {
			return cfg, badInput("--clock %q: %v", lv.clock, err)
		}
		cfg.ClockBase, cfg.ClockInc = base, inc
	}
	if given > 1 {
		return cfg, badInput("--movetime, --depth, --nodes and --clock: give one of them")
	}
	return cfg, nil
}

// runText runs the text mode on in and out with player p. Ctrl-C is the
// text mode's while it runs: it stops damka's search, or leaves at the
// prompt.
func runText(ctx context.Context, in io.Reader, out io.Writer, p *player.Player) error {
	return runTextConfig(ctx, in, out, text.Config{Player: p})
}

// runTextConfig is runText with cfg's level (and cfg.Player).
func runTextConfig(ctx context.Context, in io.Reader, out io.Writer, cfg text.Config) error {
	intr := make(chan os.Signal, 1)
	signal.Notify(intr, os.Interrupt)
	defer signal.Stop(intr)
	cfg.Version, cfg.Interrupt = version, intr
	return text.Run(ctx, in, out, cfg)
}
