package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
)

// selfPlayOptions are small, fast self-play settings writing to out.
func selfPlayOptions(t *testing.T, v engine.VariantID, out string) SelfPlayOptions {
	t.Helper()
	o := SelfPlayOptions{Variant: v, Games: 5, Nodes: 300, Threads: 1, HashMiB: 1, Seed: 11,
		RandomPlies: 4, Out: out, Note: "selfplay test"}
	deck := map[engine.VariantID]string{engine.Russian: "testdata/openings_russian.fen",
		engine.International: "testdata/openings_international.pdn"}[v]
	if deck != "" {
		ops, err := openings.Load(deck, v)
		require.NoError(t, err)
		o.Openings = ops
	}
	return o
}

// playToFile runs SelfPlay with o and returns the file's bytes.
func playToFile(t *testing.T, o SelfPlayOptions) ([]byte, SelfPlayResult) {
	t.Helper()
	res, err := SelfPlay(context.Background(), o)
	require.NoError(t, err)
	data, err := os.ReadFile(o.Out)
	require.NoError(t, err)
	return data, res
}

// checkSelfPlayFile reads the game file data written with o: o.Games
// games in order, each legal (the reader replays every move), played from
// its opening, ending where the rules end it or at the move cap, with the
// opening and random plies unscored and the searched ones scored.
func checkSelfPlayFile(t *testing.T, data []byte, o SelfPlayOptions) []*pdn.Record {
	t.Helper()
	gr, err := pdn.NewRecordReader(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, o.Variant, gr.Variant())
	assert.Equal(t, o.Note, gr.Note())
	var recs []*pdn.Record
	for {
		rec, err := gr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		recs = append(recs, rec)
	}
	require.Len(t, recs, o.Games)
	for i, rec := range recs {
		assert.Equal(t, uint32(i), rec.Index)
		book := 0
		want := engine.StartPosition(o.Variant)
		if n := len(o.Openings); n > 0 {
			op := o.Openings[i%n]
			want = op.Start
			book = len(op.Moves)
			require.GreaterOrEqual(t, len(rec.Moves), book)
			assert.Equal(t, append([]engine.Move{}, op.Moves...), rec.Moves[:book], "game %d: its opening", i)
		}
		assert.Equal(t, want.FEN(), rec.Start.FEN(), "game %d start", i)
		g := engine.NewGame(rec.Start)
		unscored := 0
		for ply, m := range rec.Moves {
			r, why := g.Result()
			require.Equal(t, engine.Ongoing, r, "game %d goes on after its end (%v) at ply %d", i, why, ply)
			if rec.Scores[ply] == pdn.NoScore {
				if ply >= book {
					unscored++
				}
			} else {
				assert.GreaterOrEqual(t, ply, book+unscored, "game %d: a searched move before a random one", i)
			}
			g.Play(m)
		}
		assert.LessOrEqual(t, unscored, o.RandomPlies, "game %d: random plies", i)
		if r, why := g.Result(); r != engine.Ongoing {
			assert.Equal(t, r, rec.Result, "game %d result", i)
			assert.Equal(t, why, rec.Reason, "game %d reason", i)
		} else {
			assert.Equal(t, SelfPlayMaxPlies, len(rec.Moves), "game %d ends by no rule before the cap", i)
			assert.Equal(t, engine.Draw, rec.Result)
			assert.Equal(t, engine.Adjudication, rec.Reason)
		}
	}
	return recs
}

func TestSelfPlayDeterministic(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []engine.VariantID{engine.Russian, engine.International} {
		t.Run(v.String(), func(t *testing.T) {
			o := selfPlayOptions(t, v, filepath.Join(dir, v.String()+"1.games"))
			if v == engine.International {
				o.Games, o.Nodes, o.Depth = 2, 0, 2
			}
			done := 0
			o.Progress = func(d, total int) {
				assert.Equal(t, done+1, d)
				assert.Equal(t, o.Games, total)
				done = d
			}
			one, res := playToFile(t, o)
			assert.Equal(t, o.Games, done)
			assert.Equal(t, 0, res.Resumed)
			assert.Equal(t, o.Games, res.Played)
			assert.Equal(t, o.Games, res.Results[engine.WhiteWins]+res.Results[engine.BlackWins]+res.Results[engine.Draw])
			assert.Positive(t, res.Nodes)
			reasons := 0
			for _, n := range res.Reasons {
				reasons += n
			}
			assert.Equal(t, o.Games, reasons)
			recs := checkSelfPlayFile(t, one, o)
			t.Logf("%d games, %d plies, %d nodes, %v", o.Games, res.Plies, res.Nodes, res.Reasons)
			plies := 0
			for _, r := range recs {
				plies += len(r.Moves)
			}
			assert.Equal(t, plies, res.Plies)

			o.Progress = nil
			o.Threads = 2
			o.Out = filepath.Join(dir, v.String()+"2.games")
			two, _ := playToFile(t, o)
			assert.Equal(t, one, two, "threads 1 and 2 wrote different files")

			o.Seed++
			o.Out = filepath.Join(dir, v.String()+"3.games")
			other, _ := playToFile(t, o)
			assert.NotEqual(t, one, other, "another seed, the same games")
			checkSelfPlayFile(t, other, o)
		})
	}
}

func TestSelfPlayResume(t *testing.T) {
	dir := t.TempDir()
	o := selfPlayOptions(t, engine.Russian, filepath.Join(dir, "full.games"))
	o.Threads = 2
	full, _ := playToFile(t, o)

	t.Run("cancelled", func(t *testing.T) {
		p := o
		p.Out = filepath.Join(dir, "cancelled.games")
		// One thread: with two, the other thread may finish every game
		// left before the second game is written and the cancel comes.
		p.Threads = 1
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		p.Progress = func(done, total int) {
			if done == 2 {
				cancel()
			}
		}
		res, err := SelfPlay(ctx, p)
		require.NoError(t, err)
		require.GreaterOrEqual(t, res.Played, 2)
		require.Less(t, res.Played, o.Games, "the run was not stopped")
		part, err := os.ReadFile(p.Out)
		require.NoError(t, err)
		assert.Equal(t, full[:len(part)], part, "the stopped run's games")

		p.Progress = nil
		p.Threads = 1
		res2, err := SelfPlay(context.Background(), p)
		require.NoError(t, err)
		assert.Equal(t, res.Played, res2.Resumed)
		assert.Equal(t, o.Games-res.Played, res2.Played)
		got, err := os.ReadFile(p.Out)
		require.NoError(t, err)
		assert.Equal(t, full, got, "stopped and resumed: not the file of one run")
	})

	t.Run("torn record", func(t *testing.T) {
		// Cut the file inside every record in turn (the size field, the
		// moves, the checksum): the resumed file is the file of one run.
		gr, err := pdn.NewRecordReader(bytes.NewReader(full))
		require.NoError(t, err)
		ends := []int64{gr.Offset()}
		for {
			_, err := gr.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			ends = append(ends, gr.Offset())
		}
		for k := 1; k < len(ends); k += 2 {
			for _, cut := range []int64{ends[k-1] + 2, (ends[k-1] + ends[k]) / 2, ends[k] - 1} {
				p := o
				p.Out = filepath.Join(dir, "torn.games")
				require.NoError(t, os.WriteFile(p.Out, full[:cut], 0o644))
				got, res := playToFile(t, p)
				assert.Equal(t, k-1, res.Resumed, "cut at %d", cut)
				assert.Equal(t, full, got, "cut at %d: not the file of one run", cut)
			}
		}
	})

	t.Run("torn header", func(t *testing.T) {
		// Cut inside the header (magic, version, note): no game was
		// kept, the file starts again and is the file of one run.
		gr, err := pdn.NewRecordReader(bytes.NewReader(full))
		require.NoError(t, err)
		for _, cut := range []int64{1, 7, 8, 15, 16, 50, gr.Offset() - 1} {
			p := o
			p.Out = filepath.Join(dir, "torn-header.games")
			require.NoError(t, os.WriteFile(p.Out, full[:cut], 0o644))
			got, res := playToFile(t, p)
			assert.Zero(t, res.Resumed, "cut at %d", cut)
			assert.Equal(t, full, got, "cut at %d: not the file of one run", cut)
		}
		// A short file that is no beginning of a game file is not
		// overwritten.
		p := o
		p.Out = filepath.Join(dir, "other.games")
		require.NoError(t, os.WriteFile(p.Out, []byte("DMKX"), 0o644))
		_, err = SelfPlay(context.Background(), p)
		require.ErrorIs(t, err, ErrResume)
		kept, err := os.ReadFile(p.Out)
		require.NoError(t, err)
		assert.Equal(t, "DMKX", string(kept))
	})

	t.Run("more games", func(t *testing.T) {
		p := o
		p.Out = filepath.Join(dir, "more.games")
		p.Games = 2
		first, _ := playToFile(t, p)
		assert.Equal(t, full[:len(first)], first)
		p.Games = o.Games
		got, res := playToFile(t, p)
		assert.Equal(t, 2, res.Resumed)
		assert.Equal(t, full, got)
		// A file already holding its games is left alone.
		again, res := playToFile(t, p)
		assert.Equal(t, o.Games, res.Resumed)
		assert.Zero(t, res.Played)
		assert.Equal(t, full, again)
	})
}

func TestSelfPlayErrors(t *testing.T) {
	dir := t.TempDir()
	eng := selfPlayOptions(t, engine.English, filepath.Join(dir, "english.games"))
	eng.Games = 1
	before, _ := playToFile(t, eng)

	o := selfPlayOptions(t, engine.Russian, eng.Out)
	_, err := SelfPlay(context.Background(), o)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrResume)
	assert.Contains(t, err.Error(), "the file holds english games, not russian")
	after, rerr := os.ReadFile(eng.Out)
	require.NoError(t, rerr)
	assert.Equal(t, before, after, "a refused resume changed the file")

	// Other settings (the note says which) do not resume either.
	o = eng
	o.Games, o.Nodes, o.Note = 2, 200, "selfplay test --nodes 200"
	_, err = SelfPlay(context.Background(), o)
	require.ErrorIs(t, err, ErrResume)
	assert.Contains(t, err.Error(), `its games were played by "selfplay test", not "selfplay test --nodes 200" (other settings)`)
	after, rerr = os.ReadFile(eng.Out)
	require.NoError(t, rerr)
	assert.Equal(t, before, after, "a refused resume changed the file")

	o = selfPlayOptions(t, engine.Russian, eng.Out)
	junk := filepath.Join(dir, "junk.games")
	require.NoError(t, os.WriteFile(junk, []byte("[Event \"a PDN file\"]\n"), 0o644))
	o.Out = junk
	_, err = SelfPlay(context.Background(), o)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrResume)
	assert.Contains(t, err.Error(), "cannot resume "+junk+": not a damka game file")

	// A damaged record (not at the end) is an error, not a cut.
	hdr := 16 + len(eng.Note)
	bad := append(bytes.Clone(before), before[hdr:]...) // the game twice
	bad[hdr+10] ^= 1                                    // the first one damaged
	o = eng
	o.Games = 3
	o.Out = filepath.Join(dir, "damaged.games")
	require.NoError(t, os.WriteFile(o.Out, bad, 0o644))
	_, err = SelfPlay(context.Background(), o)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrResume)
	assert.Contains(t, err.Error(), "checksum mismatch")

	o.Nodes, o.Depth = 0, 0
	o.Out = filepath.Join(dir, "none.games")
	_, err = SelfPlay(context.Background(), o)
	assert.ErrorContains(t, err, "set nodes or depth")

	o = eng
	o.Out = filepath.Join(dir, "no-such-folder", "x.games")
	_, err = SelfPlay(context.Background(), o)
	assert.ErrorContains(t, err, "no-such-folder")
}

// readRecords returns the records of the game file at path.
func readRecords(t *testing.T, path string) []*pdn.Record {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	gr, err := pdn.NewRecordReader(f)
	require.NoError(t, err)
	var recs []*pdn.Record
	for {
		rec, err := gr.Next()
		if err == io.EOF {
			return recs
		}
		require.NoError(t, err)
		recs = append(recs, rec)
	}
}

// TestSelfPlayShards: the shards 1/3, 2/3 and 3/3 of a run hold its games,
// each once, with their global numbers, in increasing order; a shard
// stopped and resumed writes the file of one run; a shard's file does not
// resume as another shard.
func TestSelfPlayShards(t *testing.T) {
	dir := t.TempDir()
	o := selfPlayOptions(t, engine.Russian, filepath.Join(dir, "all.games"))
	o.Games, o.Threads = 7, 2
	playToFile(t, o)
	all := readRecords(t, o.Out)
	require.Len(t, all, 7)

	var union []*pdn.Record
	shardFiles := map[int][]byte{}
	for i := 1; i <= 3; i++ {
		p := o
		p.Shard, p.Shards = i, 3
		p.Out = filepath.Join(dir, fmt.Sprintf("shard%d.games", i))
		var last, want int
		p.Progress = func(done, total int) { last, want = done, total }
		data, res := playToFile(t, p)
		shardFiles[i] = data
		recs := readRecords(t, p.Out)
		assert.Len(t, recs, []int{3, 2, 2}[i-1], "shard %d/3 of 7 games", i)
		assert.Equal(t, len(recs), res.Played)
		assert.Equal(t, len(recs), last)
		assert.Equal(t, len(recs), want)
		for k, rec := range recs {
			assert.Equal(t, uint32(i-1+3*k), rec.Index, "shard %d/3 game %d", i, k)
		}
		union = append(union, recs...)
	}
	sort.Slice(union, func(a, b int) bool { return union[a].Index < union[b].Index })
	assert.Equal(t, all, union, "the shards' games are not the run's")

	t.Run("resumed", func(t *testing.T) {
		p := o
		p.Shard, p.Shards, p.Threads = 1, 2, 1
		p.Out = filepath.Join(dir, "straight.games")
		straight, _ := playToFile(t, p)
		p.Out = filepath.Join(dir, "stopped.games")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		p.Progress = func(done, total int) {
			if done == 1 {
				cancel()
			}
		}
		res, err := SelfPlay(ctx, p)
		require.NoError(t, err)
		require.Less(t, res.Played, 4, "the run was not stopped")
		p.Progress = nil
		got, res2 := playToFile(t, p)
		assert.Equal(t, res.Played, res2.Resumed)
		assert.Equal(t, straight, got, "stopped and resumed: not the shard's file of one run")
	})

	t.Run("another shard", func(t *testing.T) {
		p := o
		p.Shard, p.Shards = 2, 3
		p.Out = filepath.Join(dir, "other.games")
		require.NoError(t, os.WriteFile(p.Out, shardFiles[1], 0o644))
		_, err := SelfPlay(context.Background(), p)
		require.ErrorIs(t, err, ErrResume)
		assert.Contains(t, err.Error(), "game 0 has index 0, not 1")
		after, rerr := os.ReadFile(p.Out)
		require.NoError(t, rerr)
		assert.Equal(t, shardFiles[1], after, "a refused resume changed the file")

		p.Shard, p.Shards = 4, 3
		_, err = SelfPlay(context.Background(), p)
		assert.ErrorContains(t, err, "shard 4 of 3")
	})

	t.Run("empty shard", func(t *testing.T) {
		p := o
		p.Games, p.Shard, p.Shards = 2, 3, 3
		p.Out = filepath.Join(dir, "empty.games")
		_, res := playToFile(t, p)
		assert.Zero(t, res.Played)
		assert.Empty(t, readRecords(t, p.Out))
	})
}
