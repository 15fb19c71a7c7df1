// selfplay.go: fast self-play games for training the evaluation (`damka
// selfplay`): real openings, a few random plies for variety, then a fixed
// node or depth search per move, written to a game file (pdn/gamerec.go)
// in game order, resumable, and deterministic for a seed.

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"

	"damka/engine"
	"damka/eval"
	"damka/openings"
	"damka/pdn"
	"damka/search"
)

// SelfPlayMaxPlies is the move cap of a self-play game: one still going
// after it is scored a draw by adjudication. The draw rules end nearly
// every game long before it.
const SelfPlayMaxPlies = 600

// SelfPlayOptions configure SelfPlay.
type SelfPlayOptions struct {
	Variant engine.VariantID
	Games   int    // games in the file when the run is done (resumed games count)
	Nodes   uint64 // nodes per move; with Depth 0 required
	Depth   int    // nominal depth per move (used when Nodes is 0)
	Threads int    // games played at once, one search thread each (0: all CPUs)
	HashMiB int    // transposition table per game (0: 8 MiB)
	Seed    uint64 // with the same options the file is byte for byte the same

	// Openings are played in turn (game i starts from Openings[i mod n]);
	// none: the variant's start position.
	Openings []openings.Opening
	// RandomPlies: each game plays a uniformly random number, 0 to
	// RandomPlies, of random legal moves after its opening.
	RandomPlies int

	// Out is the game file; an existing one is resumed: its variant and
	// its header's note must be o's (games of other settings would mix).
	Out  string
	Note string // written in a new file's header: the settings that make the games (the command)
	// SameNote, if not nil, tells whether an existing file's note names the
	// same settings as Note (for instance the same command with another
	// --out path); nil: the notes must be equal.
	SameNote func(fileNote string) bool

	// Progress, if not nil, is called after each game written with the
	// number of games in the file and Games.
	Progress func(done, total int)

	// Eval, if not nil, are the evaluation weights of the games
	// (search.Options.Eval); nil: the embedded weights.
	Eval *eval.Weights
}

// SelfPlayResult sums up a run.
type SelfPlayResult struct {
	Resumed int            // games already in the file at the start
	Played  int            // games played and written by this run
	Plies   int            // plies of the games played
	Results [4]int         // the played games by engine.Result
	Nodes   uint64         // nodes searched
	Reasons map[string]int // why the played games ended
}

// ErrResume is wrapped by SelfPlay's error when the existing Out cannot be
// resumed: it is not a game file, holds another variant's games or games
// of other settings (another note), has a damaged record before its end,
// or its games are out of order.
var ErrResume = errors.New("cannot resume")

// SelfPlay plays the games of o into o.Out, appending to the games already
// there (a truncated last record, from a run that was stopped, is cut off
// first). Game i depends only on the options and i, so a run stopped and
// resumed writes the same file as one run. It returns when the file holds
// o.Games games or ctx is done (the games finished so far are kept).
func SelfPlay(ctx context.Context, o SelfPlayOptions) (SelfPlayResult, error) {
	res := SelfPlayResult{Reasons: map[string]int{}}
	if o.Nodes == 0 && o.Depth <= 0 {
		return res, errors.New("selfplay: set nodes or depth per move")
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.HashMiB <= 0 {
		o.HashMiB = 8
	}
	f, gw, done, err := openGameFile(o.Out, o.Variant, o.Note, o.SameNote)
	if err != nil {
		return res, err
	}
	defer f.Close()
	res.Resumed = done
	if done >= o.Games {
		return res, nil
	}

	type finished struct {
		i   int
		rec *pdn.Record
		n   uint64
	}
	jobs := make(chan int)
	out := make(chan finished, o.Threads)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range o.Threads {
		go func() {
			e := search.New(search.Options{Threads: 1, HashMiB: o.HashMiB, Eval: o.Eval})
			for i := range jobs {
				rec, n := playSelfGame(ctx, e, &o, i)
				select {
				case out <- finished{i, rec, n}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := done; i < o.Games; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()

	// Write in game order: hold the games that finish early.
	pending := map[int]*finished{}
	next := done
	for next < o.Games {
		var g finished
		select {
		case g = <-out:
		case <-ctx.Done():
			return res, gw.Flush()
		}
		if g.rec == nil { // stopped mid-game
			continue
		}
		pending[g.i] = &g
		for pending[next] != nil {
			p := pending[next]
			delete(pending, next)
			if err := gw.Write(p.rec); err != nil {
				return res, fmt.Errorf("selfplay %s: %w", o.Out, err)
			}
			if err := gw.Flush(); err != nil {
				return res, fmt.Errorf("selfplay %s: %w", o.Out, err)
			}
			res.Played++
			res.Plies += len(p.rec.Moves)
			res.Results[p.rec.Result]++
			res.Reasons[p.rec.Reason.String()]++
			res.Nodes += p.n
			next++
			if o.Progress != nil {
				o.Progress(next, o.Games)
			}
		}
	}
	return res, nil
}

// openGameFile opens path for appending: a new file gets a header; an
// existing one is read to its last whole record (a torn tail is cut off)
// and its games counted.
func openGameFile(path string, v engine.VariantID, note string, same func(string) bool) (*os.File, *pdn.RecordWriter, int, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("selfplay: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, 0, fmt.Errorf("selfplay: %w", err)
	}
	if st.Size() == 0 {
		gw, err := pdn.NewRecordWriter(f, v, note)
		if err == nil {
			err = gw.Flush()
		}
		if err != nil {
			f.Close()
			return nil, nil, 0, fmt.Errorf("selfplay %s: %w", path, err)
		}
		return f, gw, 0, nil
	}
	gr, err := pdn.NewRecordReader(f)
	if err != nil {
		f.Close()
		return nil, nil, 0, fmt.Errorf("selfplay: %w %s: %w", ErrResume, path, err)
	}
	if gr.Variant() != v {
		f.Close()
		return nil, nil, 0, fmt.Errorf("selfplay: %w %s: the file holds %v games, not %v", ErrResume, path, gr.Variant(), v)
	}
	if same == nil {
		same = func(n string) bool { return n == note }
	}
	if !same(gr.Note()) {
		f.Close()
		return nil, nil, 0, fmt.Errorf("selfplay: %w %s: its games were played by %q, not %q (other settings)", ErrResume, path, gr.Note(), note)
	}
	n := 0
	for {
		rec, err := gr.Next()
		if err == io.EOF || errors.Is(err, pdn.ErrTruncatedRecord) {
			break
		}
		if err != nil {
			f.Close()
			return nil, nil, 0, fmt.Errorf("selfplay: %w %s: %w", ErrResume, path, err)
		}
		if int(rec.Index) != n {
			f.Close()
			return nil, nil, 0, fmt.Errorf("selfplay: %w %s: game %d has index %d", ErrResume, path, n, rec.Index)
		}
		n++
	}
	if err := f.Truncate(gr.Offset()); err != nil {
		f.Close()
		return nil, nil, 0, fmt.Errorf("selfplay: resume %s: %w", path, err)
	}
	if _, err := f.Seek(gr.Offset(), io.SeekStart); err != nil {
		f.Close()
		return nil, nil, 0, fmt.Errorf("selfplay: resume %s: %w", path, err)
	}
	return f, pdn.AppendRecordWriter(f, v), n, nil
}

// playSelfGame plays game i of o with e. It returns nil when ctx ends the
// game early.
func playSelfGame(ctx context.Context, e *search.Engine, o *SelfPlayOptions, i int) (*pdn.Record, uint64) {
	rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
	rec := &pdn.Record{Index: uint32(i), Start: engine.StartPosition(o.Variant)}
	g := engine.NewGame(rec.Start)
	if n := len(o.Openings); n > 0 {
		op := &o.Openings[i%n]
		rec.Start = op.Start
		g = engine.NewGame(op.Start)
		for _, m := range op.Moves {
			g.Play(m)
			rec.Moves = append(rec.Moves, m)
			rec.Scores = append(rec.Scores, pdn.NoScore)
		}
	}
	random := 0
	if o.RandomPlies > 0 {
		random = rng.IntN(o.RandomPlies + 1)
	}
	e.Clear()
	limits := search.Limits{Nodes: o.Nodes, Depth: o.Depth}
	var nodes uint64
	var l engine.MoveList
	for {
		if r, why := g.Result(); r != engine.Ongoing {
			rec.Result, rec.Reason = r, why
			return rec, nodes
		}
		if g.Ply() >= SelfPlayMaxPlies {
			rec.Result, rec.Reason = engine.Draw, engine.Adjudication
			return rec, nodes
		}
		if ctx.Err() != nil {
			return nil, nodes
		}
		var m engine.Move
		score := pdn.NoScore
		if random > 0 {
			p := g.Position()
			p.Generate(&l)
			m = l.Moves[rng.IntN(l.N)]
			random--
		} else {
			r := e.SearchGame(ctx, g, limits, nil)
			if !r.HasMove || ctx.Err() != nil {
				return nil, nodes // only when stopped: the result check above saw a legal move
			}
			m = r.Move
			nodes += r.Nodes
			score = int16(max(min(r.Score, 32767), -32767))
		}
		g.Play(m)
		rec.Moves = append(rec.Moves, m)
		rec.Scores = append(rec.Scores, score)
	}
}
