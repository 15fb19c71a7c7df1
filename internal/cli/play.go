// play.go: `damka play` and damka in a terminal: the text mode
// (protocol/text) for a person, with a player made from the setting flags.

package cli

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"damka/player"
	"damka/protocol/text"
)

func newPlayCmd() *cobra.Command {
	var sf *settingFlags
	cmd := &cobra.Command{
		Use:   "play",
		Short: "play damka in the text mode, whatever stdin is (a terminal, a pipe, a script)",
		Long: `play runs the text mode: the board drawn in text, moves typed in the variant's
notation, damka answering ("help" lists the commands). damka without a
command does the same when its input is a terminal; play does it on a pipe
too, for scripts and tests. The flags set the engine's settings; in the
text mode "settings" lists them and "set NAME VALUE" changes one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := sf.newPlayer(cmd, player.Config{Log: logger})
			if err != nil {
				return err
			}
			return runText(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), p)
		},
	}
	sf = registerSettings(cmd)
	return cmd
}

// runText runs the text mode on in and out with player p. Ctrl-C is the
// text mode's while it runs: it stops damka's search, or leaves at the
// prompt.
func runText(ctx context.Context, in io.Reader, out io.Writer, p *player.Player) error {
	intr := make(chan os.Signal, 1)
	signal.Notify(intr, os.Interrupt)
	defer signal.Stop(intr)
	return text.Run(ctx, in, out, text.Config{Player: p, Version: version, Interrupt: intr})
}
