// match.go: the match runner: plays a schedule of opening pairs between two
// Hub engines, refereeing every game with the rules core and its own clocks,
// writes each game to PDN as it ends, and keeps the statistics and the SPRT.

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"damka/engine"
	"damka/protocol/hub"
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

// The Termination tag values of a match game.
const (
	TermNormal       = "normal"       // the rules ended the game (TerminationDetail says how)
	TermAdjudication = "adjudication" // the move cap (DefaultMaxPlies)
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

	MaxPlies    int           // 0: DefaultMaxPlies
	TimeMargin  time.Duration // 0: DefaultTimeMargin
	HangTimeout time.Duration // 0: DefaultHangTimeout
	StopGrace   time.Duration // 0: hub.DefaultStopGrace
	Event       string        // PDN Event tag; "" gives "damka match"

	// PDN receives each game, written with engine.WritePDN as soon as it
	// ends (one Write per game); nil writes none. A match runner writing
	// to a file should pass an *os.File opened for appending.
	PDN io.Writer
	// Out receives one line per game (nil: none).
	Out io.Writer
	// Progress is called after each game, from the runner's goroutine.
	Progress func(Progress)
	// EngineStderr receives the engines' standard error (nil discards it).
	// It must be safe for concurrent writes.
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
	PDN       *engine.PDNGame
	aborted   bool // the match was cancelled during the game: not recorded
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
	Played    int      // games played and recorded
	// Faults counts, per engine (0 = A, 1 = B), the games lost by each
	// fault termination (TermIllegal, TermCrash, TermHang, TermTime).
	Faults [2]map[string]int
	// Terminations counts every game by Termination.
	Terminations map[string]int
	// Longest is each engine's longest answer to a go over the match.
	Longest [2]time.Duration
	Wall    time.Duration
	Results []GameResult // in the order the games ended
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
	pairs := Schedule(cfg.Openings, cfg.Rounds, cfg.Seed)
	if cfg.Shards > 1 {
		pairs = Shard(pairs, cfg.Shard, cfg.Shards)
	}
	var jobs []GameJob
	for _, p := range pairs {
		jobs = append(jobs, GameJob{PairJob: p, Game: 1}, GameJob{PairJob: p, Game: 2})
	}
	sum.Scheduled = len(jobs)
	sum.Faults = [2]map[string]int{{}, {}}
	sum.Terminations = map[string]int{}

	workers := make([]*worker, min(cfg.Concurrency, max(len(jobs), 1)))
	for i := range workers {
		w := &worker{cfg: &cfg, id: i}
		for e := range w.players {
			w.players[e] = &player{spec: cfg.Engines[e], cfg: &cfg}
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
	go func() {
		defer close(jobCh)
		for _, j := range jobs {
			select {
			case jobCh <- j:
			case <-stop:
				return
			case <-ctx.Done():
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
				resCh <- w.play(ctx, j)
			}
		}()
	}
	go func() { wg.Wait(); close(resCh) }()

	var outcomes []Outcome
	var werr error
	stopped := false
	for r := range resCh {
		if r.aborted {
			continue
		}
		if cfg.PDN != nil && werr == nil {
			if err := engine.WritePDN(cfg.PDN, r.PDN); err != nil {
				werr = fmt.Errorf("match: writing PDN: %w", err)
				cfg.Log.Error().Err(err).Msg("match: PDN write failed; stopping")
				if !stopped {
					stopped = true
					close(stop)
				}
			}
		}
		sum.Played++
		sum.Results = append(sum.Results, r)
		sum.Terminations[r.Termination]++
		for e := range sum.Longest {
			sum.Longest[e] = max(sum.Longest[e], r.Longest[e])
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
			fmt.Fprintf(cfg.Out, "game %d/%d %s %s (White) - %s (Black): %s %s (%s: %s), %d plies, opening %q\n",
				sum.Played, sum.Scheduled, r.Job.RoundTag(), r.White, r.Black,
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
		if len(e.Command) == 0 {
			return fmt.Errorf("match: engine %d has no command", i+1)
		}
		if e.Name == "" {
			return fmt.Errorf("match: engine %d has no name", i+1)
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

// player is one engine process of a worker, restarted when it has died.
type player struct {
	spec EngineSpec
	cfg  *Config
	c    *hub.Client
}

// alive reports whether the engine process is running.
func (p *player) alive() bool {
	if p.c == nil {
		return false
	}
	select {
	case <-p.c.Exited():
		return false
	default:
		return true
	}
}

// ensure starts and handshakes the engine unless it is running.
func (p *player) ensure(ctx context.Context) error {
	if p.alive() {
		return nil
	}
	if p.c != nil {
		p.c.Kill()
		p.c = nil
	}
	cfg := p.cfg
	c, err := hub.Start(ctx, hub.ClientOptions{
		Path: p.spec.Command[0], Args: p.spec.Command[1:], Dir: p.spec.Dir,
		Stderr: cfg.EngineStderr, StopGrace: cfg.StopGrace,
		Log: cfg.Log.With().Str("engine", p.spec.Name).Logger(),
	})
	if err != nil {
		return err
	}
	settings := []hub.Setting{{Name: "variant", Value: cfg.Variant.String()}}
	for _, o := range p.spec.Options {
		if o.Name == "variant" {
			settings = settings[:0]
			break
		}
	}
	settings = append(settings, p.spec.Options...)
	hctx, cancel := context.WithTimeout(ctx, DefaultStartTimeout)
	defer cancel()
	if _, _, err := c.Handshake(hctx, settings...); err != nil {
		c.Kill()
		return err
	}
	p.c = c
	return nil
}

// kill ends the engine process (it is restarted before the next game).
func (p *player) kill() {
	if p.c != nil {
		p.c.Kill()
		<-p.c.Exited()
		p.c = nil
	}
}

// worker plays games one after another with its own pair of engines.
type worker struct {
	cfg     *Config
	id      int
	players [2]*player // A, B
}

// close quits both engines.
func (w *worker) close() {
	for _, p := range w.players {
		if p != nil && p.c != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*p.cfg.StopGrace)
			_ = p.c.Close(ctx)
			cancel()
			p.c = nil
		}
	}
}

// fault describes a game lost by an engine's fault.
type fault struct {
	engine int
	term   string
	detail string
}

// play plays one game of the schedule.
func (w *worker) play(ctx context.Context, j GameJob) GameResult {
	cfg := w.cfg
	v := cfg.Variant
	t0 := time.Now()
	op := j.Opening
	// colour -> engine index
	var engOf [2]int
	if j.AWhite() {
		engOf = [2]int{engine.White: 0, engine.Black: 1}
	} else {
		engOf = [2]int{engine.White: 1, engine.Black: 0}
	}
	r := GameResult{
		Job: j, Loser: -1,
		White: cfg.Engines[engOf[engine.White]].Name, Black: cfg.Engines[engOf[engine.Black]].Name,
	}
	g := engine.NewGame(op.Start)
	rec := engine.NewPDNGame(v, op.Start)
	for _, m := range op.Moves {
		g.Play(m)
		rec.AppendMove(m)
	}
	log := cfg.Log.With().Str("round", j.RoundTag()).Logger()

	var flt *fault
	for e, p := range w.players {
		if err := p.ensure(ctx); err != nil {
			if ctx.Err() != nil {
				r.aborted = true
				return r
			}
			flt = &fault{e, TermCrash, "could not be restarted: " + err.Error()}
			break
		}
		if err := p.c.NewGame(); err != nil {
			p.kill()
			flt = &fault{e, TermCrash, err.Error()}
			break
		}
	}

	var clock [2]time.Duration
	var toGo [2]int
	lims := [2]Limits{cfg.EngineLimits(0), cfg.EngineLimits(1)}
	for e := range clock {
		clock[e], toGo[e] = lims[e].Base, lims[e].Moves
	}
	var res engine.Result
	var why engine.Reason
	for flt == nil {
		if res, why = g.Result(); res != engine.Ongoing {
			break
		}
		if r.Plies >= cfg.MaxPlies {
			break
		}
		pos := g.Position()
		e := engOf[pos.Side]
		p := w.players[e]
		name := p.spec.Name
		lim := lims[e]

		sctx, cancel := context.WithTimeout(ctx, DefaultStartTimeout)
		err := p.c.SetGame(sctx, g)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				r.aborted = true
				return r
			}
			flt = w.clientFault(e, err, "setting the position")
			break
		}
		var level hub.Level
		var deadline time.Duration
		switch {
		case lim.Clocked():
			level = hub.Level{Moves: toGo[e], Time: max(clock[e], time.Millisecond), Inc: lim.Inc}
			deadline = max(clock[e], 0) + lim.Inc + cfg.TimeMargin
		case lim.MoveTime > 0:
			level = hub.Level{MoveTime: lim.MoveTime}
			deadline = lim.MoveTime + cfg.TimeMargin
		default:
			level = hub.Level{Depth: lim.Depth, Nodes: lim.Nodes}
			deadline = cfg.HangTimeout
		}
		if err := p.c.SetLevel(level); err != nil {
			flt = w.clientFault(e, err, "sending the level")
			break
		}
		began := time.Now()
		d, err := p.c.Think(ctx, deadline, nil)
		used := time.Since(began)
		r.Longest[e] = max(r.Longest[e], used)
		r.Answers[e] = append(r.Answers[e], used)
		if err != nil {
			if ctx.Err() != nil {
				w.players[e].kill()
				r.aborted = true
				return r
			}
			flt = w.clientFault(e, err, "searching")
			break
		}
		if used > deadline {
			if lim.Clocked() || lim.MoveTime > 0 {
				flt = &fault{e, TermTime, fmt.Sprintf("%s used %.3f s of %.3f s (margin %.3f s) at ply %d",
					name, used.Seconds(), (deadline - cfg.TimeMargin).Seconds(), cfg.TimeMargin.Seconds(), g.Ply()+1)}
			} else {
				flt = &fault{e, TermHang, fmt.Sprintf("%s answered only after stop, %.1f s into a %s search at ply %d",
					name, used.Seconds(), lim, g.Ply()+1)}
			}
			break
		}
		if d.Move == "" {
			flt = &fault{e, TermIllegal, fmt.Sprintf("%s gave no move at ply %d (%s)", name, g.Ply()+1, strings.Join(d.Errors, "; "))}
			break
		}
		m, err := pos.ParseMove(d.Move)
		if err != nil {
			flt = &fault{e, TermIllegal, fmt.Sprintf("%s played %q at ply %d in %s: %v", name, d.Move, g.Ply()+1, pos.FEN(), err)}
			break
		}
		if lim.Clocked() {
			clock[e] += lim.Inc - used
			clock[e] = max(clock[e], 0) // an overrun within the margin is forgiven
			if lim.Moves > 0 {
				if toGo[e]--; toGo[e] == 0 {
					toGo[e] = lim.Moves
					clock[e] += lim.Base
				}
			}
		}
		g.Play(m)
		rec.AppendMove(m)
		r.Plies++
	}
	for e := range clock {
		if lims[e].Clocked() {
			r.ClockLeft[e] = clock[e]
		}
	}

	switch {
	case flt != nil:
		r.Loser = flt.engine
		r.Termination, r.Detail = flt.term, flt.detail
		if engOf[engine.White] == flt.engine {
			res = engine.BlackWins
		} else {
			res = engine.WhiteWins
		}
		if flt.term == TermCrash || flt.term == TermHang {
			w.players[flt.engine].kill() // restarted before the next game
		}
		log.Warn().Str("engine", cfg.Engines[flt.engine].Name).Str("termination", flt.term).Str("detail", flt.detail).Msg("match: engine fault")
	case res == engine.Ongoing:
		res = engine.Draw
		r.Termination = TermAdjudication
		r.Detail = fmt.Sprintf("move cap: %d plies played without a result", cfg.MaxPlies)
	default:
		r.Termination, r.Detail = TermNormal, why.String()
	}
	r.Result = res
	r.Duration = time.Since(t0)
	rec.Result = res.PDN(v)
	for _, t := range [][2]string{
		{"Event", cfg.Event},
		{"Site", "?"},
		{"Date", t0.UTC().Format("2006.01.02")},
		{"Round", j.RoundTag()},
		{"White", r.White},
		{"Black", r.Black},
		{"GameType", fmt.Sprint(v.Rules().GameType)},
		{"Opening", op.Name},
		{"Termination", r.Termination},
		{"TerminationDetail", r.Detail},
		{"PlyCount", fmt.Sprint(len(rec.Moves))},
	} {
		rec.SetTag(t[0], t[1])
	}
	wl, bl := lims[engOf[engine.White]], lims[engOf[engine.Black]]
	if wl == bl {
		rec.SetTag("TimeControl", wl.String())
	} else {
		rec.SetTag("WhiteTimeControl", wl.String())
		rec.SetTag("BlackTimeControl", bl.String())
	}
	r.PDN = rec
	return r
}

// clientFault classifies a Hub client error of engine e during what.
func (w *worker) clientFault(e int, err error, what string) *fault {
	name := w.players[e].spec.Name
	switch {
	case errors.Is(err, hub.ErrEngineHung) || errors.Is(err, context.DeadlineExceeded):
		w.players[e].kill()
		return &fault{e, TermHang, fmt.Sprintf("%s did not answer while %s: %v", name, what, err)}
	case errors.Is(err, hub.ErrEngineExited):
		w.players[e].kill()
		return &fault{e, TermCrash, fmt.Sprintf("%s exited while %s: %v", name, what, err)}
	case !w.players[e].alive():
		w.players[e].kill()
		return &fault{e, TermCrash, fmt.Sprintf("%s died while %s: %v", name, what, err)}
	}
	// The engine is alive but refused a command (an error line): a
	// broken engine; restart it for the next game.
	w.players[e].kill()
	return &fault{e, TermCrash, fmt.Sprintf("%s failed while %s: %v", name, what, err)}
}
