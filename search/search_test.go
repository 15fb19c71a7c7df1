package search

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// mustFEN parses a FEN of variant v or fails the test.
func mustFEN(t testing.TB, v engine.VariantID, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err, fen)
	return p
}

// isLegal reports whether m is one of p's legal moves.
func isLegal(p *engine.Position, m engine.Move) bool {
	var l engine.MoveList
	p.Generate(&l)
	for _, x := range l.Slice() {
		if x == m {
			return true
		}
	}
	return false
}

func TestReproducibleAfterClear(t *testing.T) {
	for _, v := range engine.AllVariants() {
		e := New(Options{Threads: 1, HashMiB: 8})
		p := engine.StartPosition(v)
		depth := 9
		if v == engine.International || testing.Short() {
			depth = 7
		}
		r1 := e.Search(context.Background(), p, nil, Limits{Depth: depth}, nil)
		e.Clear()
		r2 := e.Search(context.Background(), p, nil, Limits{Depth: depth}, nil)
		assert.Equal(t, r1.Nodes, r2.Nodes, v.String())
		assert.Equal(t, r1.Move, r2.Move, v.String())
		assert.Equal(t, r1.Score, r2.Score, v.String())
		assert.Equal(t, depth, r2.Depth, v.String())
		assert.True(t, isLegal(&p, r1.Move), v.String())
	}
}

func TestNodeLimitIsExactWithOneThread(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 4})
	p := engine.StartPosition(engine.Russian)
	r1 := e.Search(context.Background(), p, nil, Limits{Nodes: 20000}, nil)
	e.Clear()
	r2 := e.Search(context.Background(), p, nil, Limits{Nodes: 20000}, nil)
	assert.Equal(t, r1.Nodes, r2.Nodes)
	assert.Equal(t, r1.Move, r2.Move)
	assert.GreaterOrEqual(t, r1.Nodes, uint64(20000))
	assert.Less(t, r1.Nodes, uint64(20000+256+1))
}

func TestSearchIterationDoesNotAllocate(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 4})
	w := e.workers[0]
	for _, v := range engine.AllVariants() {
		p := engine.StartPosition(v)
		l := Limits{Depth: 7}
		run := func() {
			e.stop.Store(false)
			w.prepare(&p, nil, l, timeManager{}, time.Now())
			w.iterate(nil)
		}
		run() // warm-up
		allocs := testing.AllocsPerRun(3, run)
		assert.Zero(t, allocs, v.String())
		assert.Equal(t, 7, w.completed, v.String())
		l.MultiPV = 3 // multi-PV: the lines are kept from the warm-up on
		run()
		assert.Zero(t, testing.AllocsPerRun(3, run), v.String()+" multi-PV")
		assert.Equal(t, 3, w.nLines, v.String())
	}
}

func TestTwoThreads(t *testing.T) {
	e := New(Options{Threads: 2, HashMiB: 8})
	for _, v := range engine.AllVariants() {
		p := engine.StartPosition(v)
		r := e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
		assert.True(t, r.HasMove)
		assert.True(t, isLegal(&p, r.Move), v.String())
		assert.Equal(t, 8, r.Depth)
		assert.Greater(t, r.Nodes, uint64(0))
	}
}

func TestNoLegalMove(t *testing.T) {
	e := New(Options{Threads: 2, HashMiB: 1})
	// White's only man on 29 (a1) is blocked by black men on 25 and 22.
	p := mustFEN(t, engine.English, "W:W29:B25,22")
	r := e.Search(context.Background(), p, nil, Limits{Depth: 5}, nil)
	assert.False(t, r.HasMove)
	assert.Equal(t, -Mate, r.Score)
}

func TestSingleLegalMoveReturnsAtOnce(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	// English: Black must capture 22x31.
	p := mustFEN(t, engine.English, "B:W26,27,21,12:B22,1,2")
	var l engine.MoveList
	p.Generate(&l)
	require.Equal(t, 1, l.N)
	start := time.Now()
	r := e.Search(context.Background(), p, nil, Limits{Time: 10 * time.Minute}, nil)
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, l.Moves[0], r.Move)
}

func TestMateScore(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	// English: White takes Black's last piece: a win in 1 ply.
	p := mustFEN(t, engine.English, "W:W22:B18")
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	assert.Equal(t, Mate-1, r.Score)
	// The table keeps mate distances right on a second search.
	r = e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	assert.Equal(t, Mate-1, r.Score)
	// Black to move loses in 2 plies whatever it does.
	p = mustFEN(t, engine.English, "B:WK10,K11:B3")
	r = e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	assert.LessOrEqual(t, r.Score, -MateBound)
}

func TestStopAndInfinite(t *testing.T) {
	e := New(Options{Threads: 2, HashMiB: 8})
	p := engine.StartPosition(engine.International)
	done := make(chan Result)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { done <- e.Search(ctx, p, nil, Limits{Infinite: true}, nil) }()
	time.Sleep(50 * time.Millisecond)
	select {
	case <-done:
		t.Fatal("infinite search returned before its context ended")
	default:
	}
	stop()
	select {
	case r := <-done:
		assert.True(t, isLegal(&p, r.Move))
	case <-time.After(5 * time.Second):
		t.Fatal("search did not stop")
	}
}

func TestContextCancel(t *testing.T) {
	e := New(Options{Threads: 2, HashMiB: 8})
	p := engine.StartPosition(engine.Russian)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := e.Search(ctx, p, nil, Limits{}, nil)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.True(t, isLegal(&p, r.Move))
}

func TestCancelledBeforeStartStillMoves(t *testing.T) {
	e := New(Options{Threads: 2, HashMiB: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range engine.AllVariants() {
		p := engine.StartPosition(v)
		r := e.Search(ctx, p, nil, Limits{Depth: 20}, nil)
		assert.True(t, r.HasMove)
		assert.True(t, isLegal(&p, r.Move), v.String())
	}
}

func TestPonderHit(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 8})
	p := engine.StartPosition(engine.English)
	j := e.Start(context.Background(), Request{Game: engine.NewGame(p), Limits: Limits{Ponder: true, MoveTime: 100 * time.Millisecond}})
	time.Sleep(150 * time.Millisecond)
	select {
	case <-j.Done():
		t.Fatal("ponder search returned before PonderHit")
	default:
	}
	j.PonderHit()
	select {
	case <-j.Done():
		assert.True(t, isLegal(&p, j.Wait().Move))
	case <-time.After(3 * time.Second):
		t.Fatal("search did not end after PonderHit")
	}
}

// skipIfOverloaded skips a wall-clock test when the machine runs more
// runnable threads than it has cores: time limits are kept by the search,
// but a starved process can be descheduled past any deadline.
func skipIfOverloaded(t *testing.T) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return
	}
	var load float64
	if _, err := fmt.Sscan(string(b), &load); err == nil && load > float64(runtime.NumCPU()) {
		t.Skipf("load average %.1f on %d cores: wall-clock limits cannot be checked", load, runtime.NumCPU())
	}
}

func TestClockNeverOverruns(t *testing.T) {
	skipIfOverloaded(t)
	e := New(Options{Threads: 2, HashMiB: 8})
	for _, v := range engine.AllVariants() {
		p := engine.StartPosition(v)
		for _, clock := range []time.Duration{40 * time.Millisecond, 300 * time.Millisecond} {
			start := time.Now()
			r := e.Search(context.Background(), p, nil, Limits{Time: clock}, nil)
			assert.Less(t, time.Since(start), clock, "%v with %v on the clock", v, clock)
			assert.True(t, isLegal(&p, r.Move))
		}
		// A big increment with little time left is not spent in advance.
		start := time.Now()
		e.Search(context.Background(), p, nil, Limits{Time: 200 * time.Millisecond, Inc: 5 * time.Second}, nil)
		assert.Less(t, time.Since(start), 200*time.Millisecond)
		// A fixed move time is kept to (with slack for a loaded machine).
		start = time.Now()
		e.Search(context.Background(), p, nil, Limits{MoveTime: 100 * time.Millisecond}, nil)
		assert.Less(t, time.Since(start), 200*time.Millisecond)
	}
}

func TestReportsEveryIteration(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 4})
	p := engine.StartPosition(engine.Brazilian)
	var infos []Info
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6}, func(i Info) { infos = append(infos, i) })
	require.Len(t, infos, 6)
	for i, in := range infos {
		assert.Equal(t, i+1, in.Depth)
		assert.NotEmpty(t, in.PV)
		q := p
		for _, m := range in.PV {
			require.True(t, isLegal(&q, m), "PV move at depth %d", in.Depth)
			q = q.Play(m)
		}
	}
	assert.Equal(t, infos[5].PV, r.PV)
	assert.Equal(t, r.PV[0], r.Move)
	if len(r.PV) > 1 {
		assert.Equal(t, r.PV[1], r.Ponder)
	}
}

func TestOptionsAreClamped(t *testing.T) {
	e := New(Options{Threads: -3, HashMiB: 0})
	assert.Equal(t, Options{Threads: 1, HashMiB: 1}, e.Options())
	e.SetOptions(Options{Threads: 1 << 20, HashMiB: 2})
	assert.Equal(t, MaxThreads, e.Options().Threads)
	e.SetOptions(Options{Threads: 2, HashMiB: 2})
	assert.Equal(t, Options{Threads: 2, HashMiB: 2}, e.Options())
	p := engine.StartPosition(engine.English)
	r := e.Search(context.Background(), p, nil, Limits{Depth: 4}, nil)
	assert.True(t, isLegal(&p, r.Move))
}

func TestUnknownVariantGivesNoMove(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	p := engine.StartPosition(engine.Russian)
	p.V = 9
	r := e.Search(context.Background(), p, nil, Limits{Depth: 3}, nil)
	assert.False(t, r.HasMove)
}

// TestEvalCacheFollowsVariantAndWeights: the worker's evaluation cache
// gives the score of the weights and variant of the search being run,
// also for a position it cached under other weights, and every score it
// gives is the evaluation's own.
func TestEvalCacheFollowsVariantAndWeights(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	w := e.workers[0]
	var l engine.MoveList
	p := engine.StartPosition(engine.International)
	p.Generate(&l)
	p = p.Play(l.Moves[0])
	other := eval.NewWeights(engine.International)
	require.NotEqual(t, eval.Evaluate(&p), other.Evaluate(&p))
	for _, ew := range []*eval.Weights{nil, other, nil} {
		e.opts.Eval = ew
		w.prepare(&p, nil, Limits{}, timeManager{}, time.Now())
		want := eval.Evaluate(&p)
		if ew != nil {
			want = ew.Evaluate(&p)
		}
		for range 2 { // computed, then from the cache
			assert.Equal(t, want, w.evaluate(&p))
		}
	}
	// Positions of a search: every cached score is the evaluation's.
	e.opts.Eval = nil
	r := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	require.True(t, r.HasMove)
	hits := 0
	for _, c := range w.evalCache {
		if c != 0 {
			hits++
		}
	}
	assert.Positive(t, hits)
	for _, q := range []engine.Position{p, engine.StartPosition(engine.International)} {
		q.Generate(&l)
		for _, m := range l.Slice() {
			c := q.Play(m)
			assert.Equal(t, eval.Evaluate(&c), w.evaluate(&c))
			assert.Equal(t, eval.Evaluate(&c), w.evaluate(&c))
		}
	}
}

// manyKings is 20 kings against 20 (international, Black to move, 8
// captures): a position whose first iteration, with its capture trees,
// takes more than 30 s to finish.
const manyKings = "BWWBeWBBBWWBWBWWBeeWBeeBBBBBWBBBeWeWeBeBWBWWWWBWeWW"

// TestQuiescenceBounded: in the position of 20 kings against 20, whose
// capture trees are huge, a depth-1 search ends within a node budget (its
// quiescence searches are at most maxQPlies deep), where it took tens of
// millions of nodes and a minute; deeper depths follow.
func TestQuiescenceBounded(t *testing.T) {
	p, err := engine.ParseHubPosition(engine.International, manyKings)
	require.NoError(t, err)
	e := New(Options{Threads: 1, HashMiB: 4})
	r := e.Search(context.Background(), p, nil, Limits{Depth: 3, Nodes: 10_000_000}, nil)
	require.True(t, r.HasMove)
	assert.Equal(t, 3, r.Depth, "depth 3 within 10M nodes (%d searched)", r.Nodes)
	assert.True(t, isLegal(&p, r.Move))
}

// TestFirstIterationKeepsTheTime: a search answers within its move time
// and stops at once when told to, also while its first iteration is
// unfinished (inside the quiescence search's capture trees), with a legal
// move.
func TestFirstIterationKeepsTheTime(t *testing.T) {
	p, err := engine.ParseHubPosition(engine.International, manyKings)
	require.NoError(t, err)
	e := New(Options{Threads: 1, HashMiB: 4})
	start := time.Now()
	r := e.Search(context.Background(), p, nil, Limits{MoveTime: 20 * time.Millisecond}, nil)
	took := time.Since(start)
	require.True(t, r.HasMove)
	assert.True(t, isLegal(&p, r.Move))
	assert.Zero(t, r.Depth, "the first iteration finished: the position does not test what it should")
	assert.Less(t, took, 2*time.Second, "a 0.02 s search took %v", took)

	// Stop (the context) during an unbounded search.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	start = time.Now()
	r = e.Search(ctx, p, nil, Limits{Infinite: true}, nil)
	took = time.Since(start)
	require.True(t, r.HasMove)
	assert.True(t, isLegal(&p, r.Move))
	assert.Less(t, took, 2*time.Second, "stopped after 0.1 s, answered after %v", took)
}
