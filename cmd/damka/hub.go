// hub.go: `damka hub` and damka without a subcommand: the Hub protocol on
// stdin/stdout for GUIs, or the text mode when a person runs it in a
// terminal.

package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"damka/book"
	"damka/engine"
	"damka/eval"
	"damka/protocol/hub"
	"damka/search"
	buildversion "damka/version"
)

// version is damka's version as `damka --version`, the text mode and the
// Hub id line give it (see package version: a release version set with
// -ldflags "-X damka/version.release=...", else the VCS revision and time
// of the build).
var version = buildversion.String()

// engineFlags are the search settings shared by hub and the text mode.
type engineFlags struct {
	variant    string
	variantSet bool // --variant was given (else a 10x10 position selects international in Hub)
	threads    int
	hashMiB    int
	book       bool
	bookMargin int
	bookFile   string
	bookB      *book.Book // --book-file's book (check reads it), nil for the embedded ones
	overhead   int        // --move-overhead, milliseconds
	evalFile   string
	eval       *eval.Weights // --eval-file's weights (check reads them), nil for the embedded ones
	egdb       string        // --egdb
}

func (f *engineFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.variant, "variant", "russian", "initial variant: russian, english (american), brazilian, international (without it, a 51-character Hub position selects international until the GUI sets the variant)")
	fl.IntVar(&f.threads, "threads", search.DefaultThreads, "search threads (Hub parameter threads)")
	fl.IntVar(&f.hashMiB, "hash", search.DefaultHashMiB, "transposition table in MiB (Hub parameter hash)")
	fl.BoolVar(&f.book, "book", true, "play from the opening book: the embedded one or --book-file (Hub parameter book)")
	fl.IntVar(&f.bookMargin, "book-margin", search.DefaultBookMargin, "book variety in centi-men (Hub parameter book-margin)")
	registerBookFile(cmd, &f.bookFile)
	registerMoveOverhead(cmd, &f.overhead)
	registerEvalFile(cmd, &f.evalFile)
	registerEGDBFlag(cmd, &f.egdb)
}

// check validates the flags, reads --eval-file and --book-file, checks that
// --egdb opens, and returns the variant.
func (f *engineFlags) check() (engine.VariantID, error) {
	v, err := parseVariantFlag(f.variant)
	if err != nil {
		return 0, err
	}
	if f.threads < 1 || f.threads > search.MaxThreads {
		return 0, badInput("--threads %d out of range 1..%d", f.threads, search.MaxThreads)
	}
	if f.hashMiB < 1 || f.hashMiB > search.MaxHashMiB {
		return 0, badInput("--hash %d out of range 1..%d MiB", f.hashMiB, search.MaxHashMiB)
	}
	if f.bookMargin < 0 || f.bookMargin > search.MaxBookMargin {
		return 0, badInput("--book-margin %d out of range 0..%d", f.bookMargin, search.MaxBookMargin)
	}
	if _, err := moveOverhead(f.overhead); err != nil {
		return 0, err
	}
	if f.eval, err = loadEvalFile(f.evalFile, v); err != nil {
		return 0, err
	}
	if f.bookB, err = loadBookFile(f.bookFile, v); err != nil {
		return 0, err
	}
	if f.egdb != "" && f.egdb != "off" {
		db, err := openEGDB(f.egdb)
		if err != nil {
			return 0, err
		}
		db.Close()
	}
	return v, nil
}

func newHubCmd() *cobra.Command {
	var ef engineFlags
	cmd := &cobra.Command{
		Use:   "hub",
		Short: "speak the Hub protocol (Scan's engine protocol) on stdin/stdout",
		Long: `hub runs damka as a Hub engine: commands on stdin, answers on stdout, logs on
stderr or --log-file. GUIs start damka without arguments, which does the
same when stdin is not a terminal; this subcommand forces Hub. The flags set
the parameters' defaults; the GUI can change them with set-param.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := ef.check()
			if err != nil {
				return err
			}
			ef.variantSet = cmd.Flags().Changed("variant")
			return runHub(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), v, ef)
		},
	}
	ef.register(cmd)
	return cmd
}

// runHub serves one Hub session on in and out.
func runHub(ctx context.Context, in io.Reader, out io.Writer, v engine.VariantID, ef engineFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	logger.Info().Str("variant", v.String()).Int("threads", ef.threads).Int("hash_mib", ef.hashMiB).Msg("hub session start")
	overhead, err := moveOverhead(ef.overhead) // 0 ms (none) is a negative Config value
	if err != nil {
		return err
	}
	err = hub.Run(ctx, in, out, hub.Config{
		Name:    "damka",
		Version: version,
		Author:  "the damka authors",
		Variant: v,
		// Without --variant, a GUI written for Scan (10x10 positions, no
		// set-param variant) gets international.
		AutoVariant: !ef.variantSet,
		Threads:     ef.threads,
		HashMiB:     ef.hashMiB,
		NoBook:      !ef.book,
		// A margin of 0 is a valid setting (only the best book moves);
		// Config treats 0 as "default", so pass at least 1 centi-man.
		BookMargin:   max(ef.bookMargin, 1),
		BookFile:     ef.bookFile,
		Book:         ef.bookB,
		MoveOverhead: overhead,
		EvalFile:     ef.evalFile,
		Eval:         ef.eval,
		EGDB:         ef.egdb,
		Log:          logger,
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
// terminal (a GUI started it), the text mode when it is.
func runDefault(cmd *cobra.Command, args []string) error {
	in, out := cmd.InOrStdin(), cmd.OutOrStdout()
	ef := engineFlags{variant: "russian", threads: search.DefaultThreads, hashMiB: search.DefaultHashMiB, book: true, bookMargin: search.DefaultBookMargin,
		overhead: int(search.DefaultMoveOverhead / time.Millisecond)}
	if isTerminal(in) {
		// Ctrl-C is the text mode's: it stops damka's search, or leaves at
		// the prompt.
		intr := make(chan os.Signal, 1)
		signal.Notify(intr, os.Interrupt)
		defer signal.Stop(intr)
		return runTextMode(cmd.Context(), in, out, textOptions{variant: engine.Russian, threads: ef.threads, hashMiB: ef.hashMiB, interrupt: intr})
	}
	return runHub(cmd.Context(), in, out, engine.Russian, ef)
}
