// match_merge.go: the `damka match merge` subcommand: the statistics of
// games that damka match wrote to one or more PDN files.

package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/gzfile"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
)

func newMatchMergeCmd() *cobra.Command {
	var a, sprt string
	var variant *toolSetting
	cmd := &cobra.Command{
		Use:   "merge FILE.pdn...",
		Short: "recompute match statistics from PDN files (shards of one match)",
		Long: `merge reads the games that damka match wrote to PDN files (for example one
file per shard) and prints the same statistics as a single run: engine A is
White of the first game whose Round tag is R.P.1 (or --a), games pair up by
Round (R.P.G without G) and Opening tags. --sprt adds the LLR.`,
		Args: needFiles("match merge needs the PDN files of the match: damka match merge FILE.pdn..."),
		RunE: func(cmd *cobra.Command, args []string) error {
			// The parent parses its own flags; this command uses cobra's.
			v, err := variant.variant()
			if err != nil {
				return err
			}
			var t *match.SPRT
			if sprt != "" {
				s, err := match.ParseSPRT(sprt)
				if err != nil {
					return badInput("--sprt: %v", err)
				}
				t = &s
			}
			var games []*pdn.Game
			for _, name := range args {
				gs, err := readMergeFile(name, v)
				if err != nil {
					return err
				}
				games = append(games, gs...)
			}
			ms, err := match.MergeGames(games, a)
			if err != nil {
				return badInput("%v", err)
			}
			for _, c := range ms.Cut {
				logger.Warn().Str("game", c).Msg("merge: the game's movetext is cut off or edited; counted with its Result tag")
			}
			out := cmd.OutOrStdout()
			if t != nil {
				lo, hi := t.Bounds()
				fmt.Fprintf(out, "SPRT %s: llr %.2f (bounds %.2f, %.2f): %s\n", t, t.LLR(ms.Stats.Penta), lo, hi, t.Decide(ms.Stats.Penta))
			}
			writeMatchSummary(out, ms.EngineA, ms.EngineB, ms.Stats, ms.Faults, ms.Terminations)
			fmt.Fprintln(out, ms.Stats.Line(t))
			return nil
		},
	}
	variant = addSetting(cmd, player.SetVariant, "variant of games without a GameType tag")
	cmd.Flags().StringVar(&a, "a", "", "engine A's name (default: White of the first game R.P.1)")
	cmd.Flags().StringVar(&sprt, "sprt", "", "also compute the SPRT LLR: elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized]")
	return cmd
}

// readMergeFile reads the games of one PDN file for match merge; a
// gzip-compressed file (as the committed SPRT games in learn/sprt) is read
// through gzip. Errors are bad input naming the file.
func readMergeFile(name string, v engine.VariantID) ([]*pdn.Game, error) {
	f, err := gzfile.Open(name)
	if err != nil {
		return nil, badInput("%v", err)
	}
	defer f.Close()
	where := name
	if f.Gzip {
		where = name + " (gzip)"
	}
	gs, err := match.ReadPDN(f, v)
	if err != nil {
		return nil, badInput("%s: %v", where, err)
	}
	return gs, nil
}
