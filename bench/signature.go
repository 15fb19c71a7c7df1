// signature.go: the fixed-depth benchmark whose node count is damka's search
// signature (`damka bench`). It lives here, not in search, so that search
// holds only what a searcher needs.

package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/search"
)

// BenchPosition is one position of the bench set.
type BenchPosition struct {
	Variant engine.VariantID
	FEN     string // PDN FEN, numeric squares
	Source  string // where it comes from
}

// BenchPositions are the bench set: openings, middlegames and endings of
// all four variants. The Russian ones are from the games of the 10th USSR
// championship and the English ones from Marion Tinsley's games
// (testdata/draughts, game and ply given in Source); the Brazilian set
// adds an opening ballot and Russian middlegames played under Brazilian
// rules. The game files of testdata/draughts hold no international games: the international
// set is the start position and the two reference perft positions of
// docs/rules.md "Perft".
var BenchPositions = []BenchPosition{
	{engine.Russian, "W:W13,19,21,22,24,25,27,28,30,31,32:B1,2,4,5,6,8,9,10,11,12,15", "russian_ussr_championship_X game 3 ply 12"},
	{engine.Russian, "W:W18,19,21,22,23,28,31:B3,4,5,6,7,10,13", "russian_ussr_championship_X game 40 ply 30"},
	{engine.Russian, "W:W20,21,22,24,28,30,31:B1,3,7,9,10,11,13,19", "russian_ussr_championship_X game 77 ply 30"},
	{engine.Russian, "W:W21,22,23,24,27,28:B11,14,15,16,17,20", "russian_ussr_championship_X game 120 ply 50"},
	{engine.Russian, "W:WK2,12,14,27:B5,13,20,K29", "russian_ussr_championship_X game 40 ply 50"},
	{engine.English, "B:W15,17,21,22,23,24,26,27,28,29,30,31:B1,2,3,4,6,8,9,10,12,13,14,20", "english_tinsley_checkerboard game 5 ply 12"},
	{engine.English, "B:W19,20,21,22,25,27,31:B5,7,9,11,12,13,14", "english_tinsley_checkerboard game 100 ply 30"},
	{engine.English, "B:W17,19,25,27,28,31:B2,4,5,10,12,18", "english_tinsley_checkerboard game 300 ply 30"},
	{engine.English, "B:WK9,10,21,22,26,29:B2,8,13,19,K31", "english_tinsley_checkerboard game 5 ply 50"},
	{engine.English, "B:WK11,12,21,24,25:B5,9,13,K28", "english_tinsley_checkerboard game 100 ply 50"},
	{engine.Brazilian, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "start position"},
	{engine.Brazilian, "W:Wc3,e3,g3,b4,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,c5,b6,f6,h6,c7,e7,g7,b8,d8,f8,h8", "pydraughts_ballots_brazilian I-4"},
	{engine.Brazilian, "W:W18,23,24,27,28,30,31,32:B1,2,10,11,12,13,16,20", "russian_ussr_championship_X game 120 ply 30"},
	{engine.Brazilian, "W:W13,19,21,24,28,31,32:B1,2,5,6,9,11,12,25", "russian_ussr_championship_X game 3 ply 30"},
	{engine.International, "W:W31-50:B1-20", "start position"},
	{engine.International, "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", "rules.md perft position 1"},
	{engine.International, "W:W6,7,8,9,10:B41,42,43,44,45", "rules.md perft position 2"},
}

// BenchHashMiB is the table size Bench uses.
const BenchHashMiB = 16

// BenchSignature is Bench(DefaultBenchDepth)'s node count for the current
// search and evaluation. A functional change updates it (and its commit
// message says "Bench: N"); a refactor must leave it alone.
const BenchSignature = 3276973

// DefaultBenchDepth is the depth `damka bench` searches when not told
// otherwise: about two seconds on one core of the development machine.
const DefaultBenchDepth = 12

// Bench searches every BenchPositions entry to the given depth with one
// thread and a cleared table, and returns the total node count (the
// signature: the same for every run of the same code on any machine) and
// the time taken. each, when not nil, is called after every position with
// its index in BenchPositions, the parsed position and the search result.
// It panics only if a bench FEN does not parse, which a test rules out.
// This is the only bench walk: `damka bench` prints its lines from each.
func Bench(depth int, each func(i int, p engine.Position, r search.Result)) (nodes uint64, elapsed time.Duration) {
	return BenchEval(depth, nil, each)
}

// BenchEval is Bench with the evaluation weights ev in the positions of
// their variant (search.Options.Eval; nil: the embedded weights).
func BenchEval(depth int, ev *eval.Weights, each func(i int, p engine.Position, r search.Result)) (nodes uint64, elapsed time.Duration) {
	e := search.New(search.Options{Threads: 1, HashMiB: BenchHashMiB, Eval: ev})
	start := time.Now()
	for i, bp := range BenchPositions {
		p, err := engine.ParseFEN(bp.Variant, bp.FEN)
		if err != nil {
			panic(fmt.Sprintf("bench: bench position %q: %v", bp.FEN, err))
		}
		e.Clear()
		r := e.Search(context.Background(), p, nil, search.Limits{Depth: depth}, nil)
		nodes += r.Nodes
		if each != nil {
			each(i, p, r)
		}
	}
	return nodes, time.Since(start)
}
