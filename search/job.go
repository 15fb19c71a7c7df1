// job.go: choosing a move: the one place where a front end's "play a move
// here" becomes a book probe or a search, run in the background with a
// result checked against the rules. Hub, DXP and the text mode only
// translate their protocol into a Request and a Choice back.

package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
)

// Book settings: the default and the bound of BookOptions.Margin that
// front ends offer (Hub book-margin, --book-margin).
const (
	DefaultBookMargin = 10   // centi-men
	MaxBookMargin     = 1000 // centi-men
)

// BookOptions say whether and how a move choice uses an opening book.
type BookOptions struct {
	// Use: play a book move when the position is in the book. Analysis
	// (Limits.Infinite) never uses the book.
	Use bool
	// Book is the book to probe; nil means the book embedded for the
	// position's variant (book.Default). A book of another variant is
	// not used.
	Book *book.Book
	// Margin: candidates are the book moves scoring within this many
	// centi-men of the best one; one is picked at random, weighted.
	Margin int
	// Rand supplies the randomness; nil uses math/rand/v2's global
	// source.
	Rand *rand.Rand
}

// Request is one move to choose.
type Request struct {
	// Game is the game to move in: its current position, the keys of the
	// earlier positions (repetitions) and the draw counters. Start reads
	// it before it returns; the caller may change the game afterwards.
	Game *engine.Game
	// Limits bound the search (Limits.Draw is taken from Game).
	Limits Limits
	// Book is consulted before the search.
	Book BookOptions
	// Report, if not nil, receives the search's progress: after each
	// completed iteration, and once more at the end with the line of the
	// move played when the last report does not show it. It is called
	// from the job's goroutine, one call at a time, and every PV in it is
	// legal from the root.
	Report func(Info)
}

// Source says where a chosen move came from.
type Source uint8

// The sources of a Choice.
const (
	// NoMove: the side to move has no legal move (the game is over);
	// nothing was searched.
	NoMove Source = iota
	// FromBook: the opening book gave the move; nothing was searched.
	FromBook
	// FromSearch: the search chose the move.
	FromSearch
	// The endgame databases will come here, between the book and the
	// search (FromDatabase).
)

// String returns "no move", "book" or "search".
func (s Source) String() string {
	switch s {
	case FromBook:
		return "book"
	case FromSearch:
		return "search"
	}
	return "no move"
}

// Choice is the outcome of a Job: what a front end answers with.
type Choice struct {
	// Result holds the move and the search's figures. The move is legal in
	// Root, PV is a legal line from Root starting with it (just the move
	// for a book move) and Ponder is valid when len(PV) > 1. HasMove is
	// false only for NoMove.
	Result
	Source Source
	Root   engine.Position // the position the move is for
	Legal  int             // the number of legal moves in Root
	// Problem is not empty when the searcher's answer broke the rules (no
	// move, or an illegal one): the first legal move is played instead,
	// and Problem says what happened, for the front end to report.
	Problem string
	// BookErr says why the book could not be used (Book.Use was set but
	// the variant has no usable book); the move then comes from the search.
	BookErr error
}

// Searcher is what a Job searches with: *Engine, or a stand-in in tests.
// SearchJob searches j's position (Job.Position, Job.History,
// Job.Limits), calling Job.Report after each completed iteration, and
// returns the best move. It must return soon after ctx is done (Job.Stop
// cancels ctx), and a ponder search must follow Job.PonderHit (see
// Engine.SearchJob, which does).
type Searcher interface {
	SearchJob(ctx context.Context, j *Job) Result
}

// Job is one move choice started by Start; it runs in its own goroutine.
// Stop and PonderHit may be called from any goroutine at any time, also
// before the search has begun (they are never lost) and after the job is
// done (they do nothing then).
type Job struct {
	pos     engine.Position
	history []uint64
	limits  Limits
	bookOpt BookOptions
	start   time.Time // the time reference of the limits
	user    func(Info)

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	choice Choice // set before done is closed

	// Report bookkeeping (the job's goroutine only).
	last     Info
	reported bool

	mu    sync.Mutex
	hit   bool
	hitAt time.Time
	onHit func(time.Time)
}

// Start begins choosing a move for req and returns at once: the book is
// probed, then s searches, in the job's goroutine. The job ends at its
// limits, on Job.Stop, or when ctx is done; the time limits count from the
// call to Start.
func Start(ctx context.Context, s Searcher, req Request) *Job {
	g := req.Game
	keys := g.Keys()
	limits := req.Limits
	limits.Draw = g.DrawState()
	j := newJob(ctx, g.Position(), append([]uint64(nil), keys[:len(keys)-1]...), limits, req.Book, req.Report)
	j.start = now()
	go j.run(s)
	return j
}

// newJob makes the job of a search of pos (history: the keys of the
// positions before it, oldest first), without starting it; its time
// reference is unset (Start sets it).
func newJob(ctx context.Context, pos engine.Position, history []uint64, limits Limits, bookOpt BookOptions, report func(Info)) *Job {
	j := &Job{
		pos:     pos,
		history: history,
		limits:  limits,
		bookOpt: bookOpt,
		user:    report,
		done:    make(chan struct{}),
	}
	j.ctx, j.cancel = context.WithCancel(ctx)
	return j
}

// Start is Start with e as the searcher.
func (e *Engine) Start(ctx context.Context, req Request) *Job { return Start(ctx, e, req) }

// Stop ends the job as soon as possible; its choice is the best move found
// so far (a book move is never cut short).
func (j *Job) Stop() { j.cancel() }

// PonderHit tells a pondering job (Limits.Ponder) that the expected move
// was played: its search goes on under its time limits, counted from this
// call. Only the first call counts.
func (j *Job) PonderHit() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.hit {
		return
	}
	j.hit, j.hitAt = true, now()
	if j.onHit != nil {
		j.onHit(j.hitAt)
	}
}

// watchPonderHit calls f with the time of the job's ponder-hit: at once if
// it came already, else when it comes (from PonderHit's goroutine). The
// returned function stops the watch; f is not called after it returns.
func (j *Job) watchPonderHit(f func(time.Time)) (unwatch func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.hit {
		f(j.hitAt)
		return func() {}
	}
	j.onHit = f
	return func() {
		j.mu.Lock()
		j.onHit = nil
		j.mu.Unlock()
	}
}

// WaitPonderHit waits until the job's PonderHit is called (at once if it
// was already) or ctx is done, and reports whether the ponder-hit came. A
// Searcher whose ponder search ended early on its own limits calls it, so
// that the job does not answer before the ponder-hit; it must not be
// called while Engine.SearchJob runs on the job.
func (j *Job) WaitPonderHit(ctx context.Context) bool {
	hit := make(chan struct{})
	var once sync.Once
	defer j.watchPonderHit(func(time.Time) { once.Do(func() { close(hit) }) })()
	select {
	case <-hit:
		return true
	case <-ctx.Done():
		return false
	}
}

// Done is closed when the job's choice is made.
func (j *Job) Done() <-chan struct{} { return j.done }

// Wait waits for the job to end and returns its choice.
func (j *Job) Wait() Choice {
	<-j.done
	return j.choice
}

// Position returns the position the job chooses a move in (for Searchers).
func (j *Job) Position() engine.Position { return j.pos }

// History returns the keys of the game's positions before Position, oldest
// first (for Searchers; do not change it).
func (j *Job) History() []uint64 { return j.history }

// Limits returns the job's search limits, Draw included (for Searchers).
func (j *Job) Limits() Limits { return j.limits }

// Report passes a search's progress report on to the job's Request.Report,
// its PV cut to the moves that are legal from the root. Searchers call it
// from their searching goroutine after each completed iteration (once per
// line, Info.MultiPV, in a multi-PV search).
func (j *Job) Report(info Info) {
	if j.user == nil {
		return
	}
	info.PV = legalPrefix(&j.pos, info.PV)
	if info.MultiPV <= 1 {
		j.last, j.reported = info, true
	}
	j.user(info)
}

// run makes the job's choice.
func (j *Job) run(s Searcher) {
	defer close(j.done)
	defer j.cancel()
	c := &j.choice
	c.Root = j.pos
	var list engine.MoveList
	if int(j.pos.V) < len(engine.AllVariants()) {
		j.pos.Generate(&list)
	}
	c.Legal = list.N
	if list.N == 0 {
		c.Source = NoMove
		return
	}
	if m, ok := j.probeBook(c); ok {
		c.Source, c.HasMove, c.Move, c.PV = FromBook, true, m, []engine.Move{m}
		return
	}
	// The endgame databases will be probed here: a won, drawn or lost
	// position is then played from them without a search.
	c.Source = FromSearch
	c.Result = s.SearchJob(j.ctx, j)
	j.check(c, &list)
	j.reportPlayed(c)
}

// probeBook picks a book move for the job's position, when the request
// asks for one and the book has the position.
func (j *Job) probeBook(c *Choice) (engine.Move, bool) {
	o := j.bookOpt
	if !o.Use || j.limits.Infinite {
		return engine.Move{}, false
	}
	b := o.Book
	if b == nil {
		var err error
		if b, err = book.Default(j.pos.V); err != nil {
			c.BookErr = err
			return engine.Move{}, false
		}
	}
	if b.Variant() != j.pos.V {
		c.BookErr = errors.New("search: a " + b.Variant().String() + " book for a " + j.pos.V.String() + " position")
		return engine.Move{}, false
	}
	return b.Pick(&j.pos, o.Margin, o.Rand)
}

// check makes sure the searcher's result is a legal move of the root with
// a legal line: a search bug must never reach the board.
func (j *Job) check(c *Choice, list *engine.MoveList) {
	legal := false
	for _, m := range list.Slice() {
		legal = legal || (c.HasMove && m == c.Move)
	}
	if !legal {
		c.Problem = "the search returned an illegal move; playing the first legal move"
		if !c.HasMove {
			c.Problem = "the search returned no move; playing the first legal move"
		}
		c.HasMove, c.Move, c.PV, c.Partial = true, list.Moves[0], nil, false
	}
	if len(c.PV) == 0 || c.PV[0] != c.Move {
		c.PV = []engine.Move{c.Move}
	}
	c.PV = legalPrefix(&j.pos, c.PV)
	c.Ponder = engine.Move{}
	if len(c.PV) > 1 {
		c.Ponder = c.PV[1]
	}
	lines := c.Lines[:0]
	for _, l := range c.Lines {
		if l.PV = legalPrefix(&j.pos, l.PV); len(l.PV) > 0 && l.PV[0] == l.Move {
			lines = append(lines, l)
		}
	}
	c.Lines = lines
	if len(c.Lines) == 0 {
		c.Lines = nil
	}
}

// reportPlayed sends the line of the move played when the last report does
// not show it: a move of an unfinished iteration (Result.Partial), a
// helper's deeper iteration, or a search stopped before any report.
func (j *Job) reportPlayed(c *Choice) {
	depth := c.Depth
	if c.Partial {
		depth++
	}
	if j.user == nil || c.Problem != "" || depth == 0 {
		return
	}
	if j.reported && j.last.Depth == depth && len(j.last.PV) > 0 && j.last.PV[0] == c.Move {
		return
	}
	info := Info{MultiPV: 1, Lines: 1, Depth: depth, SelDepth: j.last.SelDepth, Score: c.Score, Nodes: c.Nodes, Time: c.Time,
		Hashfull: j.last.Hashfull, PV: append([]engine.Move(nil), c.PV...)}
	if c.Time > 0 {
		info.NPS = uint64(float64(c.Nodes) / c.Time.Seconds())
	}
	j.last, j.reported = info, true
	j.user(info)
}

// legalPrefix returns the longest start of pv that is a legal line from
// root (pv itself when all of it is).
func legalPrefix(root *engine.Position, pv []engine.Move) []engine.Move {
	p := *root
	var list engine.MoveList
	for i, m := range pv {
		p.Generate(&list)
		found := false
		for _, lm := range list.Slice() {
			if lm == m {
				found = true
				break
			}
		}
		if !found {
			return pv[:i]
		}
		p = p.Play(m)
	}
	return pv
}
