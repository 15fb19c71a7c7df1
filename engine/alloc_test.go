package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHotPathAllocs proves that move generation, counting and playing a
// move allocate nothing, in every variant and in positions with captures.
func TestHotPathAllocs(t *testing.T) {
	for _, v := range AllVariants() {
		p := StartPosition(v)
		// Walk a few plies so captures and kings are not all absent.
		var list MoveList
		positions := []Position{p}
		for i := 0; i < 3; i++ {
			q := positions[len(positions)-1]
			q.Generate(&list)
			if list.N == 0 {
				break
			}
			positions = append(positions, q.Play(list.Moves[list.N/2]))
		}
		for _, q := range positions {
			allocs := testing.AllocsPerRun(100, func() {
				q.Generate(&list)
				q.GeneratePaths(&list)
				q.GenerateCaptures(&list)
				_ = q.CountMoves(&list, false)
				_ = q.HasCapture()
				for i := 0; i < list.N; i++ {
					_ = q.Play(list.Moves[i])
				}
			})
			assert.Zero(t, allocs, "%s: allocations in generate/play", v)
		}
	}
}

// TestPlayKeyIncremental checks that Play keeps the Zobrist key equal to the
// key computed from scratch, and that KeyAfter gives it before the move is
// played, over every position of perft(5) from the start and perft(3) from
// positions with kings, captures by kings and crowning men.
func TestPlayKeyIncremental(t *testing.T) {
	kings := map[VariantID][]string{
		Russian:       {"W:WKa1,c3,g7:Bb6,d6,Kh8,f4", "B:WKd4,e3:Bf6,Kb8,c7"},
		Brazilian:     {"W:WKa1,c3,g7:Bb6,d6,Kh8,f4"},
		English:       {"W:WK9,10,26:B14,K23,27,K31", "B:W6,K18:B22,K27"},
		International: {"W:WK46,28,7:B22,K3,33,19,40", "B:W10,K41,32:BK5,37,38,44"},
	}
	for _, v := range AllVariants() {
		var walk func(p Position, depth int)
		walk = func(p Position, depth int) {
			if !assert.Equal(t, p.ComputeKey(), p.Key, "%s key", v) || depth == 0 {
				return
			}
			var list MoveList
			p.GeneratePaths(&list)
			for _, m := range list.Slice() {
				q := p.Play(m)
				if !assert.Equal(t, q.Key, p.KeyAfter(m), "%s: KeyAfter %v in %s", v, m, p.FEN()) {
					return
				}
				walk(q, depth-1)
			}
		}
		walk(StartPosition(v), 5)
		for _, fen := range kings[v] {
			p, err := ParsePosition(v, fen)
			if assert.NoError(t, err, fen) {
				walk(p, 3)
			}
		}
	}
}
