// match.go: the `damka match` and `damka match merge` subcommands: engine
// against engine matches over Hub or DXP with Elo, pentanomial counts and SPRT.

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/shlex"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

const matchLong = `match plays engine against engine over Hub or DXP and reports the
result with Elo, a 95% interval, the likelihood of superiority, pentanomial
counts over opening pairs and, with --sprt, a sequential test that stops the
match when it accepts H0 or H1.

Each --engine is followed by key=value words (up to the next flag):
  name=NAME            player name in the PDN (default: the program's name)
  cmd=COMMAND          the command line, split as a shell does: cmd="damka"
                       or cmd="/path/to/scan hub"
  dir=DIR              working directory of the engine
  option.P=V           a Hub parameter set in the handshake (option.threads=1
                       option.hash=64); the variant parameter is set for you
  tc=, movetime=,      this engine's own limit, replacing the match's (e.g.
  depth=, nodes=       movetime=0.1 against movetime=0.05)
  ponder=true|false    whether this engine ponders, replacing --ponder (Hub)
  proto=hub|dxp        the protocol (default hub; port=, host=, stdin= imply dxp)
  port=N               DXP: the port the started engine listens on (worker i
                       of --concurrency uses N+i); "{port}" in cmd= is replaced
                       by it (a free port when port= is not given)
  host=HOST:PORT       DXP: an engine already listening (instead of cmd=)
  stdin=TEXT           DXP: lines (separated by ';') written to the started
                       engine's standard input, e.g. Moby Dam's stdin='time 200'
The first engine is A: wins, losses and Elo are A's.

DXP engines: the runner connects as initiator and proposes each game with
GAMEREQ: the opening's position (after its moves) and the clock, which must
be tc=[moves/]base with base in whole minutes and no increment, or a move
time (the GAMEREQ then gives the whole minutes that --max-plies/2 such moves
take; tell the engine its move time itself, e.g. with stdin=). The runner
keeps both clocks and referees every move as for Hub engines; a GAMEEND in
place of a move is a resignation ("I lose") or else a false claim (a loss).

Openings (--openings): the ACF 3-move TSV (.tsv, the 156-opening deck), a
pydraughts ballot file (.json, name -> FEN), a PDN file (.pdn, FEN tag and/or
moves; damka openings writes such decks) or plain lines of FEN or Hub
position (anything else). Each opening is played twice, colours swapped (A
has White in game 1); --rounds repeats the deck.

Limits (one of): --tc [moves/]base[+inc] in seconds (40/60+0.5), --movetime S,
--depth N, --nodes N. The runner keeps the clocks: an answer later than the
time left (or the move time) plus --time-margin loses on time. Under --depth
or --nodes a search longer than --hang-timeout is stopped; an engine that
does not answer stop is killed. Illegal moves, crashes, hangs and time losses
lose the game with that Termination; crashed engines are restarted. A game
still going after --max-plies plies is adjudicated a draw.

--ponder has the Hub engines think on their opponent's time, as
cutechess-cli's -pondering: the runner sets each engine's ponder parameter
(an engine without one plays without pondering, with a warning), and after
an engine's done move=M ponder=P it sends it pos with the game, M and P,
the level of its next move and go ponder. When the opponent plays P it
sends ponder-hit and the engine's clock runs from then; after another move
it sends stop, discards the answer and has the engine think as usual. Time
spent pondering before ponder-hit is not charged. The summary gives each
engine's ponder hits (hits/ponder searches). DXP has no pondering: --ponder
is ignored for DXP engines.

Adjudication as cutechess-cli has it, from the scores the engines report
(Hub info score=, in men; DXP engines report none, so their games are not
adjudicated): --draw movenumber=N,movecount=M,score=S draws a game once N
full moves are played and both engines' scores stayed within S men of 0 for
M moves each; --resign movecount=M,score=S ends it when, for M moves each,
the losing side's engine scored -S or less and its opponent +S or more.
--adjudicate egdb ends a game as soon as the position after a move is in
the endgame databases (--egdb DIR over the embedded set, or the embedded set
alone): a win or loss for the side to move where its distance is shorter
than the move-count draw rules leave (20 plies or more left for tables
without distances), a draw always.
The PDN Termination is "draw adjudication", "resign adjudication" or "egdb
adjudication" (the move cap's is "adjudication"); TerminationDetail gives
the rule, or the database's value and distance.

--resume continues an interrupted match (Ctrl-C, a batch system's time
limit, a crash) from its --pdn file: run the same command again with
--resume. The games in the file are checked to be this match's (engines'
names, variant, openings, limits, --seed, --shard; a file of another match
is refused), a half-written last game is cut off with a warning, only the
missing games are played, and the statistics count every game of the file,
as a run straight through would. Without the file the match starts anew.
Without --resume, a --pdn file that holds games already is refused (exit
status 2): a second match appended to it would spoil both.

--shard I/N plays the I-th of N disjoint parts of the schedule (whole opening
pairs; give every shard the same --seed), and "damka match merge" recomputes
the statistics from the shards' PDN files.

The last line of standard output is
  games=N wins=W draws=D losses=L elo=E err=X los=P [llr=L]`

// parseWithEngines parses the arguments of a command that takes repeated
// --engine descriptions of several words each, which pflag cannot (the
// command sets DisableFlagParsing): the descriptions (see extractEngines),
// then the other flags, then logging and the profiles are set up. help
// reports that --help was given and the help shown. Bad flags and stray
// arguments are bad input.
func parseWithEngines(cmd *cobra.Command, args []string) (specs [][]string, help bool, err error) {
	specs, extra, help, err := parseEngineArgs(cmd, args, false)
	if err == nil && !help && len(extra) > 0 {
		return nil, false, badInput("unexpected arguments %q (engine words go right after --engine)", extra)
	}
	return specs, help, err
}

// parseWithEnginesArgs is parseWithEngines for a command that also takes
// positional arguments, which it returns in order: those among the flags,
// and the words that end an engine description without being key=value
// words (the FILE of "--engine name=A cmd=a FILE").
func parseWithEnginesArgs(cmd *cobra.Command, args []string) (specs [][]string, positional []string, help bool, err error) {
	return parseEngineArgs(cmd, args, true)
}

// parseEngineArgs is parseWithEngines and parseWithEnginesArgs: with
// trailing, words that end a description and are not key=value are
// positional arguments.
func parseEngineArgs(cmd *cobra.Command, args []string, trailing bool) (specs [][]string, positional []string, help bool, err error) {
	rest, specs, err := extractEngines(args)
	if err != nil {
		return nil, nil, false, err
	}
	var tail []string
	if trailing {
		for i, words := range specs {
			n := len(words)
			for n > 0 && !keyValueRE.MatchString(words[n-1]) {
				n--
			}
			if n == 0 {
				return nil, nil, false, badInput("--engine needs key=value words: name=NAME cmd=COMMAND [option.P=V ...]")
			}
			tail = append(tail, words[n:]...)
			specs[i] = words[:n]
		}
	}
	// ParseFlags does nothing with DisableFlagParsing; InheritedFlags
	// merges the root's --log-level and --log-file into Flags first.
	_ = cmd.InheritedFlags()
	if err := cmd.Flags().Parse(rest); err != nil {
		return nil, nil, false, flagError(cmd.Flags(), err)
	}
	if help, _ := cmd.Flags().GetBool("help"); help {
		return nil, nil, true, cmd.Help()
	}
	positional = append(cmd.Flags().Args(), tail...)
	if err := setupLogging(); err != nil {
		return nil, nil, false, err
	}
	// The root's PersistentPreRunE ran before these flags were parsed, so
	// --cpu-profile and --mem-profile start here.
	return specs, positional, false, startProfile()
}

// engineFlag is the name of the repeated engine flag.
const engineFlag = "engine"

// specKeys are the keys an engine description word may start with.
var specKeys = []string{"name=", "proto=", "cmd=", "dir=", "host=", "port=", "stdin=", "option.", "tc=", "movetime=", "depth=", "nodes="}

func isSpecWord(w string) bool {
	for _, k := range specKeys {
		if strings.HasPrefix(w, k) {
			return true
		}
	}
	return false
}

// keyValueRE matches a word of the key=value form of engine descriptions.
var keyValueRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.]*=`)

// extractEngines takes every --engine and the key=value words after it
// out of args. A word may hold a whole description in one quoted string
// ('name=A cmd="damka hub"'): it is split as a shell does when its first
// two parts are description words and every part is a key=value word;
// otherwise it is one word whose value may contain spaces
// (cmd=/path/to/engine --hub).
func extractEngines(args []string) (rest []string, engines [][]string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != engineFlag {
			rest = append(rest, a)
			continue
		}
		var raw []string
		if hasVal {
			raw = append(raw, val)
		}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			raw = append(raw, args[i])
		}
		var words []string
		for _, w := range raw {
			parts, serr := shlex.Split(w)
			// A whole description: its first two words are description
			// words and every word is key=value (an unknown key among them
			// is then reported as such).
			whole := serr == nil && len(parts) > 1 && isSpecWord(parts[0]) && isSpecWord(parts[1])
			for _, p := range parts {
				if whole && !keyValueRE.MatchString(p) {
					// A whole description with a word that is no
					// key=value word: read as one word, its name would
					// run on into the cmd= (then "no cmd= given").
					return nil, nil, badInput("--engine %q: %q is not key=value (quote a value with spaces: cmd=\"PROGRAM ARGS\")", w, p)
				}
			}
			if f := strings.Fields(w); serr != nil && len(f) > 1 && isSpecWord(f[0]) && isSpecWord(f[1]) {
				// A whole description with a broken quote: its words would
				// run into the first one's value.
				return nil, nil, badInput("--engine %q: %v (quote the whole description, or each word)", w, serr)
			}
			if whole {
				words = append(words, parts...)
			} else {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			return nil, nil, badInput("--engine needs key=value words: name=NAME cmd=COMMAND [option.P=V ...]")
		}
		engines = append(engines, words)
	}
	return rest, engines, nil
}

type matchFlags struct {
	openings, tc, pdn, sprt, shard string
	draw, resign, adjudicate       string
	// variant and egdb are the player's settings of the same names.
	variant, egdb                        *toolSetting
	engineStderr, event                  string
	rounds, depth, concurrency, maxPlies int
	nodes, seed                          uint64
	movetime, timeMargin, hangTimeout    float64
	handshakeTimeout                     float64
	movetimeSet                          bool // --movetime given (0 is out of range, not missing)
	noProgress, progress                 bool
	resume, ponder                       bool
}

func newMatchCmd() *cobra.Command {
	var f matchFlags
	cmd := &cobra.Command{
		Use:   "match --engine name=A cmd=... --engine name=B cmd=... --openings FILE (--tc|--movetime|--depth|--nodes) [flags]",
		Short: "play an engine-against-engine match over Hub or DXP (Elo, pentanomial, SPRT)",
		Long:  matchLong,
		// --engine takes several words, which pflag cannot: the command
		// parses its own arguments (see extractEngines).
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, help, err := parseWithEngines(cmd, args)
			if err != nil || help {
				return err
			}
			f.movetimeSet = cmd.Flags().Changed("movetime")
			return runMatch(cmd, f, specs)
		},
	}
	fl := cmd.Flags()
	fl.String(engineFlag, "", "an engine: name=NAME cmd=COMMAND [dir=DIR] [option.P=V ...] (give it twice, A then B)")
	f.variant = addSetting(cmd, player.SetVariant, "")
	fl.StringVar(&f.openings, "openings", "", "openings file: .tsv (ACF 3-move), .json (ballots), .pdn, or lines of FEN or Hub position")
	fl.IntVar(&f.rounds, "rounds", 1, "play the opening deck this many times")
	fl.StringVar(&f.tc, "tc", "", "clock [moves/]base[+inc] in seconds, e.g. 40/60+0.5")
	fl.Float64Var(&f.movetime, "movetime", 0, "seconds per move (more than 0)")
	fl.IntVar(&f.depth, "depth", 0, "search depth per move (plies)")
	fl.Uint64Var(&f.nodes, "nodes", 0, "nodes per move ("+nodesRange+")")
	setFlagRange(fl, "nodes", nodesRange)
	fl.IntVar(&f.concurrency, "concurrency", 1, "games played at once (each with its own two engine processes; at most 4 a processor core)")
	fl.BoolVar(&f.ponder, "ponder", false, "Hub engines think on the opponent's time (go ponder, ponder-hit); an engine's ponder=true|false overrides it")
	fl.StringVar(&f.pdn, "pdn", "", "append every game to this PDN file as it ends")
	fl.BoolVar(&f.resume, "resume", false, "continue the interrupted match whose games are in --pdn FILE (same engines, variant, openings, limits, seed, shard): play only the games missing")
	fl.StringVar(&f.sprt, "sprt", "", "SPRT: elo0=0,elo1=5,alpha=0.05,beta=0.05 on logistic Elo, or add model=normalized for fishtest's normalized Elo (elo0=0,elo1=2,model=normalized)")
	fl.StringVar(&f.shard, "shard", "", "play only shard I of N of the schedule: I/N")
	fl.Uint64Var(&f.seed, "seed", 0, "shuffle the opening order with this seed (0: file order)")
	fl.StringVar(&f.draw, "draw", "", "adjudicate a draw: movenumber=N,movecount=M,score=S (both engines within S men of 0 for M moves each, from move N)")
	fl.StringVar(&f.resign, "resign", "", "adjudicate a loss: movecount=M,score=S (both engines agree one side is S men or more down for M moves each)")
	fl.StringVar(&f.adjudicate, "adjudicate", "", "adjudicate by the endgame databases: egdb (the result the database knows, where the draw rules cannot change it)")
	f.egdb = addSetting(cmd, player.SetEGDBPath, "endgame tables of --adjudicate egdb: empty for the embedded set, else a directory of tables over it")
	fl.IntVar(&f.maxPlies, "max-plies", match.DefaultMaxPlies, "adjudicate a draw after this many plies played by the engines")
	fl.Float64Var(&f.timeMargin, "time-margin", match.DefaultTimeMargin.Seconds(), "seconds an engine may overrun its time before it loses on time")
	fl.Float64Var(&f.hangTimeout, "hang-timeout", match.DefaultHangTimeout.Seconds(), "seconds a --depth/--nodes search may take before the engine is stopped")
	fl.Float64Var(&f.handshakeTimeout, "handshake-timeout", match.DefaultStartTimeout.Seconds(), "seconds an engine may take to start and answer the handshake with wait")
	fl.StringVar(&f.engineStderr, "engine-stderr", "", "append the engines' standard error to this file (default: discard)")
	fl.StringVar(&f.event, "event", "", "PDN Event tag (default \"damka match\")")
	fl.BoolVar(&f.noProgress, "no-progress", false, noProgressUsage)
	// The old name: --progress=false is --no-progress.
	fl.BoolVar(&f.progress, "progress", true, "")
	_ = fl.MarkDeprecated("progress", "use --no-progress")
	cmd.AddCommand(newMatchMergeCmd())
	return cmd
}

// matchConfig builds the runner's configuration from the flags.
func matchConfig(f matchFlags, specs [][]string) (match.Config, error) {
	var cfg match.Config
	v, err := f.variant.variant()
	if err != nil {
		return cfg, err
	}
	cfg.Variant = v
	if len(specs) != 2 {
		return cfg, badInput("want exactly two --engine, got %d", len(specs))
	}
	for i, words := range specs {
		e, err := match.ParseEngineSpec(words, shlex.Split)
		if err != nil {
			return cfg, badInput("--engine %d: %v", i+1, err)
		}
		if err := checkEngineCommand(e); err != nil {
			return cfg, badInput("--engine %d (%s): %v", i+1, e.Name, err)
		}
		cfg.Engines[i] = e
	}
	if cfg.Engines[0].Name == cfg.Engines[1].Name {
		return cfg, badInput("both engines are named %q: give each a different name=", cfg.Engines[0].Name)
	}
	if f.openings == "" {
		return cfg, badInput("--openings FILE is required")
	}
	if cfg.Openings, err = openings.Load(f.openings, v); err != nil {
		return cfg, badInput("%v", err)
	}
	if f.rounds < 1 {
		return cfg, badInput("--rounds %d: want 1 or more", f.rounds)
	}
	cfg.Rounds = f.rounds
	if f.tc != "" {
		if cfg.Limits, err = match.ParseTC(f.tc); err != nil {
			return cfg, badInput("--tc: %v", err)
		}
	}
	if f.movetimeSet || f.movetime != 0 {
		if !(f.movetime > 0 && f.movetime <= 1e6) { // also NaN
			return cfg, badInput("--movetime %g out of range (0, 1e6] seconds", f.movetime)
		}
		cfg.Limits.MoveTime = time.Duration(f.movetime * float64(time.Second))
	}
	if f.depth < 0 || f.depth > search.MaxDepth {
		return cfg, badInput("--depth %d out of range 1..%d", f.depth, search.MaxDepth)
	}
	if f.nodes != 0 {
		if err := checkNodes(f.nodes); err != nil {
			return cfg, err
		}
	}
	cfg.Limits.Depth, cfg.Limits.Nodes = f.depth, f.nodes
	if most := maxConcurrency(); f.concurrency < 1 || f.concurrency > most {
		return cfg, badInput("--concurrency %d out of range 1..%d (4 games a processor core: each game runs two engines)", f.concurrency, most)
	}
	cfg.Concurrency = f.concurrency
	if err := cfg.CheckLimits(); err != nil {
		return cfg, badInput("%v", err)
	}
	cfg.Ponder = f.ponder
	if f.sprt != "" {
		t, err := match.ParseSPRT(f.sprt)
		if err != nil {
			return cfg, badInput("--sprt: %v", err)
		}
		cfg.SPRT = &t
	}
	if f.shard != "" {
		if cfg.Shard, cfg.Shards, err = match.ParseShard(f.shard); err != nil {
			return cfg, badInput("--shard: %v", err)
		}
	}
	if f.draw != "" {
		d, err := match.ParseDrawRule(f.draw)
		if err != nil {
			return cfg, badInput("--draw: %v", err)
		}
		cfg.Draw = &d
	}
	if f.resign != "" {
		r, err := match.ParseResignRule(f.resign)
		if err != nil {
			return cfg, badInput("--resign: %v", err)
		}
		cfg.Resign = &r
	}
	switch f.adjudicate {
	case "":
		if f.egdb.value() != "" {
			return cfg, badInput("--egdb %s: the tables are for --adjudicate egdb, which is not given", f.egdb.value())
		}
	case "egdb":
		db, err := f.egdb.tables()
		switch {
		case err != nil:
			return cfg, err
		case db == nil:
			return cfg, badInput("--egdb %s: --adjudicate egdb needs endgame tables", f.egdb.value())
		}
		cfg.EGDB = db
	default:
		return cfg, badInput("--adjudicate %q: want egdb (adjudication by the endgame databases)", f.adjudicate)
	}
	if f.maxPlies < 1 {
		return cfg, badInput("--max-plies %d: want 1 or more", f.maxPlies)
	}
	secs := func(name string, x float64) (time.Duration, error) {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0, badInput("--%s %v: want a positive number of seconds", name, x)
		}
		return time.Duration(x * float64(time.Second)), nil
	}
	if cfg.TimeMargin, err = secs("time-margin", f.timeMargin); err != nil {
		return cfg, err
	}
	if cfg.HangTimeout, err = secs("hang-timeout", f.hangTimeout); err != nil {
		return cfg, err
	}
	if cfg.HandshakeTimeout, err = secs("handshake-timeout", f.handshakeTimeout); err != nil {
		return cfg, err
	}
	cfg.Seed, cfg.MaxPlies, cfg.Event = f.seed, f.maxPlies, f.event
	cfg.Log = logger
	return cfg, nil
}

// checkEngineCommand checks that an engine's program exists and can be
// run (a command with a "/" relative to its dir=), so that a wrong cmd= is
// reported before the match starts.
func checkEngineCommand(e match.EngineSpec) error {
	if e.Host != "" {
		return nil
	}
	if len(e.Command) == 0 {
		return fmt.Errorf("no cmd=")
	}
	prog := e.Command[0]
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) && e.Dir != "" {
		prog = filepath.Join(e.Dir, prog)
	}
	if _, err := exec.LookPath(prog); err != nil {
		return fmt.Errorf("cmd %q: %v", e.Command[0], err)
	}
	if e.Dir != "" {
		if st, err := os.Stat(e.Dir); err != nil || !st.IsDir() {
			return fmt.Errorf("dir %q is not a folder", e.Dir)
		}
	}
	return nil
}

// lockedWriter serialises writes (the engines' standard error).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func runMatch(cmd *cobra.Command, f matchFlags, specs [][]string) error {
	cfg, err := matchConfig(f, specs)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.resume {
		if f.pdn == "" {
			return badInput("--resume needs --pdn FILE, the interrupted match's games")
		}
		r, err := match.ResumeFile(f.pdn, cfg)
		if err != nil {
			return badInput("%v", err)
		}
		if r.Torn != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", r.Torn)
		}
		cfg.Played = r.Games
	}
	if f.pdn != "" && !f.resume {
		// A second run appended onto the file would make it two matches,
		// which --resume and match merge then refuse.
		if st, err := os.Stat(f.pdn); err == nil && st.Size() > 0 {
			return badInput("--pdn %s holds games already: add --resume to continue that match, or give another file", f.pdn)
		}
	}
	if f.pdn != "" {
		pf, err := os.OpenFile(f.pdn, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return badInput("--pdn: %v", err)
		}
		defer pf.Close()
		cfg.PDN = pf
	}
	if f.engineStderr != "" {
		ef, err := os.OpenFile(f.engineStderr, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return badInput("--engine-stderr: %v", err)
		}
		defer ef.Close()
		cfg.EngineStderr = &lockedWriter{w: ef}
	}
	total := cfg.Games()
	if total == 0 {
		return badInput("--shard %s: that part of the schedule has no games (%d openings x %d rounds make %d pairs)",
			f.shard, len(cfg.Openings), cfg.Rounds, len(match.Schedule(cfg.Openings, cfg.Rounds, cfg.Seed)))
	}
	fmt.Fprintf(out, "match %s: %s (%s) vs %s (%s), %d openings x %d rounds, %d games (shard %s), concurrency %d\n",
		cfg.Variant, cfg.Engines[0].Name, cfg.EngineLimits(0), cfg.Engines[1].Name, cfg.EngineLimits(1),
		len(cfg.Openings), cfg.Rounds, total, orDefault(f.shard, "all"), cfg.Concurrency)
	if f.resume {
		fmt.Fprintf(out, "resuming %s: %d of %d games played, %d to play\n", f.pdn, len(cfg.Played), total, total-len(cfg.Played))
	}
	cfg.Out = out
	// endBar finishes the progress bar and ends its line, before anything
	// more is printed on a terminal the bar shares with standard output.
	endBar := func() {}
	defer func() { endBar() }()
	if progressOn(cmd.ErrOrStderr(), f.noProgress || !f.progress) {
		bar := progressbar.NewOptions(total,
			progressbar.OptionSetWriter(cmd.ErrOrStderr()),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowDescriptionAtLineEnd(),
		)
		_ = bar.Set(len(cfg.Played))
		cfg.Out = &barWriter{bar: bar, w: out}
		cfg.Progress = func(p match.Progress) {
			elo, eloErr := p.Stats.EloText()
			if p.Stats.EloNA() == "" {
				elo += "±" + eloErr
			}
			d := fmt.Sprintf("score %.1f/%d elo %s", p.Stats.Score(), p.Stats.Games, elo)
			if cfg.SPRT != nil {
				d += fmt.Sprintf(" llr %.2f", p.LLR)
			}
			bar.Describe(d)
			_ = bar.Set(p.Played)
		}
		endBar = func() {
			_ = bar.Finish()
			fmt.Fprintln(cmd.ErrOrStderr())
			endBar = func() {}
		}
	}
	// Ctrl-C, and the SIGTERM of a batch system's time limit (Slurm),
	// stop the match with its summary of the games finished.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := match.Run(ctx, cfg)
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		err = fmt.Errorf("interrupted (by a signal) after %d of %d games (continue with --resume)", sum.Played, sum.Scheduled)
		if sum.Played == 0 {
			return fmt.Errorf("match stopped early: %w", err)
		}
	}
	endBar()
	if sum.Played == 0 && err != nil {
		if errors.Is(err, match.ErrStart) {
			return inputError{err} // the --engine description does not start a Hub engine
		}
		return err
	}
	if cfg.SPRT != nil {
		lo, hi := cfg.SPRT.Bounds()
		fmt.Fprintf(out, "SPRT %s: llr %.2f (bounds %.2f, %.2f): %s\n", cfg.SPRT, sum.LLR, lo, hi, sum.Decision)
	}
	writeMatchSummary(out, cfg.Engines[0].Name, cfg.Engines[1].Name, sum.Stats, sum.Faults, sum.Terminations)
	fmt.Fprintf(out, "longest answer to go: %s %.3f s (%s), %s %.3f s (%s)\n",
		cfg.Engines[0].Name, sum.Longest[0].Seconds(), cfg.EngineLimits(0), cfg.Engines[1].Name, sum.Longest[1].Seconds(), cfg.EngineLimits(1))
	writeTimeUse(out, cfg, &sum)
	writePonderHits(out, cfg, &sum)
	fmt.Fprintln(out, wallTimeLine(&sum))
	fmt.Fprintln(out, sum.Stats.Line(cfg.SPRT))
	if err != nil {
		return fmt.Errorf("match stopped early: %w", err)
	}
	return nil
}

// wallTimeLine is the summary's line of the run's wall time and the games
// it covers: "wall time 3.2s for 40 of 40 games", or after a resume the
// games this run played and those read from the file apart, "wall time
// 2.1s for 25 games played, 15 resumed from the file: 40 of 40 games".
func wallTimeLine(sum *match.Summary) string {
	wall := sum.Wall.Round(time.Millisecond)
	if sum.Resumed == 0 {
		return fmt.Sprintf("wall time %s for %d of %d games", wall, sum.Played, sum.Scheduled)
	}
	games := func(n int) string {
		if n == 1 {
			return "1 game"
		}
		return fmt.Sprintf("%d games", n)
	}
	return fmt.Sprintf("wall time %s for %s played, %d resumed from the file: %d of %d games",
		wall, games(sum.Played-sum.Resumed), sum.Resumed, sum.Played, sum.Scheduled)
}

// barWriter prints lines above the progress bar.
type barWriter struct {
	bar *progressbar.ProgressBar
	w   io.Writer
}

func (b *barWriter) Write(p []byte) (int, error) {
	_ = b.bar.Clear()
	n, err := b.w.Write(p)
	_ = b.bar.RenderBlank()
	return n, err
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// interval writes an estimate and its error bar, "+12.3 +/- 45.6" and
// then note, or "n/a (why)" when why says it cannot be estimated.
func interval(est, err, why, note string) string {
	if why != "" {
		return "n/a (" + why + ")"
	}
	return est + " +/- " + err + note
}

// writeMatchSummary writes the result block (not the last line).
func writeMatchSummary(out io.Writer, a, b string, s match.Stats, faults [2]map[string]int, terms map[string]int) {
	pct := math.NaN()
	if s.Games > 0 {
		pct = 100 * s.Score() / float64(s.Games)
	}
	fmt.Fprintf(out, "score of %s vs %s: %d - %d - %d (wins - losses - draws) %.1f/%d = %.1f%%\n",
		a, b, s.Wins, s.Losses, s.Draws, s.Score(), s.Games, pct)
	elo, eloErr := s.EloText()
	fmt.Fprintf(out, "elo difference %s, LOS %s\n", interval(elo, eloErr, s.EloNA(), " (95%)"), s.LOSText())
	nelo, neloErr := s.NormalizedEloText()
	fmt.Fprintf(out, "normalized elo %s\n", interval(nelo, neloErr, s.NormalizedEloNA(), " (95%, fishtest's nElo)"))
	pe, peErr := s.PentaEloText()
	fmt.Fprintf(out, "pentanomial [0, 0.5, 1, 1.5, 2] = %v over %d pairs: elo %s\n",
		s.Penta, s.Pairs(), interval(pe, peErr, s.PentaEloNA(), ""))
	for i, name := range []string{a, b} {
		fmt.Fprintf(out, "faults of %s: illegal=%d crash=%d hang=%d time=%d\n", name,
			faults[i][match.TermIllegal], faults[i][match.TermCrash], faults[i][match.TermHang], faults[i][match.TermTime])
	}
	keys := make([]string, 0, len(terms))
	for k := range terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", strings.ReplaceAll(k, " ", "_"), terms[k])
	}
	fmt.Fprintf(out, "terminations: %s\n", strings.Join(parts, " "))
}

// writePonderHits prints each engine's ponder hits over its ponder
// searches ("off" for an engine that does not ponder), when one ponders.
func writePonderHits(out io.Writer, cfg match.Config, sum *match.Summary) {
	if !cfg.EnginePonder(0) && !cfg.EnginePonder(1) {
		return
	}
	var parts [2]string
	for e := range parts {
		parts[e] = fmt.Sprintf("%s %d/%d", cfg.Engines[e].Name, sum.PonderHits[e], sum.Ponders[e])
		if !cfg.EnginePonder(e) {
			parts[e] = cfg.Engines[e].Name + " off"
		}
	}
	fmt.Fprintf(out, "ponder hits: %s, %s\n", parts[0], parts[1])
}

// writeTimeUse prints each engine's median answer to go and, under a
// clock, its clock at the end of the games (least and median).
func writeTimeUse(out io.Writer, cfg match.Config, sum *match.Summary) {
	var u [2]match.TimeUse
	clocked := false
	for e := range u {
		c := cfg.EngineLimits(e).Clocked()
		clocked = clocked || c
		u[e] = sum.TimeUse(e, c)
	}
	fmt.Fprintf(out, "median answer to go: %s %.3f s, %s %.3f s (%d and %d answers)\n",
		cfg.Engines[0].Name, u[0].MedianAnswer.Seconds(), cfg.Engines[1].Name, u[1].MedianAnswer.Seconds(), u[0].Answers, u[1].Answers)
	if clocked {
		fmt.Fprintf(out, "clock left at game end: %s least %.3f s median %.3f s, %s least %.3f s median %.3f s (%d games)\n",
			cfg.Engines[0].Name, u[0].LeastClockLeft.Seconds(), u[0].MedianClock.Seconds(),
			cfg.Engines[1].Name, u[1].LeastClockLeft.Seconds(), u[1].MedianClock.Seconds(), u[0].Games)
	}
}

// maxConcurrency is the most games --concurrency may play at once: 4 a
// processor core (runtime.NumCPU), at least 8. More games than that only
// share the cores thinner, so their engines lose on time.
func maxConcurrency() int { return max(4*runtime.NumCPU(), 8) }
