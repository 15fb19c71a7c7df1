package cb

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// optionsSpy is a searcher (search.New's) that keeps the options of the
// last search.
type optionsSpy struct {
	*search.Engine
	mu   sync.Mutex
	opts search.Options
}

func (s *optionsSpy) SetOptions(o search.Options) {
	s.mu.Lock()
	s.opts = o
	s.mu.Unlock()
	s.Engine.SetOptions(o)
}

func (s *optionsSpy) options() search.Options {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts
}

func mustCommand(t *testing.T, e *Engine, cmd, want string) {
	t.Helper()
	reply, ok := e.Command(cmd)
	assert.True(t, ok, "%s: %s", cmd, reply)
	assert.Equal(t, want, reply, cmd)
}

// TestDBPathCommands: dbpath is the embedded set by default (""), a
// directory over it, or "off"; a directory that cannot be read is
// refused and the embedded set used; max_dbpieces limits the pieces
// probed and answers the count the search probes.
func TestDBPathCommands(t *testing.T) {
	e := New(Config{Variant: engine.English, HasVariant: true})
	mustCommand(t, e, "get dbpath", "")
	mustCommand(t, e, "get max_dbpieces", strconv.Itoa(egdb.Default().Pieces(engine.English)))
	assert.Equal(t, 5, egdb.Default().Pieces(engine.English), "the embedded English set")
	dir := t.TempDir()
	mustCommand(t, e, "set dbpath "+dir, dir)
	mustCommand(t, e, "get dbpath", dir)
	mustCommand(t, e, "set dbpath "+dir, dir) // the same again: kept
	mustCommand(t, e, "get max_dbpieces", "5")
	mustCommand(t, e, "set max_dbpieces 3", "3")
	mustCommand(t, e, "get max_dbpieces", "3")
	mustCommand(t, e, "set max_dbpieces 7", "5") // at most what the tables hold
	mustCommand(t, e, "set dbpath off", "off")
	mustCommand(t, e, "get max_dbpieces", "0")

	missing := filepath.Join(dir, "none")
	reply, ok := e.Command("set dbpath " + missing)
	assert.False(t, ok)
	assert.Contains(t, reply, "set dbpath "+missing+": endgame tables: open "+missing)
	assert.Contains(t, reply, "(playing with the embedded endgame tables)")
	mustCommand(t, e, "get dbpath", "")
	mustCommand(t, e, "get max_dbpieces", "5")
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, ok = e.Command("set dbpath " + file)
	assert.False(t, ok, "a file is not a directory")
	for _, bad := range []string{"set max_dbpieces -1", "set max_dbpieces 8", "set max_dbpieces x"} {
		_, ok := e.Command(bad)
		assert.False(t, ok, bad)
	}
	mustCommand(t, e, "get max_dbpieces", "5")
}

// TestGetMoveUsesDB: the search of getmove probes the tables of dbpath
// up to max_dbpieces: two kings against one score as a database win
// (ResultWin) with them, as an evaluation without.
func TestGetMoveUsesDB(t *testing.T) {
	var spy *optionsSpy
	e := New(Config{Variant: engine.English, HasVariant: true, HashMiB: 4, NewSearcher: func(o search.Options) Searcher {
		spy = &optionsSpy{Engine: search.New(o), opts: o}
		return spy
	}})
	mustCommand(t, e, "set book 0", "0")
	mustCommand(t, e, "set depth 3", "3")
	p := mustFEN(t, engine.English, "W:WK1,K2:BK32")
	think := func() (int, string) {
		t.Helper()
		b := FromPosition(&p)
		var last string
		ret, _, err := e.GetMove(&b, White, 10, 0, 0, nil, func(s string) { last = s })
		require.NoError(t, err)
		m := regexp.MustCompile(`score (-?\d+\.\d\d)`).FindStringSubmatch(last)
		require.NotNil(t, m, last)
		return ret, m[1]
	}
	dbWin := regexp.MustCompile(`^9[0-5]\.\d\d$`) // search.EGDBWin is 95 men

	ret, score := think()
	assert.Same(t, egdb.Default(), spy.options().EGDB, "the embedded set by default")
	assert.Equal(t, ResultWin, ret)
	assert.Regexp(t, dbWin, score)

	dir := t.TempDir()
	mustCommand(t, e, "set dbpath "+dir, dir)
	ret, score = think()
	db, ok := spy.options().EGDB.(*egdb.DB)
	require.True(t, ok)
	assert.Equal(t, dir, db.Dir())
	assert.Equal(t, ResultWin, ret)
	assert.Regexp(t, dbWin, score)

	// Three pieces are not probed under max_dbpieces 2.
	mustCommand(t, e, "set max_dbpieces 2", "2")
	ret, score = think()
	require.NotNil(t, spy.options().EGDB)
	assert.Equal(t, 2, spy.options().EGDB.Pieces(engine.English))
	assert.Equal(t, ResultUnknown, ret)
	assert.NotRegexp(t, dbWin, score)

	mustCommand(t, e, "set max_dbpieces 7", "5")
	mustCommand(t, e, "set dbpath off", "off")
	ret, score = think()
	assert.Nil(t, spy.options().EGDB)
	assert.Equal(t, ResultUnknown, ret)
	assert.NotRegexp(t, dbWin, score)
}
