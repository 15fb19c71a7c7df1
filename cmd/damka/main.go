// Command damka is the damka draughts engine: plain damka opens the text
// mode in a terminal and speaks Hub on a pipe; its subcommands are the
// front ends (hub, dxp, play) and the tools (analyse, solve, bench, perft,
// book, egdb, selfplay, train, match, ...). `damka --help` lists them; the
// command tree is package internal/cli. Logs go to stderr or --log-file,
// never stdout; bad input exits with status 2.
package main

import (
	"os"

	"github.com/damka-draughts/damka/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
