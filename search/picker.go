// picker.go: the node's move picker (staged move ordering) and its
// reductions and prunings, read from a table built once per search from the
// experiment switches so that the node's hot lines test none of them.

package search

import (
	"math/bits"

	"github.com/damka-draughts/damka/engine"
)

// Move-ordering score bands.
const (
	orderHash    = 1 << 30
	orderCapture = 1 << 29
	orderCrown   = 1 << 28
	orderKiller  = 1 << 27
	historyMax   = 1 << 20
)

// Picker stages, in the order a node goes through them.
const (
	stageRoot  = iota // root: the previous iteration's order, best move first
	stageHash         // the transposition table's move, before anything is scored
	stageScore        // score the rest of the list (once, and only if the hash move did not cut off)
	stagePick         // best-scored first: captures by size, crowns, killers, quiets by history
)

// movePicker hands out the moves of one node's list (plyState.moves)
// best first. Captures are compulsory in every variant, so a list holds
// either only captures or only non-captures: the bands after the table's
// move are captures (more and bigger pieces first), or crowning moves,
// the two killers and then the quiet moves by history. The hash move is
// tried before the rest of the list is scored (staged ordering). Moves
// are selected in place, so the first k tried are Moves[:k] of the list.
type movePicker struct {
	w     *worker
	st    *plyState
	ply   int
	stage int
	next  int  // index of the next move to hand out
	late  bool // the last move handed out is a quiet move ordered by history alone
}

// init prepares the picker for the node at ply (ply > 0) whose list is
// generated; hash is the table's move's index in it, or -1.
func (mp *movePicker) init(w *worker, ply, hash int) {
	st := &w.stack[ply]
	*mp = movePicker{w: w, st: st, ply: ply, stage: stageScore}
	if hash >= 0 {
		// The table's move goes first; the others are scored only if it
		// does not cut off.
		st.moves.Moves[0], st.moves.Moves[hash] = st.moves.Moves[hash], st.moves.Moves[0]
		mp.stage = stageHash
	}
}

// initRoot prepares the picker for the root, whose list is in the previous
// iteration's order; best is tried first. The first w.pvIdx moves (the
// lines a multi-PV iteration chose already) are skipped: the first move
// handed out is the one at index pvIdx.
func (mp *movePicker) initRoot(w *worker, best engine.Move) {
	st := &w.stack[0]
	*mp = movePicker{w: w, st: st, stage: stageRoot, next: w.pvIdx}
	n := st.moves.N
	for i := w.pvIdx; i < n; i++ {
		st.scores[i] = int32(n - i)
		if st.moves.Moves[i] == best {
			st.scores[i] = orderHash
		}
	}
}

// nextMove returns the next move; the caller asks for at most
// st.moves.N of them.
func (mp *movePicker) nextMove() engine.Move {
	st := mp.st
	i := mp.next
	mp.next++
	mp.late = false
	switch mp.stage {
	case stageHash:
		mp.stage = stageScore
		st.scores[0] = orderHash
		return st.moves.Moves[0]
	case stageScore:
		mp.w.scoreMoves(mp.ply, i)
		mp.stage = stagePick
	}
	m := st.pick(i)
	if mp.stage == stagePick {
		mp.late = st.scores[i] < orderKiller && !m.IsCapture() && !m.Crowns()
	}
	return m
}

// scoreMoves gives the moves at ply from index from on their ordering
// scores. A list holds only captures or only non-captures (captures are
// compulsory), so each kind has its own loop.
func (w *worker) scoreMoves(ply, from int) {
	st := &w.stack[ply]
	l := &st.moves
	if from >= l.N {
		return
	}
	moves := l.Moves[from:l.N]
	scores := st.scores[from:l.N]
	scores = scores[:len(moves)]
	if moves[0].Captured != 0 {
		kings := st.pos.Kings
		for i := range moves {
			m := &moves[i]
			s := orderCapture + int32(m.NCapt)<<8 + int32(bits.OnesCount64(m.Captured&kings))<<6
			if m.Flags&engine.FlagCrown != 0 {
				s += 1 << 5
			}
			scores[i] = s
		}
		return
	}
	// Killers are quiet moves that do not crown (rewardQuiet), or empty:
	// a quiet move that does not crown equals one when its origin and
	// destination do (an empty killer's 0-0 is no quiet move).
	k0 := uint16(st.killers[0].From)<<8 | uint16(st.killers[0].To)
	k1 := uint16(st.killers[1].From)<<8 | uint16(st.killers[1].To)
	hist := &w.history[st.pos.Side&1]
	for i := range moves {
		m := &moves[i]
		var s int32
		switch key := uint16(m.From)<<8 | uint16(m.To); {
		case m.Flags&engine.FlagCrown != 0:
			s = orderCrown
		case key == k0:
			s = orderKiller + 1
		case key == k1:
			s = orderKiller
		default:
			s = hist[m.From&63][m.To&63]
		}
		scores[i] = s
	}
}

// pick moves the best-scored move among i.. to position i and returns it:
// the first of the best, swapped with the move at i (selection order).
// The best score is found first without branches (two running maxima),
// then its first place; the scan of the one pass with a branch per new
// best was a sixth of the search's time where kings have many moves.
func (st *plyState) pick(i int) engine.Move {
	sc := st.scores[i:st.moves.N]
	t0, t1 := sc[0], sc[0]
	k := 1
	for ; k+1 < len(sc); k += 2 {
		t0 = max(t0, sc[k])
		t1 = max(t1, sc[k+1])
	}
	if k < len(sc) {
		t0 = max(t0, sc[k])
	}
	if top := max(t0, t1); sc[0] != top {
		best := i
		for j, s := range sc {
			if s == top {
				best = i + j
				break
			}
		}
		st.moves.Moves[i], st.moves.Moves[best] = st.moves.Moves[best], st.moves.Moves[i]
		st.scores[i], st.scores[best] = st.scores[best], st.scores[i]
	}
	return st.moves.Moves[i]
}

// Reduction table bounds: depths and move numbers beyond them share the
// last entry.
const (
	lmrDepths = 16
	lmrMoves  = 32
)

// selectivity is what the node prunes, reduces and extends, built from the
// experiment switches (params) at the start of each search.
type selectivity struct {
	lmr           [2][lmrDepths][lmrMoves]int8 // [pvNode][depth][move number] plies of late move reduction
	futilityDepth int                          // futility pruning of quiet moves at depths 1..futilityDepth
	rfpDepth      int                          // reverse futility pruning at depths 1..rfpDepth (0: none)
	probCutDepth  int                          // ProbCut from this depth on
	iirDepth      int                          // internal iterative reduction from this depth on
	singularDepth int                          // singular extension from this depth on
	singleExt     bool                         // extend single-reply positions
	threatExt     bool                         // extend quiet leaves where the opponent threatens a capture
	shots         bool                         // quiesce tries the quiet moves that give the opponent a capture
}

// configure sets s from the switches p for a search of variant v.
func (s *selectivity) configure(p *params, v engine.VariantID) {
	s.futilityDepth = 2
	if p.noFutility {
		s.futilityDepth = 0
	}
	s.rfpDepth = 0
	if !p.noRFP && int(v) < len(rfpDepths) {
		s.rfpDepth = rfpDepths[v]
	}
	s.probCutDepth = probCutDepth
	if p.noProbCut || int(v) >= len(probCutVariant) || !probCutVariant[v] {
		s.probCutDepth = MaxPly
	}
	s.iirDepth = iirDepth
	if p.noIIR || int(v) >= len(iirVariant) || !iirVariant[v] {
		s.iirDepth = MaxPly
	}
	s.singleExt = !p.noSingleExt
	s.singularDepth = MaxPly
	if !p.noSingular && int(v) < len(singularDepths) && singularDepths[v] > 0 {
		s.singularDepth = singularDepths[v]
	}
	s.threatExt = p.threatExt
	s.shots = p.shots
	for pv := range s.lmr {
		for d := range s.lmr[pv] {
			for i := range s.lmr[pv][d] {
				s.lmr[pv][d][i] = int8(lmrFormula(p, v, d, i, pv == 1))
			}
		}
	}
}

// probCutVariant are the variants whose search uses ProbCut: those where
// self-play accepted it (Russian, Brazilian and English). International
// lost with it in self-play (70 games, -65 +- 54 Elo, stopped) and it delays
// two deep king shots of its solve suite past depth 12, so it stays off there
// (docs/strength.md, "Self-play SPRT: search and book", has the English and
// international runs).
var probCutVariant = [engine.NumVariants]bool{engine.Russian: true, engine.Brazilian: true, engine.English: true, engine.International: false}

// ProbCut at non-PV nodes of depth probCutDepth and more:
// a search probCutReduction plies shallower that fails high against beta
// plus probCutMargin (centi-men) ends the node with its score.
const (
	probCutDepth     = 5
	probCutMargin    = 100
	probCutReduction = 4
)

// rfpDepths is, per variant, the deepest node reverse futility pruning
// ends (see rfpMargin); 0 where the variant's search does without it.
// Self-play at 100,000 nodes a move (docs/strength.md) accepted it to
// depth 3 in international (+33.2 +- 25.2 Elo over 325 games) and Russian
// (+13.3 +- 19.3 over 681), and depth 5 over depth 3 in international
// (+21.3 +- 19.5 over 522). English self-play was behind after 110 games
// (-22.1 +- 45.3, stopped); Brazilian is not yet measured with it.
var rfpDepths = [engine.NumVariants]int{engine.International: 5, engine.Russian: 3}

// singularDepths is, per variant, the shallowest node whose table move
// may get a singular extension (see singularMargin); 0 where the variant's
// search does without. The table move is tried first and usually decides
// the node; where a search of half the depth shows every other move below
// its table score by the margin, the node's value rests on that one move,
// and a ply more on it finds the refutation or the shot behind it sooner.
// Self-play at 100,000 nodes a move (docs/strength.md) accepted it in
// international (+27.8 +- 26.2 Elo over 288 games, LLR 3.04) and English
// (+14.1 +- 15.5 over 914, LLR 2.99); in Russian it was flat (+3.0 +- 12.7
// over 1408 games, stopped), so it stays off there; Brazilian is not yet
// measured with it. In English, depth 6 (-7.2 +- 18.8 over 630 games) and
// depth 10 (-13.4 +- 22.5 over 390) both lost to depth 8 (H0).
var singularDepths = [engine.NumVariants]int{engine.International: 8, engine.English: 8}

// Internal iterative reduction: a node of depth iirDepth or more (below
// the root) whose position the transposition table does not hold, and so
// has no table move to try first, is searched one ply shallower. Such a
// node is either new to the search, where its move order is a guess and a
// full-depth search is mostly wasted, or was pushed out of the table; the
// next iteration finds the move the reduced search stored.
const iirDepth = 5

// iirVariant are the variants whose search uses internal iterative
// reduction: international, where self-play measured +7.1 +- 13.0 Elo
// over 1276 games (LLR 0.75: not yet accepted; docs/strength.md). English
// self-play rejected it (604 games at 100,000 nodes a move, -4.6 +- 19.2
// Elo, H0); Russian and Brazilian are not yet measured with it.
var iirVariant = [engine.NumVariants]bool{engine.International: true}

// lmrEarlyVariant are the variants whose late move reductions start
// early at non-PV nodes (lmrFormula): international, where self-play at
// 100,000 nodes a move measured +11.9 +- 13.4 Elo over 1316 games (LOS
// 95.9%, LLR 2.47 when the deck ran out; docs/strength.md). In English
// self-play it scored -4.2 +- 23.8 Elo over 416 games (stopped); Russian
// and Brazilian are not yet measured with it.
var lmrEarlyVariant = [engine.NumVariants]bool{engine.International: true}

// lmrFormula is the late move reduction of the i-th move tried (0-based)
// at depth, for quiet moves ordered by history alone, in variant v. In
// the lmrEarlyVariant variants a non-PV node reduces every late move
// after the first by one ply and from the seventh on by two; a PV node
// reduces from the fourth move on by one.
func lmrFormula(p *params, v engine.VariantID, depth, i int, pvNode bool) int {
	if !p.noLMR && !p.lmrMore && int(v) < len(lmrEarlyVariant) && lmrEarlyVariant[v] && depth >= 3 {
		switch {
		case pvNode && i >= 3, !pvNode && i >= 1 && i < 6:
			return 1
		case !pvNode && i >= 6:
			return 2
		}
		return 0
	}
	if p.noLMR || depth < 3 || i < 3 {
		return 0
	}
	if p.lmrMore {
		switch {
		case !pvNode && i >= 10 && depth >= 7:
			return 3
		case i >= 6 && depth >= 5:
			return 2
		}
		return 1
	}
	if i >= 8 && depth >= 6 {
		return 2
	}
	return 1
}

// reduction is the late move reduction in plies of the i-th move tried
// (0-based) at depth, a late quiet move.
func (w *worker) reduction(depth, i int, pvNode bool) int {
	pv := 0
	if pvNode {
		pv = 1
	}
	return int(w.sel.lmr[pv][min(depth, lmrDepths-1)][min(i, lmrMoves-1)])
}
