// pdn.go: the `damka pdn check` subcommand.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"damka/engine"
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
	var variant string
	check := &cobra.Command{
		Use:   "check FILE...",
		Short: "replay every game of PDN files with legality checks",
		Long: `check replays every game of the given PDN files. The GameType tag chooses each
game's variant; --variant is the default when the tag is absent. It prints one
line per bad game (file, game index, move number, move text, position) and a
last line games=N ok=K bad=B. The exit status is 0 only when B is 0.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := parseVariantFlag(variant)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			var games, bad int
			for _, name := range args {
				g, b, err := checkPDNFile(out, name, v)
				games += g
				bad += b
				if err != nil {
					return err
				}
			}
			fmt.Fprintf(out, "games=%d ok=%d bad=%d\n", games, games-bad, bad)
			if bad > 0 {
				return exitStatus(1)
			}
			return nil
		},
	}
	check.Flags().StringVar(&variant, "variant", "russian", "default variant when a game has no GameType tag")
	cmd.AddCommand(check)
	return cmd
}

// checkPDNFile replays the games of one file, printing a line per bad game.
func checkPDNFile(out io.Writer, name string, v engine.VariantID) (games, bad int, err error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, 0, badInput("%v", err)
	}
	defer f.Close()
	r := engine.NewPDNReader(bufio.NewReader(f), v)
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return games, bad, nil
		}
		games++
		if err != nil {
			var pe *engine.PDNError
			if !errors.As(err, &pe) {
				return games, bad + 1, fmt.Errorf("%s: %v", name, err)
			}
			bad++
			fmt.Fprintf(out, "%s: %v\n", name, err)
		}
	}
}
