package book_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// hashSearcher scores a move by a hash of the position after it: fast,
// deterministic, and different for different positions.
type hashSearcher struct{ calls *atomic.Int64 }

func (h hashSearcher) Clear() {}

func (h hashSearcher) ScoreMove(ctx context.Context, p *engine.Position, m engine.Move) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if h.calls != nil {
		h.calls.Add(1)
	}
	c := p.Play(m)
	return int(c.Key%21) - 10, nil
}

// engineSearcher is the damka command's searcher: a one-thread search of
// the position after the move.
type engineSearcher struct {
	e     *search.Engine
	depth int
}

func (s *engineSearcher) Clear() { s.e.Clear() }

func (s *engineSearcher) ScoreMove(ctx context.Context, p *engine.Position, m engine.Move) (int, error) {
	r := s.e.Search(ctx, p.Play(m), []uint64{p.Key}, search.Limits{Depth: s.depth - 1}, nil)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return -r.Score, nil
}

func newEngineSearcher(depth int) func() book.Searcher {
	return func() book.Searcher {
		return &engineSearcher{e: search.New(search.Options{Threads: 1, HashMiB: 1}), depth: depth}
	}
}

// distinctPositions counts the positions with a legal move within plies
// of the start, each once however many move orders reach it.
func distinctPositions(v engine.VariantID, plies int) (positions, paths int) {
	level := map[engine.Position]int{engine.StartPosition(v): 1}
	seen := map[engine.Position]bool{}
	for d := 0; d <= plies; d++ {
		next := map[engine.Position]int{}
		for p, n := range level {
			ms := legal(&p)
			if len(ms) == 0 {
				continue
			}
			paths += n
			if !seen[p] {
				seen[p] = true
				positions++
			}
			for _, m := range ms {
				next[p.Play(m)] += n
			}
		}
		level = next
	}
	return positions, paths
}

func TestBuildSharesTranspositions(t *testing.T) {
	var calls atomic.Int64
	res, err := book.Build(context.Background(), book.BuildOptions{
		Variant: engine.English, Plies: 4, Positions: 100000, Margin: 100, Workers: 2,
		NewSearcher: func() book.Searcher { return hashSearcher{&calls} },
	})
	require.NoError(t, err)
	// A margin wider than every score difference keeps every move: the
	// book holds every position within 4 plies, each once.
	positions, paths := distinctPositions(engine.English, 4)
	require.Less(t, positions, paths, "no transposition within 4 plies?")
	st := res.Book.Stats()
	assert.Equal(t, positions, st.Positions)
	assert.Equal(t, 4, st.MaxPly)
	// Each position was analysed once: its moves were searched once.
	moves := 0
	for _, r := range res.Book.Records() {
		moves += len(legal(&r.Position))
	}
	assert.Equal(t, int64(moves), calls.Load())

	// Two move orders reach the same entries.
	p1, p2 := engine.StartPosition(engine.English), engine.StartPosition(engine.English)
	for _, mv := range []string{"11-15", "24-20", "12-16"} {
		m, err := p1.ParseMove(mv)
		require.NoError(t, err)
		p1 = p1.Play(m)
	}
	for _, mv := range []string{"12-16", "24-20", "11-15"} {
		m, err := p2.ParseMove(mv)
		require.NoError(t, err)
		p2 = p2.Play(m)
	}
	require.Equal(t, p1, p2)
	es := res.Book.Probe(&p1)
	require.NotEmpty(t, es)
	assert.Equal(t, es, res.Book.Probe(&p2))
	for _, r := range res.Book.Records() {
		if r.Position == p1 {
			assert.Equal(t, 3, r.Ply)
		}
	}
}

func TestBuildMarginAndBounds(t *testing.T) {
	res, err := book.Build(context.Background(), book.BuildOptions{
		Variant: engine.Russian, Plies: 12, Positions: 50, Margin: 3, Workers: 1,
		NewSearcher: func() book.Searcher { return hashSearcher{} },
	})
	require.NoError(t, err)
	st := res.Book.Stats()
	assert.Equal(t, 50, st.Positions)
	assert.LessOrEqual(t, st.MaxPly, 12)
	for _, r := range res.Book.Records() {
		best := r.Moves[0].Score
		for i, e := range r.Moves {
			assert.GreaterOrEqual(t, e.Score, best-3)
			assert.Equal(t, max(100*(3+1-(best-e.Score))/(3+1), 1), e.Weight)
			if i > 0 {
				assert.LessOrEqual(t, e.Score, r.Moves[i-1].Score, "best first")
			}
		}
		// The best of all legal moves is kept.
		p := r.Position
		top := -1 << 30
		for _, m := range legal(&p) {
			s, _ := hashSearcher{}.ScoreMove(context.Background(), &p, m)
			top = max(top, s)
		}
		assert.Equal(t, top, best)
	}
}

func TestBuildDeterministic(t *testing.T) {
	opts := func(workers int) book.BuildOptions {
		return book.BuildOptions{
			Variant: engine.Brazilian, Plies: 8, Positions: 40, Margin: 15, Workers: workers,
			NewSearcher: newEngineSearcher(4), Command: "test", Search: "depth=4",
		}
	}
	a, err := book.Build(context.Background(), opts(1))
	require.NoError(t, err)
	b, err := book.Build(context.Background(), opts(1))
	require.NoError(t, err)
	assert.Equal(t, a.Data, b.Data, "two builds with the same settings differ")
	assert.Equal(t, 40, a.Book.Stats().Positions)
	if !testing.Short() {
		c, err := book.Build(context.Background(), opts(3))
		require.NoError(t, err)
		assert.Equal(t, a.Data, c.Data, "the worker count changed the book")
	}
}

func TestBuildStopAndResume(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "b.checkpoint")
	base := book.BuildOptions{
		Variant: engine.English, Plies: 10, Positions: 90, Margin: 5, Workers: 2,
		NewSearcher: func() book.Searcher { return hashSearcher{} }, Command: "damka book build test",
		Seeds: []book.Seed{{Position: mustFEN(t, engine.English, "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9"), Ply: 3}},
	}
	want, err := book.Build(context.Background(), base)
	require.NoError(t, err)

	// Stop after 45 positions (in the middle of the second batch).
	ctx, cancel := context.WithCancel(context.Background())
	o := base
	o.Checkpoint = ck
	o.Progress = func(p book.Progress) {
		if p.Done == 45 {
			cancel()
		}
	}
	_, err = book.Build(ctx, o)
	require.ErrorIs(t, err, context.Canceled)
	cp, err := book.ReadFile(ck, engine.English)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, cp.Stats().Positions, 45)
	assert.NotEmpty(t, cp.Pending(), "the rest of the batch is pending")

	// Resume: the analysed positions are not searched again, and the book
	// is the one an uninterrupted build gives.
	var calls atomic.Int64
	o = base
	o.Checkpoint, o.Resume = ck, true
	o.NewSearcher = func() book.Searcher { return hashSearcher{&calls} }
	got, err := book.Build(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, cp.Stats().Positions, got.Resumed)
	assert.Equal(t, want.Data, got.Data)
	analysed := 0
	for _, r := range want.Book.Records() {
		if !cp.Contains(&r.Position) {
			analysed += len(legal(&r.Position))
		}
	}
	assert.Equal(t, int64(analysed), calls.Load(), "resumed positions searched again")

	// Resuming with other settings is refused.
	o.Margin = 6
	_, err = book.Build(context.Background(), o)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "other settings")

	// Resume without a checkpoint starts afresh.
	o = base
	o.Checkpoint, o.Resume = filepath.Join(dir, "none"), true
	fresh, err := book.Build(context.Background(), o)
	require.NoError(t, err)
	assert.Equal(t, want.Data, fresh.Data)
	assert.Zero(t, fresh.Resumed)
}

func TestBuildCheckpointsPeriodically(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "p.checkpoint")
	var seen atomic.Bool
	_, err := book.Build(context.Background(), book.BuildOptions{
		Variant: engine.Russian, Plies: 6, Positions: 70, Margin: 5, Workers: 1,
		NewSearcher: func() book.Searcher { return hashSearcher{} }, Checkpoint: ck, CheckpointEvery: 1,
		Progress: func(p book.Progress) {
			if p.Done == 40 {
				_, err := os.Stat(ck)
				seen.Store(err == nil)
			}
		},
	})
	require.NoError(t, err)
	assert.True(t, seen.Load(), "no checkpoint after the first batch")
}

func TestBuildSeedsAndErrors(t *testing.T) {
	seed := mustFEN(t, engine.Russian, "B:Wa1,e3,g3,c5,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
	res, err := book.Build(context.Background(), book.BuildOptions{
		Variant: engine.Russian, Plies: 0, Positions: 1, Workers: 1,
		NewSearcher: func() book.Searcher { return hashSearcher{} },
		Seeds:       []book.Seed{{Position: seed, Ply: 3}, {Position: seed, Ply: 3}},
	})
	require.NoError(t, err)
	// Seeds are analysed beyond the positions bound; duplicates once.
	assert.Equal(t, 2, res.Book.Stats().Positions)
	assert.NotEmpty(t, res.Book.Probe(&seed))
	assert.Equal(t, 3, res.Book.Stats().MaxPly)

	bad := []book.BuildOptions{
		{Variant: engine.Russian, Positions: 1},
		{Variant: engine.Russian, Positions: 0, NewSearcher: func() book.Searcher { return hashSearcher{} }},
		{Variant: engine.Russian, Positions: 1, Margin: -1, NewSearcher: func() book.Searcher { return hashSearcher{} }},
		{Variant: engine.English, Positions: 1, Seeds: []book.Seed{{Position: seed}}, NewSearcher: func() book.Searcher { return hashSearcher{} }},
	}
	for i, o := range bad {
		_, err := book.Build(context.Background(), o)
		assert.Error(t, err, i)
	}
}

func TestBuildSearcherError(t *testing.T) {
	boom := errors.New("boom")
	_, err := book.Build(context.Background(), book.BuildOptions{
		Variant: engine.Russian, Plies: 3, Positions: 10, Workers: 2,
		NewSearcher: func() book.Searcher { return failSearcher{boom} },
	})
	assert.ErrorIs(t, err, boom)
}

type failSearcher struct{ err error }

func (f failSearcher) Clear() {}
func (f failSearcher) ScoreMove(context.Context, *engine.Position, engine.Move) (int, error) {
	return 0, f.err
}

func TestBuildWithGames(t *testing.T) {
	pdn := strings.Repeat(`[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 1-0
`, 3) + `[Result "0-1"]
1. 9-13 22-18 0-1
`
	gs := book.NewGameStats(engine.English, 10)
	require.NoError(t, gs.Read(strings.NewReader(pdn), "test"))
	res, err := book.Build(context.Background(), book.BuildOptions{
		Variant: engine.English, Plies: 4, Positions: 20, Margin: 0, Workers: 1, Games: gs, MinCount: 3,
		NewSearcher: func() book.Searcher { return hashSearcher{} },
	})
	require.NoError(t, err)
	p := engine.StartPosition(engine.English)
	line := []string{"11-15", "23-19", "8-11", "22-17"}
	for i, mv := range line {
		m, err := p.ParseMove(mv)
		require.NoError(t, err)
		es := res.Book.Probe(&p)
		require.NotEmpty(t, es, "ply %d not in book", i)
		var found *book.Entry
		for k := range es {
			if es[k].Move == m {
				found = &es[k]
			}
		}
		require.NotNil(t, found, "game move %s kept", mv)
		assert.Equal(t, 3, found.Games)
		// 3 games, Black (the first mover, "1-0") won them all.
		half := 0
		if i%2 == 0 {
			half = 6
		}
		assert.GreaterOrEqual(t, found.Weight, 50*(3+half))
		p = p.Play(m)
	}
	// 9-13 was played once: below --min-count, not a game move.
	p = engine.StartPosition(engine.English)
	m, _ := p.ParseMove("9-13")
	for _, e := range res.Book.Probe(&p) {
		if e.Move == m {
			assert.Zero(t, e.Games)
		}
	}
}
