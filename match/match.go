// match.go: the match runner: plays a schedule of opening pairs between two
// engines (Hub or DXP: player.go, dxp.go), refereeing every
// game with the rules core and its own clocks, writes each game to PDN as
// it ends, and keeps the statistics and the SPRT.

package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/protocol/dxp"
	"github.com/damka-draughts/damka/protocol/hub"
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
	StopGrace   time.Duration // 0: hub.DefaultStopGrace
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

// check validates cfg and fills in its defaults.
func (cfg *Config) check() error {
	if len(cfg.Openings) == 0 {
		return errors.New("match: no openings")
	}
	for i, e := range cfg.Engines {
		if err := cfg.EngineLimits(i).Validate(); err != nil {
			return fmt.Errorf("match: engine %s: %w", e.Name, err)
		}
		if len(e.Command) == 0 && e.Host == "" {
			return fmt.Errorf("match: engine %d has no command", i+1)
		}
		if e.Name == "" {
			return fmt.Errorf("match: engine %d has no name", i+1)
		}
		if e.Proto == ProtoDXP {
			if err := CheckDXPLimits(cfg.EngineLimits(i)); err != nil {
				return fmt.Errorf("match: engine %s: %w", e.Name, err)
			}
			if e.Host != "" && cfg.Concurrency > 1 {
				return fmt.Errorf("match: engine %s: an engine already listening (host=) plays one game at a time: --concurrency 1", e.Name)
			}
		}
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
		cfg.StopGrace = hub.DefaultStopGrace
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

// worker plays games one after another with its own pair of engines.
type worker struct {
	cfg     *Config
	id      int
	players [2]enginePlayer // A, B
}

// close quits both engines.
func (w *worker) close() {
	for _, p := range w.players {
		if p != nil {
			p.close()
		}
	}
}

// fault describes a game lost by an engine's fault, or by its
// resignation (resigned: not counted as a fault).
type fault struct {
	engine   int
	term     string
	detail   string
	ended    bool // the engine ended the game itself (DXP GAMEEND, acknowledged)
	resigned bool
}

// play plays one game of the schedule: it sets the game up, (re)starts both
// engines, has them move until the game ends (each engine that ponders
// pondering after its moves), then scores it and completes its PDN record. A game cancelled by ctx comes back with aborted set.
func (w *worker) play(ctx context.Context, j GameJob) GameResult {
	gm := w.newGame(j)
	flt := gm.startEngines(ctx)
	if gm.r.aborted {
		return gm.r
	}
	var res engine.Result
	var why engine.Reason
	adj := adjudicator{draw: w.cfg.Draw, resign: w.cfg.Resign}
	for flt == nil && gm.adjudged == "" {
		if res, why = gm.g.Result(); res != engine.Ongoing {
			break
		}
		if gm.r.Plies >= w.cfg.MaxPlies {
			break
		}
		side := gm.g.Position().Side
		flt = gm.move(ctx)
		if gm.r.aborted {
			return gm.r
		}
		if r, _ := gm.g.Result(); flt == nil && r == engine.Ongoing {
			pos := gm.g.Position()
			if r, detail := adjudicateEGDB(w.cfg.EGDB, &pos, gm.g.DrawState()); r != engine.Ongoing {
				res, gm.adjudged, gm.adjDetail = r, TermEGDBRule, detail
				break
			}
			e := gm.engOf[side]
			sc := gm.scores[e][len(gm.scores[e])-1]
			res, gm.adjudged, gm.adjDetail = adj.after(side, sc, gm.g.Ply())
		}
		if r, _ := gm.g.Result(); flt == nil && gm.adjudged == "" && r == engine.Ongoing && gm.r.Plies < w.cfg.MaxPlies {
			flt = gm.ponder(ctx, gm.engOf[side])
			if gm.r.aborted {
				return gm.r
			}
		}
	}
	for e := range gm.clock {
		if gm.lims[e].Clocked() {
			gm.r.ClockLeft[e] = gm.clock[e]
		}
	}
	gm.score(flt, res, why)
	for e, p := range w.players {
		if flt != nil && flt.engine == e && flt.ended {
			continue // the engine ended the game itself
		}
		if err := p.endGame(ctx, gm, e, gm.r.Result); err != nil && ctx.Err() == nil {
			w.cfg.Log.Warn().Str("engine", p.name()).Err(err).Msg("match: ending the game failed; the engine is restarted")
			p.kill()
		}
	}
	gm.record()
	return gm.r
}

// matchGame is one game being played by a worker: who plays which colour,
// the refereed game and its PDN record, the clocks, and the result so far.
type matchGame struct {
	w     *worker
	cfg   *Config
	job   GameJob
	t0    time.Time // when the game was set up
	engOf [2]int    // colour -> engine index
	g     *engine.Game
	rec   *pdn.Game
	lims  [2]Limits        // per engine
	clock [2]time.Duration // per engine: time left on a clocked limit
	toGo  [2]int           // per engine: moves to the next time control
	// scores are each engine's reported scores (men, its own point of
	// view) after each of its moves; NaN where it reported none.
	scores [2][]float64
	// adjudged is the Termination of an adjudicated game (TermDrawRule,
	// TermResignRule, TermEGDBRule), adjDetail its detail; "" while not adjudicated.
	adjudged, adjDetail string
	r                   GameResult

	// reply is each engine's expected reply to its last move (the
	// ponder= of its done), "" when it gave none.
	reply [2]string
}

// newGame sets up the game of j: the colours, the opening's moves played
// into the game and its record, and both engines' clocks at their base time.
func (w *worker) newGame(j GameJob) *matchGame {
	cfg := w.cfg
	gm := &matchGame{w: w, cfg: cfg, job: j, t0: time.Now()}
	if j.AWhite() {
		gm.engOf = [2]int{engine.White: 0, engine.Black: 1}
	} else {
		gm.engOf = [2]int{engine.White: 1, engine.Black: 0}
	}
	gm.r = GameResult{
		Job: j, Loser: -1,
		White: cfg.Engines[gm.engOf[engine.White]].Name, Black: cfg.Engines[gm.engOf[engine.Black]].Name,
	}
	op := j.Opening
	gm.g = engine.NewGame(op.Start)
	for _, m := range op.Moves {
		gm.g.Play(m)
	}
	gm.rec = openingRecord(cfg.Variant, op)

	gm.lims = [2]Limits{cfg.EngineLimits(0), cfg.EngineLimits(1)}
	for e := range gm.clock {
		gm.clock[e], gm.toGo[e] = gm.lims[e].Base, gm.lims[e].Moves
	}
	return gm
}

// openingRecord returns the PDN record of a game of variant v from op, up
// to the position the engines start from: op's moves from op.Start, or,
// for a ballot given only by its end position whose name lists the moves
// (openings.MovesFromName), those moves from the start position, so that
// the record numbers the opening's moves from move 1 as PDN readers
// (CheckerBoard, lidraughts) expect, instead of a FEN tag and "1..." where
// they belong.
func openingRecord(v engine.VariantID, op *Opening) *pdn.Game {
	start, moves := op.Start, op.Moves
	if len(moves) == 0 {
		if ms, ok := openings.MovesFromName(v, op.Name, op.Start); ok {
			start, moves = engine.StartPosition(v), ms
		}
	}
	rec := pdn.NewGame(v, start)
	for _, m := range moves {
		rec.AppendMove(m)
	}
	return rec
}

// startEngines starts (or restarts) each engine that is not running and
// tells it a new game begins. It returns the fault of the first engine that
// fails, or nil; when ctx is cancelled it sets r.aborted instead.
func (gm *matchGame) startEngines(ctx context.Context) *fault {
	for e, p := range gm.w.players {
		if err := p.ensure(ctx); err != nil {
			if ctx.Err() != nil {
				gm.r.aborted = true
				return nil
			}
			return &fault{engine: e, term: TermCrash, detail: "could not be restarted: " + err.Error()}
		}
	}
	for e, p := range gm.w.players {
		if err := p.newGame(ctx, gm, e); err != nil {
			if ctx.Err() != nil {
				gm.r.aborted = true
				return nil
			}
			return gm.w.clientFault(e, err, "starting the game")
		}
	}
	return nil
}

// move has the side to move's engine play one move: it has the engine
// think under its level (see enginePlayer.move), referees the answer,
// charges the clock, plays the move and passes it on to the other engine.
// It returns the engine's fault, or nil; when ctx is cancelled it sets
// r.aborted instead.
func (gm *matchGame) move(ctx context.Context) *fault {
	pos := gm.g.Position()
	e := gm.engOf[pos.Side]
	p := gm.w.players[e]
	level, deadline := gm.level(e)
	a, err := p.move(ctx, gm, level, deadline)
	gm.reply[e] = a.reply
	if a.ponderHit {
		gm.r.PonderHits[e]++
	}
	if a.used > 0 {
		gm.r.Longest[e] = max(gm.r.Longest[e], a.used)
		gm.r.Answers[e] = append(gm.r.Answers[e], a.used)
	}
	if err != nil {
		if ctx.Err() != nil {
			p.abort()
			gm.r.aborted = true
			return nil
		}
		var end *dxp.RemoteEnd
		if errors.As(err, &end) {
			return gm.claim(e, end)
		}
		return gm.w.clientFault(e, err, a.stage)
	}
	m, flt := gm.referee(e, &pos, a, deadline)
	if flt != nil {
		return flt
	}
	gm.charge(e, a.used)
	gm.g.Play(m)
	gm.rec.AppendMove(m)
	gm.r.Plies++
	gm.scores[e] = append(gm.scores[e], a.score)
	if res, _ := gm.g.Result(); res == engine.Ongoing && gm.r.Plies < gm.cfg.MaxPlies {
		if err := gm.w.players[1-e].moved(ctx, &pos, m, a.used); err != nil {
			if ctx.Err() != nil {
				gm.r.aborted = true
				return nil
			}
			return gm.w.clientFault(1-e, err, "receiving the opponent's move")
		}
	}
	return nil
}

// ponder has engine e, which has just moved, think on its opponent's time
// on the reply it expects (gm.reply[e]), under the level of its next move,
// when it ponders at all. It returns the engine's fault, or nil; when ctx
// is cancelled it sets r.aborted instead.
func (gm *matchGame) ponder(ctx context.Context, e int) *fault {
	if gm.reply[e] == "" {
		return nil
	}
	level, _ := gm.level(e)
	started, err := gm.w.players[e].ponder(ctx, gm, level, gm.reply[e])
	if started {
		gm.r.Ponders[e]++
	}
	if err != nil {
		if ctx.Err() != nil {
			gm.w.players[e].abort()
			gm.r.aborted = true
			return nil
		}
		return gm.w.clientFault(e, err, "starting to ponder")
	}
	return nil
}

// claim scores the GAMEEND a DXP engine e sent instead of a move in a game
// the rules have not ended: a resignation loses, any other claim is false
// and loses too (as cutechess-cli scores a false claim).
func (gm *matchGame) claim(e int, end *dxp.RemoteEnd) *fault {
	name := gm.w.players[e].name()
	ply := gm.g.Ply() + 1
	if end.Result != engine.Ongoing && end.Result != engine.Draw && (end.Result == engine.WhiteWins) != (gm.engOf[engine.White] == e) {
		return &fault{engine: e, term: TermNormal, detail: fmt.Sprintf("%s resigned (GAMEEND %q) at ply %d", name, end.Reason, ply), ended: true, resigned: true}
	}
	return &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s ended the game (GAMEEND %q) at ply %d, which the rules do not end", name, end.Reason, ply), ended: true}
}

// level returns the Hub level engine e searches its next move under, and
// the deadline of that search: the clock (or the time per move) plus the
// time margin, or the hang timeout for a depth or node limit.
func (gm *matchGame) level(e int) (hub.Level, time.Duration) {
	lim := gm.lims[e]
	switch {
	case lim.Clocked():
		return hub.Level{Moves: gm.toGo[e], Time: max(gm.clock[e], time.Millisecond), Inc: lim.Inc},
			max(gm.clock[e], 0) + lim.Inc + gm.cfg.TimeMargin
	case lim.MoveTime > 0:
		return hub.Level{MoveTime: lim.MoveTime}, lim.MoveTime + gm.cfg.TimeMargin
	default:
		return hub.Level{Depth: lim.Depth, Nodes: lim.Nodes}, gm.cfg.HangTimeout
	}
}

// referee checks engine e's answer a in pos, given for a search whose
// deadline was deadline: it returns the move, or the fault (on time, hang,
// no move, a move that does not parse or is illegal).
func (gm *matchGame) referee(e int, pos *engine.Position, a answer, deadline time.Duration) (engine.Move, *fault) {
	name := gm.w.players[e].name()
	lim := gm.lims[e]
	ply := gm.g.Ply() + 1
	used := a.used
	if used > deadline {
		if lim.Clocked() || lim.MoveTime > 0 {
			return engine.Move{}, &fault{engine: e, term: TermTime, detail: fmt.Sprintf("%s used %.3f s of %.3f s (margin %.3f s) at ply %d",
				name, used.Seconds(), (deadline - gm.cfg.TimeMargin).Seconds(), gm.cfg.TimeMargin.Seconds(), ply)}
		}
		return engine.Move{}, &fault{engine: e, term: TermHang, detail: fmt.Sprintf("%s answered only after stop, %.1f s into a %s search at ply %d",
			name, used.Seconds(), lim, ply)}
	}
	if a.text == "" {
		return engine.Move{}, &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s gave no move at ply %d (%s)", name, ply, strings.Join(a.errors, "; "))}
	}
	if a.err != nil {
		return engine.Move{}, &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s played %q at ply %d in %s: %v", name, a.text, ply, pos.FEN(), a.err)}
	}
	return a.move, nil
}

// charge takes used off engine e's clock under a clocked limit, adds the
// increment, and adds the base time again at each time control.
func (gm *matchGame) charge(e int, used time.Duration) {
	lim := gm.lims[e]
	if !lim.Clocked() {
		return
	}
	gm.clock[e] += lim.Inc - used
	gm.clock[e] = max(gm.clock[e], 0) // an overrun within the margin is forgiven
	if lim.Moves > 0 {
		if gm.toGo[e]--; gm.toGo[e] == 0 {
			gm.toGo[e] = lim.Moves
			gm.clock[e] += lim.Base
		}
	}
}

// score sets the game's result and termination: a loss for the engine at
// fault (crashed or hung engines are killed, to be restarted before the
// next game), a draw by adjudication at the move cap when the game is still
// going (res Ongoing), or the rules' result res for reason why.
func (gm *matchGame) score(flt *fault, res engine.Result, why engine.Reason) {
	cfg, r := gm.cfg, &gm.r
	switch {
	case flt != nil:
		if !flt.resigned {
			r.Loser = flt.engine
		}
		r.Termination, r.Detail = flt.term, flt.detail
		if gm.engOf[engine.White] == flt.engine {
			res = engine.BlackWins
		} else {
			res = engine.WhiteWins
		}
		if flt.term == TermCrash || flt.term == TermHang {
			gm.w.players[flt.engine].kill() // restarted before the next game
		}
		log := cfg.Log.With().Str("round", gm.job.RoundTag()).Logger()
		log.Warn().Str("engine", cfg.Engines[flt.engine].Name).Str("termination", flt.term).Str("detail", flt.detail).Msg("match: engine fault")
	case gm.adjudged != "":
		r.Termination, r.Detail = gm.adjudged, gm.adjDetail
	case res == engine.Ongoing:
		res = engine.Draw
		r.Termination = TermAdjudication
		r.Detail = fmt.Sprintf("move cap: %d plies played without a result", cfg.MaxPlies)
	default:
		r.Termination, r.Detail = TermNormal, why.String()
	}
	r.Result = res
	r.Duration = time.Since(gm.t0)
}

// record completes the game's PDN record (result, the roster and the match
// tags, the time controls) and stores it in r.PDN.
func (gm *matchGame) record() {
	cfg, r, rec, v := gm.cfg, &gm.r, gm.rec, gm.cfg.Variant
	rec.Result = r.Result.PDN(v)
	for _, t := range [][2]string{
		{"Event", cfg.Event},
		{"Site", "?"},
		{"Date", gm.t0.UTC().Format("2006.01.02")},
		{"Round", gm.job.RoundTag()},
		{"White", r.White},
		{"Black", r.Black},
		{"GameType", fmt.Sprint(v.Rules().GameType)},
		{"Opening", gm.job.Opening.Name},
		{SeedTag, fmt.Sprint(cfg.Seed)},
		{"Termination", r.Termination},
		{"TerminationDetail", r.Detail},
		{"PlyCount", fmt.Sprint(len(rec.Moves))},
	} {
		rec.SetTag(t[0], t[1])
	}
	wl, bl := gm.lims[gm.engOf[engine.White]], gm.lims[gm.engOf[engine.Black]]
	if wl == bl {
		rec.SetTag("TimeControl", wl.String())
	} else {
		rec.SetTag("WhiteTimeControl", wl.String())
		rec.SetTag("BlackTimeControl", bl.String())
	}
	r.PDN = rec
}

// clientFault classifies an error of engine e's Hub client or DXP
// connection during what.
func (w *worker) clientFault(e int, err error, what string) *fault {
	name := w.players[e].name()
	what = cmp.Or(what, "playing")
	switch {
	case errors.Is(err, hub.ErrEngineHung) || errors.Is(err, context.DeadlineExceeded):
		w.players[e].kill()
		return &fault{engine: e, term: TermHang, detail: fmt.Sprintf("%s did not answer while %s: %v", name, what, err)}
	case errors.Is(err, hub.ErrEngineExited) || errors.Is(err, dxp.ErrRemoteClosed):
		w.players[e].kill()
		return &fault{engine: e, term: TermCrash, detail: fmt.Sprintf("%s exited while %s: %v", name, what, err)}
	case errors.Is(err, hub.ErrUnreadableLine):
		w.players[e].kill() // restarted for the next game
		return &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s gave an unreadable answer while %s: %v", name, what, err)}
	case errors.Is(err, hub.ErrLineTooLong):
		w.players[e].kill() // restarted for the next game
		return &fault{engine: e, term: TermIllegal, detail: fmt.Sprintf("%s gave an answer over %d bytes while %s: %v", name, hub.MaxLineBytes, what, err)}
	case !w.players[e].alive():
		w.players[e].kill()
		return &fault{engine: e, term: TermCrash, detail: fmt.Sprintf("%s died while %s: %v", name, what, err)}
	}
	// The engine is alive but refused a command (an error line): a
	// broken engine; restart it for the next game.
	w.players[e].kill()
	return &fault{engine: e, term: TermCrash, detail: fmt.Sprintf("%s failed while %s: %v", name, what, err)}
}
