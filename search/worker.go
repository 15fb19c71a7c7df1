// worker.go: one search thread: its per-ply stack, move ordering, the
// alpha-beta search (quiesce.go has the quiescence search) and the
// iterative deepening loop.

package search

import (
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// maxHistory is the number of earlier game positions kept for repetition
// checks. Every variant's rules end a reversible sequence within 80 plies,
// so older positions can never repeat.
const maxHistory = 256

// futilityMargin is the futility pruning margin per ply of depth.
const futilityMargin = 120

// rfpMargin is the reverse futility margin per ply of depth (centi-men
// of the evaluation's scale), at depths 1 to the variant's rfpDepths.
const rfpMargin = 120

// singularMargin is the singular extension's margin per ply of depth
// (centi-men): the table move is extended when every other move scores
// below its table score less singularMargin*depth.
const singularMargin = 5

// plyState is the per-ply part of a worker's stack.
//
// The fields every node touches come first, so that they share a few
// cache lines: the position, the counters, the PV's length, the killers
// and the start of the move list (its length, then its moves).
type plyState struct {
	pos     engine.Position
	draw    engine.DrawState
	pvLen   int
	killers [2]engine.Move
	moves   engine.MoveList
	scores  [engine.MaxMoves]int32
	pv      [MaxPly + 1]engine.Move
}

// worker is one Lazy SMP thread. Everything the node loop touches is
// allocated once, in newWorker.
type worker struct {
	qRoot int // the ply where the current quiescence search started
	e     *Engine
	tt    *table
	id    int
	main  bool

	stack [MaxPly + 2]plyState
	// evalCache holds recent static evaluations by position key: the
	// key's bits above 16 and the score in the low 16 (see evaluate).
	evalCache  [evalCacheSize]uint64
	evalCacheV engine.VariantID // the variant and weights of evalCache's scores
	evalCacheW *eval.Weights
	history    [2][64][64]int32
	keys       [maxHistory + MaxPly + 2]uint64 // game history, then the search path
	nHist      int                             // number of history keys in keys
	// rootSpan is how far back in the history a repetition of the root's
	// line may reach: the root's reversible counter, or all of the history
	// when the caller gave no counters (an identical key across a man move
	// or capture is impossible, so this is only slower, never wrong).
	rootSpan int

	evalW *eval.Weights // Options.Eval when it is of the root's variant, else nil (eval.Evaluate)
	// egdbPieces: positions of this many pieces or fewer are probed in
	// Options.EGDB (0: none).
	egdbPieces int
	// egdbRoot: the root is in the tables, in a slice with men (win/draw/
	// loss only). Then the root moves are filtered by their table values
	// and the nodes of the root's material (rootMaterial) are searched,
	// not probed, so that the search finds the way to the next conversion
	// (a capture or a promotion, after which the tables are probed) and
	// sees repetitions, instead of taking the first move that keeps the
	// value (search/egdb.go).
	egdbRoot     bool
	rootMaterial egdb.Material
	// rootTable is the root's table value where the draw rules cannot
	// change it (egdb.Decided): 1 win, 0 draw, -1 loss; 2 otherwise. The
	// reported score says it (tableRootScore).
	rootTable int8

	sel    selectivity // the search's prunings and reductions (from params)
	limits Limits
	tm     timeManager
	start  time.Time
	root   engine.Position

	nodes     uint64
	published atomic.Uint64
	selDepth  int
	rootDepth int
	stopped   bool

	rootMoves int
	bestMove  engine.Move
	bestPV    [MaxPly + 1]engine.Move
	bestPVLen int
	rootScore int
	completed int

	// Multi-PV (the main worker of a search with Limits.MultiPV > 1;
	// searchLines). nLines is the number of lines per iteration (1:
	// single-PV). pvIdx is the number of root moves, at the front of the
	// root's list, that the root search skips: the lines chosen already
	// in this iteration. lines are the last completed iteration's lines,
	// best first, and cur the current iteration's (nLines of each).
	nLines int
	pvIdx  int
	lines  []rootLine
	cur    []rootLine
}

// rootLine is one line of a multi-PV iteration: a root move, its search
// score (before tableRootScore) and its principal variation.
type rootLine struct {
	move  engine.Move
	score int
	pv    [MaxPly + 1]engine.Move
	pvLen int
}

func newWorker(e *Engine, id int) *worker {
	return &worker{e: e, id: id, main: id == 0}
}

// clear forgets killers and history (new game).
func (w *worker) clear() {
	w.history = [2][64][64]int32{}
	for i := range w.stack {
		w.stack[i].killers = [2]engine.Move{}
	}
}

// prepare sets a worker up for a new search of pos.
func (w *worker) prepare(pos *engine.Position, history []uint64, l Limits, tm timeManager, start time.Time) {
	w.root = *pos
	w.sel.configure(&w.e.params, pos.V)
	w.evalW = nil
	if ew := w.e.opts.Eval; ew != nil && ew.V == pos.V {
		w.evalW = ew
	}
	if w.evalCacheV != pos.V || w.evalCacheW != w.evalW {
		// The cached scores are of another variant or other weights.
		w.evalCache = [evalCacheSize]uint64{}
		w.evalCacheV, w.evalCacheW = pos.V, w.evalW
	}
	w.egdbPieces = egdbPieces(w.e.opts.EGDB, pos.V)
	if l.NoEGDB {
		w.egdbPieces = 0
	}
	w.egdbRoot = w.egdbPieces > 0 && bits.OnesCount64(pos.Pieces[0]|pos.Pieces[1]) <= w.egdbPieces &&
		(pos.Pieces[0]|pos.Pieces[1])&^pos.Kings != 0
	w.rootMaterial = egdb.MaterialOf(pos)
	w.rootTable = 2
	if w.egdbRoot {
		w.rootTable = rootTableValue(w.e.opts.EGDB, pos, l.Draw)
	}
	w.limits = l
	w.tm = tm
	w.start = start
	if len(history) > maxHistory {
		history = history[len(history)-maxHistory:]
	}
	w.nHist = copy(w.keys[:], history)
	w.rootSpan = int(l.Draw.Reversible)
	if l.Draw == (engine.DrawState{}) {
		w.rootSpan = w.nHist
	}
	w.nodes = 0
	w.published.Store(0)
	w.selDepth = 0
	w.stopped = false
	w.rootMoves = 0
	w.bestPVLen = 0
	w.rootScore = 0
	w.completed = 0
	w.nLines = 1
	w.pvIdx = 0
	for i := range w.stack {
		w.stack[i].killers = [2]engine.Move{}
	}
	// Age the history scores instead of forgetting them.
	for s := range w.history {
		for f := range w.history[s] {
			for t := range w.history[s][f] {
				w.history[s][f][t] /= 2
			}
		}
	}
}

// skip tables desynchronise the helpers' iterative deepening (Lazy SMP).
var (
	skipSize  = [...]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	skipPhase = [...]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
)

// iterate runs iterative deepening from the prepared root. The main worker
// (report may be nil) manages time and stops the helpers when it is done.
func (w *worker) iterate(report func(Info)) {
	st := &w.stack[0]
	st.pos = w.root
	st.draw = w.limits.Draw
	st.pos.Generate(&st.moves)
	if w.egdbRoot {
		w.filterRootEGDB()
	}
	w.rootMoves = st.moves.N
	if w.rootMoves == 0 {
		w.rootScore = -Mate
		if w.main {
			w.e.stop.Store(true)
		}
		return
	}
	w.orderRoot()
	if w.main && w.limits.MultiPV > 1 {
		w.nLines = min(w.limits.MultiPV, w.rootMoves, MaxMultiPV)
		if cap(w.lines) < w.nLines {
			w.lines = make([]rootLine, w.nLines)
			w.cur = make([]rootLine, w.nLines)
		}
		w.lines, w.cur = w.lines[:w.nLines], w.cur[:w.nLines]
	}
	w.bestMove = st.moves.Moves[0]
	w.bestPV[0] = w.bestMove
	w.bestPVLen = 1

	maxDepth := MaxDepth
	if w.limits.Depth > 0 {
		maxDepth = min(w.limits.Depth, MaxDepth)
	}
	// A single legal move under a clock: a short search for the ponder move.
	if w.main && w.rootMoves == 1 && w.tm.timed && !w.limits.Infinite && !w.limits.Ponder {
		maxDepth = min(maxDepth, 4)
	}
	score := 0
	for depth := 1; depth <= maxDepth; depth++ {
		if !w.main {
			i := (w.id - 1) % len(skipSize)
			if ((depth+skipPhase[i])/skipSize[i])%2 != 0 && depth < maxDepth {
				continue
			}
		}
		w.rootDepth = depth
		w.selDepth = 0
		prev := w.bestMove
		if w.nLines > 1 {
			score = w.searchLines(depth)
		} else {
			score = w.aspiration(depth, score)
		}
		if w.stopped {
			break
		}
		w.completed = depth
		w.rootScore = w.tableRootScore(score)
		if w.nLines > 1 {
			l := &w.lines[0]
			w.bestMove = l.move
			w.bestPVLen = copy(w.bestPV[:], l.pv[:l.pvLen])
		} else if m := st.pv[0]; st.pvLen > 0 {
			w.bestMove = m
			w.bestPVLen = copy(w.bestPV[:], st.pv[:st.pvLen])
		}
		w.tm.iterationDone(depth, w.bestMove != prev, score)
		w.published.Store(w.nodes)
		if !w.main {
			if depth == maxDepth && w.limits.Depth > 0 && !w.limits.Infinite && !w.limits.Ponder && w.limits.MultiPV <= 1 {
				// A helper reached the depth asked for first: its result
				// is taken (Search picks the deepest completed iteration;
				// a multi-PV search waits for the main worker's lines).
				w.e.stop.Store(true)
			}
			continue
		}
		if report != nil {
			if w.nLines > 1 {
				for k := range w.lines {
					l := &w.lines[k]
					w.report(report, k+1, len(w.lines), depth, w.tableRootScore(l.score), l.pv[:l.pvLen])
				}
			} else {
				w.report(report, 1, 1, depth, w.rootScore, w.bestPV[:w.bestPVLen])
			}
		}
		if w.e.stop.Load() {
			break
		}
		if score > MateBound || score < -MateBound {
			if depth >= Mate-abs(score)+4 && !w.limits.Infinite {
				break // the mate is proven well within the horizon
			}
		}
		if w.tm.timed && !w.e.pondering.Load() && !w.tm.startAnother(w.e.elapsed()) {
			break
		}
	}
	w.published.Store(w.nodes)
	if w.main {
		// A finished iteration loop ends the helpers; analysis and ponder
		// searches wait in Search for Stop.
		if !w.limits.Infinite && !w.limits.Ponder {
			w.e.stop.Store(true)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// aspiration searches the root at depth with a window around the previous
// score, widening it on failure.
func (w *worker) aspiration(depth, prev int) int {
	alpha, beta := -infinite, infinite
	delta := 25
	if depth >= 5 && prev > -MateBound && prev < MateBound {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		s := w.search(alpha, beta, depth, 0, true)
		if w.stopped {
			return s
		}
		switch {
		case s <= alpha && alpha > -infinite:
			beta = (alpha + beta) / 2
			alpha = max(s-delta, -infinite)
		case s >= beta && beta < infinite:
			beta = min(s+delta, infinite)
		default:
			return s
		}
		delta *= 2
		if delta > 400 {
			alpha, beta = -infinite, infinite
		}
	}
}

// searchLines is one iteration of a multi-PV search at depth: nLines
// successive root searches, line k over the root moves not chosen as lines
// 1..k-1 (pvIdx), each with its own aspiration window around the previous
// iteration's k-th score and that line's move tried first; then the lines
// are sorted best first (into lines, and at the front of the root's list,
// the order the next iteration starts from). It returns line 1's score.
// When the search stops during line k > 1, line 1 of this iteration is
// left as the root's best move and PV (see Engine.run's Partial).
func (w *worker) searchLines(depth int) int {
	st := &w.stack[0]
	moves := &st.moves
	for k := 0; k < w.nLines; k++ {
		w.pvIdx = k
		prev, first := 0, moves.Moves[k]
		if w.completed > 0 {
			prev, first = w.lines[k].score, w.lines[k].move
		}
		w.bestMove = first
		s := w.aspiration(depth, prev)
		if w.stopped {
			w.pvIdx = 0
			if k > 0 {
				c := &w.cur[0]
				w.bestMove = c.move
				st.pvLen = copy(st.pv[:], c.pv[:c.pvLen])
			}
			return s
		}
		if st.pvLen == 0 {
			st.pv[0], st.pvLen = moves.Moves[k], 1
		}
		// The line's move goes to index k, the others keep their order.
		m := st.pv[0]
		i := k
		for i < moves.N-1 && moves.Moves[i] != m {
			i++
		}
		copy(moves.Moves[k+1:i+1], moves.Moves[k:i])
		moves.Moves[k] = m
		c := &w.cur[k]
		c.move, c.score = m, s
		c.pvLen = copy(c.pv[:], st.pv[:st.pvLen])
	}
	w.pvIdx = 0
	// Best first; a stable insertion sort keeps equal scores in search order.
	for i := 1; i < w.nLines; i++ {
		for j := i; j > 0 && w.cur[j-1].score < w.cur[j].score; j-- {
			w.cur[j-1], w.cur[j] = w.cur[j], w.cur[j-1]
		}
	}
	for k := range w.cur {
		moves.Moves[k] = w.cur[k].move
	}
	w.lines, w.cur = w.cur, w.lines
	w.bestMove = w.lines[0].move
	return w.lines[0].score
}

// report sends the main worker's progress: line (1-based) of the lines
// lines of a completed iteration at depth with its score and PV.
func (w *worker) report(fn func(Info), line, lines, depth, score int, pv []engine.Move) {
	el := since(w.start)
	n := w.e.totalNodes()
	nps := uint64(0)
	if el > 0 {
		nps = uint64(float64(n) / el.Seconds())
	}
	fn(Info{
		MultiPV:  line,
		Lines:    lines,
		Depth:    depth,
		SelDepth: w.selDepth,
		Score:    score,
		Nodes:    n,
		Time:     el,
		NPS:      nps,
		Hashfull: w.tt.hashfull(),
		PV:       append([]engine.Move(nil), pv...),
	})
}

// orderRoot sorts the root moves by a shallow look: captures by size, then
// the table's move, then history; it keeps the order stable.
func (w *worker) orderRoot() {
	st := &w.stack[0]
	w.scoreMoves(0, 0)
	// Insertion sort, stable and small.
	for i := 1; i < st.moves.N; i++ {
		m, s := st.moves.Moves[i], st.scores[i]
		j := i
		for j > 0 && st.scores[j-1] < s {
			st.moves.Moves[j] = st.moves.Moves[j-1]
			st.scores[j] = st.scores[j-1]
			j--
		}
		st.moves.Moves[j], st.scores[j] = m, s
	}
}

// checkLimits is called by the main worker every few hundred nodes.
func (w *worker) checkLimits() {
	w.published.Store(w.nodes)
	if w.limits.Nodes > 0 && w.e.totalNodes() >= w.limits.Nodes {
		w.e.stop.Store(true)
		return
	}
	if w.tm.timed && !w.e.pondering.Load() && w.e.elapsed() >= w.tm.hard {
		w.e.stop.Store(true)
	}
}

// hashIndex finds the table's move in the list at ply, or returns -1.
func (w *worker) hashIndex(ply int, e *ttEntry) int {
	if !e.hasMove {
		return -1
	}
	l := &w.stack[ply].moves
	if e.index < l.N && l.Moves[e.index].From == e.from && l.Moves[e.index].To == e.to {
		return e.index
	}
	for i := 0; i < l.N; i++ {
		if l.Moves[i].From == e.from && l.Moves[i].To == e.to {
			return i
		}
	}
	return -1
}

// isDraw reports a draw by repetition or by rule at ply (ply > 0).
func (w *worker) isDraw(ply int) bool {
	st := &w.stack[ply]
	// No variant's draw rule fires before 30 reversible plies or 10
	// plies of an unchanged balance (engine.DrawState.Reason).
	if (st.draw.Reversible >= 30 || st.draw.Balance >= 10) && st.draw.IsDraw(&st.pos) {
		return true
	}
	// span: plies back to the last man move or capture; when there is
	// none on the search path, back into the game history.
	span := int(st.draw.Reversible)
	if span >= ply {
		span = ply + w.rootSpan
	}
	if span < 4 {
		return false
	}
	key := st.pos.Key
	top := w.nHist + ply
	lo := max(top-span, 0)
	for j := top - 4; j >= lo; j -= 2 {
		if w.keys[j] == key {
			return true
		}
	}
	return false
}

// tableKey is the transposition table key of p with draw counters d. Deep
// into a reversible (kings only) phase the counters decide how near a rule
// draw is, so there they are hashed into the key: a score found with more
// moves left before the rule is not reused where fewer are left.
func tableKey(p *engine.Position, d engine.DrawState) uint64 {
	if d.Reversible < counterKeyFrom {
		return p.Key
	}
	return p.Key ^ (uint64(d.Reversible)*0x9E3779B97F4A7C15 ^ uint64(d.Balance)*0xC2B2AE3D27D4EB4F)
}

// counterKeyFrom is the reversible ply count from which tableKey mixes in
// the counters.
const counterKeyFrom = 8

// evaluate is the static evaluation (eval.Evaluate, or Options.Eval's
// weights).
func (w *worker) evaluate(p *engine.Position) int {
	c := &w.evalCache[p.Key&(evalCacheSize-1)]
	if e := *c; e&^0xFFFF == p.Key&^0xFFFF {
		return int(int16(e))
	}
	var s int
	if ew := w.evalW; ew != nil {
		s = ew.Evaluate(p)
	} else {
		s = eval.Evaluate(p)
	}
	if s == int(int16(s)) {
		*c = p.Key&^0xFFFF | uint64(uint16(s))
	}
	return s
}

// ttScore converts a score for storing at ply (mate scores and database
// scores with a distance relative to the node) and ttValue back.
func ttScore(s, ply int) int {
	switch {
	case s > MateBound, s > egdbDistBound && s <= EGDBWin:
		return s + ply
	case s < -MateBound, s < -egdbDistBound && s >= -EGDBWin:
		return s - ply
	}
	return s
}

func ttValue(s, ply int) int {
	switch {
	case s > MateBound, s > egdbDistBound && s <= EGDBWin:
		return s - ply
	case s < -MateBound, s < -egdbDistBound && s >= -EGDBWin:
		return s + ply
	}
	return s
}

// enterNode counts a node of search or quiesce, checks the limits every
// 256 nodes (main worker) and reports whether the search must stop: then
// w.stopped is set. Quiescence nodes check too, since a capture tree can
// be huge (many kings).
func (w *worker) enterNode() bool {
	w.nodes++
	if w.nodes&255 == 0 {
		w.poll()
	}
	if !w.e.stop.Load() {
		return false
	}
	w.stopped = true
	return true
}

// poll is enterNode's work every 256 nodes: the main worker's limits, and
// the host's turn (js/wasm).
func (w *worker) poll() {
	if w.main {
		w.checkLimits()
	}
	yieldHost()
}

// search is the principal variation alpha-beta search of the position at
// ply to depth plies.
func (w *worker) search(alpha, beta, depth, ply int, pvNode bool) int {
	st := &w.stack[ply]
	st.pvLen = 0
	if w.enterNode() {
		return 0
	}
	p := &st.pos
	w.keys[w.nHist+ply] = p.Key
	if ply > 0 {
		if w.isDraw(ply) {
			return 0
		}
		// Mate distance pruning.
		alpha = max(alpha, -Mate+ply)
		beta = min(beta, Mate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	if ply > w.selDepth {
		w.selDepth = ply
	}
	if ply >= MaxPly-1 {
		return w.evaluate(p)
	}
	if depth <= 0 {
		if !w.sel.threatExt || ply >= 2*w.rootDepth || p.HasCapture() {
			w.qRoot = ply
			return w.quiesce(alpha, beta, ply, w.sel.shots)
		}
		// A quiet position where the opponent threatens a capture: look
		// one ply further instead of trusting the static score.
		if !opponentHasCapture(p) {
			w.qRoot = ply
			return w.quiesce(alpha, beta, ply, w.sel.shots)
		}
		depth = 1
	}

	key := tableKey(p, st.draw)
	e, hit := w.tt.probe(key)
	// A node of the root's material under a table root is searched, not
	// probed (egdbRoot); a table hit stored earlier (depth MaxDepth) does
	// not cut it off either.
	searchTable := w.egdbRoot && egdb.MaterialOf(p) == w.rootMaterial
	if hit && !pvNode && e.depth >= depth && !(searchTable && e.depth >= MaxDepth) {
		s := ttValue(e.score, ply)
		if e.bound == boundExact || e.bound == boundLower && s >= beta || e.bound == boundUpper && s <= alpha {
			return s
		}
	}
	if ply > 0 && w.egdbPieces > 0 && !searchTable {
		if s, ok := w.probeEGDB(p, st.draw, key, ply); ok {
			return s
		}
	}

	if !pvNode && ply > 0 && depth <= w.sel.rfpDepth && !searchTable && p.Occupied() != p.Kings && beta > -MateBound && beta < MateBound && !p.HasCapture() {
		// Reverse futility: near the leaves, a quiet position whose static
		// score beats beta by a margin a ply, where the opponent threatens
		// no capture either, fails high without a search. Not in a king
		// ending (no man on the board), whose static score does not show
		// how to win it, nor at a node of a table root's material, which
		// is searched to convert the table's result (egdbRoot).
		if s := w.evaluate(p); s-rfpMargin*depth >= beta && !opponentHasCapture(p) {
			return s
		}
	}

	if !hit && depth >= w.sel.iirDepth && ply > 0 {
		depth-- // internal iterative reduction (see iirDepth)
	}

	if !pvNode && ply > 0 && depth >= w.sel.probCutDepth && beta > -MateBound && beta < MateBound-probCutMargin {
		// ProbCut: a reduced search that beats beta by a margin predicts
		// that the full-depth one fails high too.
		rb := beta + probCutMargin
		s := w.search(rb-1, rb, depth-probCutReduction, ply, false)
		if w.stopped {
			return 0
		}
		if s >= rb {
			return s
		}
	}

	if ply > 0 {
		p.Generate(&st.moves)
	}
	n := st.moves.N
	if n == 0 {
		return -Mate + ply
	}
	var mp movePicker
	hashExt := 0 // the table move's extension (singular)
	if ply == 0 {
		// Root: keep the order of the previous iteration, best first;
		// a multi-PV line starts after the lines chosen (pvIdx).
		mp.initRoot(w, w.bestMove)
	} else {
		hash := -1
		if hit {
			hash = w.hashIndex(ply, &e)
		}
		mp.init(w, ply, hash)
		if n == 1 && ply < 2*w.rootDepth && w.sel.singleExt {
			depth++ // forced move: look one ply further
		}
		if hash >= 0 && n > 1 && depth >= w.sel.singularDepth && ply < 2*w.rootDepth && !searchTable &&
			e.depth >= depth-3 && e.depth < MaxDepth && e.bound&boundLower != 0 {
			// Singular extension: a table move that beats every other
			// move by a margin is searched a ply deeper.
			if t := ttValue(e.score, ply); t > -MateBound && t < MateBound && w.singular(ply, depth, t-singularMargin*depth) {
				hashExt = 1
			}
		}
	}

	// Futility: near the leaves, quiet moves cannot lift a hopeless
	// static score above alpha.
	futile := false
	if depth <= w.sel.futilityDepth && !pvNode && ply > 0 && st.moves.Moves[0].Captured == 0 && alpha > -MateBound && alpha < MateBound {
		futile = w.evaluate(p)+futilityMargin*depth <= alpha
	}

	if depth >= 2 && ply > 0 {
		// The children probe the table: start loading their buckets while
		// the first ones are searched.
		for i := range n {
			w.tt.prefetch(p.KeyAfter(st.moves.Moves[i]))
		}
	}

	origAlpha := alpha
	best := -infinite
	bestIdx := -1
	child := &w.stack[ply+1]
	first := mp.next
	for i := first; i < n; i++ {
		m := mp.nextMove()
		if futile && i > 0 && mp.late {
			continue
		}
		p.PlayInto(&child.pos, m)
		child.draw = st.draw.Update(p, m)
		var s int
		if i == first {
			s = -w.search(-beta, -alpha, depth-1+hashExt, ply+1, pvNode)
		} else {
			r := 0
			if mp.late {
				r = w.reduction(depth, i, pvNode)
			}
			s = -w.search(-alpha-1, -alpha, depth-1-r, ply+1, false)
			if s > alpha && r > 0 {
				s = -w.search(-alpha-1, -alpha, depth-1, ply+1, false)
			}
			if s > alpha && s < beta && pvNode {
				s = -w.search(-beta, -alpha, depth-1, ply+1, true)
			}
		}
		if w.stopped {
			return 0
		}
		if s > best {
			best = s
			bestIdx = i
			if s > alpha {
				alpha = s
				st.pv[0] = m
				st.pvLen = 1 + copy(st.pv[1:], child.pv[:child.pvLen])
				if ply == 0 {
					w.bestMove = m
				}
				if s >= beta {
					if m.Captured == 0 && m.Flags&engine.FlagCrown == 0 {
						w.rewardQuiet(ply, depth, m, i)
					}
					break
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	if ply > 0 || w.pvIdx == 0 {
		// The root of a multi-PV line k > 1 searched only some moves:
		// its score is not the position's.
		w.tt.store(key, depth, ttScore(best, ply), bound, st.moves.Moves[bestIdx], bestIdx)
	}
	return best
}

// singular reports whether every move of the node at ply but the table's
// (Moves[0], put first by the picker) scores below sb in a search of about
// half the node's depth.
func (w *worker) singular(ply, depth, sb int) bool {
	st := &w.stack[ply]
	p := &st.pos
	child := &w.stack[ply+1]
	d := (depth - 1) / 2
	for i := 1; i < st.moves.N; i++ {
		m := st.moves.Moves[i]
		p.PlayInto(&child.pos, m)
		child.draw = st.draw.Update(p, m)
		if s := -w.search(-sb, -sb+1, d, ply+1, false); w.stopped || s >= sb {
			return false
		}
	}
	return true
}

// opponentHasCapture reports whether the side not to move in p would have
// a capture if it were its turn (a threat the static score does not see).
func opponentHasCapture(p *engine.Position) bool {
	q := *p
	q.Side ^= 1
	return q.HasCapture()
}

// rewardQuiet updates killers and history after the quiet move m (the
// i-th tried) caused a cutoff; the quiet moves tried before it are
// penalised.
func (w *worker) rewardQuiet(ply, depth int, m engine.Move, i int) {
	st := &w.stack[ply]
	if st.killers[0] != m {
		st.killers[1] = st.killers[0]
		st.killers[0] = m
	}
	side := st.pos.Side
	bonus := int32(min(depth*depth, 400))
	h := &w.history[side][m.From][m.To]
	*h += bonus*32 - *h*bonus/512
	for j := 0; j < i; j++ {
		o := st.moves.Moves[j]
		if o.Captured != 0 || o.Flags&engine.FlagCrown != 0 {
			continue
		}
		h := &w.history[side][o.From][o.To]
		*h -= bonus*32 + *h*bonus/512
	}
}

// raise takes s, the score of move m at st's node (child: the node after
// m), into the node's best score and alpha, and m and child's PV into
// st's PV when s is above alpha. It reports a cutoff: s >= beta.
func (st *plyState) raise(m engine.Move, s int, child *plyState, best, alpha *int, beta int) bool {
	if s <= *best {
		return false
	}
	*best = s
	if s <= *alpha {
		return false
	}
	*alpha = s
	st.pv[0] = m
	st.pvLen = 1 + copy(st.pv[1:], child.pv[:child.pvLen])
	return s >= beta
}

// evalCacheSize is the number of entries of a worker's evaluation cache
// (a power of two).
const evalCacheSize = 1 << 14
