package search

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

func TestLoneKingEscapesToLongDiagonal(t *testing.T) {
	// Russian, 3 kings against 1, Black to move: the lone king on b6 (9)
	// runs to d4 (18) on the long diagonal a1-h8 and holds the draw.
	p := mustFEN(t, engine.Russian, "B:WK2,K3,K6:BK9")
	e := New(Options{Threads: 1, HashMiB: 16})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 10}, nil)
	assert.InDelta(t, 0, r.Score, 60, "score %d", r.Score)
	to := engine.SquareBit(p.V, 18)
	assert.Equal(t, to, uint64(1)<<r.Move.To, "move %s", p.FormatMove(r.Move, engine.FormatFull))

	// White to move with the long diagonal held (a1) against a lone king
	// in the corner h2: a win to convert.
	w := mustFEN(t, engine.Russian, "W:WK29,K30,K31:BK28")
	require.False(t, w.HasCapture())
	e.Clear()
	r = e.Search(context.Background(), w, nil, Limits{Depth: 10}, nil)
	assert.Greater(t, r.Score, 300, "score %d", r.Score)
}

func TestRussianFifteenMoveRuleInSearch(t *testing.T) {
	// The same won 3-against-1 ending, but the stronger side is about to
	// make its 15th move since the balance arose: whatever it does, the
	// game is drawn (the lone king cannot be caught at once).
	p := mustFEN(t, engine.Russian, "W:WK29,K30,K31:BK28")
	e := New(Options{Threads: 1, HashMiB: 16})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 8, Draw: engine.DrawState{Reversible: 28, Balance: 28}}, nil)
	// (A king sacrifice into a scaled 2-against-1 draw may score a little
	// above the rule draw's 0.)
	assert.InDelta(t, 0, r.Score, 30, "score %d", r.Score)
	// Far from the rule the ending is a win, with the table still holding
	// the draws found above.
	r = e.Search(context.Background(), p, nil, Limits{Depth: 8, Draw: engine.DrawState{Reversible: 10, Balance: 10}}, nil)
	assert.Greater(t, r.Score, 300)
}

func TestEnglishFortyMoveRule(t *testing.T) {
	// Two kings against one win in English, unless the 40-move rule is
	// about to end the game.
	p := mustFEN(t, engine.English, "W:WK18,K19:BK1")
	e := New(Options{Threads: 1, HashMiB: 16})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	assert.Greater(t, r.Score, 50)
	e.Clear()
	r = e.Search(context.Background(), p, nil, Limits{Depth: 8, Draw: engine.DrawState{Reversible: 79, Balance: 79}}, nil)
	assert.Equal(t, 0, r.Score)
}

func TestRepetitionAgainstGameHistory(t *testing.T) {
	// White is a king up; every White move would repeat a position of the
	// game, so the search must score the root as a draw.
	p := mustFEN(t, engine.English, "W:WK18,K19:BK1")
	var l engine.MoveList
	p.Generate(&l)
	require.Positive(t, l.N)
	var hist []uint64
	for _, m := range l.Slice() {
		q := p.Play(m)
		hist = append(hist, q.Key, 0)
	}
	hist = append(hist, 0) // the child keys now lie 4, 6, ... plies before ply 1
	e := New(Options{Threads: 1, HashMiB: 4})
	r := e.Search(context.Background(), p, hist, Limits{Depth: 6}, nil)
	assert.Equal(t, 0, r.Score)
	e.Clear()
	r = e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	assert.Greater(t, r.Score, 50)
}

func TestRepetitionInsideSearch(t *testing.T) {
	// Four king moves that bring the root back: the worker sees the
	// repetition at ply 4 of its own path, not before.
	p := mustFEN(t, engine.English, "W:WK18,K19:BK1,12")
	e := New(Options{Threads: 1, HashMiB: 1})
	w := e.workers[0]
	w.prepare(&p, nil, Limits{}, timeManager{}, time.Now())
	path := []string{"18-22", "1-5", "22-18", "5-1"}
	w.stack[0].pos = p
	w.keys[0] = p.Key
	for i, s := range path {
		st := &w.stack[i]
		m, err := st.pos.ParseMove(s)
		require.NoError(t, err, s)
		next := &w.stack[i+1]
		next.pos = st.pos.Play(m)
		next.draw = st.draw.Update(&st.pos, m)
		w.keys[i+1] = next.pos.Key
		if i+1 < 4 {
			assert.False(t, w.isDraw(i+1), "ply %d", i+1)
		}
	}
	assert.Equal(t, p.Key, w.stack[4].pos.Key)
	assert.True(t, w.isDraw(4))
}

func TestSearchGameMatchesSearch(t *testing.T) {
	start := mustFEN(t, engine.English, "W:WK18,K19:BK1,12")
	g := engine.NewGame(start)
	for _, s := range []string{"18-22", "1-5", "22-18", "5-1", "19-23"} {
		cur := g.Position()
		m, err := cur.ParseMove(s)
		require.NoError(t, err, s)
		g.Play(m)
	}
	e := New(Options{Threads: 1, HashMiB: 4})
	r1 := e.SearchGame(context.Background(), g, Limits{Depth: 7}, nil)
	e.Clear()
	keys := g.Keys()
	r2 := e.Search(context.Background(), g.Position(), keys[:len(keys)-1], Limits{Depth: 7, Draw: g.DrawState()}, nil)
	assert.Equal(t, r1.Nodes, r2.Nodes)
	assert.Equal(t, r1.Move, r2.Move)
}

func TestConvertsWonKingEndings(t *testing.T) {
	// The stronger side must win within the draw rules: English 2 kings
	// against 1 (40-move rule), Russian 3 kings with the long diagonal
	// against 1 (15-move rule).
	for _, c := range []struct {
		v     engine.VariantID
		fen   string
		nodes uint64
	}{
		{engine.English, "W:WK18,K19:BK1", 100000},
		{engine.Russian, "W:WK29,K30,K31:BK28", 300000},
	} {
		if raceEnabled && c.v == engine.Russian {
			continue // the long conversion is left to the normal run
		}
		p := mustFEN(t, c.v, c.fen)
		g := engine.NewGame(p)
		e := New(Options{Threads: 1, HashMiB: 16})
		for g.Ply() < 200 {
			if res, _ := g.Result(); res != engine.Ongoing {
				break
			}
			r := e.SearchGame(context.Background(), g, Limits{Nodes: c.nodes}, nil)
			require.NoError(t, g.PlayChecked(r.Move))
		}
		res, why := g.Result()
		assert.Equal(t, engine.WhiteWins, res, "%v %s: %v (%v) after %d plies", c.v, c.fen, res, why, g.Ply())
	}
}
