package search

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestDrawRuleShortcut checks the cheap filter in front of
// engine.DrawState.IsDraw: below the thresholds no variant's rule fires.
func TestDrawRuleShortcut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var l engine.MoveList
	for _, v := range engine.AllVariants() {
		for g := 0; g < 30; g++ {
			p := engine.StartPosition(v)
			for ply := 0; ply < 300; ply++ {
				// The rules compare counters with ">=": the largest
				// counters below the thresholds stand for all smaller ones.
				d := engine.DrawState{Reversible: 29, Balance: 9}
				require.False(t, d.IsDraw(&p), "%v %s %+v", v, p.FEN(), d)
				p.Generate(&l)
				if l.N == 0 {
					break
				}
				p = p.Play(l.Moves[rng.IntN(l.N)])
			}
		}
	}
}
