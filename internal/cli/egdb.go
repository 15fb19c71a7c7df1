// egdb.go: the `damka egdb` subcommands: build, probe, verify, stats.

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/player"
)

func newEGDBCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "egdb",
		Short: "endgame databases: build, probe, verify, stats",
		Long: `egdb builds and reads damka's endgame tables: win/draw/loss for every
position of few pieces, with distances (plies to the end) for kings-only
slices. One file per material slice, variant-WMWKBMBK.egdb (W and B: the
white and black men and kings, e.g. english-0201.egdb). damka embeds the
small tables; --egdb DIR on hub, analyse, solve, dxp and match adds the
tables of DIR. "damka egdb COMMAND --help" describes each command;
docs/egdb.md in the source tree has the sizes and build times.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newEGDBBuildCmd(), newEGDBProbeCmd(), newEGDBVerifyCmd(), newEGDBStatsCmd())
	return cmd
}

// parseShard reads --shard I/N (1 <= I <= N, as damka match takes it)
// and returns the 0-based part and the count.
func parseShard(s string) (int, int, error) {
	if s == "" {
		return 0, 1, nil
	}
	i, n, err := match.ParseShard(s)
	if err != nil {
		return 0, 0, badInput("--shard: %v", err)
	}
	return i - 1, n, nil
}

func newEGDBBuildCmd() *cobra.Command {
	var (
		out, shard       string
		variant, threads *toolSetting
		pieces           int
		noProgress       bool
	)
	cmd := &cobra.Command{
		Use:   "build",
		Short: "generate the tables of a variant up to a number of pieces",
		Long: `build solves every material slice of 2..--pieces pieces of --variant, fewer
pieces first, and writes one file per slice into --out. Slices already in
--out (and sound) are kept, so a stopped build resumes. --shard I/N (1 <= I
<= N) builds only part I of N of the --pieces-piece slices (and what they
need that --out lacks): run N such jobs, e.g. a Slurm array or a Kubernetes
indexed job, with the same --out. The output does not depend on --threads.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			if pieces < 2 || pieces > egdb.MaxPieces {
				return badInput("--pieces %d out of range 2..%d", pieces, egdb.MaxPieces)
			}
			nThreads, err := threads.int()
			if err != nil {
				return err
			}
			if out == "" {
				return badInput("--out is required (the directory of the tables)")
			}
			if err := checkOutputDir(out); err != nil {
				return err
			}
			si, sn, err := parseShard(shard)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt, syscall.SIGTERM)
			defer stop()
			var bar *progressbar.ProgressBar
			showBar := !noProgress && isTerminal(os.Stderr)
			opts := egdb.BuildOptions{Variant: v, Pieces: pieces, Dir: out, Threads: nThreads, Shard: si, Shards: sn,
				Logf: func(format string, a ...any) { logger.Info().Msg(fmt.Sprintf(format, a...)) }}
			if showBar {
				var once sync.Once
				opts.Progress = func(done, total uint64) {
					// The first report makes the bar; the others wait for it.
					once.Do(func() {
						bar = progressbar.NewOptions64(int64(max(total, 1)),
							progressbar.OptionSetWriter(cmd.ErrOrStderr()),
							progressbar.OptionSetDescription(fmt.Sprintf("%s %d pieces", v, pieces)),
							progressbar.OptionShowCount(),
							progressbar.OptionShowIts(),
							progressbar.OptionSetItsString("pos"),
							progressbar.OptionSetPredictTime(true),
							progressbar.OptionSetElapsedTime(true),
							progressbar.OptionThrottle(200*time.Millisecond),
							progressbar.OptionSetWidth(30))
					})
					_ = bar.Set64(int64(done))
				}
			}
			// The solver's arrays are large and hold no pointers, so the
			// collector has nothing to scan in them: a low target keeps
			// the peak near the live set for little time (docs/egdb.md
			// "Figures"). GOGC in the environment takes precedence.
			if os.Getenv("GOGC") == "" {
				debug.SetGCPercent(buildGCPercent)
			}
			start := time.Now()
			stats, err := egdb.Build(ctx, opts)
			if bar != nil {
				_ = bar.Exit()
				fmt.Fprintln(cmd.ErrOrStderr())
			}
			if err != nil {
				return err
			}
			el := time.Since(start)
			var built, positions, bytes uint64
			for _, s := range stats {
				bytes += uint64(s.Bytes)
				if s.Built {
					built++
					positions += s.Positions
				}
			}
			rate := 0.0
			if el > 0 {
				rate = float64(positions) / el.Seconds()
			}
			fmt.Fprintf(cmd.OutOrStdout(), "variant=%s pieces=%d slices=%d built=%d positions=%d bytes=%d time=%.2f pos/s=%.0f\n",
				v, pieces, len(stats), built, positions, bytes, el.Seconds(), rate)
			return nil
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.IntVar(&pieces, "pieces", 4, "most pieces on the board")
	f.StringVar(&out, "out", "", "output directory")
	threads = addSetting(cmd, player.SetThreads, "worker threads")
	f.StringVar(&shard, "shard", "", "build part I of N (I/N, 1 <= I <= N) of the largest slices")
	f.BoolVar(&noProgress, "no-progress", false, "no progress bar (there is none unless stderr is a terminal)")
	return cmd
}

// buildGCPercent is the garbage collector's target (GOGC) of damka egdb
// build: a 5-piece English build peaks at 692 MB with it against 777 MB
// with Go's default of 100, in the same user time.
const buildGCPercent = 25

// openToolDB opens the DIR argument of verify and stats: that directory
// alone, or the embedded set when there is none. Both commands report each
// file they cannot use themselves, so its load errors are not logged.
func openToolDB(args []string) (*egdb.DB, error) {
	if len(args) == 0 {
		return egdb.Open("")
	}
	db, err := egdb.OpenDir(args[0])
	if err != nil {
		return nil, badInput("%v", err)
	}
	return db, nil
}

// noTables is the error of egdb stats and verify when where (a folder or
// the embedded set) holds no slice of v: exit status 2.
func noTables(v engine.VariantID, where string) error {
	return badInput("%s holds no %s tables", where, v)
}

// valueWords writes a probe's value and distance: "none" for a draw,
// "unknown" for a win or loss of a slice without distances.
func valueWords(v egdb.Value, dist int) string {
	switch {
	case v == egdb.Draw:
		return "value=draw distance=none"
	case dist >= 0:
		return fmt.Sprintf("value=%s distance=%d", v, dist)
	}
	return fmt.Sprintf("value=%s distance=unknown", v)
}

func newEGDBProbeCmd() *cobra.Command {
	var fen string
	var variant, dir *toolSetting
	cmd := &cobra.Command{
		Use:   "probe",
		Short: "the table value, distance and best move of a position",
		Long: `probe prints value=win|draw|loss for the side to move, distance=N (plies to
the end of the game with best play; "unknown" for slices with men, which
store win/draw/loss only; "none" for a draw) and best=MOVE (the move keeping the value, the
fastest win or the longest loss where distances are stored). --egdb is the
directory of the tables; without it the embedded set is used.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, p, err := variantPosition(variant.value(), fen)
			if err != nil {
				return err
			}
			if strings.TrimSpace(fen) == "" {
				return badInput("--fen is required")
			}
			db, err := dir.tables()
			if err != nil {
				return err
			}
			if db == nil {
				return badInput("--egdb %s: no tables to probe", dir.value())
			}
			if db != egdb.Default() {
				defer db.Close()
			}
			v, dist, ok := db.Probe(&p)
			if !ok {
				return badInput("no table for %s (%d pieces; tables up to %d here)", p.FEN(),
					egdb.MaterialOf(&p).Pieces(), db.Pieces(p.V))
			}
			line := valueWords(v, dist)
			if m, _, _, ok := db.BestMove(&p); ok {
				line += " best=" + p.FormatMove(m, engine.FormatFull)
			} else {
				line += " best=none"
			}
			fmt.Fprintln(cmd.OutOrStdout(), line)
			return nil
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	f.StringVar(&fen, "fen", "", "the position (PDN FEN or Hub position)")
	dir = addSetting(cmd, player.SetEGDBPath, "")
	return cmd
}

func newEGDBVerifyCmd() *cobra.Command {
	var variant, threads *toolSetting
	var limit int
	var only []string
	cmd := &cobra.Command{
		Use:   "verify [DIR]",
		Short: "check every stored value against a one-ply search over the tables",
		Long: `verify checks each slice of --variant in DIR (the directory alone; default:
the embedded set):
every stored value must be the best over the position's moves, captures
resolved, and each stored distance one more than the best successor's. One
line per slice; exit status 1 when anything disagrees or a file is unsound.
A file that cannot be used (damaged: its size, header, checksum or a block;
unreadable) is named on standard error with what is wrong with it; the
slices that need it are listed as "unchecked" and the others still checked.
--slices checks only the slices named (e.g. --slices 0212,1103: white men,
white kings, black men, black kings), to split a long verify or resume one.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			nThreads, err := threads.int()
			if err != nil {
				return err
			}
			if limit < 0 {
				return badInput("--limit %d: want 0 or more", limit)
			}
			var ms []egdb.Material
			for _, s := range only {
				m, err := egdb.ParseMaterial(strings.TrimSpace(s))
				if err != nil {
					return badInput("--slices: %v", err)
				}
				ms = append(ms, m)
			}
			db, err := openToolDB(args)
			if err != nil {
				return err
			}
			defer db.Close()
			where := "the embedded set"
			if db.Dir() != "" {
				where = db.Dir()
			}
			for _, m := range ms {
				if !db.Has(v, m) {
					return badInput("--slices: slice %s of %s is not in %s", m, v, where)
				}
			}
			var bad uint64
			reported, unchecked := 0, 0
			var unusable []string // the files at fault, each once
			w := cmd.OutOrStdout()
			err = db.Verify(cmdContext(cmd), v, nThreads, limit, ms, func(r egdb.VerifyResult) {
				reported++
				if r.Err != nil {
					unchecked++
					fmt.Fprintf(w, "slice=%s unchecked\n", r.Material)
					fmt.Fprintln(cmd.ErrOrStderr(), "damka:", r.Err)
					if f := egdb.FileName(v, r.Cause); !slices.Contains(unusable, f) {
						unusable = append(unusable, f)
					}
					return
				}
				fmt.Fprintf(w, "slice=%s checked=%d mismatches=%d\n", r.Material, r.Checked, r.Wrong)
				for _, m := range r.Mismatches {
					fmt.Fprintln(w, "  "+m.String())
				}
				bad += r.Wrong
			})
			if err != nil {
				return err
			}
			if reported == 0 {
				return noTables(v, where)
			}
			if unchecked > 0 {
				fmt.Fprintf(w, "variant=%s slices=%d mismatches=%d unchecked=%d\n", v, reported, bad, unchecked)
				msg := fmt.Sprintf("%d of %d slices of %s not checked: %s cannot be used (what is wrong is above)",
					unchecked, reported, v, strings.Join(unusable, ", "))
				if db.Dir() != "" {
					most := 0
					for _, m := range egdb.Materials(v, egdb.MaxPieces) {
						if db.Has(v, m) {
							most = max(most, m.Pieces())
						}
					}
					msg += fmt.Sprintf("; damka egdb build --variant %s --pieces %d --out %s builds them again", v, most, db.Dir())
				}
				return errors.New(msg)
			}
			fmt.Fprintf(w, "variant=%s slices=%d mismatches=%d\n", v, reported, bad)
			if bad > 0 {
				return exitStatus(1)
			}
			return nil
		},
	}
	f := cmd.Flags()
	variant = addSetting(cmd, player.SetVariant, "")
	threads = addSetting(cmd, player.SetThreads, "worker threads")
	f.IntVar(&limit, "limit", 5, "mismatches printed per slice")
	f.StringSliceVar(&only, "slices", nil, "check only these slices (comma-separated, e.g. 0212,1103)")
	return cmd
}

func newEGDBStatsCmd() *cobra.Command {
	var variant *toolSetting
	cmd := &cobra.Command{
		Use:   "stats [DIR]",
		Short: "positions, wins, draws, losses and bytes per slice",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variant.variant()
			if err != nil {
				return err
			}
			db, err := openToolDB(args)
			if err != nil {
				return err
			}
			defer db.Close()
			stats, errs := db.Stats(v)
			if len(stats) == 0 && len(errs) == 0 {
				where := "the embedded set"
				if db.Dir() != "" {
					where = db.Dir()
				}
				return noTables(v, where)
			}
			w := cmd.OutOrStdout()
			var tp, tb uint64
			for _, s := range stats {
				stored := s.Positions - s.DontCare
				ppb := float64(stored) / float64(max(s.Bytes, 1))
				kind := "wld"
				if s.DTM {
					kind = "dtm"
				}
				fmt.Fprintf(w, "slice=%s kind=%s positions=%d stored=%d wins=%d draws=%d losses=%d bytes=%d pos/byte=%.1f\n",
					s.Material, kind, s.Positions, stored, s.Wins, s.Draws, s.Losses, s.Bytes, ppb)
				tp += stored
				tb += uint64(s.Bytes)
			}
			fmt.Fprintf(w, "variant=%s slices=%d stored=%d bytes=%d pieces=%d\n", v, len(stats), tp, tb, db.Pieces(v))
			for _, e := range errs {
				fmt.Fprintln(cmd.ErrOrStderr(), "damka:", e)
			}
			if len(errs) > 0 {
				return exitStatus(1)
			}
			return nil
		},
	}
	variant = addSetting(cmd, player.SetVariant, "")
	return cmd
}
