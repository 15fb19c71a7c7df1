package engine

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedData is the shared data directory, relative to the package dir.
const sharedData = "../../shared/data/draughts"

// readAllPDN reads every game of src; bad games are returned as errors in
// input order, good ones as games.
func readAllPDN(t *testing.T, src io.Reader, v VariantID) (games []*PDNGame, bad []*PDNError) {
	t.Helper()
	r := NewPDNReader(src, v)
	for calls := 0; ; calls++ {
		require.Less(t, calls, 1_000_000, "reader makes no progress")
		g, err := r.Next()
		if err == io.EOF {
			require.Nil(t, g)
			return games, bad
		}
		if err != nil {
			var pe *PDNError
			require.True(t, errors.As(err, &pe), "not a PDNError: %v", err)
			bad = append(bad, pe)
			continue
		}
		require.NotNil(t, g)
		games = append(games, g)
	}
}

func readPDNString(t *testing.T, s string, v VariantID) ([]*PDNGame, []*PDNError) {
	t.Helper()
	return readAllPDN(t, strings.NewReader(s), v)
}

func openShared(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedData, name))
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("shared data %s not found", name)
	}
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

func TestPDNSharedData(t *testing.T) {
	cases := []struct {
		file    string
		variant VariantID
		good    int
		bad     int
		noMoves int // games without moves
	}{
		{"english_tinsley_checkerboard.pdn", English, 723, 1, 0},
		{"english_OCA_2.0_sample43.pdn", English, 43, 0, 0},
		{"english_inferno_gayp.pdn", English, 68, 0, 0},
		{"russian_ussr_championship_X.pdn", Russian, 153, 0, 0},
		// 262 problems; #88 (game 93) has FEN "B:WK23,12,3:BK15,K11.", a
		// white man on its crowning row, which ParseFEN rightly rejects.
		{"english_goulds_problems_fen.pdn", English, 261, 1, 261},
		{"english_boland_border_classics_fen.pdn", English, 183, 0, 182},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f := openShared(t, c.file)
			games, bad := readAllPDN(t, f, c.variant)
			assert.Len(t, games, c.good)
			assert.Len(t, bad, c.bad)
			noMoves := 0
			for _, g := range games {
				assert.Equal(t, c.variant, g.Variant)
				assert.Len(t, g.MoveTexts, len(g.Moves))
				if len(g.Moves) == 0 {
					noMoves++
				}
				assert.True(t, isResultToken(g.Result), "result %q", g.Result)
			}
			assert.Equal(t, c.noMoves, noMoves)
			for _, e := range bad {
				t.Logf("bad game: %v", e)
			}
			if c.file == "english_goulds_problems_fen.pdn" && assert.Len(t, bad, 1) {
				assert.Equal(t, 93, bad[0].Index)
				assert.Equal(t, "Gould's Problems #88", bad[0].Event)
				assert.Equal(t, "B:WK23,12,3:BK15,K11.", bad[0].FEN)
				assert.Equal(t, 0, bad[0].MoveNumber)
				assert.Contains(t, bad[0].Error(), "crowning row")
			}
		})
	}
}

func TestPDNTinsleyBadGame(t *testing.T) {
	f := openShared(t, "english_tinsley_checkerboard.pdn")
	r := NewPDNReader(f, English)
	var pe *PDNError
	index := 0
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		index++
		if err != nil {
			require.Nil(t, pe, "second bad game: %v", err)
			require.True(t, errors.As(err, &pe))
			require.NotNil(t, g)
			assert.Equal(t, "Petal 1981, game 18", g.Tag("Event"))
			assert.Len(t, g.Moves, 2*61, "moves before the bad one")
		}
	}
	require.NotNil(t, pe)
	assert.Equal(t, 724, index)
	assert.Equal(t, index, r.index)
	assert.Equal(t, 62, pe.MoveNumber)
	assert.Equal(t, "32-28", pe.MoveText)
	assert.Equal(t, "Petal 1981, game 18", pe.Event)
	assert.Equal(t, 5588, pe.Line)
	var me *MoveError
	require.True(t, errors.As(err2(pe), &me))
	assert.Equal(t, MoveIllegal, me.Kind)
	// The FEN is the position before the bad move: Black to move, and the
	// move text's origin is not one of Black's pieces.
	p, err := ParseFEN(English, pe.FEN)
	require.NoError(t, err)
	assert.Equal(t, Black, p.Side)
	assert.Equal(t, NoPiece, p.PieceAt(32))
	msg := pe.Error()
	for _, want := range []string{"Petal 1981, game 18", "move 62", `"32-28"`, "line 5588", pe.FEN} {
		assert.Contains(t, msg, want)
	}
	// The game index of the bad game.
	f2 := openShared(t, "english_tinsley_checkerboard.pdn")
	_, bad := readAllPDN(t, f2, English)
	require.Len(t, bad, 1)
	want := 0
	data, err := os.ReadFile(filepath.Join(sharedData, "english_tinsley_checkerboard.pdn"))
	require.NoError(t, err)
	for i, part := range strings.Split(string(data), "[Event ") {
		if strings.HasPrefix(part, `"Petal 1981, game 18"`) {
			want = i
		}
	}
	assert.Equal(t, want, bad[0].Index)
}

func err2(e *PDNError) error { return e }

func TestPDNTinsleyGluedComments(t *testing.T) {
	f := openShared(t, "english_tinsley_checkerboard.pdn")
	games, _ := readAllPDN(t, f, English)
	found := map[string]string{}
	for _, g := range games {
		for i, c := range g.Comments {
			if strings.Contains(c, "overstepped") {
				found[g.Tag("Event")] = g.MoveTexts[i] + " " + c
			}
		}
	}
	assert.Equal(t, map[string]string{
		"Petal 1987, game 15":  "8-11 Redoversteppedthetimecontrolonthismove.",
		"London 1992, game 18": "26-22 Whiteoversteppedthetimecontrolonthismove.",
	}, found)
	for _, g := range games {
		switch g.Tag("Event") {
		case "Petal 1987, game 15":
			assert.Equal(t, "0-1", g.Result)
		case "London 1992, game 18":
			assert.Equal(t, "1-0", g.Result)
		}
	}
}

// TestPDNRoundTrip reads every shared file, writes every game, reads it
// back: same variant, start, moves, comments, result and tags; writing
// again gives the same bytes.
func TestPDNRoundTrip(t *testing.T) {
	files := []struct {
		name string
		v    VariantID
	}{
		{"english_tinsley_checkerboard.pdn", English},
		{"english_OCA_2.0_sample43.pdn", English},
		{"english_inferno_gayp.pdn", English},
		{"russian_ussr_championship_X.pdn", Russian},
		{"english_goulds_problems_fen.pdn", English},
		{"english_boland_border_classics_fen.pdn", English},
	}
	for _, fc := range files {
		t.Run(fc.name, func(t *testing.T) {
			f := openShared(t, fc.name)
			games, _ := readAllPDN(t, f, fc.v)
			var out bytes.Buffer
			for _, g := range games {
				require.NoError(t, WritePDN(&out, g))
			}
			// Read back with another default variant: GameType must carry it.
			other := International
			if fc.v == Russian {
				other = Russian // Russian, the default, writes no GameType
			}
			back, bad := readAllPDN(t, bytes.NewReader(out.Bytes()), other)
			require.Empty(t, bad)
			require.Len(t, back, len(games))
			for i, g := range games {
				h := back[i]
				assert.Equal(t, g.Variant, h.Variant)
				assert.True(t, samePlacement(&g.Start, &h.Start), "game %d start", i+1)
				assert.Equal(t, g.Moves, h.Moves, "game %d moves", i+1)
				assert.Equal(t, g.Comments, h.Comments, "game %d comments", i+1)
				assert.Equal(t, g.Intro, h.Intro)
				assert.Equal(t, g.Result, h.Result)
				for _, tag := range g.Tags {
					if isRosterOrDerived(tag.Name) && !strings.EqualFold(tag.Name, "Event") &&
						!strings.EqualFold(tag.Name, "White") && !strings.EqualFold(tag.Name, "Black") {
						continue
					}
					assert.Equal(t, tag.Value, h.Tag(tag.Name), "game %d tag %s", i+1, tag.Name)
				}
				for _, name := range []string{"Site", "Date", "Round"} {
					if g.hasTag(name) {
						assert.Equal(t, g.Tag(name), h.Tag(name))
					}
				}
			}
			var again bytes.Buffer
			for _, g := range back {
				require.NoError(t, WritePDN(&again, g))
			}
			assert.Equal(t, out.String(), again.String())
		})
	}
}
