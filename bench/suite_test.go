package bench

import (
	"context"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// solveSuites are the solve suites in testdata/, the depth the test
// searches them to, and how many positions each must have at least.
var solveSuites = []struct {
	v     engine.VariantID
	file  string
	depth int
	min   int
}{
	{engine.Russian, "solve_russian.epd", 14, 20},
	{engine.English, "solve_english.epd", 14, 20},
	{engine.Brazilian, "solve_brazilian.epd", 14, 5},
	{engine.International, "solve_international.epd", 11, 5},
}

// shortSolveDepth is the depth of the -short run.
const shortSolveDepth = 10

// foundDepth reads "found at depth N" from a generated comment (99 when
// absent).
func foundDepth(c string) int {
	_, after, ok := strings.Cut(c, "found at depth ")
	if !ok {
		return 99
	}
	n, err := strconv.Atoi(strings.TrimRight(strings.Fields(after)[0], ",;"))
	if err != nil {
		return 99
	}
	return n
}

func TestSolveSuites(t *testing.T) {
	for _, s := range solveSuites {
		t.Run(s.v.String(), func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", s.file))
			require.NoError(t, err)
			defer f.Close()
			entries, err := ReadSuite(f, s.v)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(entries), s.min)
			depth := s.depth
			if testing.Short() {
				depth = shortSolveDepth
			}
			if raceEnabled {
				// The race detector checks the search, not its strength.
				depth = 8
				entries = entries[:4]
			}
			e := search.New(search.Options{Threads: 1, HashMiB: 16})
			solved, tried := 0, 0
			for i := range entries {
				en := &entries[i]
				// Under -short only the positions the generator's search
				// found well within the short depth are searched.
				if found := foundDepth(en.Comment); (testing.Short() || raceEnabled) && found > depth-2 {
					continue
				}
				tried++
				e.Clear()
				ok, r := Solve(context.Background(), e, en, search.Limits{Depth: depth})
				if ok {
					solved++
				} else {
					t.Logf("%s: found %s, want %s", en.ID, en.Position.FormatMove(r.Move, engine.FormatFull), en.Position.FormatMove(en.Best[0], engine.FormatFull))
				}
			}
			t.Logf("%v: solved=%d total=%d at depth %d (%d in the file)", s.v, solved, tried, depth, len(entries))
			// The suites were generated with the hand-set evaluation; the
			// learned one finds a few of them a depth or two later. A
			// search that loses more than a tenth of them is broken.
			assert.GreaterOrEqual(t, solved, tried-max(2, tried/10), "%v: too many positions not solved", s.v)
		})
	}
}

func TestReadSuiteErrors(t *testing.T) {
	_, err := ReadSuite(strings.NewReader("W:W21:B1 ; id x\n"), engine.Russian)
	assert.ErrorContains(t, err, "line 1: no bm")
	_, err = ReadSuite(strings.NewReader("# c\n\nW:W21:B1 ; bm a1-b2\n"), engine.Russian)
	assert.ErrorContains(t, err, "line 3: bm")
	_, err = ReadSuite(strings.NewReader("W:W99:B1 ; bm 1-5\n"), engine.Russian)
	assert.ErrorContains(t, err, "line 1")
	es, err := ReadSuite(strings.NewReader("W:W21:B1 ; bm a3-b4 ; id \"x\" ; acd 9 ; c0 \"hi\"\n"), engine.Russian)
	require.NoError(t, err)
	require.Len(t, es, 1)
	assert.Equal(t, "x", es[0].ID)
	assert.Equal(t, 9, es[0].Depth)
	assert.Equal(t, "hi", es[0].Comment)
}

// TestSolvedAt: the time of the first iteration of the last run of best
// moves, the search's end when the move came after the last iteration, and
// not solved when the final move is not a best one.
func TestSolvedAt(t *testing.T) {
	p, err := engine.ParseFEN(engine.English, "B:WK3,K13,19,27,32:B7,11,K25,26")
	require.NoError(t, err)
	mv := func(s string) engine.Move {
		m, err := p.ParseMove(s)
		require.NoError(t, err)
		return m
	}
	a, b, c := mv("26-31"), mv("7-10"), mv("25-21")
	best := []engine.Move{a, b}
	it := func(ms int, m engine.Move) Iteration {
		return Iteration{Time: time.Duration(ms) * time.Millisecond, Move: m, HasMove: true}
	}
	end := time.Second
	at, ok := SolvedAt([]Iteration{it(1, a), it(2, b), it(3, a)}, a, true, end, best)
	assert.True(t, ok)
	assert.Equal(t, time.Millisecond, at, "any best move keeps the run")
	at, ok = SolvedAt([]Iteration{it(1, a), it(2, c), it(3, a), it(4, a)}, a, true, end, best)
	assert.True(t, ok)
	assert.Equal(t, 3*time.Millisecond, at, "a worse move breaks the run")
	at, ok = SolvedAt([]Iteration{it(1, c), it(2, c)}, a, true, end, best)
	assert.True(t, ok)
	assert.Equal(t, end, at, "found after the last iteration")
	at, ok = SolvedAt([]Iteration{it(1, a), {Time: 2 * time.Millisecond}}, a, true, end, best)
	assert.True(t, ok)
	assert.Equal(t, end, at, "an iteration without a move breaks the run")
	_, ok = SolvedAt([]Iteration{it(1, a)}, c, true, end, best)
	assert.False(t, ok)
	_, ok = SolvedAt(nil, engine.Move{}, false, end, best)
	assert.False(t, ok)

	// SolveTimed: a forced capture is found at depth 1 and stays.
	entries, err := ReadSuite(strings.NewReader("B:W26,27:B22 ; bm 22x31 ; id forced\n"), engine.English)
	require.NoError(t, err)
	e := search.New(search.Options{Threads: 1, HashMiB: 1})
	r := SolveTimed(context.Background(), e, &entries[0], search.Limits{Depth: 3})
	require.True(t, r.OK)
	require.NotEmpty(t, r.Iterations)
	assert.Equal(t, 1, r.Iterations[0].Depth)
	assert.Equal(t, r.Iterations[0].Time, r.SolvedAt)
}

// TestSpeedSuite: the speed suite (docs/strength.md, "Search speed")
// holds 28 middlegame positions of real games as its header describes
// them: men only, 24 to 34 pieces, no capture pending, two a game, both
// sides to move.
func TestSpeedSuite(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "nps_international.epd"))
	require.NoError(t, err)
	defer f.Close()
	entries, err := ReadSuite(f, engine.International)
	require.NoError(t, err)
	require.Len(t, entries, 28)
	ids := map[string]bool{}
	sides := [2]int{}
	for _, e := range entries {
		p := &e.Position
		n := bits.OnesCount64(p.Pieces[0] | p.Pieces[1])
		assert.Zero(t, p.Kings, e.ID)
		assert.True(t, n >= 24 && n <= 34, "%s: %d pieces", e.ID, n)
		assert.False(t, p.HasCapture(), "%s: a capture is pending", e.ID)
		assert.False(t, ids[e.ID], "%s twice", e.ID)
		ids[e.ID] = true
		sides[p.Side]++
	}
	assert.Equal(t, [2]int{14, 14}, sides)
}
