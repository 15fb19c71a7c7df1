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
// key computed from scratch over every position of perft(4).
func TestPlayKeyIncremental(t *testing.T) {
	for _, v := range AllVariants() {
		var walk func(p Position, depth int)
		walk = func(p Position, depth int) {
			if !assert.Equal(t, p.ComputeKey(), p.Key, "%s key", v) || depth == 0 {
				return
			}
			var list MoveList
			p.GeneratePaths(&list)
			for _, m := range list.Slice() {
				walk(p.Play(m), depth-1)
			}
		}
		walk(StartPosition(v), 5)
	}
}
