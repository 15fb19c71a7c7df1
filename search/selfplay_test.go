package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// maxGamePlies bounds a self-play game: the draw rules end every game long
// before it, so reaching it is a failure.
const maxGamePlies = 1000

// TestSelfPlay plays fast games in every variant, checks every move the
// engine chooses against the rules core's legal move list, and checks that
// every game ends by a rule (a side without a legal move, repetition, or a
// draw rule).
func TestSelfPlay(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 20
	}
	if raceEnabled {
		games = 4
	}
	for _, v := range engine.AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			n := games
			if v == engine.International && testing.Short() {
				n = games / 2
			}
			e := New(Options{Threads: 1, HashMiB: 4})
			rng := rand.New(rand.NewPCG(uint64(v), 42))
			reasons := map[engine.Reason]int{}
			results := map[engine.Result]int{}
			var l engine.MoveList
			for gi := 0; gi < n; gi++ {
				e.Clear()
				g := engine.NewGame(engine.StartPosition(v))
				opening := 2 + rng.IntN(5)
				for {
					if res, why := g.Result(); res != engine.Ongoing {
						results[res]++
						reasons[why]++
						break
					}
					require.Less(t, g.Ply(), maxGamePlies, "game %d never ended", gi)
					p := g.Position()
					p.Generate(&l)
					var m engine.Move
					if g.Ply() < opening {
						m = l.Moves[rng.IntN(l.N)]
					} else {
						r := e.SearchGame(context.Background(), g, Limits{Nodes: 1500}, nil)
						require.True(t, r.HasMove, "game %d ply %d: no move in %s", gi, g.Ply(), p.FEN())
						m = r.Move
					}
					require.NoError(t, g.PlayChecked(m), "game %d ply %d: %s", gi, g.Ply(), p.FEN())
				}
			}
			t.Logf("%v: %d games, results %v, reasons %v", v, n, results, reasons)
			total := 0
			for _, c := range results {
				total += c
			}
			assert.Equal(t, n, total)
		})
	}
}
