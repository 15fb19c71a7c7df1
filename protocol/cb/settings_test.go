package cb

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// newTableEngine returns an engine whose settings are all at the table's
// defaults (the table's default variant, which CheckerBoard plays).
func newTableEngine(t *testing.T) *Engine {
	t.Helper()
	v, err := engine.ParseVariant(player.MustLookup(player.SetVariant).Default)
	require.NoError(t, err)
	require.NotZero(t, GameType(v), "the default variant is one CheckerBoard plays")
	return New(Config{Variant: v, HasVariant: true, BookSeed: 1})
}

// tableValue reads setting name through the engine: "get NAME", or the
// player's value where NAME is also a native key with its own answer
// (book answers a level).
func tableValue(t *testing.T, e *Engine, name string) string {
	t.Helper()
	if _, native := NativeKeys()[name]; native {
		v, err := e.Player().Get(name)
		require.NoError(t, err)
		return v
	}
	reply, ok := e.Command("get " + name)
	require.True(t, ok, "get %s: %s", name, reply)
	return reply
}

// playable reports whether CheckerBoard plays a value of the variant
// setting.
func playable(t *testing.T, v string) bool {
	id, err := engine.ParseVariant(v)
	require.NoError(t, err)
	return GameType(id) != 0
}

// TestSettingsMatchPlayerTable: the CheckerBoard engine exposes every
// setting of player.Settings under its table name, starting at the table's
// default and taking exactly the table's range (the variant only the games
// CheckerBoard plays).
func TestSettingsMatchPlayerTable(t *testing.T) {
	e := newTableEngine(t)
	for _, st := range player.Settings() {
		assert.Equal(t, st.Default, tableValue(t, e, st.Name), "%s: the table's default", st.Name)
		accept := func(v string) {
			t.Helper()
			reply, ok := e.Command("set " + st.Name + " " + v)
			assert.True(t, ok, "set %s %s: %s", st.Name, v, reply)
		}
		refuse := func(v string) {
			t.Helper()
			before := tableValue(t, e, st.Name)
			reply, ok := e.Command("set " + st.Name + " " + v)
			assert.False(t, ok, "set %s %s: %s", st.Name, v, reply)
			assert.NotEmpty(t, reply, "set %s %s says why", st.Name, v)
			assert.Equal(t, before, tableValue(t, e, st.Name), "set %s %s keeps the value", st.Name, v)
		}
		switch st.Kind {
		case player.Int:
			accept(strconv.Itoa(st.Min))
			assert.Equal(t, strconv.Itoa(st.Min), tableValue(t, e, st.Name), st.Name)
			accept(strconv.Itoa(st.Max))
			assert.Equal(t, strconv.Itoa(st.Max), tableValue(t, e, st.Name), st.Name)
			refuse(strconv.Itoa(st.Min - 1))
			refuse(strconv.Itoa(st.Max + 1))
			refuse("x")
		case player.Bool:
			accept("false")
			assert.Equal(t, "false", tableValue(t, e, st.Name), st.Name)
			accept("true")
			assert.Equal(t, "true", tableValue(t, e, st.Name), st.Name)
			refuse("maybe")
		case player.Enum:
			for _, v := range st.Values {
				if st.Name == player.SetVariant && !playable(t, v) {
					refuse(v)
					continue
				}
				accept(v)
				assert.Equal(t, v, tableValue(t, e, st.Name), st.Name)
			}
			refuse("nonsense")
		case player.String:
			accept(st.Default)
		}
		accept(st.Default)
		assert.Equal(t, st.Default, tableValue(t, e, st.Name), "%s: back to the default", st.Name)
	}
}

// TestSetGetEverySetting: "get NAME" answers each setting's default and
// "set NAME VALUE" answers the value set, for every name of the table
// that is not a native key.
func TestSetGetEverySetting(t *testing.T) {
	e := newTableEngine(t)
	for _, st := range player.Settings() {
		if _, native := NativeKeys()[st.Name]; native {
			continue // TestNativeKeysMapToSettings
		}
		mustCommand(t, e, "get "+st.Name, st.Default)
		mustCommand(t, e, "set "+st.Name+" "+st.Default, st.Default)
		mustCommand(t, e, "  SET "+st.Name+"  "+st.Default+" ", st.Default)
		mustCommand(t, e, "get "+st.Name, st.Default)
	}
	mustCommand(t, e, "set move-overhead 50", "50")
	mustCommand(t, e, "get move-overhead", "50")
	mustCommand(t, e, "set ponder on", "true")
	mustCommand(t, e, "set book-margin 25", "25")
	mustCommand(t, e, "get book-margin", "25")
	mustCommand(t, e, "set variant american", "english")
	mustCommand(t, e, "get gametype", "21")
}

// TestNativeKeysMapToSettings: each of CheckerBoard's keys sets the
// setting it stands for, and "set NAME" of that setting is what the key
// then reads.
func TestNativeKeysMapToSettings(t *testing.T) {
	for key, name := range NativeKeys() {
		_, ok := player.Lookup(name)
		assert.True(t, ok, "%s maps onto %s, a setting of the table", key, name)
	}
	e := New(Config{Variant: engine.English, HasVariant: true})

	mustCommand(t, e, "set hashsize 16", "16")
	mustCommand(t, e, "get hash", "16")
	mustCommand(t, e, "set hash 32", "32")
	mustCommand(t, e, "get hashsize", "32")

	mustCommand(t, e, "set searchthreads 3", "3")
	mustCommand(t, e, "get threads", "3")
	mustCommand(t, e, "set threads 2", "2")
	mustCommand(t, e, "get searchthreads", "2")

	mustCommand(t, e, "set gametype 25", "25")
	mustCommand(t, e, "get variant", "russian")
	mustCommand(t, e, "set variant brazilian", "brazilian")
	mustCommand(t, e, "get gametype", "26")
	mustCommand(t, e, "set variant english", "english")
	mustCommand(t, e, "get gametype", "21")
	reply, ok := e.Command("set variant international")
	assert.False(t, ok)
	assert.Contains(t, reply, "not played by CheckerBoard")
	mustCommand(t, e, "get gametype", "21")

	dir := t.TempDir()
	mustCommand(t, e, "set dbpath "+dir, dir)
	mustCommand(t, e, "get egdb-path", dir)
	mustCommand(t, e, "set egdb-path off", "off")
	mustCommand(t, e, "get dbpath", "off")
	mustCommand(t, e, "set dbpath", "")
	mustCommand(t, e, "get egdb-path", "")
	missing := filepath.Join(dir, "none")
	reply, ok = e.Command("set egdb-path " + missing)
	assert.False(t, ok)
	assert.Contains(t, reply, "set egdb-path "+missing+": endgame tables: open "+missing)
	assert.Contains(t, reply, "(playing with the embedded endgame tables)")
	mustCommand(t, e, "get dbpath", "")

	english := strconv.Itoa(egdb.Default().Pieces(engine.English))
	mustCommand(t, e, "set max_dbpieces 3", "3")
	mustCommand(t, e, "get egdb-pieces", "3")
	mustCommand(t, e, "set egdb-pieces 7", "7")
	mustCommand(t, e, "get max_dbpieces", english) // what is probed
	mustCommand(t, e, "set egdb-pieces 0", "0")
	mustCommand(t, e, "get max_dbpieces", "0")

	// book: a level 0..3 is the book setting and book-margin.
	get := func(name string) string {
		v, err := e.Player().Get(name)
		require.NoError(t, err)
		return v
	}
	for level, want := range []struct{ book, margin string }{
		{"false", ""}, {"true", "40"}, {"true", strconv.Itoa(search.DefaultBookMargin)}, {"true", "0"},
	} {
		mustCommand(t, e, "set book 2", "2")
		mustCommand(t, e, "set book "+strconv.Itoa(level), strconv.Itoa(level))
		mustCommand(t, e, "get book", strconv.Itoa(level))
		assert.Equal(t, want.book, get(player.SetBook), "level %d", level)
		if want.margin != "" {
			mustCommand(t, e, "get book-margin", want.margin)
		}
	}
	for margin, level := range map[string]string{"40": "1", "0": "3", "25": "2", "10": "2"} {
		mustCommand(t, e, "set book-margin "+margin, margin)
		mustCommand(t, e, "get book", level)
	}
	mustCommand(t, e, "set book-margin 40", "40")
	mustCommand(t, e, "set book false", "0")
	assert.Equal(t, "false", get(player.SetBook))
	mustCommand(t, e, "get book-margin", "40")
	mustCommand(t, e, "set book on", "1")
	assert.Equal(t, "true", get(player.SetBook))
}

// TestSetRefusedKeepsValue: a value out of range is refused with the
// player's reason, under a native key and under the table name, and the
// old value stays.
func TestSetRefusedKeepsValue(t *testing.T) {
	e := New(Config{Variant: engine.English, HasVariant: true})
	mustCommand(t, e, "set hash 16", "16")
	hash := player.MustLookup(player.SetHash)
	for _, cmd := range []string{"set hash 0", "set hashsize 0", "set hash 99999", "set hashsize lots"} {
		reply, ok := e.Command(cmd)
		assert.False(t, ok, cmd)
		arg := cmd[strings.LastIndexByte(cmd, ' ')+1:]
		require.Error(t, hash.Check(arg))
		assert.Contains(t, reply, hash.Check(arg).Error(), cmd)
		assert.Contains(t, reply, "(kept 16)", cmd)
		mustCommand(t, e, "get hash", "16")
	}
	for _, tc := range []struct{ cmd, want string }{
		{"set move-overhead 20000", "value 20000 out of range 0..10000"},
		{"set egdb-pieces 8", "value 8 out of range 0..7"},
		{"set max_dbpieces -1", "value -1 out of range 0..7"},
		{"set ponder maybe", "value 'maybe' is not a bool"},
		{"set variant checkers960", "unknown variant 'checkers960'"},
		{"set threads 0", "out of range 1..256"},
		{"set book 4", "value 4 out of range 0..3"},
		{"set depth -2", "value -2 out of range 0.."},
	} {
		reply, ok := e.Command(tc.cmd)
		assert.False(t, ok, tc.cmd)
		assert.Contains(t, reply, tc.want, tc.cmd)
	}
	mustCommand(t, e, "get move-overhead", player.MustLookup(player.SetMoveOverhead).Default)
	mustCommand(t, e, "get egdb-pieces", "7")
	mustCommand(t, e, "get ponder", "false")
	mustCommand(t, e, "get variant", "english")
	mustCommand(t, e, "get book", "2")

	// A file that cannot be read: the setting goes back to its default.
	missing := filepath.Join(t.TempDir(), "w.dkw")
	reply, ok := e.Command("set eval-file " + missing)
	assert.False(t, ok)
	assert.Contains(t, reply, "(playing with the embedded weights)")
	mustCommand(t, e, "get eval-file", "")
}

// TestUnknownSettingNotSupported: a name that is neither a native key nor
// a setting is not handled, with an empty reply.
func TestUnknownSettingNotSupported(t *testing.T) {
	e := New(Config{})
	for _, cmd := range []string{"set frobnicate 1", "get frobnicate", "set enable_wld 1", "get dbmbytes", "set", "get"} {
		reply, ok := e.Command(cmd)
		assert.False(t, ok, cmd)
		assert.Empty(t, reply, cmd)
	}
}

// TestGetMoveAfterEGDBPiecesZero: with the endgame tables never probed,
// getmove still plays a legal move (and finds no database win).
func TestGetMoveAfterEGDBPiecesZero(t *testing.T) {
	e := New(Config{Variant: engine.English, HasVariant: true, HashMiB: 4})
	mustCommand(t, e, "set egdb-pieces 0", "0")
	mustCommand(t, e, "get max_dbpieces", "0")
	mustCommand(t, e, "set depth 3", "3")
	p := mustFEN(t, engine.English, "W:WK1,K2:BK32")
	b := FromPosition(&p)
	var last string
	ret, _, err := e.GetMove(&b, White, 10, 0, 0, nil, func(s string) { last = s })
	require.NoError(t, err)
	assert.Equal(t, ResultUnknown, ret)
	assert.Regexp(t, `^depth \d+  score `, last)
	_, ok := legalSuccessor(&p, &b)
	assert.True(t, ok)
	assert.Nil(t, e.Player().Options().EGDB)
}
