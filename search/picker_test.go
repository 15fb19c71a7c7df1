package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/engine"
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
		w := newWorker(New(Options{Threads: 1, HashMiB: 1}), 0)
		w.sel.configure(&p, engine.Russian)
		for d := 1; d < 40; d++ {
			for i := 0; i < 60; i++ {
				for _, pv := range []bool{false, true} {
					assert.Equal(t, lmrFormula(&p, d, i, pv), w.reduction(d, i, pv), "%+v d=%d i=%d pv=%v", p, d, i, pv)
				}
			}
		}
	}
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
// first positions.
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

	// The suite lives in package bench (which imports search); its first
	// lines are read here directly: `FEN ; bm MOVE ; ...`.
	data, err := os.ReadFile(filepath.Join("..", "bench", "testdata", "solve_russian.epd"))
	require.NoError(t, err)
	type shot struct {
		pos  engine.Position
		best string
	}
	var shots []shot
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, ";")
		p, err := engine.ParseFEN(engine.Russian, strings.TrimSpace(fields[0]))
		require.NoError(t, err, line)
		bm := strings.Fields(strings.TrimPrefix(strings.TrimSpace(fields[1]), "bm "))
		require.Len(t, bm, 1, line)
		shots = append(shots, shot{p, bm[0]})
		if len(shots) == 6 {
			break
		}
	}
	with := New(Options{Threads: 1, HashMiB: 4})
	without := New(Options{Threads: 1, HashMiB: 4})
	without.params.noProbCut = true
	var nWith, nWithout uint64
	for _, sh := range shots {
		want, err := sh.pos.ParseMove(sh.best)
		require.NoError(t, err)
		r := with.Search(context.Background(), sh.pos, nil, Limits{Depth: 10}, nil)
		assert.Equal(t, want, r.Move, "%s: bm %s", sh.pos.FEN(), sh.best)
		nWith += r.Nodes
		r = without.Search(context.Background(), sh.pos, nil, Limits{Depth: 10}, nil)
		nWithout += r.Nodes
		with.Clear()
		without.Clear()
	}
	assert.Less(t, nWith, nWithout)
}
