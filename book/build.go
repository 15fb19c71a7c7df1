// build.go: growing a book by the engine's own analysis, best-first from
// the start position and seed positions, in parallel, with checkpoints.

package book

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/damka-draughts/damka/engine"
)

// BatchSize is the number of positions Build analyses between two choices
// of what to expand next. It is fixed (not tied to the number of workers)
// so that a build's result does not depend on how many workers ran it.
const BatchSize = 32

// Searcher scores moves for Build; every worker has its own. Package book
// does not import the search: the damka command adapts a search.Engine.
type Searcher interface {
	// Clear forgets what earlier searches learned (transposition table,
	// move-ordering history). Build calls it before analysing each
	// position, so that the analysis of a position does not depend on
	// which positions the worker analysed before: with a fixed depth the
	// book is then the same for any number of workers.
	Clear()
	// ScoreMove returns the score of m, a legal move of p, in centi-men
	// from the point of view of p's side to move: the result of a search
	// of the position after m. It returns ctx's error when ctx is done.
	ScoreMove(ctx context.Context, p *engine.Position, m engine.Move) (int, error)
}

// Seed is a position Build analyses before it expands the tree, such as an
// opening ballot; it is a root of the expansion like the start position.
type Seed struct {
	Position engine.Position
	Ply      int    // plies from the start of the game (3 for a three-move ballot); Record.Ply counts from it
	Name     string // where it comes from, for messages
}

// BuildOptions are the settings of Build.
type BuildOptions struct {
	Variant engine.VariantID
	// Plies bounds the tree: only positions at most Plies plies from a
	// root (the start position, or a seed at its own Ply) are analysed.
	Plies int
	// Positions bounds the number of analysed positions. Seeds are
	// analysed even beyond it.
	Positions int
	// Margin, in centi-men: the moves scoring within Margin of the best
	// move are kept. The best move has weight 100, a move Margin worse
	// weight 100/(Margin+1), in between linear.
	Margin int
	// Seeds are analysed first, in order (duplicates once).
	Seeds []Seed
	// Games, if not nil, holds the moves of real games: a move played at
	// least MinCount times is kept whatever its score, and adds
	// 50*(games + half-points scored with it) to its weight.
	Games    *GameStats
	MinCount int
	// Workers is the number of positions analysed at the same time, each
	// with its own Searcher from NewSearcher.
	Workers     int
	NewSearcher func() Searcher
	// Command is the command line recorded in the book's build text;
	// Search describes the Searcher's settings (e.g. "depth=8 hash=8MiB")
	// and is part of the settings a resumed build must share.
	Command string
	Search  string
	// Checkpoint is a file the build state is written to every
	// CheckpointEvery (default 30 s) and when ctx ends the build; "" for
	// none. With Resume, a build starts from the checkpoint if the file
	// exists (its settings must match) and goes on where it stopped.
	Checkpoint      string
	CheckpointEvery time.Duration
	Resume          bool
	// Progress, if not nil, is called after each analysed position.
	Progress func(Progress)
}

// Progress is what Build reports after each analysed position.
type Progress struct {
	Done    int             // positions analysed, resumed ones included
	Target  int             // the Positions bound (or the number of roots when larger)
	Resumed int             // positions taken from the checkpoint
	Last    engine.Position // the position just analysed
}

// BuildResult is a finished build.
type BuildResult struct {
	Book    *Book
	Data    []byte // the book file
	Resumed int    // positions taken from a checkpoint
}

// node is an analysed position.
type node struct {
	pos      engine.Position
	moves    []Entry           // kept moves, best first
	children []engine.Position // position after each kept move
}

// builder is the state of one Build.
type builder struct {
	o        *BuildOptions
	info     string
	roots    []Seed // start position first, then the seeds, duplicates removed
	rootProb map[engine.Position]float64
	rootPly  map[engine.Position]int
	nodes    map[engine.Position]*node
	terminal map[engine.Position]bool // positions without a legal move
	ply      map[engine.Position]int  // last computed plies
}

// normal returns p with its key recomputed.
func normal(p engine.Position) engine.Position {
	p.Key = p.ComputeKey()
	return p
}

// settings returns the settings line of the build text: everything that
// decides the result (the worker count does not).
func (o *BuildOptions) settings() string {
	h := fnv.New64a()
	for _, s := range o.Seeds {
		fmt.Fprintf(h, "%s %d\n", s.Position.FEN(), s.Ply)
	}
	seedSum := h.Sum64()
	games, gameSum := 0, uint64(0)
	if o.Games != nil {
		games, gameSum = o.Games.Games, o.Games.digest()
	}
	return fmt.Sprintf("variant=%s plies=%d positions=%d margin=%d min-count=%d batch=%d search=[%s] seeds=%d/%016x games=%d/%016x",
		o.Variant, o.Plies, o.Positions, o.Margin, o.MinCount, BatchSize, o.Search, len(o.Seeds), seedSum, games, gameSum)
}

// settingsLine returns the "settings: " line of a build text.
func settingsLine(info string) string {
	for _, l := range strings.Split(info, "\n") {
		if s, ok := strings.CutPrefix(l, "settings: "); ok {
			return s
		}
	}
	return ""
}

// Build grows a book: it analyses the start position and the seeds, then
// repeatedly the BatchSize most likely positions not yet analysed, until
// Positions positions are analysed or no position within Plies is left.
//
// Analysing a position scores each legal move with the Searcher and keeps
// the moves within Margin of the best and the moves played at least
// MinCount times in Games. A position's likelihood is that of its most
// likely line from a root: 1 for the start position, 1/len(Seeds) for a
// seed, times at each ply the kept move's share of the weights.
//
// With a fixed search depth the book is a function of the options alone,
// whatever the number of workers, and a build stopped (ctx) and resumed
// from its checkpoint gives the same book as one run straight through.
// When ctx ends, Build writes the checkpoint and returns ctx's error.
func Build(ctx context.Context, o BuildOptions) (*BuildResult, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	b := &builder{o: &o, nodes: map[engine.Position]*node{}, terminal: map[engine.Position]bool{},
		rootProb: map[engine.Position]float64{}, rootPly: map[engine.Position]int{}}
	b.info = "command: " + o.Command + "\nsettings: " + o.settings()
	b.addRoot(Seed{Position: engine.StartPosition(o.Variant), Name: "start position"}, 1)
	for _, s := range o.Seeds {
		b.addRoot(s, 1/float64(len(o.Seeds)))
	}
	var pending []engine.Position
	resumed := 0
	if o.Resume && o.Checkpoint != "" {
		ck, err := ReadFile(o.Checkpoint, o.Variant)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("book: resume: %w", err)
		default:
			if got, want := settingsLine(ck.info), settingsLine(b.info); got != want {
				return nil, fmt.Errorf("book: resume: checkpoint %s was built with other settings:\n  checkpoint: %s\n  now:        %s",
					o.Checkpoint, got, want)
			}
			b.info = ck.info
			for _, r := range ck.Records() {
				b.nodes[r.Position] = newNode(r.Position, r.Moves)
			}
			pending = ck.Pending()
			resumed = len(b.nodes)
		}
	}
	searchers := make([]Searcher, o.Workers)
	for i := range searchers {
		searchers[i] = o.NewSearcher()
	}
	target := max(o.Positions, len(b.roots))
	lastCk := time.Now()
	for {
		batch := pending
		pending = nil
		if len(batch) == 0 {
			batch = b.nextBatch()
		}
		if len(batch) == 0 {
			break
		}
		done, err := b.analyse(ctx, searchers, batch, func(p engine.Position) {
			if o.Progress != nil {
				o.Progress(Progress{Done: len(b.nodes), Target: target, Resumed: resumed, Last: p})
			}
		})
		if err != nil {
			for i, p := range batch {
				if !done[i] {
					pending = append(pending, p)
				}
			}
			if o.Checkpoint != "" {
				if cerr := b.writeCheckpoint(pending); cerr != nil {
					return nil, errors.Join(err, cerr)
				}
			}
			return nil, err
		}
		if o.Checkpoint != "" && time.Since(lastCk) >= o.CheckpointEvery {
			if err := b.writeCheckpoint(nil); err != nil {
				return nil, err
			}
			lastCk = time.Now()
		}
	}
	data, err := encode(o.Variant, b.info, b.records(), nil)
	if err != nil {
		return nil, err
	}
	bk, err := Load(data)
	if err != nil {
		return nil, err
	}
	return &BuildResult{Book: bk, Data: data, Resumed: resumed}, nil
}

// check validates the options and fills in defaults.
func (o *BuildOptions) check() error {
	switch {
	case int(o.Variant) >= len(geoms):
		return fmt.Errorf("book: unknown variant %d", uint8(o.Variant))
	case o.Plies < 0 || o.Plies > 255:
		return fmt.Errorf("book: plies %d outside 0..255", o.Plies)
	case o.Positions < 1:
		return fmt.Errorf("book: positions %d (want at least 1)", o.Positions)
	case o.Margin < 0:
		return fmt.Errorf("book: negative margin %d", o.Margin)
	case o.NewSearcher == nil:
		return errors.New("book: no searcher")
	}
	for i, s := range o.Seeds {
		if s.Position.V != o.Variant {
			return fmt.Errorf("book: seed %d (%s) is a %s position, not %s", i+1, s.Name, s.Position.V, o.Variant)
		}
		if s.Ply < 0 {
			return fmt.Errorf("book: seed %d (%s): negative ply", i+1, s.Name)
		}
	}
	if o.Games != nil && o.Games.v != o.Variant {
		return fmt.Errorf("book: games of %s for a %s book", o.Games.v, o.Variant)
	}
	o.MinCount = max(o.MinCount, 1)
	o.Workers = max(o.Workers, 1)
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = 30 * time.Second
	}
	return nil
}

// addRoot adds a root of the expansion (once; the smallest ply and the
// largest likelihood win).
func (b *builder) addRoot(s Seed, prob float64) {
	p := normal(s.Position)
	if ply, ok := b.rootPly[p]; ok {
		b.rootPly[p] = min(ply, s.Ply)
		b.rootProb[p] = max(b.rootProb[p], prob)
		return
	}
	s.Position = p
	b.roots = append(b.roots, s)
	b.rootPly[p] = s.Ply
	b.rootProb[p] = prob
}

// newNode returns the node of p with kept moves es.
func newNode(p engine.Position, es []Entry) *node {
	n := &node{pos: p, moves: es, children: make([]engine.Position, len(es))}
	for i, e := range es {
		n.children[i] = p.Play(e.Move)
	}
	return n
}

// hasMoves reports (and remembers) whether p has a legal move.
func (b *builder) hasMoves(p engine.Position) bool {
	if t, ok := b.terminal[p]; ok {
		return !t
	}
	var list engine.MoveList
	t := p.CountMoves(&list, false) == 0
	b.terminal[p] = t
	return !t
}

// nextBatch returns the next positions to analyse: roots not analysed yet,
// else the most likely unanalysed children within Plies.
func (b *builder) nextBatch() []engine.Position {
	var batch []engine.Position
	for _, r := range b.roots {
		if _, ok := b.nodes[r.Position]; !ok && b.hasMoves(r.Position) {
			batch = append(batch, r.Position)
			if len(batch) == BatchSize {
				break
			}
		}
	}
	if len(batch) > 0 {
		return batch
	}
	room := min(BatchSize, b.o.Positions-len(b.nodes))
	if room <= 0 {
		return nil
	}
	prob, ply := b.graph()
	type cand struct {
		pos  engine.Position
		prob float64
	}
	var cands []cand
	for p, pr := range prob {
		if _, ok := b.nodes[p]; ok || ply[p] > b.o.Plies || !b.hasMoves(p) {
			continue
		}
		cands = append(cands, cand{p, pr})
	}
	slices.SortFunc(cands, func(x, y cand) int {
		return cmp.Or(cmp.Compare(y.prob, x.prob), comparePos(&x.pos, &y.pos))
	})
	for _, c := range cands[:min(room, len(cands))] {
		batch = append(batch, c.pos)
	}
	return batch
}

// comparePos orders positions by key, then pieces, kings and side.
func comparePos(a, b *engine.Position) int {
	return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Pieces[0], b.Pieces[0]),
		cmp.Compare(a.Pieces[1], b.Pieces[1]), cmp.Compare(a.Kings, b.Kings), cmp.Compare(a.Side, b.Side))
}

// probHeap is a max-heap of positions by likelihood.
type probHeap struct {
	items []engine.Position
	prob  map[engine.Position]float64
}

func (h *probHeap) Len() int { return len(h.items) }
func (h *probHeap) Less(i, j int) bool {
	a, b := h.prob[h.items[i]], h.prob[h.items[j]]
	if a != b {
		return a > b
	}
	return comparePos(&h.items[i], &h.items[j]) < 0
}
func (h *probHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *probHeap) Push(x any)    { h.items = append(h.items, x.(engine.Position)) }
func (h *probHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// graph computes, over the analysed positions and their children, each
// position's likelihood (most likely line from a root) and ply (shortest
// line from a root, counted from the root's ply). Both depend only on the
// set of analysed positions, not on the order they were analysed in.
func (b *builder) graph() (prob map[engine.Position]float64, ply map[engine.Position]int) {
	prob = map[engine.Position]float64{}
	ply = map[engine.Position]int{}
	// Likelihood: Dijkstra for the largest product (shares are at most 1).
	h := &probHeap{prob: prob}
	for _, r := range b.roots {
		prob[r.Position] = b.rootProb[r.Position]
		if _, ok := b.nodes[r.Position]; ok {
			h.items = append(h.items, r.Position)
		}
	}
	heap.Init(h)
	done := map[engine.Position]bool{}
	for h.Len() > 0 {
		p := heap.Pop(h).(engine.Position)
		if done[p] {
			continue
		}
		done[p] = true
		n := b.nodes[p]
		total := 0
		for _, e := range n.moves {
			total += e.Weight
		}
		for i, c := range n.children {
			q := prob[p] * float64(n.moves[i].Weight) / float64(total)
			if q > prob[c] {
				prob[c] = q
				if _, ok := b.nodes[c]; ok && !done[c] {
					heap.Push(h, c)
				}
			}
		}
	}
	// Plies: breadth-first from the roots in order of ply.
	buckets := map[int][]engine.Position{}
	maxPly := 0
	for _, r := range b.roots {
		if pl, ok := ply[r.Position]; !ok || r.Ply < pl {
			ply[r.Position] = r.Ply
			buckets[r.Ply] = append(buckets[r.Ply], r.Position)
			maxPly = max(maxPly, r.Ply)
		}
	}
	for d := 0; d <= maxPly; d++ {
		for _, p := range buckets[d] {
			n, ok := b.nodes[p]
			if !ok || ply[p] != d {
				continue
			}
			for _, c := range n.children {
				if pl, ok := ply[c]; !ok || d+1 < pl {
					ply[c] = d + 1
					buckets[d+1] = append(buckets[d+1], c)
					maxPly = max(maxPly, d+1)
				}
			}
		}
		delete(buckets, d)
	}
	b.ply = ply
	return prob, ply
}

// analyse analyses the positions of batch with the workers' searchers and
// adds them to the book. done tells which ones were finished; err is ctx's
// error (or a searcher's) when the batch ended early: finished positions
// are kept, and progress is called for each of them (one call at a time).
func (b *builder) analyse(ctx context.Context, searchers []Searcher, batch []engine.Position, progress func(engine.Position)) (done []bool, err error) {
	var (
		mu   sync.Mutex // guards next, done, err, b.nodes and progress calls
		next int
		wg   sync.WaitGroup
	)
	done = make([]bool, len(batch))
	for _, s := range searchers[:min(len(searchers), len(batch))] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(batch) || err != nil || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				n, aerr := analysePosition(ctx, s, batch[i], b.o)
				mu.Lock()
				if aerr != nil {
					err = cmp.Or(err, aerr)
				} else {
					done[i] = true
					b.nodes[n.pos] = n
					progress(n.pos)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return done, cmp.Or(err, ctx.Err())
}

// analysePosition scores every legal move of p and keeps the book moves.
func analysePosition(ctx context.Context, s Searcher, p engine.Position, o *BuildOptions) (*node, error) {
	var list engine.MoveList
	p.Generate(&list)
	s.Clear()
	scores := make([]int, list.N)
	best := math.MinInt
	for i, m := range list.Slice() {
		sc, err := s.ScoreMove(ctx, &p, m)
		if err != nil {
			return nil, err
		}
		scores[i] = min(max(sc, math.MinInt16), math.MaxInt16)
		best = max(best, scores[i])
	}
	var es []Entry
	for i, m := range list.Slice() {
		w := 0
		if d := best - scores[i]; d <= o.Margin {
			w = max(100*(o.Margin+1-d)/(o.Margin+1), 1)
		}
		games := 0
		if o.Games != nil {
			if st := o.Games.Stat(&p, m); st.N >= o.MinCount {
				games = st.N
				w += 50 * (st.N + st.HalfPoints)
			}
		}
		if w > 0 {
			es = append(es, Entry{Move: m, Weight: min(w, math.MaxUint16), Score: scores[i], Games: games})
		}
	}
	slices.SortStableFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Weight, a.Weight))
	})
	if len(es) > maxMovesPer {
		es = es[:maxMovesPer]
	}
	return newNode(p, es), nil
}

// records returns the analysed positions as book records, plies computed.
func (b *builder) records() []Record {
	b.graph()
	rs := make([]Record, 0, len(b.nodes))
	for p, n := range b.nodes {
		rs = append(rs, Record{Position: p, Ply: b.ply[p], Moves: n.moves})
	}
	return rs
}

// writeCheckpoint writes the analysed positions and the pending ones to
// the checkpoint file (through a temporary file, so a crash never leaves
// a half-written checkpoint).
func (b *builder) writeCheckpoint(pending []engine.Position) error {
	data, err := encode(b.o.Variant, b.info, b.records(), pending)
	if err != nil {
		return err
	}
	tmp := b.o.Checkpoint + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("book: checkpoint: %w", err)
	}
	if err := os.Rename(tmp, b.o.Checkpoint); err != nil {
		return fmt.Errorf("book: checkpoint: %w", err)
	}
	return nil
}
