// selfplay.go: fast self-play games for training the evaluation (`damka
// selfplay`): real openings, a few random plies for variety, then a fixed
// node or depth search per move, written to a game file (pdn/gamerec.go)
// in game order, resumable, and deterministic for a seed.

package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// SelfPlayMaxPlies is the move cap of a self-play game: one still going
// after it is scored a draw by adjudication. The draw rules end nearly
// every game long before it.
const SelfPlayMaxPlies = 600

// SelfPlayOptions configure SelfPlay.
type SelfPlayOptions struct {
	Variant engine.VariantID
	Games   int    // games of the whole run, all shards together (resumed games count)
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

	// Shard and Shards: play only the games i (0 <= i < Games) with
	// i mod Shards = Shard-1, in increasing order, into Out (1 <= Shard
	// <= Shards; 0 and 0: all the games). The shards' files together hold
	// the games of the whole run, record for record.
	Shard, Shards int

	// Out is the game file; an existing one is resumed: its variant and
	// its header's note must be o's (games of other settings would mix).
	Out  string
	Note string // written in a new file's header: the settings that make the games (the command)
	// SameNote, if not nil, tells whether an existing file's note names the
	// same settings as Note (for instance the same command with another
	// --out path); nil: the notes must be equal.
	SameNote func(fileNote string) bool

	// Progress, if not nil, is called after each game written with the
	// number of games in the file and the number the shard holds when
	// done (Games without shards).
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

// SelfPlay plays the games of o into o.Out, appending to the games already
// there (a truncated last record, from a run that was stopped, is cut off
// first). Game i depends only on the options and i, so a run stopped and
// resumed writes the same file as one run, and the files of the shards of
// a run hold together the games of the whole run. It returns when the
// file holds the shard's games of o.Games or ctx is done (the games
// finished so far are kept).
func SelfPlay(ctx context.Context, o SelfPlayOptions) (SelfPlayResult, error) {
	res := SelfPlayResult{Reasons: map[string]int{}}
	if o.Nodes == 0 && o.Depth <= 0 {
		return res, errors.New("selfplay: set nodes or depth per move")
	}
	shard, shards, err := checkShard("selfplay", o.Shard, o.Shards)
	if err != nil {
		return res, err
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.HashMiB <= 0 {
		o.HashMiB = 8
	}
	// The k-th game of the shard is game number (shard-1) + k*shards.
	number := func(k int) int { return shard - 1 + k*shards }
	f, gw, done, err := gameFile{cmd: "selfplay", path: o.Out, variant: o.Variant, note: o.Note, same: o.SameNote,
		check: func(k int, rec *pdn.Record) error {
			if int(rec.Index) != number(k) {
				return fmt.Errorf("game %d has index %d, not %d", k, rec.Index, number(k))
			}
			return nil
		}}.open()
	if err != nil {
		return res, err
	}
	defer f.Close()
	res.Resumed = done
	total := shardLen(o.Games, shard, shards)
	if done >= total {
		return res, nil
	}

	type played struct {
		rec *pdn.Record
		n   uint64
	}
	feed := func(send func(int) bool) error {
		for k := done; k < total; k++ {
			if !send(number(k)) {
				break
			}
		}
		return nil
	}
	newWorker := func() func(context.Context, int) (played, bool) {
		e := search.New(search.Options{Threads: 1, HashMiB: o.HashMiB, Eval: o.Eval})
		return func(ctx context.Context, i int) (played, bool) {
			rec, n := playSelfGame(ctx, e, &o, i)
			return played{rec, n}, rec != nil
		}
	}
	write := func(p played) error {
		if err := gw.Write(p.rec); err != nil {
			return fmt.Errorf("selfplay %s: %w", o.Out, err)
		}
		if err := gw.Flush(); err != nil {
			return fmt.Errorf("selfplay %s: %w", o.Out, err)
		}
		res.Played++
		res.Plies += len(p.rec.Moves)
		res.Results[p.rec.Result]++
		res.Reasons[p.rec.Reason.String()]++
		res.Nodes += p.n
		if o.Progress != nil {
			o.Progress(done+res.Played, total)
		}
		return nil
	}
	return res, runOrdered(ctx, o.Threads, feed, newWorker, write)
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
