// games.go: counting the moves of real games (PDN) to seed a book build.

package book

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// MoveStat is how often a move was played from a position in the games
// read, and what the side that played it scored.
type MoveStat struct {
	N          int // games in which the move was played from the position
	HalfPoints int // half-points its side scored: 2 a win, 1 a draw or an unknown result, 0 a loss
}

// GameStats counts the moves of games of one variant, position by position
// (a transposition counts as the same position), over each game's first
// plies. Build keeps a move played often enough whatever its score.
type GameStats struct {
	v        engine.VariantID
	maxPly   int
	moves    map[posMove]MoveStat
	Games    int // games of the variant read (bad ones included up to their fault)
	Skipped  int // games of another variant
	Bad      int // games with a fault (illegal move, bad FEN...): their moves up to the fault count
	Unscored int // games without a result ("*" or none): counted as draws
}

type posMove struct {
	pos engine.Position
	m   engine.Move
}

// NewGameStats returns empty statistics for variant v over the first
// maxPly plies of each game (maxPly < 1: every ply).
func NewGameStats(v engine.VariantID, maxPly int) *GameStats {
	return &GameStats{v: v, maxPly: maxPly, moves: map[posMove]MoveStat{}}
}

// Read adds the games of a PDN stream (pdn.NewReader; games without
// a GameType tag are of the statistics' variant). A bad game adds its moves
// up to the fault and counts in Bad; only a read error is returned, naming
// the source.
func (s *GameStats) Read(r io.Reader, source string) error {
	_, err := s.ReadReport(r, source, nil)
	return err
}

// ReadReport is Read that also calls bad (when not nil) with each bad
// game's *pdn.Error, and returns how many games of the statistics'
// variant with at least one move it read without a fault, so that a caller
// can report the bad games and refuse a file that gives none.
func (s *GameStats) ReadReport(r io.Reader, source string, bad func(err error)) (good int, err error) {
	pr := pdn.NewReader(r, s.v)
	for {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			return good, nil
		}
		var pe *pdn.Error
		if err != nil && !errors.As(err, &pe) {
			return good, fmt.Errorf("book: %s: %w", source, err)
		}
		if err != nil && bad != nil {
			bad(err)
		}
		if g == nil {
			continue
		}
		if g.Variant != s.v {
			s.Skipped++
			continue
		}
		if err != nil {
			s.Bad++
		} else if len(g.Moves) > 0 {
			good++
		}
		s.Add(g)
	}
}

// Add counts the moves of one game (which must be of the statistics'
// variant, else it is skipped) from its start position.
func (s *GameStats) Add(g *pdn.Game) {
	if g.Variant != s.v {
		s.Skipped++
		return
	}
	s.Games++
	res, err := engine.ParseResult(s.v, g.Result)
	if err != nil || res == engine.Ongoing {
		s.Unscored++
		res = engine.Draw
	}
	p := normal(g.Start)
	p.V = s.v
	for i, m := range g.Moves {
		if s.maxPly > 0 && i >= s.maxPly {
			break
		}
		half := 1
		switch {
		case res == engine.WhiteWins && p.Side == engine.White, res == engine.BlackWins && p.Side == engine.Black:
			half = 2
		case res == engine.WhiteWins || res == engine.BlackWins:
			half = 0
		}
		k := posMove{p, m}
		st := s.moves[k]
		st.N++
		st.HalfPoints += half
		s.moves[k] = st
		p = p.Play(m)
	}
}

// Stat returns the statistics of move m in p (zero when never played).
func (s *GameStats) Stat(p *engine.Position, m engine.Move) MoveStat {
	if s == nil || p.V != s.v {
		return MoveStat{}
	}
	q := normal(*p)
	return s.moves[posMove{q, m}]
}

// Frequent returns the number of distinct (position, move) pairs played at
// least minCount times.
func (s *GameStats) Frequent(minCount int) int {
	n := 0
	for _, st := range s.moves {
		if st.N >= minCount {
			n++
		}
	}
	return n
}

// digest is a hash of the statistics, for the build settings.
func (s *GameStats) digest() uint64 {
	type row struct {
		pos    engine.Position
		m      engine.Move
		n, hal int
	}
	rows := make([]row, 0, len(s.moves))
	for k, st := range s.moves {
		rows = append(rows, row{k.pos, k.m, st.N, st.HalfPoints})
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(comparePos(&a.pos, &b.pos), cmp.Compare(a.m.From, b.m.From), cmp.Compare(a.m.To, b.m.To),
			cmp.Compare(a.m.Captured, b.m.Captured), cmp.Compare(a.m.Flags, b.m.Flags))
	})
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d\n", s.v, s.maxPly)
	for _, r := range rows {
		fmt.Fprintf(h, "%x %x %x %d %d %d %x %d %d\n", r.pos.Pieces[0], r.pos.Pieces[1], r.pos.Kings, r.pos.Side,
			r.m.From, r.m.To, r.m.Captured, r.n, r.hal)
	}
	return h.Sum64()
}
