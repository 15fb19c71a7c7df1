package dxp

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

func TestReadOpeningsFENLines(t *testing.T) {
	in := "# openings\n\nW:W31-50:B1-20\n; a Hub position string:\nB" + startBoardHub10 + "\n  W:W32-50,28:B1-20  \n"
	ps, err := ReadOpenings(strings.NewReader(in), engine.International)
	require.NoError(t, err)
	require.Len(t, ps, 3)
	assert.Equal(t, engine.StartPosition(engine.International), ps[0])
	assert.Equal(t, engine.Black, ps[1].Side)
	assert.Equal(t, 20, count(ps[2], engine.White))

	_, err = ReadOpenings(strings.NewReader("W:W31-50:B1-20\nW:W99\n"), engine.International)
	assert.ErrorContains(t, err, "openings line 2")
	_, err = ReadOpenings(strings.NewReader("W:W31-50:B1-20\nB:W30:B\n"), engine.International)
	assert.ErrorContains(t, err, "the game is over")
	_, err = ReadOpenings(strings.NewReader("# nothing\n"), engine.International)
	assert.ErrorContains(t, err, "no position")
}

// startBoardHub10 is the international start as a Hub string body.
const startBoardHub10 = "bbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"

func count(p engine.Position, c engine.Color) int {
	men, kings := p.Count(c)
	return men + kings
}

func TestReadOpeningsPDN(t *testing.T) {
	in := `[Event "line"]
[GameType "25"]
1. c3-d4 f6-g5 *

[Event "setup"]
[GameType "25"]
[FEN "B:W21,22,23:B10,11"]
*
`
	ps, err := ReadOpenings(strings.NewReader(in), engine.Russian)
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.Equal(t, engine.White, ps[0].Side)
	assert.Equal(t, 12, count(ps[0], engine.Black))
	assert.Equal(t, engine.Black, ps[1].Side)
	assert.Equal(t, 3, count(ps[1], engine.White))

	_, err = ReadOpenings(strings.NewReader(in), engine.International)
	assert.ErrorContains(t, err, "game 1 (line 1) is russian, the match is international")
	_, err = ReadOpenings(strings.NewReader("[Event \"x\"]\n1. c3-c4 *\n"), engine.Russian)
	assert.ErrorContains(t, err, "openings: pdn: game 1")
}

// TestReadOpeningsSharedData reads the FEN-tagged English problem file of
// shared/data.
func TestReadOpeningsSharedData(t *testing.T) {
	shareddata.Skip(t)
	f, err := os.Open(filepath.Join(sharedData, "english_boland_border_classics_fen.pdn"))
	require.NoError(t, err)
	defer f.Close()
	ps, err := ReadOpenings(f, engine.English)
	require.NoError(t, err)
	// 182 set-up positions (FEN tags) and one game from the start (its
	// final position).
	assert.Equal(t, 183, len(ps), "every game of the file")
	for _, p := range ps {
		assert.Equal(t, engine.English, p.V)
	}
}
