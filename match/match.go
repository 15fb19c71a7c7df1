// match.go: the match runner: its configuration, its results and Run,
// which plays a schedule of opening pairs between two engines (Hub or DXP:
// player.go, dxp.go) on workers, each game refereed with the rules core
// and the runner's own clocks (game.go), writes each game to PDN as it
// ends, and keeps the statistics and the SPRT.

package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// Defaults of Config.
const (
	// DefaultMaxPlies is the move cap: a game still going after this many
	// plies played by the engines (the opening's moves not counted) is
	// adjudicated a draw (Termination "adjudication"). The draw rules end
	// almost every game long before it.
	DefaultMaxPlies = 500
	// DefaultTimeMargin is the grace an engine may overrun its clock or its
	// time per move by before it loses on time. It absorbs process
	// scheduling and pipe latency, which the runner's clock includes.
	DefaultTimeMargin = 200 * time.Millisecond
	// DefaultHangTimeout is how long a search under a depth or node limit
	// may take before the engine is stopped (and then killed, when it does
	// not answer stop within the stop grace) and loses by "hang".
	DefaultHangTimeout = 60 * time.Second
	// DefaultStartTimeout bounds an engine's start and handshake, and each
	// position set-up (pos and ping).
	DefaultStartTimeout = 20 * time.Second
)

// ErrStart is wrapped by Run's error when an engine could not be started or
// handshaken (or connected to, over DXP) before the first game: the engine
// description is wrong (no such program, not a Hub 2 engine, nothing
// listening), not the match.
var ErrStart = errors.New("the engine did not start")

// startError is an engine start or handshake failure: errors.Is(err,
// ErrStart) holds, and its text is the cause's.
type startError struct{ err error }

func (e startError) Error() string        { return e.err.Error() }
func (e startError) Unwrap() error        { return e.err }
func (e startError) Is(target error) bool { return target == ErrStart }

// The Termination tag values of a match game.
const (
	TermNormal       = "normal"       // the rules ended the game (TerminationDetail says how)
	TermAdjudication = "adjudication" // the move cap (DefaultMaxPlies); see also TermDrawRule, TermResignRule, TermEGDBRule
	TermIllegal      = "illegal move" // a move not legal in the position, or no move
	TermCrash        = "crash"        // the engine exited, or could not be (re)started
	TermHang         = "hang"         // no answer in time, even after stop: killed
	TermTime         = "time forfeit" // the answer came past the clock (plus the margin)
)

// Config describes a match.
type Config struct {
	Variant  engine.VariantID
	Engines  [2]EngineSpec // A and B; statistics are from A's point of view
	Openings []Opening
	Rounds   int // repetitions of the deck; 0 means 1
	// Limits apply to each engine whose EngineSpec.Limits is zero.
	Limits Limits
	// Concurrency is the number of games played at once, each with its own
	// pair of engine processes; 0 means 1.
	Concurrency int
	// Shard and Shards select the Shard-th of Shards parts of the schedule
	// (1-based); 0 and 0 (or 1 and 1) play it all.
	Shard, Shards int
	Seed          uint64 // opening order (see Schedule)
	SPRT          *SPRT  // nil: no SPRT, play the whole schedule

	// Draw and Resign adjudicate games from the engines' scores (nil:
	// not); engines that report no scores (DXP) are never adjudicated.
	Draw   *DrawRule
	Resign *ResignRule
	// EGDB, if not nil, adjudicates every position after a move that it
	// knows, where the draw rules cannot change its value (Termination
	// TermEGDBRule; see adjudicateEGDB), for every kind of engine.
	EGDB EGDB

	// Ponder has each Hub engine whose EngineSpec.Ponder is not set think
	// on its opponent's time (see EnginePonder and pondering in
	// player.go); DXP engines never ponder.
	Ponder bool

	MaxPlies    int           // 0: DefaultMaxPlies
	TimeMargin  time.Duration // 0: DefaultTimeMargin
	HangTimeout time.Duration // 0: DefaultHangTimeout
	StopGrace   time.Duration // 0: hubclient.DefaultStopGrace
	// HandshakeTimeout bounds an engine's start and handshake (hub ...
	// wait); 0: DefaultStartTimeout.
	HandshakeTimeout time.Duration
	Event            string // PDN Event tag; "" gives "damka match"

	// PDN receives each game, written with pdn.Write as soon as it
	// ends (one Write per game, and for a regular file an fsync before
	// the next game is recorded); nil writes none. A match runner writing
	// to a file should pass an *os.File opened for appending: a failed
	// write then cuts the file back to its last complete game.
	PDN io.Writer
	// Played are games of this match already played, as an interrupted
	// run wrote them to its PDN file (ResumeFile reads them): Run checks
	// that each is a game of the schedule (same variant, engines, seed,
	// openings and time controls; an error otherwise), does not play those
	// games again and counts them in the statistics, the terminations and
	// the faults as if it had played them. They are not written to PDN
	// again, nor listed in Summary.Results.
	Played []*pdn.Game
	// Out receives one line per game (nil: none).
	Out io.Writer
	// Progress is called after each game, from the runner's goroutine.
	Progress func(Progress)
	// EngineStderr receives the engines' standard error, and the standard
	// output of DXP engines (their console); nil discards them. It must be
	// safe for concurrent writes.
	EngineStderr io.Writer
	Log          zerolog.Logger
}

// Progress is the state of a running match, passed to Config.Progress.
type Progress struct {
	Played, Total int
	Stats         Stats
	LLR           float64 // 0 without SPRT
	Last          GameResult
}

// GameResult is one finished game.
type GameResult struct {
	Job          GameJob
	White, Black string // engine names
	Result       engine.Result
	Termination  string // one of the Term constants
	Detail       string // the rule, or what the engine did wrong
	Loser        int    // engine index (0 = A, 1 = B) that lost by a fault; -1 when none
	Plies        int    // plies played by the engines
	Duration     time.Duration
	// Longest is each engine's (0 = A, 1 = B) longest answer to a go, as
	// the runner measured it (from sending go to reading done).
	Longest [2]time.Duration
	// Answers are each engine's answer times to go in the game's order,
	// measured as Longest; ClockLeft is each engine's clock at the end of
	// a game under a clock (zero otherwise).
	Answers   [2][]time.Duration
	ClockLeft [2]time.Duration
	PDN       *pdn.Game
	aborted   bool // the match was cancelled during the game: not recorded

	// Ponders are the ponder searches each engine began in the game,
	// PonderHits those whose expected reply the opponent played (the
	// search's answer was then the engine's move).
	Ponders, PonderHits [2]int
}

// AScore returns engine A's score in the game: 1, 0.5 or 0.
func (r GameResult) AScore() float64 {
	switch r.Result {
	case engine.Draw:
		return 0.5
	case engine.WhiteWins:
		if r.Job.AWhite() {
			return 1
		}
	case engine.BlackWins:
		if !r.Job.AWhite() {
			return 1
		}
	}
	return 0
}

// Players names the two players in the order of the PDN score of variant
// v (the first mover's score first, see engine.Result.PDN): "A (White) -
// B (Black)" where White moves first, "B (Black) - A (White)" in English
// draughts, where Black does, so that "1-0" is the first-named player's win.
func (r GameResult) Players(v engine.VariantID) string {
	if engine.StartPosition(v).Side == engine.Black {
		return r.Black + " (Black) - " + r.White + " (White)"
	}
	return r.White + " (White) - " + r.Black + " (Black)"
}

// Outcome says who won in words: "NAME wins" or "draw".
func (r GameResult) Outcome() string {
	switch r.Result {
	case engine.WhiteWins:
		return r.White + " wins"
	case engine.BlackWins:
		return r.Black + " wins"
	}
	return "draw"
}

// Summary is the outcome of a match.
type Summary struct {
	Stats     Stats
	LLR       float64  // 0 without SPRT
	Decision  Decision // Continue without SPRT or when the schedule ran out first
	Scheduled int      // games in the (shard's) schedule
	Played    int      // games played and recorded, Resumed included
	Resumed   int      // games of Config.Played, played by an earlier run
	// Faults counts, per engine (0 = A, 1 = B), the games lost by each
	// fault termination (TermIllegal, TermCrash, TermHang, TermTime).
	Faults [2]map[string]int
	// Terminations counts every game by Termination.
	Terminations map[string]int
	// Longest is each engine's longest answer to a go over the match.
	Longest [2]time.Duration
	Wall    time.Duration
	Results []GameResult // in the order the games ended (not those of Config.Played)

	// Ponders and PonderHits add up GameResult's over Results (the games
	// of Config.Played are not counted).
	Ponders, PonderHits [2]int
}

// Run plays the match of cfg and returns its summary. It fails before any
// game when the configuration is wrong or an engine cannot be started and
// handshaken; after that every engine fault is a lost game and the match
// goes on. Cancelling ctx ends the match early: games in progress are
// abandoned (not recorded) and Run returns the summary so far with
// ctx's error.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	start := time.Now()
	var sum Summary
	if err := cfg.check(); err != nil {
		return sum, err
	}
	all := scheduleJobs(&cfg)
	sum.Scheduled = len(all)
	sum.Faults = [2]map[string]int{{}, {}}
	sum.Terminations = map[string]int{}
	played, err := checkPlayed(&cfg, cfg.Played)
	if err != nil {
		return sum, fmt.Errorf("match: played games: %w", err)
	}
	var outcomes []Outcome
	done := map[string]bool{}
	for _, p := range played {
		done[p.job.RoundTag()] = true
		sum.Played++
		sum.Resumed++
		sum.Terminations[p.termTag]++
		if p.loser >= 0 {
			sum.Faults[p.loser][p.termTag]++
		}
		outcomes = append(outcomes, Outcome{Pair: p.job.Key() + "|" + p.job.Opening.Name, Score: p.score})
	}
	if sum.Stats, err = ComputeStats(outcomes); err != nil {
		return sum, err // a schedule fault: cannot happen
	}
	if cfg.SPRT != nil && len(played) > 0 {
		sum.LLR = cfg.SPRT.LLR(sum.Stats.Penta)
		sum.Decision = cfg.SPRT.Decide(sum.Stats.Penta)
	}
	var jobs []GameJob
	for _, j := range all {
		if !done[j.RoundTag()] {
			jobs = append(jobs, j)
		}
	}
	if len(jobs) == 0 || sum.Decision != Continue {
		sum.Wall = time.Since(start)
		return sum, ctx.Err()
	}

	var noPonder [2]*sync.Once // one log line per engine without a ponder parameter
	for e, spec := range cfg.Engines {
		noPonder[e] = new(sync.Once)
		if spec.Proto == ProtoDXP && cfg.Ponder && spec.Ponder == nil {
			cfg.Log.Warn().Str("engine", spec.Name).Msg("match: DXP has no pondering: --ponder is ignored for this engine")
		}
	}
	workers := make([]*worker, min(cfg.Concurrency, max(len(jobs), 1)))
	for i := range workers {
		w := &worker{cfg: &cfg, id: i}
		for e := range w.players {
			w.players[e] = newPlayer(&cfg, e, i, noPonder[e])
			if err := w.players[e].ensure(ctx); err != nil {
				for _, ww := range workers[:i+1] {
					if ww != nil {
						ww.close()
					}
				}
				return sum, fmt.Errorf("match: engine %s: %w", cfg.Engines[e].Name, err)
			}
		}
		workers[i] = w
	}

	jobCh := make(chan GameJob)
	resCh := make(chan GameResult)
	stop := make(chan struct{})
	// games ends the games in play when the PDN file cannot be written:
	// the match stops at the first failed write.
	games, endGames := context.WithCancel(ctx)
	defer endGames()
	go func() {
		defer close(jobCh)
		for _, j := range jobs {
			select {
			case jobCh <- j:
			case <-stop:
				return
			case <-games.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.close()
			for j := range jobCh {
				resCh <- w.play(games, j)
			}
		}()
	}
	go func() { wg.Wait(); close(resCh) }()

	var werr error
	stopped := false
	for r := range resCh {
		if r.aborted {
			continue
		}
		if werr != nil {
			continue // after a failed write: not in the file, not counted
		}
		if cfg.PDN != nil {
			if err := writeGame(cfg.PDN, r.PDN); err != nil {
				// The summary counts the games the file holds: not this
				// one, nor those still in play, which end now.
				werr = err
				cfg.Log.Error().Err(err).Msg("match: PDN write failed; stopping")
				if !stopped {
					stopped = true
					close(stop)
				}
				endGames()
				continue
			}
		}
		sum.Played++
		sum.Results = append(sum.Results, r)
		sum.Terminations[r.Termination]++
		for e := range sum.Longest {
			sum.Longest[e] = max(sum.Longest[e], r.Longest[e])
			sum.Ponders[e] += r.Ponders[e]
			sum.PonderHits[e] += r.PonderHits[e]
		}
		if r.Loser >= 0 {
			sum.Faults[r.Loser][r.Termination]++
		}
		outcomes = append(outcomes, Outcome{Pair: r.Job.Key() + "|" + r.Job.Opening.Name, Score: r.AScore()})
		st, err := ComputeStats(outcomes)
		if err != nil {
			return sum, err // a schedule fault: cannot happen
		}
		sum.Stats = st
		if cfg.SPRT != nil {
			sum.LLR = cfg.SPRT.LLR(st.Penta)
			if d := cfg.SPRT.Decide(st.Penta); d != Continue && sum.Decision == Continue {
				sum.Decision = d
				cfg.Log.Info().Str("decision", d.String()).Float64("llr", sum.LLR).Msg("match: SPRT stopped the match")
				if !stopped {
					stopped = true
					close(stop)
				}
			}
		}
		if cfg.Out != nil {
			fmt.Fprintf(cfg.Out, "game %d/%d %s %s: %s %s (%s: %s), %d plies, opening %q\n",
				sum.Played, sum.Scheduled, r.Job.RoundTag(), r.Players(cfg.Variant),
				r.Result.PDN(cfg.Variant), r.Outcome(), r.Termination, r.Detail, r.Plies, r.Job.Opening.Name)
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Played: sum.Played, Total: sum.Scheduled, Stats: st, LLR: sum.LLR, Last: r})
		}
	}
	if sum.Played == 0 {
		sum.Stats, _ = ComputeStats(nil)
	}
	sum.Wall = time.Since(start)
	if werr != nil {
		return sum, werr
	}
	return sum, ctx.Err()
}

// CheckLimits checks each engine's limits (Config.EngineLimits) for the
// engine: valid, within what DXP can express for a DXP engine, and one game
// at a time (Concurrency 1) for a DXP engine already listening (host=).
// The error names the engine: "engine B: ...".
func (cfg *Config) CheckLimits() error {
	for i, e := range cfg.Engines {
		if err := cfg.EngineLimits(i).Validate(); err != nil {
			return fmt.Errorf("engine %s: %w", e.Name, err)
		}
		if e.Proto != ProtoDXP {
			continue
		}
		if err := CheckDXPLimits(cfg.EngineLimits(i)); err != nil {
			return fmt.Errorf("engine %s: %w", e.Name, err)
		}
		if e.Host != "" && cfg.Concurrency > 1 {
			return fmt.Errorf("engine %s: an engine already listening (host=) plays one game at a time: --concurrency 1", e.Name)
		}
	}
	return nil
}

// check validates cfg and fills in its defaults.
func (cfg *Config) check() error {
	if len(cfg.Openings) == 0 {
		return errors.New("match: no openings")
	}
	for i, e := range cfg.Engines {
		if len(e.Command) == 0 && e.Host == "" {
			return fmt.Errorf("match: engine %d has no command", i+1)
		}
		if e.Name == "" {
			return fmt.Errorf("match: engine %d has no name", i+1)
		}
	}
	if err := cfg.CheckLimits(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if cfg.Engines[0].Name == cfg.Engines[1].Name {
		return fmt.Errorf("match: both engines are named %q: give each a different name=", cfg.Engines[0].Name)
	}
	if cfg.Shards > 1 && (cfg.Shard < 1 || cfg.Shard > cfg.Shards) {
		return fmt.Errorf("match: shard %d of %d", cfg.Shard, cfg.Shards)
	}
	for i := range cfg.Openings {
		if cfg.Openings[i].Start.V != cfg.Variant {
			return fmt.Errorf("match: opening %q is %s, the match is %s", cfg.Openings[i].Name, cfg.Openings[i].Start.V, cfg.Variant)
		}
	}
	cfg.Rounds = max(cfg.Rounds, 1)
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	if cfg.TimeMargin <= 0 {
		cfg.TimeMargin = DefaultTimeMargin
	}
	if cfg.HangTimeout <= 0 {
		cfg.HangTimeout = DefaultHangTimeout
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = hubclient.DefaultStopGrace
	}
	if cfg.Event == "" {
		cfg.Event = "damka match"
	}
	return nil
}

// EngineLimits returns the limits of engine e (0 = A, 1 = B): its own, or
// the match's.
func (cfg *Config) EngineLimits(e int) Limits {
	if l := cfg.Engines[e].Limits; !l.IsZero() {
		return l
	}
	return cfg.Limits
}

// EnginePonder reports whether engine e (0 = A, 1 = B) ponders: its own
// ponder= or the match's Ponder, and never a DXP engine.
func (cfg *Config) EnginePonder(e int) bool {
	spec := cfg.Engines[e]
	if spec.Proto == ProtoDXP {
		return false
	}
	if spec.Ponder != nil {
		return *spec.Ponder
	}
	return cfg.Ponder
}
