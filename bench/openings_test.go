package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/engine"
	"damka/internal/shareddata"
)

// sharedData is the project's shared data directory (internal/shareddata).
var sharedData, _ = shareddata.Dir()

// TestACFDeck: the 156-opening deck of the ACF 3-move TSV (144
// crossboard + 12 mailplay, the 18 barred left out), each replayed from
// the start and checked against the file's FEN.
func TestACFDeck(t *testing.T) {
	shareddata.Skip(t)
	ops, err := LoadOpenings(filepath.Join(sharedData, "acf_3move_ballots.tsv"), engine.English)
	require.NoError(t, err)
	require.Len(t, ops, 156)
	assert.Equal(t, "ACF 001 9-13 21-17 5-9", ops[0].Name)
	names := map[string]bool{}
	for _, o := range ops {
		assert.Len(t, o.Moves, 3, o.Name)
		assert.Equal(t, engine.StartPosition(engine.English), o.Start)
		assert.False(t, strings.HasPrefix(o.Name, "ACF 003 "), "opening 3 is barred")
		names[o.Name] = true
	}
	assert.Len(t, names, 156, "names are unique")
	// After three plies from Black's first move, White is to move.
	p := ops[0].Position()
	assert.Equal(t, engine.White, p.Side)

	_, err = LoadOpenings(filepath.Join(sharedData, "acf_3move_ballots.tsv"), engine.Russian)
	assert.ErrorContains(t, err, "for english")
}

// TestBallotJSON: the pydraughts ballot files, with algebraic FENs for
// Russian and Brazilian.
func TestBallotJSON(t *testing.T) {
	shareddata.Skip(t)
	ops, err := LoadOpenings(filepath.Join(sharedData, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian)
	require.NoError(t, err)
	require.Len(t, ops, 150)
	assert.Equal(t, "1-I cd4 ba5 dc5", ops[0].Name)
	assert.Equal(t, engine.Black, ops[0].Start.Side)
	assert.Empty(t, ops[0].Moves)
	men, kings := ops[0].Start.Count(engine.White)
	assert.Equal(t, [2]int{12, 0}, [2]int{men, kings})

	ops, err = LoadOpenings(filepath.Join(sharedData, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Brazilian)
	require.NoError(t, err)
	assert.Len(t, ops, 150)
	ops, err = LoadOpenings(filepath.Join(sharedData, "pydraughts_ballots_russian.json"), engine.Russian)
	require.NoError(t, err)
	assert.Len(t, ops, 745)
	// The English file: "standard" is a list of names of "all".
	ops, err = LoadOpenings(filepath.Join(sharedData, "pydraughts_ballots_3move_english.json"), engine.English)
	require.NoError(t, err)
	assert.Len(t, ops, 157)

	// A flat object, in file order.
	ops, err = ParseBallotJSON([]byte(`{"b": "W:W21-32:B1-12", "a": "B:W21-32:B1-12"}`), engine.English)
	require.NoError(t, err)
	require.Len(t, ops, 2)
	assert.Equal(t, []string{"b", "a"}, []string{ops[0].Name, ops[1].Name})

	for _, bad := range []struct{ json, want string }{
		{`[1]`, "want a JSON object"},
		{`{"x": 3}`, `ballot "x": want a FEN string`},
		{`{"x": "W:W99"}`, `ballot "x"`},
		{`{"all": {"a": "W:W21-32:B1-12"}, "standard": ["b"]}`, `ballot "b" is not in "all"`},
		{`{"a": "W:W21-32:B1-12"`, "bad JSON"},
		{`{}`, "empty"},
	} {
		_, err := ParseBallotJSON([]byte(bad.json), engine.English)
		assert.ErrorContains(t, err, bad.want, bad.json)
	}
}

// TestPDNAndFENOpenings: openings from PDN games (moves and/or FEN) and
// from FEN lines (PDN FEN or Hub position, optional name).
func TestPDNAndFENOpenings(t *testing.T) {
	ops, err := LoadOpenings("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	require.Len(t, ops, 3)
	assert.Equal(t, "32-28 18-23", ops[0].Name)
	assert.Len(t, ops[0].Moves, 2)
	assert.Equal(t, "from a FEN, one move", ops[1].Name)
	assert.Len(t, ops[1].Moves, 1)
	assert.Equal(t, engine.White, ops[1].Position().Side)
	assert.Len(t, ops[2].Moves, 3)

	_, err = LoadOpenings("testdata/openings_international.pdn", engine.Russian)
	assert.ErrorContains(t, err, "is international, the match is russian")

	ops, err = LoadOpenings("testdata/openings_russian.fen", engine.Russian)
	require.NoError(t, err)
	require.Len(t, ops, 3)
	assert.Equal(t, []string{"start", "line 3", "hub string"}, []string{ops[0].Name, ops[1].Name, ops[2].Name})
	assert.Equal(t, engine.StartPosition(engine.Russian), ops[0].Start)
	assert.Equal(t, engine.Black, ops[2].Start.Side)

	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	_, err = LoadOpenings(write("bad.txt", "W:W21-32:B1-12\nnonsense\n"), engine.English)
	assert.ErrorContains(t, err, "line 2")
	_, err = LoadOpenings(write("empty.txt", "# nothing\n\n"), engine.English)
	assert.ErrorContains(t, err, "no openings")
	_, err = LoadOpenings(write("over.txt", "W:W21:B1-12\nB:W21-32:B\n"), engine.English)
	assert.ErrorContains(t, err, "already over")
	same, err := LoadOpenings(write("dup.txt", "W:W21-32:B1-12;x\nB:W21-32:B1-12;x\n"), engine.English)
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "x #2"}, []string{same[0].Name, same[1].Name})
	_, err = LoadOpenings(write("bad.tsv", "acf_no\tmoves\tdeck\n1\t9-13\tnope\n"), engine.English)
	assert.ErrorContains(t, err, `line 2: deck "nope"`)
	_, err = LoadOpenings(write("bad2.tsv", "acf_no\tmoves\tdeck\n1\t9-15\tcrossboard\n"), engine.English)
	assert.ErrorContains(t, err, `line 2: move "9-15"`)
	_, err = LoadOpenings(write("bad3.tsv", "no\tmoves\n"), engine.English)
	assert.ErrorContains(t, err, `no "acf_no" column`)
	_, err = LoadOpenings(filepath.Join(dir, "missing.pdn"), engine.English)
	assert.Error(t, err)
}

// TestLoadOpenings8x8FileForInternational: an 8x8 ballot file's algebraic
// squares are valid 10x10 squares; given for international it is refused.
func TestLoadOpenings8x8FileForInternational(t *testing.T) {
	file := shareddata.Path(t, "pydraughts_ballots_brazilian.json")
	_, err := LoadOpenings(file, engine.International)
	assert.ErrorContains(t, err, "an 8x8 file, not international")
	ops, err := LoadOpenings(file, engine.Brazilian)
	require.NoError(t, err)
	assert.NotEmpty(t, ops)
}
