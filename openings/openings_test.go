package openings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
)

// dataDir is the repository's test data folder, testdata/draughts (internal/testfiles).
var dataDir, _ = testfiles.Dir()

// TestACFDeck: the 156-opening deck of the ACF 3-move TSV (144
// crossboard + 12 mailplay, the 18 barred left out), each replayed from
// the start and checked against the file's FEN.
func TestACFDeck(t *testing.T) {
	testfiles.Must(t)
	ops, err := Load(filepath.Join(dataDir, "acf_3move_ballots.tsv"), engine.English)
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

	_, err = Load(filepath.Join(dataDir, "acf_3move_ballots.tsv"), engine.Russian)
	assert.ErrorContains(t, err, "for english")
}

// TestBallotJSON: the pydraughts ballot files, with algebraic FENs for
// Russian and Brazilian.
func TestBallotJSON(t *testing.T) {
	testfiles.Must(t)
	ops, err := Load(filepath.Join(dataDir, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian)
	require.NoError(t, err)
	require.Len(t, ops, 150)
	assert.Equal(t, "1-I cd4 ba5 dc5", ops[0].Name)
	assert.Equal(t, engine.Black, ops[0].Start.Side)
	assert.Empty(t, ops[0].Moves)
	men, kings := ops[0].Start.Count(engine.White)
	assert.Equal(t, [2]int{12, 0}, [2]int{men, kings})

	ops, err = Load(filepath.Join(dataDir, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Brazilian)
	require.NoError(t, err)
	assert.Len(t, ops, 150)
	ops, err = Load(filepath.Join(dataDir, "pydraughts_ballots_russian.json"), engine.Russian)
	require.NoError(t, err)
	assert.Len(t, ops, 745)
	// The English file: "standard" is a list of names of "all".
	ops, err = Load(filepath.Join(dataDir, "pydraughts_ballots_3move_english.json"), engine.English)
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
	ops, err := Load("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	require.Len(t, ops, 3)
	assert.Equal(t, "32-28 18-23", ops[0].Name)
	assert.Len(t, ops[0].Moves, 2)
	assert.Equal(t, "from a FEN, one move", ops[1].Name)
	assert.Len(t, ops[1].Moves, 1)
	assert.Equal(t, engine.White, ops[1].Position().Side)
	assert.Len(t, ops[2].Moves, 3)

	_, err = Load("testdata/openings_international.pdn", engine.Russian)
	assert.ErrorContains(t, err, "is international, the match is russian")

	ops, err = Load("testdata/openings_russian.fen", engine.Russian)
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
	_, err = Load(write("bad.txt", "W:W21-32:B1-12\nnonsense\n"), engine.English)
	assert.ErrorContains(t, err, "line 2")
	_, err = Load(write("empty.txt", "# nothing\n\n"), engine.English)
	assert.ErrorContains(t, err, "no openings")
	_, err = Load(write("over.txt", "W:W21:B1-12\nB:W21-32:B\n"), engine.English)
	assert.ErrorContains(t, err, "already over")
	same, err := Load(write("dup.txt", "W:W21-32:B1-12;x\nB:W21-32:B1-12;x\n"), engine.English)
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "x #2"}, []string{same[0].Name, same[1].Name})
	_, err = Load(write("bad.tsv", "acf_no\tmoves\tdeck\n1\t9-13\tnope\n"), engine.English)
	assert.ErrorContains(t, err, `line 2: deck "nope"`)
	_, err = Load(write("bad2.tsv", "acf_no\tmoves\tdeck\n1\t9-15\tcrossboard\n"), engine.English)
	assert.ErrorContains(t, err, `line 2: move "9-15"`)
	_, err = Load(write("bad3.tsv", "no\tmoves\n"), engine.English)
	assert.ErrorContains(t, err, `no "acf_no" column`)
	_, err = Load(filepath.Join(dir, "missing.pdn"), engine.English)
	assert.Error(t, err)
}

// TestLoad8x8FileForInternational: an 8x8 ballot file's algebraic
// squares are valid 10x10 squares; given for international it is refused.
func TestLoad8x8FileForInternational(t *testing.T) {
	file := testfiles.Path(t, "pydraughts_ballots_brazilian.json")
	_, err := Load(file, engine.International)
	assert.ErrorContains(t, err, "an 8x8 file, not international")
	ops, err := Load(file, engine.Brazilian)
	require.NoError(t, err)
	assert.NotEmpty(t, ops)
}

// TestReadFENLinesAndComments: the forms `damka dxp --openings` read
// before the readers were one: comment lines starting with '#' or ';', a
// Hub position string, surrounding blanks; and the "FEN ; name" lines of
// `damka match`, in a file of any extension.
func TestReadFENLinesAndComments(t *testing.T) {
	in := "\xef\xbb\xbf# openings\n\nW:W31-50:B1-20\n; a Hub position string:\nB" + startBoardHub10 + " ; black to move\n  W:W32-50,28:B1-20  \n"
	ops, err := Read(strings.NewReader(in), ".txt", engine.International)
	require.NoError(t, err)
	require.Len(t, ops, 3)
	assert.Equal(t, engine.StartPosition(engine.International), ops[0].Start)
	assert.Equal(t, "black to move", ops[1].Name)
	assert.Equal(t, engine.Black, ops[1].Start.Side)
	assert.Equal(t, 20, count(ops[2].Start, engine.White))
	assert.Equal(t, []engine.Position{ops[0].Start, ops[1].Start, ops[2].Start}, Positions(ops))

	_, err = Read(strings.NewReader("W:W31-50:B1-20\nW:W99\n"), "", engine.International)
	assert.ErrorContains(t, err, "line 2")
	_, err = Read(strings.NewReader("W:W31-50:B1-20\nB:W30:B\n"), "", engine.International)
	assert.ErrorContains(t, err, "already over")
	_, err = Read(strings.NewReader("# nothing\n"), "", engine.International)
	assert.ErrorContains(t, err, "no openings")
	_, err = Read(strings.NewReader(strings.Repeat("#", MaxBytes+1)), "", engine.International)
	assert.ErrorContains(t, err, "more than 64 MiB")
}

// startBoardHub10 is the international start as a Hub string body.
const startBoardHub10 = "bbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"

func count(p engine.Position, c engine.Color) int {
	men, kings := p.Count(c)
	return men + kings
}

// TestReadPDNByContent: a file that is not a FEN list is read as PDN
// whatever its extension; each game gives its start and moves.
func TestReadPDNByContent(t *testing.T) {
	in := `[Event "line"]
[GameType "25"]
1. c3-d4 f6-g5 *

[Event "setup"]
[GameType "25"]
[FEN "B:W21,22,23:B10,11"]
*
`
	ops, err := Read(strings.NewReader(in), ".txt", engine.Russian)
	require.NoError(t, err)
	require.Len(t, ops, 2)
	p := ops[0].Position()
	assert.Equal(t, engine.White, p.Side)
	assert.Equal(t, 12, count(p, engine.Black))
	assert.Equal(t, engine.Black, ops[1].Position().Side)
	assert.Equal(t, 3, count(ops[1].Position(), engine.White))

	_, err = Read(strings.NewReader(in), "", engine.International)
	assert.ErrorContains(t, err, "game 1 (line 1) is russian, the match is international")
	_, err = Read(strings.NewReader("[Event \"x\"]\n1. c3-c4 *\n"), "", engine.Russian)
	assert.ErrorContains(t, err, "game 1")
}

// TestReadSharedDataProblems reads the FEN-tagged English problem file of
// testdata/draughts: 182 set-up positions and one game from the start.
func TestReadSharedDataProblems(t *testing.T) {
	ops, err := Load(testfiles.Path(t, "english_boland_border_classics_fen.pdn"), engine.English)
	require.NoError(t, err)
	assert.Equal(t, 183, len(ops), "every game of the file")
	for _, o := range ops {
		assert.Equal(t, engine.English, o.Start.V)
	}
}

// TestReadLongTSVLineAndJSONTrailer: a TSV row longer than bufio's
// default 64 KiB token is read (and an error in it names its line), not
// refused as "token too long"; text after a JSON ballot object is an error,
// not silently dropped.
func TestReadLongTSVLineAndJSONTrailer(t *testing.T) {
	head := "acf_no\tmoves\tdeck\tname\tfen\n"
	long := head + "1\t9-13 21-17 5-9\tcrossboard\t" + strings.Repeat("x", 100000) + "\n"
	ops, err := Read(strings.NewReader(long), ".tsv", engine.English)
	require.NoError(t, err)
	require.Len(t, ops, 1)
	assert.Len(t, ops[0].Moves, 3)
	_, err = Read(strings.NewReader(head+"1\t9-13 21-17 5-9\tcrossboard\t"+strings.Repeat("x", 100000)+"\tW:W99\n"), ".tsv", engine.English)
	assert.ErrorContains(t, err, "line 2")

	ops, err = Read(strings.NewReader(`{"a": "W:W21-32:B1-12"}`+" \n"), ".json", engine.English)
	require.NoError(t, err)
	require.Len(t, ops, 1)
	_, err = Read(strings.NewReader(`{"a": "W:W21-32:B1-12"} {"b": "B:W21-32:B1-12"}`), ".json", engine.English)
	assert.ErrorContains(t, err, "after the end of the object")
}

// TestCheckNamesUnique: repeated names get " #2", " #3", skipping a
// suffix the deck already uses, so that every name stays unique.
func TestCheckNamesUnique(t *testing.T) {
	in := "W:W21-32:B1-12 ; a\nW:W21-32:B1-12 ; a\nW:W21-32:B1-12 ; a #2\nW:W21-32:B1-12 ; a\nW:W21-32:B1-12 ; a #3\n"
	ops, err := Read(strings.NewReader(in), ".txt", engine.English)
	require.NoError(t, err)
	var names []string
	for _, o := range ops {
		names = append(names, o.Name)
	}
	assert.Equal(t, []string{"a", "a #2", "a #2 #2", "a #3", "a #3 #2"}, names)
}

// TestMovesFromName: the moves in pydraughts' ballot names lead from the
// start position to each ballot's FEN, but for names that list no moves
// ("5-VII Free") or moves that do not reach the FEN ("2-IV ef4 fe5 ab4"):
// those give none.
func TestMovesFromName(t *testing.T) {
	testfiles.Must(t)
	for _, c := range []struct {
		file      string
		v         engine.VariantID
		recovered int
	}{
		{"pydraughts_ballots_150russian_and_brazilian.json", engine.Russian, 148},
		{"pydraughts_ballots_150russian_and_brazilian.json", engine.Brazilian, 148},
		{"pydraughts_ballots_3move_english.json", engine.English, 157},
	} {
		ops, err := Load(filepath.Join(dataDir, c.file), c.v)
		require.NoError(t, err)
		n := 0
		for _, op := range ops {
			if moves, ok := MovesFromName(c.v, op.Name, op.Start); ok {
				n++
				assert.Len(t, moves, len(strings.Fields(op.Name))-1, op.Name)
			}
		}
		assert.Equal(t, c.recovered, n, "%s %s", c.file, c.v)
	}
	end := engine.StartPosition(engine.Russian)
	_, ok := MovesFromName(engine.Russian, "no moves", end)
	assert.False(t, ok)
	_, ok = MovesFromName(engine.Russian, "1-I cd4", end)
	assert.False(t, ok, "cd4 does not reach the start position")
	p := end.Play(mustParse(t, end, "c3-d4"))
	moves, ok := MovesFromName(engine.Russian, "1-I cd4", p)
	assert.True(t, ok)
	assert.Len(t, moves, 1)
}

func mustParse(t *testing.T, p engine.Position, text string) engine.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	require.NoError(t, err, text)
	return m
}
