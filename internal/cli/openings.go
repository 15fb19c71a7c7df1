// openings.go: `damka openings`, the decks of every N-ply opening.

package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/player"
)

func newOpeningsCmd() *cobra.Command {
	var out string
	var variant *toolSetting
	var plies int
	cmd := &cobra.Command{
		Use:   "openings --variant V --plies N [--out FILE]",
		Short: "write every distinct N-ply opening of a variant as a PDN deck",
		Long: `openings writes every distinct opening of --plies moves of --variant from the
start position, one PDN game per opening (tags Event, GameType and Opening, the
moves, result *), to --out or stdout. Distinct means distinct move sequences
(two capture paths of the same move count once), so the number of openings
is perft --depth N; transpositions are kept. The order is fixed: depth
first, each position's moves in square order, as damka moves lists them.

The deck is what match, selfplay and dxp read with --openings (any format
openings.Load accepts: PDN, the ACF 3-move TSV, pydraughts JSON ballots,
lines of FEN or Hub positions). The decks in openings/decks/ of the
repository were written by this command (openings/decks/README.txt).
A deck of more than 1,000,000 openings is refused.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			if plies < 1 || plies > openings.MaxPlies {
				return badInput("--plies %d out of range 1..%d", plies, openings.MaxPlies)
			}
			ops, err := openings.All(v, plies)
			if err != nil {
				return badInput("--plies %d: %v", plies, err)
			}
			event := fmt.Sprintf("%s %d-ply openings", v, plies)
			var w io.Writer = cmd.OutOrStdout()
			if out != "" {
				f, err := os.Create(out)
				if err != nil {
					return badInput("cannot create --out: %v", err)
				}
				if err := openings.WritePDN(f, v, event, ops); err != nil {
					f.Close()
					return fmt.Errorf("--out %s: %v", out, err)
				}
				if err := f.Close(); err != nil {
					return fmt.Errorf("--out %s: %v", out, err)
				}
				logger.Info().Str("file", out).Int("openings", len(ops)).Msg("openings written")
				return nil
			}
			return openings.WritePDN(w, v, event, ops)
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.IntVar(&plies, "plies", 3, "moves of each opening (plies, both sides counted)")
	f.StringVar(&out, "out", "", "write the deck to this file (default: stdout)")
	return cmd
}
