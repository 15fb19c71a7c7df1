package search

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
)

// waitJob waits for j at most d, failing the test when it does not end.
func waitJob(t *testing.T, j *Job, d time.Duration, what string) Choice {
	t.Helper()
	select {
	case <-j.Done():
		return j.Wait()
	case <-time.After(d):
		t.Fatalf("%s: the job did not end within %v", what, d)
	}
	return Choice{}
}

// TestJobSignalsBeforeSearchBegins: a Stop or PonderHit that comes before
// the search has set up its flags (here: while the engine is still busy,
// so the job's search cannot have begun) is applied when it begins.
func TestJobSignalsBeforeSearchBegins(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 1})
	g := engine.NewGame(engine.StartPosition(engine.Russian))

	e.mu.Lock() // the engine is busy: no search can set up
	j := e.Start(context.Background(), Request{Game: g, Limits: Limits{Infinite: true}})
	j.Stop()
	e.mu.Unlock()
	c := waitJob(t, j, 10*time.Second, "infinite search stopped before it began")
	assert.Equal(t, FromSearch, c.Source)
	assert.True(t, c.HasMove)

	e.mu.Lock()
	j = e.Start(context.Background(), Request{Game: g, Limits: Limits{Ponder: true, MoveTime: 20 * time.Millisecond}})
	j.PonderHit()
	j.PonderHit() // only the first counts
	e.mu.Unlock()
	c = waitJob(t, j, 10*time.Second, "ponder search hit before it began")
	assert.True(t, c.HasMove)

	// The old, unbound Engine.PonderHit before the search begins is lost:
	// the reason for jobs. A ponder-hit after the job's search is over
	// changes nothing for the next one.
	j.PonderHit()
	j2 := e.Start(context.Background(), Request{Game: g, Limits: Limits{Ponder: true, MoveTime: 20 * time.Millisecond}})
	time.Sleep(50 * time.Millisecond)
	select {
	case <-j2.Done():
		t.Fatal("a ponder search ended without its own ponder-hit")
	default:
	}
	j2.PonderHit()
	waitJob(t, j2, 10*time.Second, "ponder search hit while running")
}

// TestJobMatchesSearch: a job without a book searches exactly what Search
// searches for the game (node for node with one thread), and its reports
// carry legal lines.
func TestJobMatchesSearch(t *testing.T) {
	g := engine.NewGame(engine.StartPosition(engine.English))
	for _, s := range []string{"11-15", "23-19", "8-11", "22-17"} {
		p := g.Position()
		m, err := p.ParseMove(s)
		require.NoError(t, err)
		g.Play(m)
	}
	e1 := New(Options{Threads: 1, HashMiB: 2})
	want := e1.SearchGame(context.Background(), g, Limits{Depth: 7}, nil)

	e2 := New(Options{Threads: 1, HashMiB: 2})
	var infos []Info
	j := e2.Start(context.Background(), Request{Game: g, Limits: Limits{Depth: 7}, Report: func(i Info) { infos = append(infos, i) }})
	g.Play(engine.Move{}) // the caller may change the game once Start returned
	c := j.Wait()
	assert.Equal(t, FromSearch, c.Source)
	assert.Equal(t, want.Move, c.Move)
	assert.Equal(t, want.Nodes, c.Nodes)
	assert.Equal(t, want.PV, c.PV)
	assert.Equal(t, 7, c.Depth)
	require.Len(t, infos, 7)
	for _, in := range infos {
		assert.Equal(t, in.PV, legalPrefix(&c.Root, in.PV))
	}
	assert.Equal(t, c.Move, infos[6].PV[0], "the last report shows the move played: no extra one")
}

// TestJobBook: a book position is answered from the book (with a move of
// the book and no search), analysis never uses it, and a book of another
// variant is refused with a reason.
func TestJobBook(t *testing.T) {
	for _, v := range engine.AllVariants() {
		b, err := book.Default(v)
		require.NoError(t, err, v)
		start := engine.StartPosition(v)
		g := engine.NewGame(start)
		s := &countingSearcher{Engine: New(Options{Threads: 1, HashMiB: 1})}
		opts := BookOptions{Use: true, Margin: DefaultBookMargin, Rand: rand.New(rand.NewPCG(1, 2))}
		c := Start(context.Background(), s, Request{Game: g, Limits: Limits{Depth: 3}, Book: opts}).Wait()
		assert.Equal(t, FromBook, c.Source, v)
		assert.Zero(t, s.calls, v)
		found := false
		for _, e := range b.Probe(&start) {
			found = found || e.Move == c.Move
		}
		assert.True(t, found, "%v: %v is not a book move", v, c.Move)
		assert.Equal(t, []engine.Move{c.Move}, c.PV)

		// Analysis: a search, until stopped.
		cj := Start(context.Background(), s, Request{Game: g, Limits: Limits{Depth: 3, Infinite: true}, Book: opts})
		time.Sleep(20 * time.Millisecond)
		cj.Stop()
		assert.Equal(t, FromSearch, cj.Wait().Source, v)
		assert.Equal(t, 1, s.calls)

		other, err := book.Default(engine.AllVariants()[(int(v)+1)%len(engine.AllVariants())])
		require.NoError(t, err)
		opts.Book = other
		ch := Start(context.Background(), s, Request{Game: g, Limits: Limits{Depth: 2}, Book: opts}).Wait()
		assert.Equal(t, FromSearch, ch.Source)
		assert.Error(t, ch.BookErr)
	}
}

// countingSearcher counts the searches it runs.
type countingSearcher struct {
	*Engine
	calls int
}

func (c *countingSearcher) SearchJob(ctx context.Context, j *Job) Result {
	c.calls++
	return c.Engine.SearchJob(ctx, j)
}

// TestJobNoMove: a position without a legal move is answered at once,
// without a search.
func TestJobNoMove(t *testing.T) {
	p := mustFEN(t, engine.Russian, "W:W29:B25,22")
	s := &countingSearcher{Engine: New(Options{Threads: 1, HashMiB: 1})}
	c := Start(context.Background(), s, Request{Game: engine.NewGame(p), Limits: Limits{Infinite: true}}).Wait()
	assert.Equal(t, NoMove, c.Source)
	assert.False(t, c.HasMove)
	assert.Zero(t, c.Legal)
	assert.Zero(t, s.calls)
}

// fakeSearcher answers with a fixed result after sending fixed reports.
type fakeSearcher struct {
	reports []Info
	result  Result
}

func (f fakeSearcher) SearchJob(_ context.Context, j *Job) Result {
	for _, in := range f.reports {
		j.Report(in)
	}
	return f.result
}

// TestJobGuards: a searcher's illegal or missing move never reaches the
// front end (the first legal move is played and the problem named), and
// illegal tails of lines are cut.
func TestJobGuards(t *testing.T) {
	start := engine.StartPosition(engine.Russian)
	var list engine.MoveList
	start.Generate(&list)
	g := engine.NewGame(start)
	bad := engine.Move{From: 1, To: 2}
	for name, r := range map[string]Result{
		"illegal": {HasMove: true, Move: bad, PV: []engine.Move{bad}},
		"none":    {},
	} {
		c := Start(context.Background(), fakeSearcher{result: r}, Request{Game: g}).Wait()
		assert.Equal(t, list.Moves[0], c.Move, name)
		assert.True(t, c.HasMove, name)
		assert.NotEmpty(t, c.Problem, name)
		assert.Equal(t, []engine.Move{list.Moves[0]}, c.PV, name)
	}
	m := list.Moves[3]
	var infos []Info
	c := Start(context.Background(), fakeSearcher{
		reports: []Info{{Depth: 1, PV: []engine.Move{m, bad}}},
		result:  Result{HasMove: true, Move: m, Depth: 1, PV: []engine.Move{m, bad}, Ponder: bad},
	}, Request{Game: g, Report: func(i Info) { infos = append(infos, i) }}).Wait()
	assert.Empty(t, c.Problem)
	assert.Equal(t, []engine.Move{m}, c.PV)
	assert.Equal(t, engine.Move{}, c.Ponder)
	require.Len(t, infos, 1)
	assert.Equal(t, []engine.Move{m}, infos[0].PV)
}

// TestJobReportsMovePlayed: when the last report does not show the move
// played (a helper's deeper iteration, or a move of the unfinished
// iteration), one more report gives its depth, score and line.
func TestJobReportsMovePlayed(t *testing.T) {
	start := engine.StartPosition(engine.Russian)
	var list engine.MoveList
	start.Generate(&list)
	g := engine.NewGame(start)
	a, b := list.Moves[0], list.Moves[1]
	reply := start.Play(b)
	var rl engine.MoveList
	reply.Generate(&rl)
	line := []engine.Move{b, rl.Moves[0]}
	var infos []Info
	c := Start(context.Background(), fakeSearcher{
		reports: []Info{{Depth: 3, Score: 5, PV: []engine.Move{a}}},
		result:  Result{HasMove: true, Move: b, Depth: 3, Score: 40, Partial: true, Nodes: 1000, Time: time.Second, PV: line},
	}, Request{Game: g, Report: func(i Info) { infos = append(infos, i) }}).Wait()
	assert.Equal(t, b, c.Move)
	require.Len(t, infos, 2)
	assert.Equal(t, Info{MultiPV: 1, Lines: 1, Depth: 4, Score: 40, Nodes: 1000, Time: time.Second, NPS: 1000, PV: line}, infos[1])
}

// TestPartialResultIsReported: a real node-limited search that stops in an
// iteration which has found a new best move plays that move, and its
// report shows it. Node limits with one thread are reproducible.
func TestPartialResultIsReported(t *testing.T) {
	e := New(Options{Threads: 1, HashMiB: 4})
	partial := 0
	for _, v := range engine.AllVariants() {
		g := engine.NewGame(engine.StartPosition(v))
		for n := uint64(1000); n <= 20000 && partial < 3; n += 1000 {
			e.Clear()
			var infos []Info
			c := e.Start(context.Background(), Request{Game: g, Limits: Limits{Nodes: n}, Report: func(i Info) { infos = append(infos, i) }}).Wait()
			require.NotEmpty(t, infos)
			last := infos[len(infos)-1]
			assert.Equal(t, c.Move, last.PV[0], "%v nodes=%d: the last report shows the move played", v, n)
			assert.Equal(t, c.PV, last.PV, "%v nodes=%d", v, n)
			if c.Partial {
				partial++
				assert.Equal(t, c.Depth+1, last.Depth, "%v nodes=%d", v, n)
				assert.NotEqual(t, infos[len(infos)-2].PV[0], c.Move, "%v nodes=%d", v, n)
			}
		}
	}
	assert.Positive(t, partial, "no node limit stopped in an iteration that changed its mind: the test tests nothing")
}

// TestClearInBackground: Clear returns while a large table is still being
// emptied, the next search waits for it to be empty, and it then repeats
// the search before the Clear node for node. A table no search has used is
// not cleared at all.
func TestClearInBackground(t *testing.T) {
	saved := syncClearBytes
	syncClearBytes = 0 // every table counts as large
	gate := make(chan struct{})
	testClearGate = gate
	defer func() { syncClearBytes, testClearGate = saved, nil }()

	e := New(Options{Threads: 1, HashMiB: 4})
	e.Clear()
	assert.Nil(t, e.clearing, "an unused table is not cleared")
	g := engine.NewGame(engine.StartPosition(engine.Brazilian))
	first := e.SearchGame(context.Background(), g, Limits{Depth: 8}, nil)

	returned := make(chan struct{})
	go func() { e.Clear(); close(returned) }()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("Clear waited for the table to be emptied")
	}
	j := e.Start(context.Background(), Request{Game: g, Limits: Limits{Depth: 8}})
	time.Sleep(30 * time.Millisecond)
	select {
	case <-j.Done():
		t.Fatal("the search did not wait for the table clear")
	default:
	}
	close(gate)
	c := waitJob(t, j, 30*time.Second, "search after a background clear")
	assert.Equal(t, first.Nodes, c.Nodes)
	assert.Equal(t, first.Move, c.Move)

	// A new size drops the table being cleared; the search after it uses
	// the new, empty table.
	testClearGate = make(chan struct{}) // never opened: the abandoned clear never finishes
	e.Clear()
	e.SetOptions(Options{Threads: 1, HashMiB: 2})
	c = waitJob(t, e.Start(context.Background(), Request{Game: g, Limits: Limits{Depth: 3}}), 30*time.Second, "search after a resize")
	assert.True(t, c.HasMove)
}

// TestOptionLimits: the engine clamps to the limits every front end
// declares.
func TestOptionLimits(t *testing.T) {
	e := New(Options{Threads: 0, HashMiB: 0})
	assert.Equal(t, Options{Threads: 1, HashMiB: 1}, e.Options())
	assert.LessOrEqual(t, DefaultThreads, MaxThreads)
	assert.LessOrEqual(t, DefaultHashMiB, MaxHashMiB)
	assert.LessOrEqual(t, DefaultBookMargin, MaxBookMargin)
}

// TestTouchWords: the prefault changes no word, zero or not, and stops
// early once aborted.
func TestTouchWords(t *testing.T) {
	tt := newTable(1)
	defer runtime.KeepAlive(tt) // w is tt's mapping: a collected tt unmaps it (its finalizer)
	w := tt.words
	for i := range w {
		if i%3 == 0 {
			w[i].Store(uint64(i) + 1)
		}
	}
	var abort atomic.Bool
	touchWords(w, &abort)
	for i := range w {
		want := uint64(0)
		if i%3 == 0 {
			want = uint64(i) + 1
		}
		require.Equal(t, want, w[i].Load(), "word %d", i)
	}
	abort.Store(true)
	touchWords(w, &abort) // returns at once
}

// TestPrefaultWhileSearching: a search on a table that may still be
// faulted in (SetOptions waits at most prefaultWait) finds what one on a
// finished table finds, node for node, and a clear and a resize stop the
// prefault without waiting for it to end.
func TestPrefaultWhileSearching(t *testing.T) {
	g := engine.NewGame(engine.StartPosition(engine.Russian))
	ref := New(Options{Threads: 1, HashMiB: 64})
	ref.mu.Lock()
	ref.stopPrefault()
	ref.mu.Unlock()
	want := ref.SearchGame(context.Background(), g, Limits{Depth: 9}, nil)

	e := New(Options{Threads: 1, HashMiB: 64})
	require.NotNil(t, e.prefault, "a new table is faulted in the background")
	got := e.SearchGame(context.Background(), g, Limits{Depth: 9}, nil)
	assert.Equal(t, want.Nodes, got.Nodes)
	assert.Equal(t, want.Move, got.Move)
	e.Clear()
	assert.Nil(t, e.prefault, "Clear stops the prefault")
	e.SetOptions(Options{Threads: 1, HashMiB: 32})
	require.NotNil(t, e.prefault)
	e.SetOptions(Options{Threads: 1, HashMiB: 16})
	got = e.SearchGame(context.Background(), g, Limits{Depth: 9}, nil)
	assert.Equal(t, want.Move, got.Move)
}

// TestFrontEndOptions: unset values take the defaults, large ones the
// limits, the rest are kept.
func TestFrontEndOptions(t *testing.T) {
	th, mib := FrontEndOptions(0, -3)
	assert.Equal(t, DefaultThreads, th)
	assert.Equal(t, DefaultHashMiB, mib)
	th, mib = FrontEndOptions(MaxThreads+1, MaxHashMiB*2)
	assert.Equal(t, MaxThreads, th)
	assert.Equal(t, MaxHashMiB, mib)
	th, mib = FrontEndOptions(3, 17)
	assert.Equal(t, 3, th)
	assert.Equal(t, 17, mib)
}
