// Package search is damka's game-tree search: iterative deepening over a
// principal variation alpha-beta search with aspiration windows, a
// capture-resolving quiescence search, a transposition table shared by all
// threads and Lazy SMP. It knows nothing of the Hub or DXP protocols: they
// drive an Engine through Search, Stop and PonderHit.
//
// Scores are in centi-men (a man is 100) from the side to move's point of
// view; a win in n plies scores Mate-n and a loss in n plies -(Mate-n).
package search

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"damka/engine"
	"damka/eval"
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

	// Draw holds the root position's draw-rule counters (engine.Game's
	// DrawState). The zero value is a fresh position: no rule draw is near,
	// and every history key is checked for repetition.
	Draw engine.DrawState
}

// Info is one progress report, sent after each completed iteration.
type Info struct {
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
	PV      []engine.Move // principal variation of the last completed iteration
}

// Engine is a search engine with its own transposition table and worker
// threads. Search runs one search at a time; Stop and PonderHit may be
// called from any goroutine while it runs.
type Engine struct {
	mu      sync.Mutex // held by Search
	opts    Options
	tt      *table
	workers []*worker

	params params // experiment switches, zero in production

	stop      atomic.Bool
	pondering atomic.Bool
	startNano atomic.Int64 // time reference of the time limits (unix ns)
	wake      chan struct{}
}

// params are search switches whose zero value is the production setting;
// tests flip them to measure a feature's worth (see match_test.go).
type params struct {
	noLMR       bool        // no late move reductions
	threatExt   bool        // extend quiet leaves where the opponent threatens a capture
	noFutility  bool        // no futility pruning of quiet moves at depth 1-2
	lmrMore     bool        // stronger late move reductions
	noSingleExt bool        // no extension of single-reply positions
	eval        *eval.Table // evaluation weights other than eval's own
}

// New returns an engine with the given options (Threads and HashMiB below
// 1 count as 1). It allocates the table and every worker's stacks once.
func New(opts Options) *Engine {
	e := &Engine{wake: make(chan struct{}, 1)}
	e.SetOptions(opts)
	return e
}

// Option bounds: SetOptions clamps Threads and HashMiB to these.
const (
	MaxThreads = 64
	MaxHashMiB = 1 << 16
)

// SetOptions changes the thread count and table size (clamped to 1 ..
// MaxThreads and 1 .. MaxHashMiB). Called during a search it waits for the
// search to end. A new table size empties the table.
func (e *Engine) SetOptions(opts Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	opts.Threads = min(max(opts.Threads, 1), MaxThreads)
	opts.HashMiB = min(max(opts.HashMiB, 1), MaxHashMiB)
	if e.tt == nil || opts.HashMiB != e.opts.HashMiB {
		e.tt = newTable(opts.HashMiB)
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
// one thread).
func (e *Engine) Clear() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tt.clear()
	for _, w := range e.workers {
		w.clear()
	}
}

// Stop ends the running search (if any) as soon as possible; Search then
// returns its best move so far.
func (e *Engine) Stop() {
	e.stop.Store(true)
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// PonderHit tells a pondering search that the expected move was played: the
// search goes on under its time limits, counted from now.
func (e *Engine) PonderHit() {
	e.startNano.Store(time.Now().UnixNano())
	e.pondering.Store(false)
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Search searches pos and returns the best move. history holds the Zobrist
// keys (engine.Position.Key) of the game's earlier positions, oldest first,
// the last being the position before pos; repeating one of them scores as a
// draw. report, if not nil, is called by the searching goroutine after each
// completed iteration. The search stops at the limits, on Stop, or when ctx
// is done. With exactly one legal move and a clock or move time (not
// analysing or pondering) it returns at once after a shallow search. A
// position of an unknown variant gives a Result without a move.
func (e *Engine) Search(ctx context.Context, pos engine.Position, history []uint64, limits Limits, report func(Info)) Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	if int(pos.V) >= len(engine.AllVariants()) {
		return Result{} // no rules to search by: no move
	}
	start := time.Now()
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
	unregister := context.AfterFunc(ctx, e.Stop)
	defer unregister()

	e.tt.newSearch()
	tm := newTimeManager(limits, &pos)
	for _, w := range e.workers {
		w.prepare(&pos, history, limits, tm, start)
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
		Time:  time.Since(start),
	}
	for _, w := range e.workers {
		r.Nodes += w.nodes
	}
	if main.rootMoves > 0 {
		r.HasMove = true
		r.Move = main.bestMove
		pv := main.bestPV[:main.bestPVLen]
		// Lazy SMP: a helper that completed a deeper iteration than the
		// main worker has the better-founded move.
		for _, w := range e.workers[1:] {
			if w.completed > r.Depth && w.bestPVLen > 0 {
				r.Depth, r.Score = w.completed, w.rootScore
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
	}
	return r
}

// elapsed returns the time since the limits' reference point.
func (e *Engine) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - e.startNano.Load())
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
