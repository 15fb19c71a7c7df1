// bookbuild.go: damka book build's work: the seed positions and games
// read from their files, a book grown by one-thread searches, and the book
// file written in place of its checkpoint.

package bench

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
	"github.com/damka-draughts/damka/search"
)

// MaxSeedFileBytes bounds a seed positions file of BookJob (64 MiB: a
// million FEN lines).
const MaxSeedFileBytes = 64 << 20

// BookJob is one book build from files to a book file.
type BookJob struct {
	// Options are book.Build's; BuildBook sets their Seeds, Games,
	// NewSearcher and Search.
	Options book.BuildOptions
	// SeedFiles hold seed positions (book.ParseSeeds), read in order.
	SeedFiles []string
	// GameFiles are PDN files whose frequent moves are kept
	// (book.GameStats, up to Options.Plies); none: no games.
	GameFiles []string
	// Depth is each search's depth in plies counted from the analysed
	// position (so Depth-1 after the move), unless MoveTime is more than
	// 0: then each move is searched that many seconds.
	Depth    int
	MoveTime float64
	// HashMiB is the transposition table of each worker's search, MiB.
	HashMiB int
	// Out is the book file written (through Out+".tmp"); the checkpoint,
	// Options.Checkpoint, is removed once it is.
	Out string
	// SeedsRead, if not nil, is told the positions of each seed file;
	// BadGame each game of a game file that cannot be read; GamesRead the
	// statistics once every game file is read; Start the options of
	// book.Build right before it runs.
	SeedsRead func(file string, positions int)
	BadGame   func(file string, err error)
	GamesRead func(s *book.GameStats)
	Start     func(o book.BuildOptions)
}

// InputError is BuildBook's error about an input file: Field is the
// BookJob field at fault ("SeedFiles", "GameFiles"), Files the files
// concerned (empty when Err names its file itself).
type InputError = fileread.FieldError

// BookSearchText describes a BookJob's searches (moveTime in seconds, 0
// for depth) as the book records them: "depth=8 hash=8MiB" or
// "movetime=0.5s hash=8MiB".
func BookSearchText(depth int, moveTime float64, hashMiB int) string {
	if moveTime > 0 {
		return fmt.Sprintf("movetime=%gs hash=%dMiB", moveTime, hashMiB)
	}
	return fmt.Sprintf("depth=%d hash=%dMiB", depth, hashMiB)
}

// BuildBook reads the job's files, grows the book (book.Build) and writes
// it to Out. The errors about its files are *InputError: a seed file that
// does not read or parse, a game file that does not read or gives no game
// of the variant with moves read without a fault. Build's error is
// returned as it is (ctx's when the build was stopped, the checkpoint then
// written).
func BuildBook(ctx context.Context, j BookJob) (*book.BuildResult, error) {
	o := j.Options
	v := o.Variant
	for _, f := range j.SeedFiles {
		data, err := fileread.Read(f, MaxSeedFileBytes)
		if err != nil {
			return nil, &InputError{Field: "SeedFiles", Err: err}
		}
		s, err := book.ParseSeeds(data, v, f)
		if err != nil {
			return nil, &InputError{Field: "SeedFiles", Err: err}
		}
		if j.SeedsRead != nil {
			j.SeedsRead(f, len(s))
		}
		o.Seeds = append(o.Seeds, s...)
	}
	if len(j.GameFiles) > 0 {
		o.Games = book.NewGameStats(v, o.Plies)
		for _, g := range j.GameFiles {
			if err := readBookGames(o.Games, v, g, j.BadGame); err != nil {
				return nil, err
			}
		}
		if j.GamesRead != nil {
			j.GamesRead(o.Games)
		}
	}
	o.Search = BookSearchText(j.Depth, j.MoveTime, j.HashMiB)
	o.NewSearcher = func() book.Searcher { return NewBookSearcher(j.Depth, j.MoveTime, j.HashMiB) }
	if j.Start != nil {
		j.Start(o)
	}
	res, err := book.Build(ctx, o)
	if err != nil {
		return nil, err
	}
	tmp := j.Out + ".tmp"
	if err := os.WriteFile(tmp, res.Data, 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, j.Out); err != nil {
		return nil, err
	}
	if o.Checkpoint != "" {
		if err := os.Remove(o.Checkpoint); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	return res, nil
}

// readBookGames adds the games of file name to s, the statistics of
// variant v, bad told of each game that cannot be read.
func readBookGames(s *book.GameStats, v engine.VariantID, name string, bad func(file string, err error)) error {
	f, err := fileread.Open(name)
	if err != nil {
		return &InputError{Field: "GameFiles", Err: err}
	}
	defer f.Close()
	skipped := s.Skipped
	good, err := s.ReadReport(f, name, func(err error) {
		if bad != nil {
			bad(name, err)
		}
	})
	if err != nil {
		return &InputError{Field: "GameFiles", Err: err}
	}
	if good == 0 {
		return &InputError{Field: "GameFiles", Files: []string{name},
			Err: fmt.Errorf("no %s game with moves read without a fault (%d of another variant; check the file with damka pdn check)",
				v, s.Skipped-skipped)}
	}
	return nil
}

// NewBookSearcher returns the book.Searcher of a build: a one-thread
// search with a table of hashMiB MiB of the position after each candidate
// move, depth-1 plies deep (depth counted from the analysed position), or
// moveTime seconds when that is more than 0.
func NewBookSearcher(depth int, moveTime float64, hashMiB int) book.Searcher {
	limits := search.Limits{Depth: depth - 1}
	if moveTime > 0 {
		limits = search.Limits{MoveTime: time.Duration(moveTime * float64(time.Second))}
	}
	return &bookSearcher{e: search.New(search.Options{Threads: 1, HashMiB: hashMiB}), limits: limits}
}

// bookSearcher is the book.Searcher of a build: a one-thread search.Engine
// searching the position after each candidate move.
type bookSearcher struct {
	e      *search.Engine
	limits search.Limits
	list   engine.MoveList
}

// Clear empties the engine's table and history before each position.
func (s *bookSearcher) Clear() { s.e.Clear() }

// ScoreMove searches the position after m and returns its score from the
// mover's side (a won or lost end one ply further away).
func (s *bookSearcher) ScoreMove(ctx context.Context, p *engine.Position, m engine.Move) (int, error) {
	child := p.Play(m)
	if child.CountMoves(&s.list, false) == 0 {
		return search.Mate - 1, nil // the opponent cannot move: won
	}
	r := s.e.Search(ctx, child, []uint64{p.Key}, s.limits, nil)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return search.ScoreAfterMove(r.Score), nil
}
