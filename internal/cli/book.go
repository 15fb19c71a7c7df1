// book.go: the `damka book` subcommands: build, show and stats.

package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

func newBookCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "book",
		Short: "opening book tools: build, show, stats",
		Long: `book builds opening books by the engine's own analysis and shows the books
embedded in the binary (or a book file given with --book).`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return badInput("book: unknown subcommand %q (want: build, show, stats)", args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newBookBuildCmd(), newBookShowCmd(), newBookStatsCmd())
	return cmd
}

// canonicalCommand writes the command line of cmd from its flags: "damka
// book build" and every flag set, in name order, except those in skip.
func canonicalCommand(cmd *cobra.Command, skip ...string) string {
	var b strings.Builder
	b.WriteString(cmd.CommandPath())
	local := cmd.LocalFlags()
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if local.Lookup(f.Name) == nil {
			return // --log-level and other flags of the root
		}
		for _, s := range skip {
			if f.Name == s {
				return
			}
		}
		vals := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vals = sv.GetSlice()
		}
		for _, v := range vals {
			fmt.Fprintf(&b, " --%s", f.Name)
			if f.Value.Type() != "bool" {
				b.WriteString(" " + shellQuote(v))
			}
		}
	})
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:,=+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func newBookBuildCmd() *cobra.Command {
	var (
		variant                                   *toolSetting
		out                                       string
		depth, plies, positions, margin, minCount int
		positionsAtOnce, hashPerWorker            int
		moveTime                                  float64
		games, seedFiles                          []string
		resume, noProgress                        bool
		checkpointEvery                           time.Duration
	)
	cmd := &cobra.Command{
		Use:   "build",
		Short: "grow an opening book by the engine's own analysis",
		Long: `build analyses positions best-first from the start position (and from the
seed positions of --positions-file) and writes a book file.

Each position's legal moves are scored by a one-thread search of the position
after the move (--depth plies from the position, or --movetime seconds per
move); the moves within --margin centi-men of the best are kept, with weights
from 100 (best) down to 100/(margin+1). With --games, a move played at least
--min-count times in those PDN games is kept whatever its score and weighs
50 per game plus 50 per half-point its side scored. The tree grows where it
is most likely to be played (likelihood of the most likely line: the product
of the kept moves' shares of the weights) up to --plies plies from a root and
--positions positions.

--threads positions are analysed at the same time. With --depth the book
depends only on the settings, not on --threads: building twice gives the same
file. A progress bar with the time left goes to stderr when it is a terminal. Ctrl-C stops the
build after writing the checkpoint (OUT.checkpoint, also written every
--checkpoint-every); --resume goes on from it.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("depth") && cmd.Flags().Changed("movetime") {
				return badInput("give one of --depth and --movetime, not both")
			}
			switch {
			case math.IsNaN(moveTime):
				return badInput("--movetime %g: want a number of seconds, 0..3600", moveTime)
			case moveTime == 0 && (depth < 2 || depth > search.MaxDepth):
				return badInput("--depth %d out of range 2..%d", depth, search.MaxDepth)
			case moveTime < 0 || moveTime > 3600:
				return badInput("--movetime %g out of range 0..3600 seconds", moveTime)
			case plies < 0 || plies > 255:
				return badInput("--plies %d out of range 0..255", plies)
			case positions < 1 || positions > 10_000_000:
				return badInput("--positions %d out of range 1..10000000", positions)
			case margin < 0 || margin > 10000:
				return badInput("--margin %d out of range 0..10000 centi-men", margin)
			case minCount < 1:
				return badInput("--min-count %d: want at least 1", minCount)
			case positionsAtOnce < 1 || positionsAtOnce > search.MaxThreads:
				return badInput("--threads %d out of range 1..%d", positionsAtOnce, search.MaxThreads)
			case hashPerWorker < 1 || hashPerWorker > search.MaxHashMiB:
				return badInput("--hash %d out of range 1..%d MiB", hashPerWorker, search.MaxHashMiB)
			}
			if out == "" {
				out = v.String() + ".book"
			}
			// The output must be writable before hours of analysis, not after.
			if err := checkOutputPath(out); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()

			var bar *progressbar.ProgressBar
			resumedAt := 0
			showBar := progressOn(cmd.ErrOrStderr(), noProgress)
			progress := func(p book.Progress) {
				if !showBar {
					return
				}
				if bar == nil {
					resumedAt = p.Resumed
					bar = progressbar.NewOptions(max(p.Target-p.Resumed, 1),
						progressbar.OptionSetWriter(cmd.ErrOrStderr()),
						progressbar.OptionSetDescription(v.String()+" book"),
						progressbar.OptionShowCount(),
						progressbar.OptionShowIts(),
						progressbar.OptionSetItsString("pos"),
						progressbar.OptionSetPredictTime(true),
						progressbar.OptionSetElapsedTime(true),
						progressbar.OptionThrottle(200*time.Millisecond),
						progressbar.OptionSetWidth(30))
				}
				_ = bar.Set(p.Done - resumedAt)
			}
			ckpt := out + ".checkpoint"
			job := bench.BookJob{
				Options: book.BuildOptions{
					Variant: v, Plies: plies, Positions: positions, Margin: margin, MinCount: minCount, Workers: positionsAtOnce,
					Command:    canonicalCommand(cmd, "resume", "no-progress", "checkpoint-every"),
					Checkpoint: ckpt, CheckpointEvery: checkpointEvery, Resume: resume,
					Progress: progress,
				},
				SeedFiles: seedFiles, GameFiles: games, Depth: depth, MoveTime: moveTime, HashMiB: hashPerWorker, Out: out,
				SeedsRead: func(file string, n int) {
					logger.Info().Str("file", file).Int("positions", n).Msg("book seeds")
				},
				BadGame: func(file string, err error) {
					fmt.Fprintf(cmd.ErrOrStderr(), "damka: --games %s: %v\n", file, err)
				},
				GamesRead: func(stats *book.GameStats) {
					logger.Info().Int("games", stats.Games).Int("skipped", stats.Skipped).Int("bad", stats.Bad).
						Int("frequent_moves", stats.Frequent(minCount)).Msg("book games")
				},
				Start: func(o book.BuildOptions) {
					logger.Info().Str("variant", v.String()).Str("settings", o.Search).Int("threads", positionsAtOnce).
						Int("seeds", len(o.Seeds)).Str("out", out).Bool("resume", resume).Msg("book build")
				},
			}
			start := time.Now()
			res, err := bench.BuildBook(ctx, job)
			if bar != nil {
				_ = bar.Exit()
				fmt.Fprintln(cmd.ErrOrStderr())
			}
			var ie *bench.InputError
			switch {
			case errors.As(err, &ie) && len(ie.Files) > 0:
				return badInput("--%s %s: %v", bookBuildFlags[ie.Field], strings.Join(ie.Files, " "), ie.Err)
			case errors.As(err, &ie):
				return badInput("--%s: %v", bookBuildFlags[ie.Field], ie.Err)
			case err != nil && ctx.Err() != nil:
				logger.Warn().Str("checkpoint", ckpt).Msg("book build stopped; go on with --resume")
				return fmt.Errorf("book build stopped (checkpoint %s; go on with --resume): %w", ckpt, err)
			case err != nil:
				return err
			}
			st := res.Book.Stats()
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: variant=%s positions=%d moves=%d max-ply=%d bytes=%d resumed=%d time=%s\n",
				out, st.Variant, st.Positions, st.Moves, st.MaxPly, st.Bytes, res.Resumed, time.Since(start).Round(time.Second))
			return nil
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.IntVar(&depth, "depth", 8, "search depth in plies from the analysed position (fixed depth: reproducible books)")
	f.Float64Var(&moveTime, "movetime", 0, "seconds per candidate move instead of --depth (not reproducible; not with --depth)")
	f.IntVar(&plies, "plies", 12, "analyse positions up to this many plies from the start (or from a seed)")
	f.IntVar(&positions, "positions", 1000, "analyse at most this many positions (seeds always)")
	f.IntVar(&margin, "margin", 10, "keep moves within this many centi-men (hundredths of a man) of the best")
	f.StringArrayVar(&games, "games", nil, "PDN file of games whose frequent moves are kept (repeatable)")
	f.IntVar(&minCount, "min-count", 3, "ignore game moves played fewer times")
	f.StringArrayVar(&seedFiles, "positions-file", nil, "seed positions analysed first: ballot JSON, TSV with a fen column, or FEN lines (repeatable)")
	// --threads and --hash are book build's own: positions at once, the
	// table of each one's search.
	f.IntVar(&positionsAtOnce, "threads", search.DefaultThreads, "positions analysed at the same time (one search thread each)")
	f.IntVar(&hashPerWorker, "hash", 8, "transposition table of each worker, MiB")
	f.StringVar(&out, "out", "", "book file to write (default VARIANT.book)")
	f.BoolVar(&resume, "resume", false, "go on from OUT.checkpoint when it exists")
	f.BoolVar(&noProgress, "no-progress", false, noProgressUsage)
	f.DurationVar(&checkpointEvery, "checkpoint-every", 30*time.Second, "write OUT.checkpoint this often")
	return cmd
}

// checkOutputPath reports, as bad input, an output file that cannot be
// written: its folder missing or not a folder, or the path a folder.
func checkOutputPath(out string) error {
	dir := filepath.Dir(out)
	st, err := os.Stat(dir)
	if err != nil {
		return badInput("--out %s: folder %s: %v", out, dir, err)
	}
	if !st.IsDir() {
		return badInput("--out %s: %s is not a folder", out, dir)
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return badInput("--out %s is a folder, not a file", out)
	}
	if err := writeTest(dir); err != nil {
		return badInput("--out %s: cannot write in %s: %v", out, dir, err)
	}
	return nil
}

// writeTest makes and removes a file in dir: nil when dir takes new files.
func writeTest(dir string) error {
	f, err := os.CreateTemp(dir, ".damka-write-test-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkOutputDir reports, as bad input, an output folder that cannot be
// used: a file by that name, or its parent folder missing or not a folder
// (the folder itself is made when missing, its parents are not, as with
// every other --out). The folder must be writable. Several processes may
// make the same folder at once (the shards of a Slurm job array).
func checkOutputDir(out string) error {
	st, err := os.Stat(out)
	switch {
	case err == nil && !st.IsDir():
		return badInput("--out %s is a file, not a folder", out)
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(filepath.Clean(out))
		pst, perr := os.Stat(parent)
		if perr != nil {
			return badInput("--out %s: folder %s: %v", out, parent, perr)
		}
		if !pst.IsDir() {
			return badInput("--out %s: %s is not a folder", out, parent)
		}
		// Shards of one job array start together and make the same
		// folder: one made by another process in between is the folder.
		if err := os.Mkdir(out, 0o755); err != nil {
			if st, serr := os.Stat(out); !errors.Is(err, fs.ErrExist) || serr != nil || !st.IsDir() {
				return badInput("--out %s: %v", out, err)
			}
		}
	default:
		return badInput("--out %s: %v", out, err)
	}
	if err := writeTest(out); err != nil {
		return badInput("--out %s: cannot write in it: %v", out, err)
	}
	return nil
}

// bookBuildFlags are the flags of bench.BookJob's file fields.
var bookBuildFlags = map[string]string{"SeedFiles": "positions-file", "GameFiles": "games"}

// cmdContext returns the command's context or a background one.
func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// loadBook returns the book file at path, or the embedded book of v. A
// file's variant is read from its header: v (given with --variant, so
// variantSet) must match it; without --variant the header decides.
func loadBook(v engine.VariantID, variantSet bool, path string) (*book.Book, error) {
	if path == "" {
		return book.Default(v)
	}
	data, err := fileread.Read(path, book.MaxFileBytes)
	if err != nil {
		return nil, badInput("--book: %v", err)
	}
	b, err := book.Load(data)
	if err != nil {
		return nil, badInput("--book %s: %v", path, err)
	}
	if variantSet && b.Variant() != v {
		return nil, badInput("--book %s: the book is %s, not %s (leave out --variant to use the book's own)", path, b.Variant(), v)
	}
	return b, nil
}

func newBookShowCmd() *cobra.Command {
	var fen, moves, file string
	var variant *toolSetting
	cmd := &cobra.Command{
		Use:   "show",
		Short: "print the book moves of a position with weights and scores",
		Long: `show prints the book moves of a position (--fen, default the start position,
then --moves played from it): move, weight, share of the weights in percent,
score in men from the side to move with two decimals (1.00 = one man, a win
in n plies 100 - n/100), and games (times played in the seeding games). A
position without book moves prints "not in book". With --book the variant is
the book file's own unless --variant is given.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			b, err := loadBook(v, cmd.Flags().Changed("variant"), file)
			if err != nil {
				return err
			}
			v = b.Variant() // a book file's own variant when --variant is not given
			start, err := positionFromFlags(v, fen)
			if err != nil {
				return err
			}
			g := engine.NewGame(start)
			if err := playMoves(g, moves); err != nil {
				return err
			}
			p := g.Position()
			return printBookMoves(cmd.OutOrStdout(), b, &p)
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.StringVar(&fen, "fen", "", "position as PDN FEN or Hub string (default: the start position)")
	f.StringVar(&moves, "moves", "", "moves played from the position first, space-separated (PDN move numbers allowed)")
	f.StringVar(&file, "book", "", "book file instead of the embedded book (its variant is read from the file)")
	return cmd
}

// printBookMoves writes the book moves of p, one per line.
func printBookMoves(w io.Writer, b *book.Book, p *engine.Position) error {
	fmt.Fprintf(w, "position %s\n", p.FENStyle(p.V.Rules().Notation))
	es := b.Probe(p)
	if len(es) == 0 {
		fmt.Fprintln(w, "not in book")
		return nil
	}
	total := 0
	for _, e := range es {
		total += e.Weight
	}
	fmt.Fprintf(w, "%-12s %6s %6s %6s %5s\n", "move", "weight", "share", "score", "games")
	for _, e := range es {
		fmt.Fprintf(w, "%-12s %6d %5.1f%% %6s %5d\n", p.FormatMove(e.Move, engine.FormatShort),
			e.Weight, 100*float64(e.Weight)/float64(total), search.FormatScore(e.Score), e.Games)
	}
	return nil
}

func newBookStatsCmd() *cobra.Command {
	var file string
	var variant *toolSetting
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "print positions, depth and size of the books",
		Long: `stats prints, for the embedded book of --variant (default: every variant)
or for the file --book, one line variant=V positions=N moves=M max-ply=P
bytes=B, then the build text recorded in the book (command and settings).
The command of an embedded book names its game and ballot files where a
clone of the repository has them (testdata/draughts): run it from the
repository root to build the book again.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			vs := engine.AllVariants()
			if variant.value() != "" || file != "" {
				v, err := parseVariantFlag(cmp.Or(variant.value(), player.MustLookup(player.SetVariant).Default))
				if err != nil {
					return err
				}
				vs = []engine.VariantID{v}
			}
			w := cmd.OutOrStdout()
			for _, v := range vs {
				b, err := loadBook(v, variant.value() != "", file)
				if err != nil {
					return err
				}
				st := b.Stats()
				fmt.Fprintf(w, "variant=%s positions=%d moves=%d max-ply=%d bytes=%d\n",
					st.Variant, st.Positions, st.Moves, st.MaxPly, st.Bytes)
				lines := strings.Split(strings.TrimSpace(st.BuildInfo), "\n")
				for _, l := range lines {
					if file == "" {
						l = embeddedBuildLine(l)
					}
					fmt.Fprintf(w, "  %s\n", l)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	variant = addToolSetting(cmd, player.SetVariant, "", "variant (default: every variant)")
	f.StringVar(&file, "book", "", "book file instead of the embedded book (its variant is read from the file)")
	return cmd
}

// bookFileArgRe: a file argument of a recorded book build command.
var bookFileArgRe = regexp.MustCompile(`(--(?:games|positions-file) )('(?:[^']|'\\'')*'|\S+)`)

// embeddedBuildLine returns a line of an embedded book's build text with the
// game and ballot files of its command named in testdata/draughts, where a
// clone of the repository has them (the same files: the header's hashes of
// them agree); the header names them by the folder they were read from.
func embeddedBuildLine(l string) string {
	if !strings.HasPrefix(l, "command: ") {
		return l
	}
	return bookFileArgRe.ReplaceAllStringFunc(l, func(m string) string {
		p := bookFileArgRe.FindStringSubmatch(m)
		f := p[2]
		if strings.HasPrefix(f, "'") {
			f = strings.ReplaceAll(f[1:len(f)-1], `'\''`, "'")
		}
		return p[1] + shellQuote("testdata/draughts/"+filepath.Base(f))
	})
}
