// Package cli is the damka command: the tree of subcommands (the front
// ends hub, dxp and play with the player's settings as flags; analyse,
// solve, bench, perft, moves, pdn, openings, book, egdb, selfplay, label, train,
// match and review) and their flags, exit statuses and logging. cmd/damka only calls
// Main. Logs go to stderr or --log-file, never stdout; bad input exits
// with status 2.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/damka-draughts/damka/engine"
)

// exitBadInput is the exit status for bad input (flags, FEN, moves, files).
const exitBadInput = 2

// inputError marks an error caused by the user's input: exit status 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// badInput wraps err as an input error (exit status 2).
func badInput(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// noArgs is noArgs with a message that says what was wrong: the
// command takes flags only, and a variant name given bare is meant as
// --variant.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if _, err := engine.ParseVariant(args[0]); err == nil {
		return badInput("%s takes no arguments: %q is a variant, give it as --variant %s", cmd.CommandPath(), args[0], args[0])
	}
	return badInput("%s takes no arguments, only flags: %q (damka %s --help lists them)", cmd.CommandPath(), args[0], cmd.Name())
}

// needFiles is the Args check of a command that takes one or more files:
// without any it is bad input with the message msg, which says what to give.
func needFiles(msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return badInput("%s", msg)
		}
		return nil
	}
}

// pflagNumberError matches pflag's message for a number flag that did not
// parse: the value, the flag and strconv's verdict.
var pflagNumberError = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: strconv\.Parse(Int|Uint|Float): parsing ".*": (invalid syntax|value out of range)$`)

// flagError turns a flag parsing error into bad input, saying in words
// what strconv's raw message means: "--seed -5 out of range (want a
// whole number, 0 or more)" or "--depth x: not a number". A flag of fs
// with a range (setFlagRange) names its range: "--nodes -5 out of range
// 1..1000000000000", as the command's own check says it of "--nodes 0".
func flagError(fs *pflag.FlagSet, err error) error {
	m := pflagNumberError.FindStringSubmatch(err.Error())
	if m == nil {
		return inputError{err}
	}
	val, flag, kind, verdict := m[1], m[2], m[3], m[4]
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number, 0 or more", "Float": "a number"}[kind]
	_, ferr := strconv.ParseFloat(strings.TrimSpace(val), 64)
	if verdict == "value out of range" || ferr == nil || errors.Is(ferr, strconv.ErrRange) {
		if r := flagRange(fs, strings.TrimPrefix(flag, "--")); r != "" {
			return badInput("%s %s out of range %s", flag, strings.TrimSpace(val), r)
		}
		return badInput("%s %s out of range (want %s)", flag, val, want)
	}
	return badInput("%s %q: not a number (want %s)", flag, val, want)
}

// rangeAnnotation is the pflag annotation that holds a number flag's
// range as its messages write it ("1..1000000000000").
const rangeAnnotation = "damka-range"

// setFlagRange records the range of fs's number flag name, for the
// message of a value that does not parse as the flag's type (a negative
// --nodes): the same words as the command's own range check.
func setFlagRange(fs *pflag.FlagSet, name, r string) {
	if err := fs.SetAnnotation(name, rangeAnnotation, []string{r}); err != nil {
		panic(err) // a flag name misspelt in the code
	}
}

// flagRange returns the range setFlagRange recorded for fs's flag name,
// or "".
func flagRange(fs *pflag.FlagSet, name string) string {
	if fs == nil {
		return ""
	}
	if f := fs.Lookup(name); f != nil && len(f.Annotations[rangeAnnotation]) == 1 {
		return f.Annotations[rangeAnnotation][0]
	}
	return ""
}

// maxNodes is the most --nodes of any command: a search of 10^12 nodes
// takes days.
const maxNodes = 1_000_000_000_000

// nodesRange is maxNodes's range in messages.
var nodesRange = fmt.Sprintf("1..%d", uint64(maxNodes))

// checkNodes is every command's check of a --nodes value n given on the
// command line: bad input outside 1..maxNodes.
func checkNodes[N int64 | uint64](n N) error {
	if n < 1 || uint64(n) > maxNodes {
		return badInput("--nodes %d out of range %s", n, nodesRange)
	}
	return nil
}

// globalFlags are the flags every subcommand shares.
type globalFlags struct {
	logLevel   string
	logFile    string
	cpuProfile string
	memProfile string
}

var (
	gflags  globalFlags
	logger  = zerolog.New(os.Stderr).With().Timestamp().Logger()
	logSink io.Closer
	// profSink is the --cpu-profile file while the profile is written.
	profSink *os.File
	// memSink is the --mem-profile file, made when the command starts (so
	// that a path that cannot be written is refused before the command
	// runs) and written when it ends.
	memSink *os.File
)

// startProfile starts the CPU profile of --cpu-profile (nothing when it is
// empty); stopProfile ends it when the command returns. The profile is in
// pprof's format: go tool pprof reads it, and the build uses
// cmd/damka/default.pgo for profile-guided optimisation.
//
// It runs once for a command: from the root's PersistentPreRunE, or, for
// the commands that parse their own flags (match, solve, gui), after
// their parse; a profile already started is left as it is.
func startProfile() error {
	if gflags.memProfile != "" && memSink == nil {
		f, err := os.Create(gflags.memProfile)
		if err != nil {
			return badInput("cannot create --mem-profile: %v", err)
		}
		memSink = f
	}
	if gflags.cpuProfile == "" || profSink != nil {
		return nil
	}
	f, err := os.Create(gflags.cpuProfile)
	if err != nil {
		return badInput("cannot create --cpu-profile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpu-profile: %v", err)
	}
	profSink = f
	return nil
}

func stopProfile() {
	if profSink == nil {
		return
	}
	pprof.StopCPUProfile()
	if err := profSink.Close(); err != nil {
		logger.Error().Err(err).Str("file", gflags.cpuProfile).Msg("cpu profile")
	}
	profSink = nil
}

// writeMemProfile writes the heap profile of --mem-profile (nothing when
// it is empty) when the command returns, after a garbage collection, so
// that its in-use figures are what the process still holds: a debugging
// aid to compare a long-running engine's heap (a Hub session ends at
// quit) after more and more games with go tool pprof -inuse_space. At
// --log-level info it also logs the runtime's heap figures (bytes).
func writeMemProfile() {
	if memSink == nil {
		return
	}
	f := memSink
	memSink = nil
	runtime.GC()
	err := pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		logger.Error().Err(err).Str("file", gflags.memProfile).Msg("memory profile")
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	logger.Info().Str("file", gflags.memProfile).Uint64("heap_inuse", ms.HeapInuse).Uint64("heap_alloc", ms.HeapAlloc).
		Uint64("heap_sys", ms.HeapSys).Uint64("heap_released", ms.HeapReleased).Uint64("stack_inuse", ms.StackInuse).
		Uint64("total_alloc", ms.TotalAlloc).Uint32("num_gc", ms.NumGC).Msg("memory profile")
}

// logTimeFormat is the time stamp of every log line: RFC 3339 with
// milliseconds, enough to time a move in a debug Hub log.
const logTimeFormat = "2006-01-02T15:04:05.000Z07:00"

// setupLogging points the logger at stderr or --log-file at --log-level.
func setupLogging() error {
	zerolog.TimeFieldFormat = logTimeFormat
	lvl, err := zerolog.ParseLevel(strings.ToLower(gflags.logLevel))
	if err != nil || gflags.logLevel == "" {
		return badInput("bad --log-level %q (want trace, debug, info, warn, error)", gflags.logLevel)
	}
	// Colours only on a terminal: a GUI or match tool capturing stderr gets plain text.
	var w io.Writer = zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: "15:04:05.000", NoColor: !isTerminal(os.Stderr)}
	if gflags.logFile != "" {
		f, err := os.OpenFile(gflags.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return badInput("cannot open --log-file: %v", err)
		}
		logSink = f
		w = f
	}
	logger = zerolog.New(w).Level(lvl).With().Timestamp().Logger()
	return nil
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "damka",
		Short: "damka: a draughts engine for Russian, English, Brazilian and international draughts",
		Long: `damka: a draughts engine for Russian, English, Brazilian and international draughts.

Run without a command, damka opens the text mode when its input is a terminal
(a board, moves typed in the variant's notation; "help" lists its commands)
and speaks the Hub protocol (Scan's engine protocol, as "damka hub" does) when
its input is a pipe, as GUIs start it; "damka play" opens the text mode
whatever its input. The flags below set the engine's settings for both. The
commands below are the tools.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if err := setupLogging(); err != nil {
				return err
			}
			return startProfile()
		},
	}
	// The settings are the root's own flags (not its subcommands'): damka
	// --variant english --threads 2 plays the text mode or Hub with them.
	sf := registerSettings(root)
	root.RunE = func(cmd *cobra.Command, args []string) error { return runDefault(cmd, sf) }
	root.PersistentFlags().StringVar(&gflags.logLevel, "log-level", "warn", "log level: trace, debug, info, warn, error")
	root.PersistentFlags().StringVar(&gflags.logFile, "log-file", "", "write logs to this file instead of stderr")
	root.PersistentFlags().StringVar(&gflags.cpuProfile, "cpu-profile", "", "write a CPU profile of the command to this file (pprof format)")
	root.PersistentFlags().StringVar(&gflags.memProfile, "mem-profile", "", "write a heap profile to this file when the command ends (pprof format)")
	root.SetVersionTemplate("damka {{.Version}}\n")
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return badInput("help: unknown command %q (damka --help lists them)", strings.Join(args, " "))
			}
			return target.Help()
		},
	})
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return flagError(c.Flags(), err) })
	root.AddCommand(newPerftCmd(), newMovesCmd(), newPDNCmd(), newHubCmd(), newDXPCmd(), newBookCmd(), newMatchCmd(), newGuiCmd(),
		newPlayCmd(), newAnalyseCmd(), newBenchCmd(), newSolveCmd(), newSelfPlayCmd(), newLabelCmd(), newTrainCmd(), newEGDBCmd(), newOpeningsCmd(), newReviewCmd())
	return root
}

// run executes the command line args and returns the process exit status.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	stopProfile()
	writeMemProfile()
	if logSink != nil {
		logSink.Close()
		logSink = nil
	}
	if err == nil {
		return 0
	}
	var exit exitStatus
	if errors.As(err, &exit) {
		return int(exit)
	}
	fmt.Fprintln(stderr, "damka:", err)
	var in inputError
	if errors.As(err, &in) || strings.HasPrefix(err.Error(), "unknown command") ||
		strings.Contains(err.Error(), "flag") || strings.Contains(err.Error(), "arg(s)") {
		return exitBadInput
	}
	return 1
}

// exitStatus is returned by a command that has already reported its outcome
// and only wants a non-zero exit status.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Main runs the damka command with args (without the program name),
// writing to stdout and stderr, and returns the exit status: 0 on
// success, 2 for bad input (flags, files, positions), 1 for other errors.
func Main(args []string, stdout, stderr io.Writer) int { return run(args, stdout, stderr) }

// variantFlag reads --variant into an engine.VariantID.
func parseVariantFlag(s string) (engine.VariantID, error) {
	v, err := engine.ParseVariant(s)
	if err != nil {
		return 0, inputError{err}
	}
	return v, nil
}

// variantPosition reads --variant and --fen together (see positionFromFlags).
func variantPosition(variant, fen string) (engine.VariantID, engine.Position, error) {
	v, err := parseVariantFlag(variant)
	if err != nil {
		return 0, engine.Position{}, err
	}
	p, err := positionFromFlags(v, fen)
	return v, p, err
}

// positionFromFlags returns the position given by --fen (PDN FEN or a Hub
// position string), or the variant's start position when fen is empty.
func positionFromFlags(v engine.VariantID, fen string) (engine.Position, error) {
	if strings.TrimSpace(fen) == "" {
		return engine.StartPosition(v), nil
	}
	p, err := engine.ParsePosition(v, fen)
	if err != nil {
		return p, badInput("bad --fen: %v", err)
	}
	return p, nil
}

// moveTokens splits a --moves text into move words: white space separated,
// with PDN move numbers ("1.", "12...", or glued as "1.c3-d4") dropped and
// a game result ("1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "*") at the
// end ignored, so that a move list copied from a PDN file reads as typed.
func moveTokens(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		i := 0
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		if i > 0 && i < len(w) && w[i] == '.' {
			w = strings.TrimLeft(w[i:], ".")
			if w == "" {
				continue
			}
		}
		out = append(out, w)
	}
	if n := len(out); n > 0 {
		switch out[n-1] {
		case "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "*":
			out = out[:n-1]
		}
	}
	return out
}

// playMoves plays the moves of a --moves text on g (see moveTokens). An
// error names the move's number in the list, its text and why it was
// refused.
func playMoves(g *engine.Game, text string) error {
	for i, w := range moveTokens(text) {
		p := g.Position()
		m, err := p.ParseMove(w)
		if err != nil {
			return badInput("--moves: move %d %q: %v", i+1, w, err)
		}
		g.Play(m)
	}
	return nil
}
