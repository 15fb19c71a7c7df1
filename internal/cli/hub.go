// hub.go: `damka hub` and damka without a subcommand: the Hub protocol on
// stdin/stdout for GUIs, or the text mode (play.go) when a person runs it
// in a terminal.

package cli

import (
	"context"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hub"
	buildversion "github.com/damka-draughts/damka/version"
)

// version is damka's version as `damka --version`, the text mode and the
// Hub id line give it (see package version: a release version set with
// -ldflags "-X github.com/damka-draughts/damka/version.release=...", else the VCS revision and time
// of the build).
var version = buildversion.String()

func newHubCmd() *cobra.Command {
	var sf *settingFlags
	cmd := &cobra.Command{
		Use:   "hub",
		Short: "speak the Hub protocol (Scan's engine protocol) on stdin/stdout",
		Long: `hub runs damka as a Hub engine: commands on stdin, answers on stdout, logs on
stderr or --log-file. GUIs start damka without arguments, which does the
same when stdin is not a terminal; this subcommand forces Hub. The flags set
the parameters' defaults (every Hub parameter is a flag of the same name);
the GUI can change them with set-param. Without --variant, a 51-character
position selects international until the GUI sets the variant.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := sf.newPlayer(cmd, player.Config{Log: logger})
			if err != nil {
				return err
			}
			return runHub(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), p, !sf.changed(cmd, player.SetVariant))
		},
	}
	sf = registerSettings(cmd)
	return cmd
}

// runHub serves one Hub session on in and out with player p; autoVariant:
// nobody chose the variant (see hub.Config.AutoVariant).
func runHub(ctx context.Context, in io.Reader, out io.Writer, p *player.Player, autoVariant bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	o := p.Options()
	logger.Info().Str("variant", p.Variant().String()).Int("threads", o.Threads).Int("hash_mib", o.HashMiB).Msg("hub session start")
	err := hub.Run(ctx, in, out, hub.Config{
		Name:    "damka",
		Version: version,
		Author:  "the damka authors",
		// Without --variant, a GUI written for Scan (10x10 positions, no
		// set-param variant) gets international.
		AutoVariant: autoVariant,
		Player:      p,
		Log:         logger,
	})
	logger.Info().Err(err).Msg("hub session end")
	return err
}

// isTerminal reports whether r is a terminal (a person typing).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// runDefault is damka without a subcommand: Hub when stdin is not a
// terminal (a GUI started it), the text mode when it is; either way with
// a player made from the root command's setting flags sf.
func runDefault(cmd *cobra.Command, sf *settingFlags) error {
	p, err := sf.newPlayer(cmd, player.Config{Log: logger})
	if err != nil {
		return err
	}
	in, out := cmd.InOrStdin(), cmd.OutOrStdout()
	if isTerminal(in) {
		return runText(cmd.Context(), in, out, p)
	}
	return runHub(cmd.Context(), in, out, p, !sf.changed(cmd, player.SetVariant))
}
