package player

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/search"
)

// small makes players with a small table, so that tests stay light.
func small(t *testing.T, cfg Config) *Player {
	t.Helper()
	p := New(cfg)
	require.NoError(t, p.Set(SetHash, "4"))
	return p
}

func TestSettingsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings() {
		assert.False(t, seen[s.Name], "two settings called %s", s.Name)
		seen[s.Name] = true
		assert.NotEmpty(t, s.Doc, s.Name)
		assert.NoError(t, s.Check(s.Default), "%s's default %q", s.Name, s.Default)
		switch s.Kind {
		case Int:
			assert.Less(t, s.Min, s.Max, s.Name)
			assert.Error(t, s.Check(strconv.Itoa(s.Min-1)), s.Name)
			assert.Error(t, s.Check(strconv.Itoa(s.Max+1)), s.Name)
			assert.NoError(t, s.Check(strconv.Itoa(s.Max)), s.Name)
		case Enum:
			assert.Contains(t, s.Values, s.Default, s.Name)
			assert.Error(t, s.Check("nosuch"), s.Name)
		case Bool:
			assert.Error(t, s.Check("maybe"), s.Name)
		}
	}
	assert.Equal(t, len(Names()), len(seen))
	// Settings hands out copies: changing one does not change the table.
	c := Settings()
	c[0].Values[0] = "changed"
	c[0].Default = "changed"
	assert.NotEqual(t, "changed", Settings()[0].Values[0])
	assert.NotEqual(t, "changed", MustLookup(SetVariant).Default)
	assert.Panics(t, func() { MustLookup("nosuch") })
}

// TestRowsReadAndApply: every row of the table has its get and set, a
// value set is the value got back (Max for a number, the other value of a
// switch), a value out of range is refused and leaves the setting as it
// was; the search and score lists are the table's rows in order.
func TestRowsReadAndApply(t *testing.T) {
	p := New(Config{})
	for _, r := range table {
		require.NotNil(t, r.get, r.Name)
		require.NotNil(t, r.set, r.Name)
		var v string
		switch r.Kind {
		case Int:
			v = strconv.Itoa(r.Max)
			require.Error(t, p.Set(r.Name, strconv.Itoa(r.Max+1)), r.Name)
			got, err := p.Get(r.Name)
			require.NoError(t, err)
			assert.Equal(t, r.Default, got, "%s keeps its value", r.Name)
		case Bool:
			v = strconv.FormatBool(r.Default != "true")
		case Enum:
			v = r.Values[len(r.Values)-1]
		default:
			continue // files: TestFilesReset
		}
		require.NoError(t, p.Set(r.Name, v), r.Name)
		got, err := p.Get(r.Name)
		require.NoError(t, err)
		assert.Equal(t, v, got, r.Name)
	}
	assert.Equal(t, []string{SetVariant, SetThreads, SetHash, SetMoveOverhead, SetEvalFile, SetEGDBPath, SetEGDBPieces}, SearchNames())
	assert.Equal(t, []string{SetEvalFile, SetEGDBPath, SetEGDBPieces}, ScoreNames())
}

// TestDefaults: a new player holds every setting at its table default.
func TestDefaults(t *testing.T) {
	p := New(Config{})
	for _, s := range Settings() {
		v, err := p.Get(s.Name)
		require.NoError(t, err)
		assert.Equal(t, s.Default, v, s.Name)
	}
	assert.Equal(t, engine.Russian, p.Variant())
	assert.Equal(t, engine.StartPosition(engine.Russian), p.Game().Position())
	o := p.Options()
	assert.Equal(t, search.DefaultThreads, o.Threads)
	assert.Equal(t, search.DefaultHashMiB, o.HashMiB)
	assert.Nil(t, o.Eval)
	assert.NotNil(t, o.EGDB, "the embedded endgame tables by default")
}

func TestSetAndGet(t *testing.T) {
	p := New(Config{})
	for _, c := range []struct{ name, value, want string }{
		{SetVariant, "american", "english"},
		{SetVariant, "Normal", "international"},
		{SetThreads, "3", "3"},
		{SetHash, "2", "2"},
		{SetBook, "off", "false"},
		{SetBook, "YES", "true"},
		{SetBookMargin, "0", "0"},
		{SetMoveOverhead, "250", "250"},
		{SetPonder, "1", "true"},
		{SetEGDBPieces, "4", "4"},
		{SetEGDBPath, "off", "off"},
		{SetEGDBPath, "", ""},
	} {
		require.NoError(t, p.Set(c.name, c.value), "%s=%s", c.name, c.value)
		got, err := p.Get(c.name)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s=%s", c.name, c.value)
	}
	assert.Equal(t, 3, p.Options().Threads)

	// A refused value keeps the old one and says what was wrong.
	for _, c := range []struct{ name, value, msg string }{
		{SetThreads, "0", "value 0 out of range 1..256"},
		{SetThreads, "two", "value 'two' is not an integer (want 1..256)"},
		{SetBook, "maybe", "value 'maybe' is not a bool (want true or false)"},
		{SetVariant, "chess", "unknown variant 'chess'"},
		{SetMoveOverhead, "-1", "value -1 out of range 0..10000"},
	} {
		before, _ := p.Get(c.name)
		err := p.Set(c.name, c.value)
		require.Error(t, err, "%s=%s", c.name, c.value)
		assert.Contains(t, err.Error(), c.msg)
		after, _ := p.Get(c.name)
		assert.Equal(t, before, after, "%s kept", c.name)
	}

	err := p.Set("Hash", "8")
	assert.True(t, errors.Is(err, ErrUnknownSetting))
	assert.Contains(t, err.Error(), "'Hash' (known: variant, threads, hash")
	_, err = p.Get("nosuch")
	assert.True(t, errors.Is(err, ErrUnknownSetting))
}

// TestFilesReset: a file or directory that does not load resets its
// setting (ResetError saying what is used instead).
func TestFilesReset(t *testing.T) {
	p := New(Config{})
	missing := filepath.Join(t.TempDir(), "missing")
	for _, c := range []struct{ name, now string }{
		{SetBookFile, "playing with the embedded book"},
		{SetEvalFile, "playing with the embedded weights"},
		{SetEGDBPath, "playing with the embedded endgame tables"},
	} {
		err := p.Set(c.name, missing)
		var reset *ResetError
		require.True(t, errors.As(err, &reset), "%s: %v", c.name, err)
		assert.Equal(t, c.now, reset.Now)
		assert.Contains(t, err.Error(), missing)
		assert.Error(t, errors.Unwrap(err))
		v, _ := p.Get(c.name)
		assert.Equal(t, "", v, c.name)
	}
	assert.NotNil(t, p.Options().EGDB)
}

// TestVariantStartsNewGame: a new variant is a new game from its start
// position; SetGame of another variant's game changes the setting.
func TestVariantStartsNewGame(t *testing.T) {
	p := New(Config{})
	g := p.Game()
	pos := g.Position()
	m, err := pos.ParseMove("c3-d4")
	require.NoError(t, err)
	g.Play(m)
	require.NoError(t, p.Set(SetVariant, "russian")) // the same: the game goes on
	assert.Equal(t, 1, p.Game().Ply())
	require.NoError(t, p.Set(SetVariant, "english"))
	assert.Equal(t, engine.StartPosition(engine.English), p.Game().Position())
	p.SetGame(engine.NewGame(engine.StartPosition(engine.International)))
	assert.Equal(t, engine.International, p.Variant())
	v, _ := p.Get(SetVariant)
	assert.Equal(t, "international", v)
}

// TestGo: think plays from the book when it may, analyse never does, and
// every choice is a legal move of the game's position.
func TestGo(t *testing.T) {
	p := small(t, Config{BookSeed: 1})
	require.NoError(t, p.Set(SetVariant, "english"))
	ctx := context.Background()
	c := p.Go(ctx, Think, search.Limits{Depth: 3}, nil).Wait()
	assert.Equal(t, search.FromBook, c.Source)

	// Analysis never plays from the book, and runs until Stop even when
	// it has reached its depth.
	deep := make(chan struct{})
	j := p.Go(ctx, Analyse, search.Limits{Depth: 4}, func(i search.Info) {
		if i.Depth == 4 {
			close(deep)
		}
	})
	<-deep
	time.Sleep(20 * time.Millisecond)
	select {
	case <-j.Done():
		t.Fatal("analysis ended before Stop")
	default:
	}
	p.Stop()
	c = j.Wait()
	assert.Equal(t, search.FromSearch, c.Source)
	assert.Equal(t, 4, c.Depth)

	require.NoError(t, p.Set(SetBook, "false"))
	c = p.Go(ctx, Think, search.Limits{Depth: 3}, nil).Wait()
	assert.Equal(t, search.FromSearch, c.Source)
	start := engine.StartPosition(engine.English)
	assert.Equal(t, start, c.Root)
	var list engine.MoveList
	start.Generate(&list)
	assert.Contains(t, list.Slice(), c.Move)
}

// TestStopAndPonderHit reach the running job; a ponder search waits for
// its hit, an analysis for Stop.
func TestStopAndPonderHit(t *testing.T) {
	p := small(t, Config{})
	require.NoError(t, p.Set(SetBook, "false")) // a book move would end the ponder search at once
	p.Stop()                                    // nothing runs: nothing happens
	p.PonderHit()
	ctx := context.Background()
	j := p.Go(ctx, Ponder, search.Limits{MoveTime: 20 * time.Millisecond}, nil)
	time.Sleep(50 * time.Millisecond)
	select {
	case <-j.Done():
		t.Fatal("a ponder search ended without its hit")
	default:
	}
	p.PonderHit()
	waitDone(t, j)

	j = p.Go(ctx, Analyse, search.Limits{}, nil)
	time.Sleep(30 * time.Millisecond)
	p.Stop()
	waitDone(t, j)
	assert.True(t, j.Wait().HasMove)

	// A new game stops a running search first.
	j = p.Go(ctx, Analyse, search.Limits{}, nil)
	p.NewGame()
	waitDone(t, j)
}

func waitDone(t *testing.T, j *search.Job) {
	t.Helper()
	select {
	case <-j.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the search did not end")
	}
}

// TestEGDBPieces: the search probes the tables up to egdb-pieces pieces,
// never with egdb-path off.
func TestEGDBPieces(t *testing.T) {
	p := New(Config{})
	require.NoError(t, p.Set(SetVariant, "english"))
	full := egdb.Default().Pieces(engine.English)
	require.Greater(t, full, 3)
	assert.Equal(t, full, p.EGDBPieces())
	require.NoError(t, p.Set(SetEGDBPieces, "3"))
	assert.Equal(t, 3, p.EGDBPieces())
	assert.Equal(t, 3, p.Options().EGDB.Pieces(engine.English))
	require.NoError(t, p.Set(SetEGDBPieces, "0"))
	assert.Equal(t, 0, p.EGDBPieces())
	assert.Nil(t, p.Options().EGDB)
	require.NoError(t, p.Set(SetEGDBPieces, "7"))
	require.NoError(t, p.Set(SetEGDBPath, "off"))
	assert.Equal(t, 0, p.EGDBPieces())
	assert.Nil(t, p.Options().EGDB)
}

// TestWeightsOfAnotherVariant: an eval-file of another variant is kept
// but not used; Go says so once, through Config.Notice.
func TestWeightsOfAnotherVariant(t *testing.T) {
	w := eval.NewWeights(engine.English)
	w.Note = "english test weights"
	path := filepath.Join(t.TempDir(), "english.dkw")
	require.NoError(t, w.Save(path))
	var notices []string
	p := small(t, Config{Notice: func(m string) { notices = append(notices, m) }})
	require.NoError(t, p.Set(SetEvalFile, path))
	require.NoError(t, p.Set(SetBook, "false"))
	p.Go(context.Background(), Think, search.Limits{Depth: 1}, nil).Wait()
	p.Go(context.Background(), Think, search.Limits{Depth: 1}, nil).Wait()
	require.Len(t, notices, 1)
	assert.Equal(t, "eval-file "+path+" holds english weights, not russian: russian plays with the embedded weights", notices[0])
	require.NoError(t, p.Set(SetVariant, "english"))
	p.Go(context.Background(), Think, search.Limits{Depth: 1}, nil).Wait()
	assert.Len(t, notices, 1)
	assert.Same(t, p.Options().Eval, p.Options().Eval)
	assert.Equal(t, "english test weights", p.Options().Eval.Note)

	// The same file again is not read again.
	require.NoError(t, os.Remove(path))
	require.NoError(t, p.Set(SetEvalFile, path))
}

func TestSameWeights(t *testing.T) {
	w := eval.NewWeights(engine.Russian)
	w.Note = "a"
	c := *w
	c.Pattern = append([][2]int16(nil), w.Pattern...)
	assert.True(t, sameWeights(nil, nil))
	assert.False(t, sameWeights(w, nil))
	assert.False(t, sameWeights(nil, w))
	assert.True(t, sameWeights(w, &c))
	c.Pattern[7][1]++
	assert.False(t, sameWeights(w, &c))
	c.Pattern[7][1]--
	c.Dense[eval.DenseMen][0]++
	assert.False(t, sameWeights(w, &c))
	c.Dense = w.Dense
	c.Note = "other"
	assert.False(t, sameWeights(w, &c))
	c.Note, c.V = w.Note, engine.English
	assert.False(t, sameWeights(w, &c))
}

// limitsSpy is a searcher that records the limits of each search.
type limitsSpy struct {
	*search.Engine
	limits []search.Limits
}

func (s *limitsSpy) SearchJob(ctx context.Context, j *search.Job) search.Result {
	s.limits = append(s.limits, j.Limits())
	return s.Engine.SearchJob(ctx, j)
}

// TestMultiPVReachesTheLimits: the multipv setting is the limits' MultiPV
// in every mode (1 leaves them single-PV), and a think with it plays line
// 1's move and returns the lines.
func TestMultiPVReachesTheLimits(t *testing.T) {
	spy := &limitsSpy{}
	p := small(t, Config{NewSearcher: func(o search.Options) Searcher {
		spy.Engine = search.New(o)
		return spy
	}})
	require.NoError(t, p.Set(SetBook, "false"))
	ctx := context.Background()
	c := p.Go(ctx, Think, search.Limits{Depth: 3}, nil).Wait()
	assert.Nil(t, c.Lines)

	require.NoError(t, p.Set(SetMultiPV, "3"))
	assert.Equal(t, 3, p.MultiPV())
	c = p.Go(ctx, Think, search.Limits{Depth: 4}, nil).Wait()
	require.Len(t, c.Lines, 3)
	assert.Equal(t, c.Lines[0].Move, c.Move)
	j := p.Go(ctx, Analyse, search.Limits{Depth: 2}, nil)
	p.Stop()
	j.Wait()
	j = p.Go(ctx, Ponder, search.Limits{Depth: 2}, nil)
	p.Stop()
	j.Wait()

	require.Len(t, spy.limits, 4)
	want := []int{0, 3, 3, 3}
	for i, l := range spy.limits {
		assert.Equal(t, want[i], l.MultiPV, "search %d", i+1)
	}
	assert.Error(t, p.Set(SetMultiPV, "0"))
	assert.Error(t, p.Set(SetMultiPV, "33"))
}
