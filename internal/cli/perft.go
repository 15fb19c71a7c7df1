// perft.go: the `damka perft` and `damka moves` subcommands.

package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
)

// maxPerftHashMiB bounds --hash: a table is allocated up front, and a
// request beyond the machine's memory would end the process.
const maxPerftHashMiB = 16384

func newPerftCmd() *cobra.Command {
	var (
		variant, threads    *toolSetting
		fen                 string
		depth, mib          int
		divide, paths, only bool
	)
	cmd := &cobra.Command{
		Use:   "perft",
		Short: "count leaf nodes to a depth (move generator check and speed)",
		Long: `perft counts the leaf nodes of the move tree from a position, one line per
depth: depth=D nodes=N time=S mnps=X (S in seconds, X in millions of leaves
per second with two decimals, the speed unit of every damka command). --divide first prints each root move
with its count. --paths counts every capture path (the "keep duplicates"
column of the classic 8x8 tables) instead of distinct moves. --only prints
the line of --depth alone, without counting the shallower depths (the
whole-process time is then that of one perft).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, p, err := variantPosition(variant.value(), fen)
			if err != nil {
				return err
			}
			if depth < 1 || depth > engine.MaxPerftDepth {
				return badInput("--depth %d out of range 1..%d", depth, engine.MaxPerftDepth)
			}
			nThreads, err := threads.int()
			if err != nil {
				return err
			}
			if mib < 0 || mib > maxPerftHashMiB {
				return badInput("--hash %d out of range 0..%d MiB", mib, maxPerftHashMiB)
			}
			logger.Debug().Str("variant", v.String()).Str("fen", p.FEN()).Int("depth", depth).Msg("perft")
			return bench.RunPerft(cmd.OutOrStdout(), bench.PerftConfig{
				Position: p, Depth: depth, Divide: divide, Paths: paths, Threads: nThreads, HashMiB: mib, Only: only,
			})
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.StringVar(&fen, "fen", "", "start from this PDN FEN or Hub position (default: the start position)")
	f.IntVar(&depth, "depth", 6, "deepest depth in plies")
	f.BoolVar(&divide, "divide", false, "print each root move's count at --depth first")
	f.BoolVar(&only, "only", false, "print only --depth (skip counting depths 1..depth-1)")
	f.BoolVar(&paths, "paths", false, "count every capture path (keep duplicates)")
	threads = addSetting(cmd, player.SetThreads, "worker threads")
	f.IntVar(&mib, "hash", 0, "perft's own hash table in MiB (0: none; e.g. 256 for deep runs)")
	return cmd
}

func newMovesCmd() *cobra.Command {
	var fen, moves string
	var variant *toolSetting
	cmd := &cobra.Command{
		Use:   "moves",
		Short: "list every legal move of a position in full-path notation, in square order",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, p, err := variantPosition(variant.value(), fen)
			if err != nil {
				return err
			}
			g := engine.NewGame(p)
			if err := playMoves(g, moves); err != nil {
				return err
			}
			p = g.Position()
			// In square order (engine.SortMoves), as the text mode and
			// perft --divide list them.
			for _, m := range p.SortedMoves() {
				fmt.Fprintln(cmd.OutOrStdout(), p.FormatMove(m, engine.FormatFull))
			}
			return nil
		},
	}
	variant = addSetting(cmd, player.SetVariant, "")
	cmd.Flags().StringVar(&fen, "fen", "", "PDN FEN or Hub position (default: the start position)")
	cmd.Flags().StringVar(&moves, "moves", "", "moves played from that position first, space separated (PDN move numbers allowed)")
	return cmd
}
