package bench

import (
	"bytes"
	"compress/gzip"
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
	"github.com/damka-draughts/damka/pdn"
)

// labelInput writes a small self-play game file for Label to read and
// returns its options.
func labelInput(t *testing.T, dir string) SelfPlayOptions {
	t.Helper()
	o := selfPlayOptions(t, engine.Russian, filepath.Join(dir, "in.games"))
	o.Games, o.Threads = 6, 2
	playToFile(t, o)
	return o
}

// labelToFile runs Label with o and returns the file's bytes.
func labelToFile(t *testing.T, o LabelOptions) ([]byte, LabelResult) {
	t.Helper()
	res, err := Label(context.Background(), o)
	require.NoError(t, err)
	data, err := os.ReadFile(o.Out)
	require.NoError(t, err)
	return data, res
}

// TestLabel: the labelled file holds the input's games, with only the
// searched moves' scores changed; with the settings that played them it
// gives their scores back; threads do not change a byte.
func TestLabel(t *testing.T) {
	dir := t.TempDir()
	sp := labelInput(t, dir)
	in := readRecords(t, sp.Out)

	o := LabelOptions{Data: sp.Out, Nodes: 1200, Threads: 1, HashMiB: 1, Out: filepath.Join(dir, "one.games"), Note: "label test"}
	done := 0
	o.Progress = func(d, total int) {
		assert.Equal(t, done+1, d)
		assert.Equal(t, len(in), total)
		done = d
	}
	one, res := labelToFile(t, o)
	assert.Equal(t, len(in), done)
	out := readRecords(t, o.Out)
	require.Len(t, out, len(in))
	searched, changed := 0, 0
	for k := range in {
		a, b := in[k], out[k]
		assert.True(t, sameGame(a, b), "game %d is not the input's", k)
		assert.Equal(t, a.Moves, b.Moves)
		assert.Equal(t, a.Result, b.Result)
		for ply, sc := range a.Scores {
			if sc == pdn.NoScore {
				assert.Equal(t, pdn.NoScore, b.Scores[ply], "game %d ply %d: an unsearched move scored", k, ply)
				continue
			}
			searched++
			assert.NotEqual(t, pdn.NoScore, b.Scores[ply])
			if sc != b.Scores[ply] {
				changed++
			}
		}
	}
	assert.Equal(t, LabelResult{Labelled: len(in), Positions: searched, Changed: changed, Nodes: res.Nodes}, res)
	assert.Positive(t, res.Nodes)
	assert.Positive(t, changed, "a deeper search changed no score")
	t.Logf("%d games, %d positions, %d changed, %d nodes", res.Labelled, res.Positions, res.Changed, res.Nodes)

	o.Progress = nil
	o.Threads = 2
	o.Out = filepath.Join(dir, "two.games")
	two, _ := labelToFile(t, o)
	assert.Equal(t, one, two, "threads 1 and 2 wrote different files")

	// The settings of the self-play run give its scores back.
	same := LabelOptions{Data: sp.Out, Nodes: sp.Nodes, HashMiB: sp.HashMiB, Threads: 2, Out: filepath.Join(dir, "same.games"), Note: sp.Note}
	again, res := labelToFile(t, same)
	assert.Zero(t, res.Changed)
	played, err := os.ReadFile(sp.Out)
	require.NoError(t, err)
	assert.Equal(t, played, again)

	// A gzip-compressed input reads as the plain one.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err = zw.Write(played)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	o.Data = filepath.Join(dir, "in.games.gz")
	require.NoError(t, os.WriteFile(o.Data, gz.Bytes(), 0o644))
	o.Out = filepath.Join(dir, "gz.games")
	fromGz, _ := labelToFile(t, o)
	assert.Equal(t, one, fromGz)
}

// TestLabelShardsAndResume: the shards' files hold together the games of
// the whole run; a run stopped, or cut inside a record, and resumed writes
// the file of one run; a file of another shard or input is refused.
func TestLabelShardsAndResume(t *testing.T) {
	dir := t.TempDir()
	sp := labelInput(t, dir)
	o := LabelOptions{Data: sp.Out, Nodes: 800, Threads: 2, HashMiB: 1, Out: filepath.Join(dir, "all.games"), Note: "label test"}
	full, _ := labelToFile(t, o)
	all := readRecords(t, o.Out)

	var union []*pdn.Record
	parts := map[int][]byte{}
	for i := 1; i <= 3; i++ {
		p := o
		p.Shard, p.Shards = i, 3
		p.Out = filepath.Join(dir, fmt.Sprintf("part%d.games", i))
		data, res := labelToFile(t, p)
		parts[i] = data
		assert.Equal(t, 2, res.Labelled, "shard %d/3 of 6 games", i)
		recs := readRecords(t, p.Out)
		for k, rec := range recs {
			assert.Equal(t, uint32(i-1+3*k), rec.Index)
		}
		union = append(union, recs...)
	}
	sort.Slice(union, func(a, b int) bool { return union[a].Index < union[b].Index })
	assert.Equal(t, all, union, "the shards' games are not the run's")

	t.Run("stopped", func(t *testing.T) {
		p := o
		p.Threads = 1
		p.Out = filepath.Join(dir, "stopped.games")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		p.Progress = func(done, total int) {
			if done == 2 {
				cancel()
			}
		}
		res, err := Label(ctx, p)
		require.NoError(t, err)
		require.Less(t, res.Labelled, 6, "the run was not stopped")
		p.Progress = nil
		got, res2 := labelToFile(t, p)
		assert.Equal(t, res.Labelled, res2.Resumed)
		assert.Equal(t, 6-res.Labelled, res2.Labelled)
		assert.Equal(t, full, got, "stopped and resumed: not the file of one run")
	})

	t.Run("torn", func(t *testing.T) {
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
		for _, k := range []int{1, 4} {
			p := o
			p.Out = filepath.Join(dir, "torn.games")
			require.NoError(t, os.WriteFile(p.Out, full[:(ends[k-1]+ends[k])/2], 0o644))
			got, res := labelToFile(t, p)
			assert.Equal(t, k-1, res.Resumed)
			assert.Equal(t, full, got, "cut in game %d: not the file of one run", k)
		}
	})

	t.Run("refused", func(t *testing.T) {
		p := o
		p.Shard, p.Shards = 2, 3
		p.Out = filepath.Join(dir, "other.games")
		require.NoError(t, os.WriteFile(p.Out, parts[1], 0o644))
		_, err := Label(context.Background(), p)
		require.ErrorIs(t, err, ErrResume)
		assert.Contains(t, err.Error(), "game 0 (number 0) is not game 1 of "+o.Data+" (number 1)")
		after, rerr := os.ReadFile(p.Out)
		require.NoError(t, rerr)
		assert.Equal(t, parts[1], after, "a refused resume changed the file")

		// More games than the input has.
		p = o
		p.Data = filepath.Join(dir, "short.games")
		hdr := 16 + len(o.Note)
		require.NoError(t, os.WriteFile(p.Data, full[:hdr], 0o644))
		p.Out = filepath.Join(dir, "long.games")
		require.NoError(t, os.WriteFile(p.Out, full, 0o644))
		_, err = Label(context.Background(), p)
		require.ErrorIs(t, err, ErrResume)
		assert.Contains(t, err.Error(), "game 0 (number 0) is not in "+p.Data)

		p = o
		p.Out = filepath.Join(dir, "notes.games")
		require.NoError(t, os.WriteFile(p.Out, full, 0o644))
		p.Note = "label test --nodes 900"
		_, err = Label(context.Background(), p)
		require.ErrorIs(t, err, ErrResume)
		assert.Contains(t, err.Error(), "other settings")
	})
}

// TestLabelErrors: input that cannot be read is ErrData; the games before
// a damaged record are written.
func TestLabelErrors(t *testing.T) {
	dir := t.TempDir()
	sp := labelInput(t, dir)
	played, err := os.ReadFile(sp.Out)
	require.NoError(t, err)
	o := LabelOptions{Data: filepath.Join(dir, "none.games"), Nodes: 500, Threads: 2, HashMiB: 1, Out: filepath.Join(dir, "out.games")}
	_, err = Label(context.Background(), o)
	require.ErrorIs(t, err, ErrData)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, serr := os.Stat(o.Out)
	assert.ErrorIs(t, serr, os.ErrNotExist, "no input, yet an output")

	o.Data = filepath.Join(dir, "junk.games")
	require.NoError(t, os.WriteFile(o.Data, []byte("[Event \"a PDN file\"]\n"), 0o644))
	_, err = Label(context.Background(), o)
	require.ErrorIs(t, err, ErrData)
	assert.Contains(t, err.Error(), "label: cannot read "+o.Data+": not a damka game file")

	// Damaged in the third game: two games written, then the error.
	gr, err := pdn.NewRecordReader(bytes.NewReader(played))
	require.NoError(t, err)
	for range 2 {
		_, err := gr.Next()
		require.NoError(t, err)
	}
	bad := bytes.Clone(played)
	bad[gr.Offset()+10] ^= 1
	o.Data = filepath.Join(dir, "damaged.games")
	require.NoError(t, os.WriteFile(o.Data, bad, 0o644))
	res, err := Label(context.Background(), o)
	require.ErrorIs(t, err, ErrData)
	assert.Contains(t, err.Error(), "checksum mismatch")
	assert.Equal(t, 2, res.Labelled)
	assert.Len(t, readRecords(t, o.Out), 2)

	o.Nodes = 0
	_, err = Label(context.Background(), o)
	assert.ErrorContains(t, err, "set nodes or depth")
	o.Nodes, o.Shard, o.Shards = 500, 3, 2
	_, err = Label(context.Background(), o)
	assert.ErrorContains(t, err, "shard 3 of 2")
}
