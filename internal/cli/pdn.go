// pdn.go: the `damka pdn check` subcommand.

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
)

func newPDNCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pdn",
		Short: "PDN tools",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return badInput("pdn: unknown subcommand %q (want: check)", args[0])
			}
			return cmd.Help()
		},
	}
	var variant *toolSetting
	check := &cobra.Command{
		Use:   "check FILE...",
		Short: "replay every game of PDN files with legality checks",
		Long: `check replays every game of the given PDN files. The GameType tag chooses each
game's variant; --variant is the default when the tag is absent. It prints one
line per bad game (file, game index, move number, move text, position) and a
last line games=N ok=K bad=B. A game is bad too when its result contradicts
it: a Result tag that differs from the movetext's result, or a final
position lost by the rules (no piece or no legal move for the side to move)
recorded as a draw or as that side's win. The exit status is 0 only when B is 0, else 1;
a file in which nothing reads as a game (an empty file, or text without
moves) is bad input (status 2). Text that looks like moves (a README) reads
as bad games.

When --variant is not given and games without a GameType tag fail at their
first move, a line says so and names the variant that reads them (found by
reading them under each other variant); give it with --variant.`,
		Args: needFiles("pdn check needs the PDN files to check: damka pdn check FILE..."),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			defaulted := !cmd.Flags().Changed("variant")
			var games, bad int
			for _, name := range args {
				g, b, first, err := checkPDNFile(out, name, v)
				games += g
				bad += b
				if err != nil {
					return err
				}
				if defaulted && len(first) > 0 {
					fmt.Fprintln(out, variantHint(name, v, first))
				}
			}
			fmt.Fprintf(out, "games=%d ok=%d bad=%d\n", games, games-bad, bad)
			if bad > 0 {
				return exitStatus(1)
			}
			return nil
		},
	}
	variant = addSetting(check, player.SetVariant, "default variant when a game has no GameType tag")
	cmd.AddCommand(check)
	return cmd
}

// checkPDNFile replays the games of one file, printing a line per bad
// game. first lists the indices of the bad games that have no GameType tag
// and failed at their first move: games of another variant, likely.
func checkPDNFile(out io.Writer, name string, v engine.VariantID) (games, bad int, first []int, err error) {
	f, err := openRegular(name)
	if err != nil {
		return 0, 0, nil, err
	}
	defer f.Close()
	r := pdn.NewReader(bufio.NewReader(f), v)
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			if games == 0 {
				return 0, 0, nil, badInput("%s holds no PDN games", name)
			}
			return games, bad, first, nil
		}
		games++
		if err == nil {
			if cerr := pdn.CheckResult(g); cerr != nil {
				bad++
				final := g.Position()
				pe := &pdn.Error{Index: games, Line: g.Line, Event: g.Tag("Event"), Err: cerr,
					FEN: final.FENStyle(g.Variant.Rules().Notation)}
				fmt.Fprintf(out, "%s: %v\n", name, pe)
			}
			continue
		}
		{
			var pe *pdn.Error
			if !errors.As(err, &pe) {
				return games, bad + 1, first, fmt.Errorf("%s: %v", name, err)
			}
			bad++
			fmt.Fprintf(out, "%s: %v\n", name, err)
			if failsUntaggedAtFirstMove(g, pe) {
				first = append(first, pe.Index)
			}
		}
	}
}

// openRegular opens a file given on the command line: a missing file, a
// directory, a device or a named pipe is bad input (fileread.Open).
func openRegular(name string) (*os.File, error) {
	f, err := fileread.Open(name)
	if err != nil {
		return nil, badInput("%v", err)
	}
	return f, nil
}

// gamesReadBy returns, for each variant other than v, the indices among
// want of the games of file name that it reads without a fault.
func gamesReadBy(name string, v engine.VariantID, want []int) map[engine.VariantID]map[int]bool {
	wanted := map[int]bool{}
	for _, i := range want {
		wanted[i] = true
	}
	res := map[engine.VariantID]map[int]bool{}
	for _, o := range engine.AllVariants() {
		if o == v {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return res
		}
		r := pdn.NewReader(bufio.NewReader(f), o)
		ok := map[int]bool{}
		for i := 1; ; i++ {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var pe *pdn.Error
			if err != nil && !errors.As(err, &pe) {
				break
			}
			if err == nil && wanted[i] {
				ok[i] = true
			}
		}
		f.Close()
		res[o] = ok
	}
	return res
}

// failsUntaggedAtFirstMove reports whether the bad game g (as far as it
// was read; nil when nothing was) has no GameType tag and failed at its
// first move: a game that another variant may read (variantHint).
func failsUntaggedAtFirstMove(g *pdn.Game, pe *pdn.Error) bool {
	return g != nil && len(g.Moves) == 0 && pe.MoveText != "" && g.Tag("GameType") == ""
}

// variantHint is the line printed after the bad games of a file when
// games without a GameType tag failed at their first move under the
// default variant v: how many, and which variant reads them. It names a
// variant only when exactly one other variant reads a game; games that
// several read are counted apart, so the hint never guesses.
func variantHint(name string, v engine.VariantID, first []int) string {
	readers := gamesReadBy(name, v, first)
	groups := map[string]int{}
	var order []string
	for _, i := range first {
		var vs []string
		for _, o := range engine.AllVariants() {
			if readers[o][i] {
				vs = append(vs, o.String())
			}
		}
		key := strings.Join(vs, ",")
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of the games fail at their first move as %s, the default variant (no --variant, no GameType tag)", name, len(first), v)
	for _, key := range order {
		n := groups[key]
		switch vs := strings.Split(key, ","); {
		case key == "":
			fmt.Fprintf(&b, "; %d read as no other variant either", n)
		case len(vs) == 1:
			fmt.Fprintf(&b, "; %d read as %s: use --variant %s", n, key, key)
		default:
			fmt.Fprintf(&b, "; %d read as any of %s: choose one with --variant", n, strings.Join(vs, ", "))
		}
	}
	return b.String()
}
