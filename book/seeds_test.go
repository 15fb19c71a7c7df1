package book_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
)

// dataDir is the repository's test data folder, testdata/draughts (internal/testfiles).
var dataDir, _ = testfiles.Dir()

// readShared returns file name of the test data folder, failing t when
// the file is missing.
func readShared(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(testfiles.Path(t, name))
	require.NoError(t, err)
	return data
}

func TestParseSeedsACFDeck(t *testing.T) {
	testfiles.Must(t)
	seeds, err := book.ParseSeeds(readShared(t, "acf_3move_ballots.tsv"), engine.English, "acf")
	require.NoError(t, err)
	// 174 openings, 18 barred: the 156-opening deck.
	require.Len(t, seeds, 156)
	for _, s := range seeds {
		assert.Equal(t, 3, s.Ply, s.Name)
		assert.Equal(t, engine.White, s.Position.Side, s.Name)
		assert.NotContains(t, s.Name, "barred")
	}
	assert.True(t, strings.HasPrefix(seeds[0].Name, "1 9-13 21-17 5-9"), seeds[0].Name)
}

func TestParseSeedsBallotJSON(t *testing.T) {
	testfiles.Must(t)
	seeds, err := book.ParseSeeds(readShared(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Russian, "150")
	require.NoError(t, err)
	require.Len(t, seeds, 150)
	assert.Equal(t, "1-I cd4 ba5 dc5", seeds[0].Name)
	assert.Equal(t, 3, seeds[0].Ply)
	assert.Equal(t, engine.Black, seeds[0].Position.Side)
	for _, s := range seeds {
		// White moves first: an even ply leaves White to move ("5-VII
		// Free" is the start position, ply 0).
		want := engine.Black
		if s.Ply%2 == 0 {
			want = engine.White
		}
		assert.Equal(t, want, s.Position.Side, s.Name)
	}
	// The same file read as Brazilian.
	br, err := book.ParseSeeds(readShared(t, "pydraughts_ballots_150russian_and_brazilian.json"), engine.Brazilian, "150")
	require.NoError(t, err)
	assert.Len(t, br, 150)
}

func TestParseSeedsFENLines(t *testing.T) {
	text := "# seeds\n\nW:W21-32:B1-12\nB:W21,22:B1 7\r\n"
	seeds, err := book.ParseSeeds([]byte(text), engine.Russian, "list")
	require.NoError(t, err)
	require.Len(t, seeds, 2)
	assert.Equal(t, 0, seeds[0].Ply)
	assert.Equal(t, 7, seeds[1].Ply)
	assert.Equal(t, "list:4", seeds[1].Name)
}

func TestParseSeedsErrors(t *testing.T) {
	cases := map[string]string{
		"W:W21-32:B1-12\nW:W99\n":                             "list: line 2",
		"{\"all\": 3}":                                        "list",
		"{\"other\": {}}":                                     "no \"all\" object",
		"{\"all\": {\"a b\": \"W:W99\"}}":                     "ballot \"a b\"",
		"{\"all\": {}, \"standard\": [\"x\"]}":                "no \"all\"",
		"no\tcolumn\n":                                        "no column named fen",
		"id\tfen\n1\tW:W21\n2\tX:W1\n":                        "line 3",
		"{\"all\": {\"a\": \"W:W1\"}, \"standard\": [\"b\"]}": "ballot \"b\"",
	}
	for text, want := range cases {
		_, err := book.ParseSeeds([]byte(text), engine.English, "list")
		if assert.Error(t, err, text) {
			assert.Contains(t, err.Error(), want, text)
		}
	}
}

func TestGameStats(t *testing.T) {
	testfiles.Must(t)
	f, err := os.Open(filepath.Join(dataDir, "english_tinsley_checkerboard.pdn"))
	require.NoError(t, err)
	defer f.Close()
	gs := book.NewGameStats(engine.English, 6)
	require.NoError(t, gs.Read(f, "tinsley"))
	assert.Equal(t, 724, gs.Games)
	assert.Equal(t, 1, gs.Bad, "the one game with an illegal move")
	assert.Positive(t, gs.Frequent(3))
	// Every game starts from the start position: its first moves add up to
	// the number of games with a first move.
	p := engine.StartPosition(engine.English)
	total := 0
	for _, m := range legal(&p) {
		st := gs.Stat(&p, m)
		assert.LessOrEqual(t, st.HalfPoints, 2*st.N)
		total += st.N
	}
	assert.Greater(t, total, 700)

	// Russian games in a Russian statistics: none skipped; as English,
	// the GameType-less games are read as English and fail.
	r, err := os.Open(filepath.Join(dataDir, "russian_ussr_championship_X.pdn"))
	require.NoError(t, err)
	defer r.Close()
	rs := book.NewGameStats(engine.Russian, 0)
	require.NoError(t, rs.Read(r, "ussr"))
	assert.Equal(t, 153, rs.Games)
	assert.Zero(t, rs.Bad)

	mixed := `[GameType "20"]
1. 32-28 19-23 *
[GameType "21"]
1. 11-15 *
`
	ms := book.NewGameStats(engine.English, 0)
	require.NoError(t, ms.Read(strings.NewReader(mixed), "mixed"))
	assert.Equal(t, 1, ms.Games)
	assert.Equal(t, 1, ms.Skipped)
	assert.Equal(t, 1, ms.Unscored)
	m, err := p.ParseMove("11-15")
	require.NoError(t, err)
	assert.Equal(t, book.MoveStat{N: 1, HalfPoints: 1}, ms.Stat(&p, m))
	var nilStats *book.GameStats
	assert.Zero(t, nilStats.Stat(&p, m))
}

func TestParseSeeds8x8FileForInternational(t *testing.T) {
	file := testfiles.Path(t, "pydraughts_ballots_brazilian.json")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	_, err = book.ParseSeeds(data, engine.International, file)
	assert.ErrorContains(t, err, "an 8x8 file, not international")
	s, err := book.ParseSeeds(data, engine.Brazilian, file)
	require.NoError(t, err)
	assert.NotEmpty(t, s)
}

func TestParseSeedsGarbageJSON(t *testing.T) {
	_, err := book.ParseSeeds([]byte("garbage\tmore\n"), engine.Russian, "garbage.json")
	assert.ErrorContains(t, err, "not valid JSON")
	_, err = book.ParseSeeds([]byte("{nope"), engine.Russian, "x.txt")
	assert.ErrorContains(t, err, "not valid JSON")
}
