// Package search is damka's game-tree search: iterative deepening over a
// principal variation alpha-beta search with aspiration windows, a
// capture-resolving quiescence search (with shots as an experiment switch,
// off: worker.go tryShots), a transposition table shared by all threads and
// Lazy SMP. It knows nothing of the Hub or DXP protocols: they
// choose each move through Start (book, then search; see Job), which runs
// in the background and is steered by Job.Stop and Job.PonderHit, and they
// size the engine within the limits declared here (MaxThreads, MaxHashMiB,
// MaxDepth). Search is the blocking form of a job for tools (bench,
// analysis), stopped by its context: a search is steered only through its
// Job or its context.
//
// Scores are in centi-men (a man is 100) from the side to move's point of
// view; a win in n plies scores Mate-n and a loss in n plies -(Mate-n).
package search

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// Score bounds. A score above MateBound (or below -MateBound) is a forced
// win (loss): Mate minus the number of plies to the end of the game.
const (
	Mate      = 30000
	MateBound = Mate - MaxPly
	infinite  = Mate + 1
)

// MaxPly is the deepest ply the search reaches (search depth plus
// extensions and quiescence).
const MaxPly = 128

// MaxDepth is the largest nominal depth Search iterates to.
const MaxDepth = MaxPly - 8

// Options are the engine settings.
type Options struct {
	Threads int // search threads (Lazy SMP workers), at least 1
	HashMiB int // transposition table size in MiB, at least 1
	// Eval, if not nil, are evaluation weights (eval.LoadWeights) used in
	// games of their variant instead of the embedded ones.
	Eval *eval.Weights
	// EGDB, if not nil, is the endgame database the search probes
	// (search/egdb.go).
	EGDB EGDB
}

// Limits tell a search when to stop. Zero fields are unset; with nothing set
// the search runs until Stop or until it reaches MaxDepth (only Infinite
// and Ponder searches never return before Stop).
type Limits struct {
	Depth    int           // maximum nominal depth in plies
	Nodes    uint64        // stop after about this many nodes (exact with one thread)
	MoveTime time.Duration // fixed time for this move

	// Game clock of the side to move: remaining time, increment per move
	// and moves to the next time control (0: sudden death).
	Time      time.Duration
	Inc       time.Duration
	MovesToGo int

	// MoveOverhead is kept back from MoveTime and from the clock for
	// each move, for the protocol round trip and scheduling delays: 0
	// means DefaultMoveOverhead, a negative value keeps nothing back.
	MoveOverhead time.Duration

	Infinite bool // analyse until Stop; never return before it
	Ponder   bool // search the expected position until PonderHit or Stop

	// MultiPV is the number of best lines searched (multi-PV): 0 or 1
	// searches one line; N > 1 makes each iteration of the main worker N
	// successive root searches, line k over the root moves not chosen as
	// lines 1..k-1, so that every line's score is exact at the iteration's
	// depth. N is cut to the number of legal moves and to MaxMultiPV.
	MultiPV int

	// NoEGDB: the search probes no endgame tables, at the root or inside
	// the tree, and plays endings by its own search (the strength levels
	// that should not play table-perfect endings).
	NoEGDB bool

	// Draw holds the root position's draw-rule counters (engine.Game's
	// DrawState). The zero value is a fresh position: no rule draw is near,
	// and every history key is checked for repetition.
	Draw engine.DrawState
}

// MaxMultiPV is the most lines a multi-PV search (Limits.MultiPV) gives.
const MaxMultiPV = 32

// Info is one progress report, sent after each completed iteration: one
// per line, lines 1..Lines in order and one after another, in a
// multi-PV search.
type Info struct {
	MultiPV  int           // the line reported, 1-based (1 best); 1 in a single-PV search
	Lines    int           // the lines this iteration reports (MultiPV runs 1..Lines); 1 in a single-PV search
	Depth    int           // nominal depth in plies
	SelDepth int           // deepest ply reached
	Score    int           // centi-men from the side to move; see Mate
	Nodes    uint64        // nodes searched by all threads
	Time     time.Duration // since the search started
	NPS      uint64        // nodes per second
	Hashfull int           // permille of the hash table used by this search
	PV       []engine.Move // principal variation from the root (a fresh slice)
}

// Result is the outcome of a search.
type Result struct {
	Move    engine.Move   // best move; the zero Move when HasMove is false
	Ponder  engine.Move   // expected reply (valid when len(PV) > 1)
	HasMove bool          // false only when the root has no legal move (a loss)
	Score   int           // centi-men from the side to move; see Mate
	Depth   int           // last completed nominal depth
	Nodes   uint64        // nodes searched by all threads
	Time    time.Duration // elapsed
	PV      []engine.Move // principal variation of the last completed iteration (or of the unfinished one, see Partial)

	// Partial: the search stopped during iteration Depth+1 after it had
	// found a better move than iteration Depth's. Move is that move, PV
	// its line so far, Score its score (a lower bound after a fail high;
	// iteration Depth's score when the table no longer holds it).
	Partial bool

	// Lines are the lines of a multi-PV search (Limits.MultiPV > 1), best
	// first, of its last completed iteration; nil for a single-PV search
	// or when no iteration completed. Lines[0] is Move, Score and PV
	// unless Partial.
	Lines []Line
}

// Line is one line of a multi-PV search: a root move, its score and its
// principal variation at a completed depth.
type Line struct {
	Move  engine.Move   // the root move
	Score int           // centi-men from the side to move; see Mate
	PV    []engine.Move // the line from the root, starting with Move
	Depth int           // nominal depth in plies
}

// Engine is a search engine with its own transposition table and worker
// threads. It runs one search at a time (Start, Search); Stop and PonderHit
// may be called from any goroutine while it runs.
type Engine struct {
	mu      sync.Mutex // held by a search
	opts    Options
	tt      *table
	workers []*worker

	params params // experiment switches, zero in production

	stop      atomic.Bool
	pondering atomic.Bool
	startNano atomic.Int64 // time reference of the time limits (unix ns)
	wake      chan struct{}

	// ttUsed: a search has written to tt since it was made or cleared.
	ttUsed bool
	// clearing is the table clear Clear left running, or nil; a search
	// waits for it (see clear.go).
	clearing *tableClear
	// prefault maps a new table's pages in the background (see
	// startPrefault), or is nil once done or stopped.
	prefault *tableClear
	// refault: Clear stopped an unfinished prefault, which finishClear
	// starts again once the table is empty.
	refault bool
}

// params are search switches whose zero value is the production setting;
// tests flip them to measure a feature's worth (see match_test.go).
type params struct {
	noLMR       bool // no late move reductions
	threatExt   bool // extend quiet leaves where the opponent threatens a capture
	noFutility  bool // no futility pruning of quiet moves at depth 1-2
	lmrMore     bool // stronger late move reductions
	noSingleExt bool // no extension of single-reply positions
	noProbCut   bool // no ProbCut
	shots       bool // the quiescence search tries shots (tryShots)
	noIIR       bool // no internal iterative reduction
	noRFP       bool // no reverse futility pruning
	noSingular  bool // no singular extension
}

// New returns an engine with the given options (Threads and HashMiB below
// 1 count as 1). It allocates the table and every worker's stacks once.
func New(opts Options) *Engine {
	e := &Engine{wake: make(chan struct{}, 1)}
	e.SetOptions(opts)
	return e
}

// The engine's limits and defaults, the one set every front end uses (Hub
// parameters, DXP and command-line flags, book builds): SetOptions clamps
// Threads to 1..MaxThreads and HashMiB to 1..MaxHashMiB, and front ends
// refuse values outside these ranges with an error naming them.
const (
	// MaxThreads is the most search threads (Lazy SMP workers); each
	// costs about 1.6 MiB of stacks.
	MaxThreads = 256
	// MaxHashMiB is the largest transposition table, in MiB (16 GiB):
	// larger requests are refused, not attempted.
	MaxHashMiB = 16384
	// DefaultThreads is the default of every --threads flag of damka: the
	// search threads of hub, dxp, analyse and the text mode, and the
	// workers of book build, selfplay, train, egdb and perft.
	DefaultThreads = 1
	// DefaultHashMiB is the table size front ends start with, in MiB.
	DefaultHashMiB = 64
)

// FrontEndOptions returns the thread count and table size a front end
// declares for the requested threads and hashMiB: a value below 1 is
// DefaultThreads or DefaultHashMiB, a larger one is cut to MaxThreads or
// MaxHashMiB (SetOptions clamps the same way, with 1 as the floor).
func FrontEndOptions(threads, hashMiB int) (int, int) {
	if threads <= 0 {
		threads = DefaultThreads
	}
	if hashMiB <= 0 {
		hashMiB = DefaultHashMiB
	}
	return min(threads, MaxThreads), min(hashMiB, MaxHashMiB)
}

// SetOptions changes the thread count and table size (clamped to 1 ..
// MaxThreads and 1 .. MaxHashMiB). Called during a search it waits for the
// search to end. A new table size empties the table (a fresh one, with
// nothing to clear) and waits for its memory to be mapped, at most a
// second (prefaultWait).
func (e *Engine) SetOptions(opts Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	opts.Threads = min(max(opts.Threads, 1), MaxThreads)
	opts.HashMiB = min(max(opts.HashMiB, 1), MaxHashMiB)
	if e.tt == nil || opts.HashMiB != e.opts.HashMiB {
		e.abandonClear() // the old table is dropped: no need to finish clearing it
		e.stopPrefault()
		e.refault = false
		e.tt = newTable(opts.HashMiB)
		e.ttUsed = false
		e.prefault = startPrefault(e.tt)
		e.awaitPrefault(prefaultWait)
	}
	for len(e.workers) < opts.Threads {
		e.workers = append(e.workers, newWorker(e, len(e.workers)))
	}
	e.workers = e.workers[:opts.Threads]
	for _, w := range e.workers {
		w.tt = e.tt
	}
	e.opts = opts
}

// Options returns the current settings (after clamping).
func (e *Engine) Options() Options {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts
}

// Clear forgets everything learned (table, killers, history), as for a new
// game. A search after Clear repeats the one before it node for node (with
// one thread). Clear does not wait for a large table to be emptied: it
// zeroes it in the background, on all CPUs, and the next search (or
// SetOptions) waits for that to finish; a table no search has written to
// since it was made or cleared is not touched at all. Called during a
// search, Clear waits for the search to end.
func (e *Engine) Clear() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, w := range e.workers {
		w.clear()
	}
	e.tt.gen.Store(0)
	if e.ttUsed {
		e.ttUsed = false
		e.refault = e.stopPrefault() // the clear writes the same words
		e.clearing = startClear(e.tt)
	}
}

// halt ends the running search (if any) as soon as possible. It is the
// search's own signal, raised by its context (Job.Stop, or the ctx of
// Search); a stop before the search has begun is not kept here, which is
// why callers steer a search through its Job or context only.
func (e *Engine) halt() {
	e.stop.Store(true)
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// ponderHitAt is PonderHit with the time limits counted from t.
func (e *Engine) ponderHitAt(t time.Time) {
	e.startNano.Store(t.UnixNano())
	e.pondering.Store(false)
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Search searches pos and returns the best move: a job (see Start) without
// a book, run in the caller's goroutine, for tools (bench, suites,
// analysis from the command line). history holds the Zobrist keys
// (engine.Position.Key) of the game's earlier positions, oldest first, the
// last being the position before pos; repeating one of them scores as a
// draw. report, if not nil, is called by the searching goroutine after each
// completed iteration, its PV cut to the legal moves (Job.Report). The
// search stops at the limits or when ctx is done (the only way to stop it
// early; a ponder search here runs until ctx is done). With exactly one
// legal move and a clock or move time (not analysing or pondering) it
// returns at once after a shallow search. A position of an unknown variant
// gives a Result without a move. The time limits count from when the
// engine is free.
func (e *Engine) Search(ctx context.Context, pos engine.Position, history []uint64, limits Limits, report func(Info)) Result {
	j := newJob(ctx, pos, history, limits, BookOptions{}, report)
	defer j.cancel()
	return e.run(j.ctx, &j.pos, j.history, j.limits, j.Report, time.Time{}, j)
}

// SearchJob runs the search of a job started by Start (it implements
// Searcher): j's position, history and limits, its time reference, and its
// PonderHit, which reaches the search whenever it was called.
func (e *Engine) SearchJob(ctx context.Context, j *Job) Result {
	pos := j.pos
	return e.run(ctx, &pos, j.history, j.limits, j.Report, j.start, j)
}

// run is Search. start is the time reference of the limits (zero: now,
// once the engine is free); j, when not nil, is the job whose PonderHit
// the search follows.
func (e *Engine) run(ctx context.Context, pos *engine.Position, history []uint64, limits Limits, report func(Info), start time.Time, j *Job) Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	if int(pos.V) >= len(engine.AllVariants()) {
		return Result{} // no rules to search by: no move
	}
	e.finishClear()
	e.ttUsed = true
	if start.IsZero() {
		start = now()
	}
	e.startNano.Store(start.UnixNano())
	e.stop.Store(false)
	e.pondering.Store(limits.Ponder)
	select { // drop a stale wake-up
	case <-e.wake:
	default:
	}
	if ctx.Err() != nil {
		e.stop.Store(true)
	}
	unregister := context.AfterFunc(ctx, e.halt)
	defer unregister()
	if j != nil && limits.Ponder {
		// After the flags are set up: a ponder-hit that came earlier is
		// applied now, a later one as it comes.
		defer j.watchPonderHit(e.ponderHitAt)()
	}

	e.tt.newSearch()
	tm := newTimeManager(limits, pos)
	for _, w := range e.workers {
		w.prepare(pos, history, limits, tm, start)
	}
	main := e.workers[0]
	var wg sync.WaitGroup
	for _, w := range e.workers[1:] {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			w.iterate(nil)
		}(w)
	}
	main.iterate(report)
	if limits.Infinite || limits.Ponder {
		// Analysis and pondering never return before Stop (or PonderHit,
		// which ends a finished ponder search at once).
		for !e.stop.Load() && (limits.Infinite || e.pondering.Load()) {
			select {
			case <-e.wake:
			case <-ctx.Done():
				e.stop.Store(true)
			}
		}
	}
	e.stop.Store(true)
	wg.Wait()

	r := Result{
		Score: main.rootScore,
		Depth: main.completed,
		Time:  since(start),
	}
	for _, w := range e.workers {
		r.Nodes += w.nodes
	}
	if main.rootMoves > 0 {
		r.HasMove = true
		r.Move = main.bestMove
		pv := main.bestPV[:main.bestPVLen]
		if len(pv) > 0 && pv[0] != r.Move {
			// The unfinished iteration found a move better than the last
			// completed one's before the search stopped: that move is
			// played, with its line and score so far.
			r.Partial = true
			pv = nil
			if st := &main.stack[0]; st.pvLen > 0 && st.pv[0] == r.Move {
				pv = st.pv[:st.pvLen]
			}
			if s, ok := e.partialScore(main, r.Move); ok {
				r.Score = main.tableRootScore(s)
			}
		}
		// Lazy SMP: a helper that completed a deeper iteration than the
		// main worker has the better-founded move (single-PV: the lines
		// of a multi-PV search are the main worker's).
		multi := main.nLines > 1
		for _, w := range e.workers[1:] {
			if !multi && w.completed > r.Depth && w.bestPVLen > 0 {
				r.Depth, r.Score, r.Partial = w.completed, w.rootScore, false
				r.Move = w.bestPV[0]
				pv = w.bestPV[:w.bestPVLen]
			}
		}
		r.PV = append([]engine.Move(nil), pv...)
		if len(r.PV) == 0 || r.PV[0] != r.Move {
			r.PV = []engine.Move{r.Move}
		}
		if len(r.PV) > 1 {
			r.Ponder = r.PV[1]
		}
		if multi && main.completed > 0 {
			r.Lines = make([]Line, main.nLines)
			for k := range r.Lines {
				l := &main.lines[k]
				r.Lines[k] = Line{Move: l.move, Score: main.tableRootScore(l.score),
					PV: append([]engine.Move(nil), l.pv[:l.pvLen]...), Depth: main.completed}
			}
		}
	}
	return r
}

// partialScore is the root score of m, the best move of main's unfinished
// iteration, read back from the table entry its reply stored at the depth
// of that iteration (exact, or a lower bound for a fail high).
func (e *Engine) partialScore(main *worker, m engine.Move) (int, bool) {
	root := main.root
	child := root.Play(m)
	te, ok := e.tt.probe(tableKey(&child, main.limits.Draw.Update(&root, m)))
	if !ok || te.depth < main.completed || te.bound == boundLower {
		return 0, false
	}
	return -ttValue(te.score, 1), true
}

// elapsed returns the time since the limits' reference point.
func (e *Engine) elapsed() time.Duration {
	return time.Duration(now().UnixNano() - e.startNano.Load())
}

// totalNodes sums the published node counts of all workers.
func (e *Engine) totalNodes() uint64 {
	var n uint64
	for _, w := range e.workers {
		n += w.published.Load()
	}
	return n
}

// SearchGame is Search on the current position of g, with the game's key
// history and draw counters (limits.Draw is taken from g).
func (e *Engine) SearchGame(ctx context.Context, g *engine.Game, limits Limits, report func(Info)) Result {
	keys := g.Keys()
	limits.Draw = g.DrawState()
	return e.Search(ctx, g.Position(), keys[:len(keys)-1], limits, report)
}
