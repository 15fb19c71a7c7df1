package search

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestMovePickerOrder checks the staged order: the table's move first,
// then the killers, then the quiet moves by falling history, each move
// exactly once; only the history-ordered quiet moves count as late.
func TestMovePickerOrder(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	w := e.workers[0]
	st := &w.stack[1]
	st.pos = engine.StartPosition(engine.Russian)
	st.pos.Generate(&st.moves)
	n := st.moves.N
	require.GreaterOrEqual(t, n, 5)
	all := append([]engine.Move(nil), st.moves.Slice()...)
	hash, k0, k1 := all[3], all[1], all[4]
	st.killers = [2]engine.Move{k0, k1}
	side := st.pos.Side
	for i, m := range all {
		w.history[side][m.From][m.To] = int32(10 * i)
	}
	var mp movePicker
	mp.init(w, 1, 3)
	var got []engine.Move
	var late []bool
	for range n {
		got = append(got, mp.nextMove())
		late = append(late, mp.late)
	}
	assert.ElementsMatch(t, all, got)
	assert.Equal(t, []engine.Move{hash, k0, k1}, got[:3])
	assert.Equal(t, []bool{false, false, false}, late[:3])
	for i := 3; i < n; i++ {
		assert.True(t, late[i], i)
		if i > 3 {
			prev, cur := got[i-1], got[i]
			assert.GreaterOrEqual(t, w.history[side][prev.From][prev.To], w.history[side][cur.From][cur.To])
		}
	}
	assert.Equal(t, got, st.moves.Slice(), "the moves tried are the list's prefix")
}

// TestMovePickerCaptures checks that captures come bigger first and are
// never late.
func TestMovePickerCaptures(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	w := e.workers[0]
	st := &w.stack[1]
	// White has captures of two and of three men.
	st.pos = mustFEN(t, engine.Russian, "W:W21,30:B17,18,10,26")
	st.pos.Generate(&st.moves)
	require.Greater(t, st.moves.N, 0)
	var mp movePicker
	mp.init(w, 1, -1)
	last := 1 << 30
	for range st.moves.N {
		m := mp.nextMove()
		assert.True(t, m.IsCapture())
		assert.False(t, mp.late)
		assert.LessOrEqual(t, int(m.NCapt), last)
		last = int(m.NCapt)
	}
}

// TestReductionTable checks that reduction reads the formula for every
// switch setting, clamped beyond the table.
func TestReductionTable(t *testing.T) {
	for _, p := range []params{{}, {noLMR: true}, {lmrMore: true}} {
		for _, v := range engine.AllVariants() {
			w := newWorker(New(Options{Threads: 1, HashMiB: 1}), 0)
			w.sel.configure(&p, v)
			for d := 1; d < 40; d++ {
				for i := 0; i < 60; i++ {
					for _, pv := range []bool{false, true} {
						assert.Equal(t, lmrFormula(&p, v, d, i, pv), w.reduction(d, i, pv), "%+v %v d=%d i=%d pv=%v", p, v, d, i, pv)
					}
				}
			}
		}
	}
	// International reduces early at non-PV nodes; the 8x8 variants from
	// the fourth move.
	var none params
	assert.Equal(t, 1, lmrFormula(&none, engine.International, 3, 1, false))
	assert.Equal(t, 2, lmrFormula(&none, engine.International, 3, 6, false))
	assert.Equal(t, 0, lmrFormula(&none, engine.International, 3, 2, true))
	assert.Equal(t, 1, lmrFormula(&none, engine.International, 3, 3, true))
	assert.Equal(t, 0, lmrFormula(&none, engine.Russian, 3, 1, false))
	assert.Equal(t, 1, lmrFormula(&none, engine.Russian, 3, 3, false))
	assert.Equal(t, 0, lmrFormula(&none, engine.International, 2, 8, false), "no reduction below depth 3")
	var p params
	var s selectivity
	s.configure(&p, engine.Russian)
	assert.Equal(t, 2, s.futilityDepth)
	p.noFutility = true
	s.configure(&p, engine.Russian)
	assert.Zero(t, s.futilityDepth)
}

// TestProbCut checks that ProbCut prunes (fewer nodes to the same depth)
// and that the pruned search still finds the shots of the Russian suite's
// first positions, both searches without reverse futility pruning (which
// TestRFP measures).
func TestProbCut(t *testing.T) {
	var s selectivity
	for _, v := range []engine.VariantID{engine.Russian, engine.Brazilian, engine.English} {
		s.configure(&params{}, v)
		assert.Equal(t, probCutDepth, s.probCutDepth, "%v: on", v)
	}
	s.configure(&params{}, engine.International)
	assert.Equal(t, MaxPly, s.probCutDepth, "international: off")
	s.configure(&params{noProbCut: true}, engine.Russian)
	assert.Equal(t, MaxPly, s.probCutDepth)

	shots := readSuite(t, engine.Russian, 6, MaxPly)
	nWith, nWithout, solved, _ := solveWithAndWithout(t, shots, params{noRFP: true}, params{noRFP: true, noProbCut: true})
	assert.Less(t, nWith, nWithout)
	assert.Equal(t, len(shots), solved, "every shot found with ProbCut")
}

// foundAt reads the depth a suite line's shot was found at.
var foundAt = regexp.MustCompile(`found at depth (\d+)`)

// suiteShot is one line of a solve suite: a position and its best move.
type suiteShot struct {
	pos  engine.Position
	best string
}

// readSuite reads the first n lines (all if n is 0) of variant v's solve
// suite whose comment says the shot was found at depth maxFound or less
// (lines without it count as found at depth 0). The suites live in package
// bench (which imports search); their lines are read here directly: `FEN ;
// bm MOVE ; ... ; c0 "... found at depth N ..."`.
func readSuite(t *testing.T, v engine.VariantID, n, maxFound int) []suiteShot {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "bench", "testdata", "solve_"+v.String()+".epd"))
	require.NoError(t, err)
	var shots []suiteShot
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if m := foundAt.FindStringSubmatch(line); m != nil {
			if d, _ := strconv.Atoi(m[1]); d > maxFound {
				continue
			}
		}
		fields := strings.Split(line, ";")
		p, err := engine.ParseFEN(v, strings.TrimSpace(fields[0]))
		require.NoError(t, err, line)
		bm := strings.Fields(strings.TrimPrefix(strings.TrimSpace(fields[1]), "bm "))
		require.Len(t, bm, 1, line)
		shots = append(shots, suiteShot{p, bm[0]})
		if len(shots) == n {
			break
		}
	}
	require.NotEmpty(t, shots)
	return shots
}

// TestIIR checks that internal iterative reduction is on in international
// only, that it prunes (fewer nodes to the same depth over the
// international suite) and that the reduced search still finds at depth
// 10 every shot of that suite found at depth 8 or less (the solve suite's
// -short margin of two plies; one shot found at depth 9 needs 11 here).
func TestIIR(t *testing.T) {
	var s selectivity
	s.configure(&params{}, engine.International)
	assert.Equal(t, iirDepth, s.iirDepth, "international: on")
	for _, v := range []engine.VariantID{engine.Russian, engine.Brazilian, engine.English} {
		s.configure(&params{}, v)
		assert.Equal(t, MaxPly, s.iirDepth, "%v: off", v)
	}
	s.configure(&params{noIIR: true}, engine.International)
	assert.Equal(t, MaxPly, s.iirDepth)

	shots := readSuite(t, engine.International, 0, 8)
	nWith, nWithout, solved, solvedWithout := solveWithAndWithout(t, shots, params{}, params{noIIR: true})
	assert.Less(t, nWith, nWithout)
	assert.GreaterOrEqual(t, solved, solvedWithout-1, "IIR loses at most one shot at depth 10")
	assert.GreaterOrEqual(t, solved, len(shots)-2)
	t.Logf("international suite at depth 10: %d of %d shots found with IIR, %d without", solved, len(shots), solvedWithout)
	t.Logf("nodes to depth 10 over the international suite: %d with IIR, %d without", nWith, nWithout)
}

// TestRFP checks that reverse futility pruning is on in international
// and Russian only, that it prunes (fewer nodes to the same depth over the
// international and Russian suites) and that the pruned search still
// finds at depth 10 the shots of those suites found at depth 8 or less,
// less at most one, as TestIIR does.
func TestRFP(t *testing.T) {
	var s selectivity
	s.configure(&params{}, engine.International)
	assert.Equal(t, 5, s.rfpDepth, "international: to depth 5")
	s.configure(&params{}, engine.Russian)
	assert.Equal(t, 3, s.rfpDepth, "russian: to depth 3")
	for _, v := range []engine.VariantID{engine.Brazilian, engine.English} {
		s.configure(&params{}, v)
		assert.Zero(t, s.rfpDepth, "%v: off", v)
	}
	s.configure(&params{noRFP: true}, engine.International)
	assert.Zero(t, s.rfpDepth)

	shots := readSuite(t, engine.International, 0, 8)
	nWith, nWithout, solved, solvedWithout := solveWithAndWithout(t, shots, params{}, params{noRFP: true})
	assert.Less(t, nWith, nWithout)
	assert.GreaterOrEqual(t, solved, solvedWithout-1, "reverse futility loses at most one shot at depth 10")
	assert.GreaterOrEqual(t, solved, len(shots)-2)
	t.Logf("international suite at depth 10: %d of %d shots found with reverse futility, %d without", solved, len(shots), solvedWithout)
	t.Logf("nodes to depth 10 over the international suite: %d with reverse futility, %d without", nWith, nWithout)

	shots = readSuite(t, engine.Russian, 0, 8)
	nWith, nWithout, solved, solvedWithout = solveWithAndWithout(t, shots, params{}, params{noRFP: true})
	assert.Less(t, nWith, nWithout)
	assert.GreaterOrEqual(t, solved, solvedWithout-1, "reverse futility loses at most one Russian shot at depth 10")
	t.Logf("Russian suite at depth 10: %d of %d shots found with reverse futility, %d without; nodes %d and %d", solved, len(shots), solvedWithout, nWith, nWithout)
}

func TestSingularExtension(t *testing.T) {
	var s selectivity
	s.configure(&params{}, engine.International)
	assert.Equal(t, 8, s.singularDepth, "international: from depth 8")
	s.configure(&params{}, engine.English)
	assert.Equal(t, 8, s.singularDepth, "english: from depth 8")
	for _, v := range []engine.VariantID{engine.Russian, engine.Brazilian} {
		s.configure(&params{}, v)
		assert.Equal(t, MaxPly, s.singularDepth, "%v: off", v)
	}
	s.configure(&params{noSingular: true}, engine.International)
	assert.Equal(t, MaxPly, s.singularDepth)

	// The extension deepens the tree to a fixed depth and finds the
	// suite's shots as well.
	shots := readSuite(t, engine.International, 0, 8)
	nWith, nWithout, solved, solvedWithout := solveWithAndWithout(t, shots, params{}, params{noSingular: true})
	assert.Greater(t, nWith, nWithout)
	assert.GreaterOrEqual(t, solved, solvedWithout-1, "singular extension loses at most one shot at depth 10")
	t.Logf("international suite at depth 10: %d of %d shots found with singular extension, %d without; nodes %d and %d", solved, len(shots), solvedWithout, nWith, nWithout)
}

// solveWithAndWithout searches each shot to depth 10 with the switches
// on (params{} is the production search) and with the switches off, each
// from a cleared table, and returns the two node totals and the shots
// each found.
func solveWithAndWithout(t *testing.T, shots []suiteShot, on, off params) (nWith, nWithout uint64, solved, solvedWithout int) {
	t.Helper()
	with := New(Options{Threads: 1, HashMiB: 4})
	with.params = on
	without := New(Options{Threads: 1, HashMiB: 4})
	without.params = off
	for _, sh := range shots {
		want, err := sh.pos.ParseMove(sh.best)
		require.NoError(t, err)
		r := with.Search(context.Background(), sh.pos, nil, Limits{Depth: 10}, nil)
		if r.Move == want {
			solved++
		} else {
			t.Logf("%s: bm %s, found %s", sh.pos.FEN(), sh.best, sh.pos.FormatMove(r.Move, engine.FormatFull))
		}
		nWith += r.Nodes
		r = without.Search(context.Background(), sh.pos, nil, Limits{Depth: 10}, nil)
		if r.Move == want {
			solvedWithout++
		}
		nWithout += r.Nodes
		with.Clear()
		without.Clear()
	}
	return nWith, nWithout, solved, solvedWithout
}

// TestPickIsSelectionOrder: pick hands out the moves in the order of the
// plain selection (the first best of the rest, swapped to the front), on
// lists of every length with many equal scores.
func TestPickIsSelectionOrder(t *testing.T) {
	plain := func(st *plyState, i int) {
		best := i
		for j := i + 1; j < st.moves.N; j++ {
			if st.scores[j] > st.scores[best] {
				best = j
			}
		}
		st.moves.Moves[i], st.moves.Moves[best] = st.moves.Moves[best], st.moves.Moves[i]
		st.scores[i], st.scores[best] = st.scores[best], st.scores[i]
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var a, b plyState
	for trial := range 3000 {
		n := trial%70 + 1
		a.moves.N, b.moves.N = n, n
		for k := range n {
			s := int32(rng.IntN(1 + trial%9))
			a.scores[k], b.scores[k] = s, s
			a.moves.Moves[k] = engine.Move{From: uint8(k)}
			b.moves.Moves[k] = engine.Move{From: uint8(k)}
		}
		for i := range n {
			plain(&a, i)
			require.Equal(t, a.moves.Moves[i], b.pick(i), "trial %d, move %d", trial, i)
		}
		require.Equal(t, a.moves.Moves[:n], b.moves.Moves[:n])
	}
}

// BenchmarkPick selects every move of lists of 8 and 40 scored moves (an
// all-node of men, and of flying kings).
func BenchmarkPick(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var st plyState
	for _, n := range []int{8, 40} {
		scores := make([]int32, n)
		for k := range scores {
			scores[k] = int32(rng.IntN(2000) - 1000)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				st.moves.N = n
				copy(st.scores[:], scores)
				for i := range n {
					st.pick(i)
				}
			}
		})
	}
}

// TestScoreMovesIsThePlainScore: scoreMoves gives every move the score of
// the plain rule (captures by size and kings taken, crowns, the two
// killers by equality, else history) in positions of random games of
// every variant, with killers taken from the quiet moves of the list, of
// another position and empty.
func TestScoreMovesIsThePlainScore(t *testing.T) {
	plain := func(w *worker, st *plyState, m *engine.Move) int32 {
		switch {
		case m.Captured != 0:
			s := orderCapture + int32(m.NCapt)<<8 + int32(bits.OnesCount64(m.Captured&st.pos.Kings))<<6
			if m.Flags&engine.FlagCrown != 0 {
				s += 1 << 5
			}
			return s
		case m.Flags&engine.FlagCrown != 0:
			return orderCrown
		case *m == st.killers[0]:
			return orderKiller + 1
		case *m == st.killers[1]:
			return orderKiller
		}
		return w.history[st.pos.Side][m.From][m.To]
	}
	rng := rand.New(rand.NewPCG(5, 6))
	e := New(Options{Threads: 1, HashMiB: 1})
	w := e.workers[0]
	for s := range w.history {
		for f := range w.history[s] {
			for t := range w.history[s][f] {
				w.history[s][f][t] = int32(rng.IntN(1<<16) - 1<<15)
			}
		}
	}
	st := &w.stack[3]
	var other engine.Move
	checked := 0
	for game := range 20 {
		v := engine.AllVariants()[game%4]
		p := engine.StartPosition(v)
		for ply := 0; ply < 150; ply++ {
			st.pos = p
			p.Generate(&st.moves)
			if st.moves.N == 0 {
				break
			}
			pickKiller := func() engine.Move {
				switch k := st.moves.Moves[rng.IntN(st.moves.N)]; {
				case rng.IntN(4) == 0:
					return engine.Move{}
				case rng.IntN(4) == 0:
					return other
				case k.Captured == 0 && !k.Crowns():
					return k
				}
				return engine.Move{}
			}
			st.killers = [2]engine.Move{pickKiller(), pickKiller()}
			from := rng.IntN(st.moves.N)
			w.scoreMoves(3, from)
			for i := from; i < st.moves.N; i++ {
				require.Equal(t, plain(w, st, &st.moves.Moves[i]), st.scores[i], "%v %s move %d", v, p.FEN(), i)
				checked++
			}
			m := st.moves.Moves[rng.IntN(st.moves.N)]
			if m.Captured == 0 && !m.Crowns() {
				other = m
			}
			p = p.Play(m)
		}
	}
	assert.Greater(t, checked, 3000)
}
