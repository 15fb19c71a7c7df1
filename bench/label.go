// label.go: the games of a game file scored again by a deeper search
// (`damka label`): every searched move's score replaced by the score of a
// fixed node or depth search of the position before it, written to a game
// file in the input's order, resumable, deterministic and sharded as
// selfplay is.

package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/internal/gzfile"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// LabelOptions configure Label.
type LabelOptions struct {
	// Data is the game file whose games are labelled, plain or
	// gzip-compressed; Out gets its variant.
	Data    string
	Nodes   uint64 // nodes per searched position; with Depth 0 required
	Depth   int    // nominal depth per searched position (used when Nodes is 0)
	Threads int    // games labelled at once, one search thread each (0: all CPUs)
	HashMiB int    // transposition table per game (0: 8 MiB)

	// Shard and Shards: label only the games at the positions k (0-based,
	// in Data's order) with k mod Shards = Shard-1 (1 <= Shard <= Shards;
	// 0 and 0: every game). The shards' files together hold the games of
	// the whole run.
	Shard, Shards int

	// Out is the game file written; an existing one is resumed: its
	// variant and its header's note must be o's and its games must be the
	// first games of the shard of Data.
	Out  string
	Note string // written in a new file's header: the settings (the command)
	// SameNote, if not nil, tells whether an existing file's note names the
	// same settings as Note; nil: the notes must be equal.
	SameNote func(fileNote string) bool

	// Progress, if not nil, is called after each game written with the
	// number of games in Out and the number the shard of Data holds (Data
	// is read once more at the start to count them).
	Progress func(done, total int)

	// Eval, if not nil, are the evaluation weights of the searches
	// (search.Options.Eval), for Data's variant; nil: the embedded weights.
	Eval *eval.Weights
}

// LabelResult sums up a run of Label.
type LabelResult struct {
	Resumed   int    // games already in Out at the start
	Labelled  int    // games labelled and written by this run
	Positions int    // positions searched (the searched moves of those games)
	Changed   int    // of those, the ones whose score changed
	Nodes     uint64 // nodes searched
}

// ErrData is wrapped by Label's error when Data cannot be read: no such
// file, not a game file, or a damaged or truncated record (the games
// before it are labelled and written).
var ErrData = errors.New("cannot read")

// Label writes the games of o.Data (o's shard of them) to o.Out with the
// score of every searched move (one whose score is not pdn.NoScore)
// replaced by the score of a search of the position before the move, with
// the game's history, by an engine of one thread whose table is cleared at
// the start of every game. The moves, results, reasons, numbers and start
// positions stay as they are, and so do the unsearched moves' NoScore.
// Games already in Out are kept (a truncated last record is cut off) and
// the run goes on after them. A game's scores depend only on the options
// and the game, and the games are written in Data's order, so the file
// does not depend on o.Threads or on stops and resumes. It returns when
// the shard's games are written or ctx is done (the games finished so far
// are kept).
func Label(ctx context.Context, o LabelOptions) (LabelResult, error) {
	var res LabelResult
	if o.Nodes == 0 && o.Depth <= 0 {
		return res, errors.New("label: set nodes or depth per position")
	}
	shard, shards, err := checkShard("label", o.Shard, o.Shards)
	if err != nil {
		return res, err
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.HashMiB <= 0 {
		o.HashMiB = 8
	}
	dataErr := func(err error) error { return fmt.Errorf("label: %w %s: %w", ErrData, o.Data, err) }
	in, err := gzfile.Open(o.Data)
	if err != nil {
		return res, dataErr(err)
	}
	defer in.Close()
	gr, err := pdn.NewRecordReader(in)
	if err != nil {
		return res, dataErr(err)
	}
	v := gr.Variant()
	if o.Eval != nil && o.Eval.V != v {
		return res, fmt.Errorf("label: the evaluation weights are for %v, %s holds %v games", o.Eval.V, o.Data, v)
	}
	// next returns the next game of the shard of Data and its position
	// in Data, io.EOF after the last.
	pos := -1
	next := func() (*pdn.Record, int, error) {
		for {
			rec, err := gr.Next()
			if err == io.EOF {
				return nil, 0, io.EOF
			}
			if err != nil {
				return nil, 0, dataErr(err)
			}
			pos++
			if pos%shards == shard-1 {
				return rec, pos, nil
			}
		}
	}

	var readErr error // an error of Data found while checking Out
	f, gw, done, err := gameFile{cmd: "label", path: o.Out, variant: v, note: o.Note, same: o.SameNote,
		check: func(k int, rec *pdn.Record) error {
			want, at, err := next()
			if err == io.EOF {
				return fmt.Errorf("game %d (number %d) is not in %s (it has fewer games)", k, rec.Index, o.Data)
			}
			if err != nil {
				readErr = err
				return err
			}
			if !sameGame(rec, want) {
				return fmt.Errorf("game %d (number %d) is not game %d of %s (number %d)", k, rec.Index, at, o.Data, want.Index)
			}
			return nil
		}}.open()
	if readErr != nil {
		return res, readErr
	}
	if err != nil {
		return res, err
	}
	defer f.Close()
	res.Resumed = done

	total := 0
	if o.Progress != nil {
		total = shardLen(countGames(o.Data), shard, shards)
	}
	limits := search.Limits{Nodes: o.Nodes, Depth: o.Depth}
	feed := func(send func(*pdn.Record) bool) error {
		for {
			rec, _, err := next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if !send(rec) {
				return nil
			}
		}
	}
	newWorker := func() func(context.Context, *pdn.Record) (labelled, bool) {
		e := search.New(search.Options{Threads: 1, HashMiB: o.HashMiB, Eval: o.Eval})
		return func(ctx context.Context, rec *pdn.Record) (labelled, bool) {
			return labelGame(ctx, e, limits, rec)
		}
	}
	write := func(l labelled) error {
		if err := gw.Write(l.rec); err != nil {
			return fmt.Errorf("label %s: %w", o.Out, err)
		}
		if err := gw.Flush(); err != nil {
			return fmt.Errorf("label %s: %w", o.Out, err)
		}
		res.Labelled++
		res.Positions += l.positions
		res.Changed += l.changed
		res.Nodes += l.nodes
		if o.Progress != nil {
			o.Progress(done+res.Labelled, max(total, done+res.Labelled))
		}
		return nil
	}
	return res, runOrdered(ctx, o.Threads, feed, newWorker, write)
}

// labelled is one game of Label: the record with its new scores and what
// its searches did.
type labelled struct {
	rec                *pdn.Record
	positions, changed int
	nodes              uint64
}

// labelGame searches the position before every searched move of rec with e
// (cleared first) and returns rec with those scores. ok is false when ctx
// stopped it.
func labelGame(ctx context.Context, e *search.Engine, limits search.Limits, rec *pdn.Record) (l labelled, ok bool) {
	out := *rec
	out.Scores = slices.Clone(rec.Scores)
	l.rec = &out
	e.Clear()
	g := engine.NewGame(rec.Start)
	for ply, m := range rec.Moves {
		if old := rec.Scores[ply]; old != pdn.NoScore {
			r := e.SearchGame(ctx, g, limits, nil)
			if ctx.Err() != nil {
				return l, false
			}
			l.nodes += r.Nodes
			l.positions++
			if r.HasMove { // always: the record plays a legal move here
				out.Scores[ply] = int16(max(min(r.Score, 32767), -32767))
			}
			if out.Scores[ply] != old {
				l.changed++
			}
		}
		g.Play(m)
	}
	return l, true
}

// sameGame reports whether a and b are one game but for the searched
// moves' scores: number, start, moves, result, reason and the unsearched
// moves.
func sameGame(a, b *pdn.Record) bool {
	if a.Index != b.Index || a.Start != b.Start || a.Result != b.Result || a.Reason != b.Reason ||
		!slices.Equal(a.Moves, b.Moves) || len(a.Scores) != len(b.Scores) {
		return false
	}
	for i := range a.Scores {
		if (a.Scores[i] == pdn.NoScore) != (b.Scores[i] == pdn.NoScore) {
			return false
		}
	}
	return true
}

// countGames returns the number of whole games at the start of the game
// file at path (up to a damaged record or the end).
func countGames(path string) int {
	in, err := gzfile.Open(path)
	if err != nil {
		return 0
	}
	defer in.Close()
	gr, err := pdn.NewRecordReader(in)
	if err != nil {
		return 0
	}
	n := 0
	for {
		if _, err := gr.Next(); err != nil {
			return n
		}
		n++
	}
}
