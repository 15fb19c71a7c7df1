package search

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/egdb"
	"damka/engine"
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

func TestEGDBRuleBudget(t *testing.T) {
	p := mustFEN(t, engine.Russian, "W:WKc1,Ke1,Kg1:BKd8")
	assert.Equal(t, 2*engine.RussianThreeKingsMoves, ruleBudget(&p, engine.DrawState{}))
	assert.Equal(t, 2*engine.RussianThreeKingsMoves-20, ruleBudget(&p, engine.DrawState{Reversible: 20, Balance: 20}))
	// Late in the 15 moves the stored win is too long: the search does
	// not trust it and does not score a database win.
	_, dist, ok := egdb.Default().Probe(&p)
	require.True(t, ok)
	late := uint16(2*engine.RussianThreeKingsMoves - dist + 1)
	e := New(Options{Threads: 1, HashMiB: 4, EGDB: egdb.Default()})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6, Draw: engine.DrawState{Reversible: late, Balance: late}}, nil)
	assert.Less(t, r.Score, EGDBWinBound)
	// English men endings have no rule in play.
	q := mustFEN(t, engine.English, "W:W30,K29:BK4")
	assert.Equal(t, 2*engine.EnglishNoProgressMoves, ruleBudget(&q, engine.DrawState{}))
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
