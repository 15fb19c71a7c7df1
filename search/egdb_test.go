package search

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
)

func TestEGDBScoresWinsBelowMate(t *testing.T) {
	db := egdb.Default()
	for _, c := range []struct {
		v   engine.VariantID
		fen string
	}{
		{engine.English, "W:WK29,K30:BK4"},
		{engine.Russian, "W:WKc1,Ke1,Kg1:BKd8"},
		{engine.Brazilian, "W:WKc1,Ke1,Kg1:BKd8"},
		{engine.English, "W:W21,K29:BK4"}, // a man: win/draw/loss only
	} {
		p := mustFEN(t, c.v, c.fen)
		v0, d0, ok := db.Probe(&p)
		require.True(t, ok)
		require.Equal(t, egdb.Win, v0, c.fen)
		e := New(Options{Threads: 1, HashMiB: 4, EGDB: db})
		r := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
		require.True(t, r.HasMove)
		assert.GreaterOrEqual(t, r.Score, EGDBWinBound, c.fen)
		assert.Less(t, r.Score, MateBound, c.fen)
		// The move keeps the win, and where distances are stored it is
		// the fastest: the reply position is lost one ply sooner.
		q := p.Play(r.Move)
		v1, d1, ok := db.Probe(&q)
		require.True(t, ok)
		assert.Equal(t, egdb.Loss, v1, c.fen)
		if d0 >= 0 {
			assert.Equal(t, d0-1, d1, c.fen)
			assert.Equal(t, EGDBWin-d0, r.Score, c.fen)
		} else {
			assert.Less(t, r.Score, egdbDistBound, c.fen)
		}
	}
}

func TestEGDBDrawIsDraw(t *testing.T) {
	// The lone king on the long diagonal: a draw, which the search
	// without tables cannot prove at this depth.
	p := mustFEN(t, engine.Russian, "W:WKc1,Ke1,Kg1:BKh8")
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	assert.Equal(t, 0, r.Score)
}

// TestEGDBRootDrawWithMen: a table draw at a root with men is searched
// (the evaluation may favour a side) but reported as the table's draw.
// TestNoEGDB: under Limits.NoEGDB the search probes no table: the table
// draw and the table win are scored by the search alone.
func TestNoEGDB(t *testing.T) {
	db := egdb.Default()
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: db})
	draw := mustFEN(t, engine.Russian, "W:WKc1,Ke1,Kg1:BKh8")
	r := e.Search(context.Background(), draw, nil, Limits{Depth: 8}, nil)
	require.Equal(t, 0, r.Score, "the tables know the draw")
	e.Clear()
	r = e.Search(context.Background(), draw, nil, Limits{Depth: 8, NoEGDB: true}, nil)
	assert.Positive(t, r.Score, "three kings against one, by the search alone")
	assert.Less(t, r.Score, EGDBWinBound)

	win := mustFEN(t, engine.English, "W:WK29,K30:BK4")
	e.Clear()
	r = e.Search(context.Background(), win, nil, Limits{Depth: 6, NoEGDB: true}, nil)
	require.True(t, r.HasMove)
	assert.Less(t, r.Score, EGDBWinBound, "no table win without the tables")
}

func TestEGDBRootDrawWithMen(t *testing.T) {
	p := mustFEN(t, engine.Russian, "W:WKa1,c3:BKh6")
	v, _, ok := egdb.Default().Probe(&p)
	require.True(t, ok)
	require.Equal(t, egdb.Draw, v)
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	require.True(t, r.HasMove)
	assert.Equal(t, 0, r.Score)
	q := p.Play(r.Move)
	v1, _, ok := egdb.Default().Probe(&q)
	require.True(t, ok)
	assert.Equal(t, egdb.Draw, v1, "the move loses the draw")
	off := New(Options{Threads: 1, HashMiB: 4})
	assert.NotZero(t, off.Search(context.Background(), p, nil, Limits{Depth: 6}, nil).Score,
		"without tables the search scores the extra king: the test says nothing")
}

func TestEGDBRuleBudget(t *testing.T) {
	p := mustFEN(t, engine.Russian, "W:WKc1,Ke1,Kg1:BKd8")
	assert.Equal(t, 2*engine.RussianThreeKingsMoves, engine.DrawState{}.PliesToRule(&p))
	assert.Equal(t, 2*engine.RussianThreeKingsMoves-20, engine.DrawState{Reversible: 20, Balance: 20}.PliesToRule(&p))
	// Late in the 15 moves the stored win is too long: the search does
	// not trust it and does not score a database win.
	_, dist, ok := egdb.Default().Probe(&p)
	require.True(t, ok)
	late := uint16(2*engine.RussianThreeKingsMoves - dist + 1)
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6, Draw: engine.DrawState{Reversible: late, Balance: late}}, nil)
	assert.Less(t, r.Score, EGDBWinBound)
	// English men endings: only the 40-move rule.
	q := mustFEN(t, engine.English, "W:W30,K29:BK4")
	assert.Equal(t, 2*engine.EnglishNoProgressMoves, engine.DrawState{}.PliesToRule(&q))
	// A win/draw/loss-only win is not trusted near the FMJD 16-move rule
	// (two kings and a man against a lone king).
	bw := mustFEN(t, engine.Brazilian, "W:Wc3,Kc1,Ke1:BKd8")
	v, _, ok := egdb.Default().Probe(&bw)
	require.True(t, ok)
	require.Equal(t, egdb.Win, v)
	e = New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	r = e.Search(context.Background(), bw, nil, Limits{Depth: 4}, nil)
	assert.GreaterOrEqual(t, r.Score, EGDBWinBound)
	late = uint16(2*engine.InternationalThreeVsOneMoves - 2)
	assert.Equal(t, 2, engine.DrawState{Reversible: 0, Balance: late}.PliesToRule(&bw))
	e = New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	r = e.Search(context.Background(), bw, nil, Limits{Depth: 4, Draw: engine.DrawState{Balance: late}}, nil)
	assert.Less(t, r.Score, EGDBWinBound, "two plies before the 16-move rule the table is not trusted")
}

func TestEGDBSearchDoesNotAllocate(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	w := e.workers[0]
	for _, c := range []struct {
		v   engine.VariantID
		fen string
	}{
		{engine.English, "W:W30,K29:B3,K4"},
		{engine.International, "W:W32,K1,K2:B19,K46"},
	} {
		p := mustFEN(t, c.v, c.fen)
		run := func() {
			e.stop.Store(false)
			w.prepare(&p, nil, Limits{Depth: 7}, timeManager{}, time.Now())
			w.iterate(nil)
		}
		run()
		assert.Zero(t, testing.AllocsPerRun(3, run), c.fen)
	}
}

// TestEGDBAgreesWithSearch: on random positions of the embedded 8x8
// slices (English up to 5 pieces, the others up to 4), wherever a search
// without tables proves a result (a mate score), the table agrees, and a
// stored distance is not longer than the mate the search found.
func TestEGDBAgreesWithSearch(t *testing.T) {
	n := 600
	if !testing.Short() {
		n = 10000
	}
	db := egdb.Default()
	for _, v := range []engine.VariantID{engine.Russian, engine.English, engine.Brazilian} {
		r := rand.New(rand.NewPCG(uint64(v)+1, 7))
		ms := egdb.Materials(v, db.Pieces(v))
		e := New(Options{Threads: 1, HashMiB: 4})
		proved := 0
		for tried := 0; tried < n; {
			p, ok := randomPosition(r, v, ms[r.IntN(len(ms))])
			if !ok {
				continue
			}
			tried++
			e.Clear()
			res := e.Search(context.Background(), p, nil, Limits{Depth: 7}, nil)
			if res.Score < MateBound && res.Score > -MateBound {
				continue
			}
			proved++
			val, dist, ok := db.Probe(&p)
			require.True(t, ok, p.FEN())
			plies := Mate - abs(res.Score)
			want := egdb.Win
			if res.Score < 0 {
				want = egdb.Loss
			}
			require.Equal(t, want, val, "%s: search %d (mate in %d plies), table %s", p.FEN(), res.Score, plies, val)
			if dist >= 0 {
				assert.LessOrEqual(t, dist, plies, p.FEN())
			}
		}
		t.Logf("%s: %d random positions, %d proved by the search, all agree", v, n, proved)
		assert.Greater(t, proved, n/20, v.String())
	}
}

// randomPosition places the pieces of m at random (men off their crowning
// rows) with a random side to move; false when the side to move has no
// legal move or the squares collide.
func randomPosition(r *rand.Rand, v engine.VariantID, m egdb.Material) (engine.Position, bool) {
	var p engine.Position
	p.V = v
	n := v.Rules().Squares
	row := v.Rules().RowLen
	used := map[int]bool{}
	place := func(count uint8, pc engine.Piece, lo, hi int) bool {
		for range count {
			s := lo + r.IntN(hi-lo+1)
			if used[s] {
				return false
			}
			used[s] = true
			p.SetPiece(engine.Square(s), pc)
		}
		return true
	}
	if !place(m.WM, engine.WhiteMan, row+1, n) || !place(m.BM, engine.BlackMan, 1, n-row) ||
		!place(m.WK, engine.WhiteKing, 1, n) || !place(m.BK, engine.BlackKing, 1, n) {
		return p, false
	}
	if r.IntN(2) == 1 {
		p.Side = engine.Black
	}
	p.Key = p.ComputeKey()
	var l engine.MoveList
	p.Generate(&l)
	return p, l.N > 0
}

// TestEGDBDamagedFile: a damaged table is reported, naming it, and the
// search plays on without that slice.
func TestEGDBDamagedFile(t *testing.T) {
	dir := t.TempDir()
	_, err := egdb.Build(context.Background(), egdb.BuildOptions{Variant: engine.English, Pieces: 3, Dir: dir})
	require.NoError(t, err)
	// Both sides of 2 kings against 1: the root's and its children's.
	var names []string
	for _, m := range []egdb.Material{{WK: 2, BK: 1}, {WK: 1, BK: 2}} {
		name := filepath.Join(dir, egdb.FileName(engine.English, m))
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(name, b[:len(b)-1], 0o644))
		names = append(names, name)
	}
	db, err := egdb.OpenDir(dir)
	require.NoError(t, err)
	p := mustFEN(t, engine.English, "W:WK29,K30:BK4")
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: db})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	require.True(t, r.HasMove)
	assert.Less(t, r.Score, EGDBWinBound, "no database score from the damaged slice")
	errs := db.Errors()
	require.Len(t, errs, 2)
	assert.Contains(t, errs[0].Error()+errs[1].Error(), names[0])
	assert.Contains(t, errs[0].Error()+errs[1].Error(), names[1])
}

// TestEGDBPlaysOutTheWin: both sides searching with the tables play the
// distance exactly: the winner the shortest way, the loser the longest.
func TestEGDBPlaysOutTheWin(t *testing.T) {
	db := egdb.Default()
	for _, c := range []struct {
		v   engine.VariantID
		fen string
	}{
		{engine.English, "W:WK29,K30:BK4"},
		{engine.Russian, "W:WKc1,Ke1,Kg1:BKd8"},
	} {
		p := mustFEN(t, c.v, c.fen)
		_, dist, ok := db.Probe(&p)
		require.True(t, ok)
		e := New(Options{Threads: 1, HashMiB: 4, EGDB: db})
		g := engine.NewGame(p)
		plies := 0
		for ; plies < 3*dist; plies++ {
			pos := g.Position()
			var l engine.MoveList
			pos.Generate(&l)
			if l.N == 0 {
				break
			}
			r := e.SearchGame(context.Background(), g, Limits{Depth: 3}, nil)
			require.True(t, r.HasMove)
			g.Play(r.Move)
		}
		assert.Equal(t, dist, plies, "%s: the game lasts the stored distance", c.fen)
	}
}

// TestEGDBRootWithMenIsSearched: at a root in a win/draw/loss slice the
// nodes of the root's material are searched, not probed, so the search
// looks past the first ply toward the conversion, while the root moves are
// those that keep the table value and the score says the table's win.
func TestEGDBRootWithMenIsSearched(t *testing.T) {
	db := egdb.Default()
	p := mustFEN(t, engine.English, "W:W21,K29:BK4")
	v, _, ok := db.Probe(&p)
	require.True(t, ok)
	require.Equal(t, egdb.Win, v)
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: db})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	require.True(t, r.HasMove)
	assert.Greater(t, len(r.PV), 1, "the search stopped at the tables on the first ply")
	var l engine.MoveList
	p.Generate(&l)
	assert.Greater(t, r.Nodes, uint64(20*l.N), "the nodes of the root's material are probed, not searched")
	assert.GreaterOrEqual(t, r.Score, EGDBWinBound)
	assert.Less(t, r.Score, egdbDistBound)
	q := p.Play(r.Move)
	v1, _, ok := db.Probe(&q)
	require.True(t, ok)
	assert.Equal(t, egdb.Loss, v1, "the move gives the win away")

	// Every root move is ranked by its table value: from a root where
	// most moves give the win away (3 of 13 keep it), only the winning
	// ones are searched.
	p = mustFEN(t, engine.Russian, "W:W31,K27,K5:BK17")
	p.Generate(&l)
	w := e.workers[0]
	e.stop.Store(false)
	w.prepare(&p, nil, Limits{Depth: 1}, timeManager{}, time.Now())
	require.True(t, w.egdbRoot)
	w.iterate(nil)
	st := &w.stack[0]
	all := l.N
	kept := 0
	for i := 0; i < all; i++ {
		m := l.Moves[i]
		c := p.Play(m)
		cv, _, _ := db.Probe(&c)
		if cv == egdb.Loss {
			kept++
		}
	}
	assert.Equal(t, kept, st.moves.N)
	assert.Equal(t, kept, w.rootMoves)
	assert.Less(t, kept, all, "the test position should have moves that give the win away")
	for _, m := range st.moves.Slice() {
		c := p.Play(m)
		cv, _, _ := db.Probe(&c)
		assert.Equal(t, egdb.Loss, cv)
	}
}
