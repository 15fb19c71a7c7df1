package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// TestBookSearcherScoresFromTheMover: a book build's searcher scores a
// move from the mover's side, a won end one ply away.
func TestBookSearcherScoresFromTheMover(t *testing.T) {
	// White's king must take Black's last man: a win at once, scored from
	// White's side one ply away (Mate-1).
	s := NewBookSearcher(4, 0, 1)
	var l engine.MoveList
	q, err := engine.ParseFEN(engine.English, "W:WK18:B14")
	require.NoError(t, err)
	q.Generate(&l)
	require.Equal(t, 1, l.N)
	require.True(t, l.Moves[0].IsCapture())
	sc, err := s.ScoreMove(context.Background(), &q, l.Moves[0])
	require.NoError(t, err)
	assert.Equal(t, search.Mate-1, sc)

	// Three men against one: some move scores above a man from White's
	// side.
	w, err := engine.ParseFEN(engine.Russian, "W:W25,26,27:B5")
	require.NoError(t, err)
	s.Clear()
	w.Generate(&l)
	best := -search.Mate
	for _, m := range l.Slice() {
		sc, err := s.ScoreMove(context.Background(), &w, m)
		require.NoError(t, err)
		best = max(best, sc)
	}
	assert.Greater(t, best, 100)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := engine.StartPosition(engine.Russian)
	start.Generate(&l)
	_, err = s.ScoreMove(ctx, &start, l.Moves[0])
	assert.ErrorIs(t, err, context.Canceled)
}

// TestBuildBookInputErrors: BuildBook names the BookJob field at fault: a
// seed file that does not read, a game file without a game of the
// variant (the file named); nothing is written.
func TestBuildBookInputErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.book")
	job := BookJob{Options: book.BuildOptions{Variant: engine.English, Plies: 2, Positions: 2, Workers: 1},
		Depth: 2, HashMiB: 1, Out: out, SeedFiles: []string{filepath.Join(dir, "none.fen")}}
	var ie *InputError
	_, err := BuildBook(context.Background(), job)
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "SeedFiles", ie.Field)
	assert.Contains(t, err.Error(), "none.fen")

	games := filepath.Join(dir, "g.pdn")
	require.NoError(t, os.WriteFile(games, []byte("[GameType \"25\"]\n1. 32-28 *\n"), 0o644))
	job.SeedFiles, job.GameFiles = nil, []string{games}
	_, err = BuildBook(context.Background(), job)
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "GameFiles", ie.Field)
	assert.Equal(t, []string{games}, ie.Files)
	assert.Contains(t, ie.Err.Error(), "no english game")
	assert.NoFileExists(t, out)

	job.GameFiles = nil
	res, err := BuildBook(context.Background(), job)
	require.NoError(t, err)
	assert.FileExists(t, out)
	assert.Equal(t, "depth=2 hash=1MiB", BookSearchText(job.Depth, job.MoveTime, job.HashMiB))
	assert.Equal(t, engine.English, res.Book.Variant())
}
