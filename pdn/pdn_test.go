package pdn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readAllPDN reads every game of src; bad games are returned as errors in
// input order, good ones as games.
func readAllPDN(t *testing.T, src io.Reader, v engine.VariantID) (games []*Game, bad []*Error) {
	t.Helper()
	r := NewReader(src, v)
	for calls := 0; ; calls++ {
		require.Less(t, calls, 1_000_000, "reader makes no progress")
		g, err := r.Next()
		if err == io.EOF {
			require.Nil(t, g)
			return games, bad
		}
		if err != nil {
			var pe *Error
			require.True(t, errors.As(err, &pe), "not a Error: %v", err)
			bad = append(bad, pe)
			continue
		}
		require.NotNil(t, g)
		games = append(games, g)
	}
}

func readPDNString(t *testing.T, s string, v engine.VariantID) ([]*Game, []*Error) {
	t.Helper()
	return readAllPDN(t, strings.NewReader(s), v)
}

func openShared(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(testfiles.Path(t, name))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

func TestPDNSharedData(t *testing.T) {
	cases := []struct {
		file    string
		variant engine.VariantID
		good    int
		bad     int
		noMoves int // games without moves
	}{
		{"english_tinsley_checkerboard.pdn", engine.English, 723, 1, 0},
		{"english_OCA_2.0_sample43.pdn", engine.English, 43, 0, 0},
		{"english_inferno_gayp.pdn", engine.English, 68, 0, 0},
		{"russian_ussr_championship_X.pdn", engine.Russian, 153, 0, 0},
		// 262 problems; #88 (game 93) has FEN "B:WK23,12,3:BK15,K11.", a
		// white man on its crowning row, which ParseFEN rightly rejects.
		{"english_goulds_problems_fen.pdn", engine.English, 261, 1, 261},
		{"english_boland_border_classics_fen.pdn", engine.English, 183, 0, 182},
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
	r := NewReader(f, engine.English)
	var pe *Error
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
	assert.Equal(t, 541, pe.Index)
	assert.Equal(t, index, r.index)
	assert.Equal(t, 62, pe.MoveNumber)
	assert.Equal(t, "32-28", pe.MoveText)
	assert.Equal(t, "Petal 1981, game 18", pe.Event)
	assert.Equal(t, 5588, pe.Line)
	var me *engine.MoveError
	require.True(t, errors.As(err2(pe), &me))
	assert.Equal(t, engine.MoveIllegal, me.Kind)
	// The FEN is the position before the bad move: Black to move, and the
	// move text's origin is not one of Black's pieces.
	p, err := engine.ParseFEN(engine.English, pe.FEN)
	require.NoError(t, err)
	assert.Equal(t, engine.Black, p.Side)
	assert.Equal(t, engine.NoPiece, p.PieceAt(32))
	msg := pe.Error()
	for _, want := range []string{"Petal 1981, game 18", "move 62", `"32-28"`, "line 5588", pe.FEN} {
		assert.Contains(t, msg, want)
	}
	// The game index of the bad game.
	f2 := openShared(t, "english_tinsley_checkerboard.pdn")
	_, bad := readAllPDN(t, f2, engine.English)
	require.Len(t, bad, 1)
	want := 0
	data, err := os.ReadFile(testfiles.Path(t, "english_tinsley_checkerboard.pdn"))
	require.NoError(t, err)
	for i, part := range strings.Split(string(data), "[Event ") {
		if strings.HasPrefix(part, `"Petal 1981, game 18"`) {
			want = i
		}
	}
	assert.Equal(t, want, bad[0].Index)
}

func err2(e *Error) error { return e }

func TestPDNTinsleyGluedComments(t *testing.T) {
	f := openShared(t, "english_tinsley_checkerboard.pdn")
	games, _ := readAllPDN(t, f, engine.English)
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

// TestPDNRoundTrip reads every data file, writes every game, reads it
// back: same variant, start, moves, comments, result and tags; writing
// again gives the same bytes.
func TestPDNRoundTrip(t *testing.T) {
	files := []struct {
		name string
		v    engine.VariantID
	}{
		{"english_tinsley_checkerboard.pdn", engine.English},
		{"english_OCA_2.0_sample43.pdn", engine.English},
		{"english_inferno_gayp.pdn", engine.English},
		{"russian_ussr_championship_X.pdn", engine.Russian},
		{"english_goulds_problems_fen.pdn", engine.English},
		{"english_boland_border_classics_fen.pdn", engine.English},
	}
	for _, fc := range files {
		t.Run(fc.name, func(t *testing.T) {
			f := openShared(t, fc.name)
			games, _ := readAllPDN(t, f, fc.v)
			var out bytes.Buffer
			for _, g := range games {
				require.NoError(t, Write(&out, g))
			}
			// Read back with another default variant: GameType must carry it.
			other := engine.International
			if fc.v == engine.International {
				other = engine.Russian
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
				require.NoError(t, Write(&again, g))
			}
			assert.Equal(t, out.String(), again.String())
		})
	}
}

func TestPDNMixedVariantsFile(t *testing.T) {
	f, err := os.Open("testdata/mixed_variants.pdn")
	require.NoError(t, err)
	defer f.Close()
	games, bad := readAllPDN(t, f, engine.English)
	require.Empty(t, bad)
	require.Len(t, games, 4)

	g := games[0]
	assert.Equal(t, engine.International, g.Variant)
	assert.Equal(t, "Международный турнир", g.Tag("Event"))
	assert.Equal(t, "Ван дер Мер", g.Tag("white"), "Tag ignores case")
	assert.Equal(t, []string{"32-28", "19-23", "28x19", "14x23", "37-32", "10-14"}, g.MoveTexts)
	assert.Equal(t, "2-0", g.Result)
	require.Len(t, g.Comments, 6)
	assert.Equal(t, "the classic exchange", g.Comments[1])
	assert.Equal(t, "a comment with (parentheses) and ; a semicolon", g.Comments[4])
	assert.Equal(t, 3, g.Line, "the BOM and the two ; lines come first")

	g = games[1]
	assert.Equal(t, engine.Brazilian, g.Variant)
	assert.Equal(t, "1/2-1/2", g.Result, "½-½ is normalised")
	assert.Len(t, g.Moves, 4)
	assert.Nil(t, g.Comments)

	g = games[2]
	assert.Equal(t, engine.Russian, g.Variant)
	assert.Equal(t, mustFEN(t, engine.Russian, "W:WKa1,c3:Bf6,Kh8"), g.Start)
	end := g.Position()
	assert.Equal(t, uint64(0), end.Pieces[engine.Black])
	r, why := g.Game().Result()
	assert.Equal(t, engine.WhiteWins, r)
	assert.Equal(t, engine.NoPieces, why)

	g = games[3]
	assert.Equal(t, engine.English, g.Variant)
	assert.Empty(t, g.Moves)
	assert.Equal(t, uint64(0), g.Start.Pieces[engine.White], "empty side in the FEN")
	r, _ = g.Game().Result()
	res, err := engine.ParseResult(engine.English, g.Result)
	require.NoError(t, err)
	assert.Equal(t, r, res, "the file's 1-0 is Black's win in English")
}

func TestPDNTruncatedFile(t *testing.T) {
	f, err := os.Open("testdata/truncated.pdn")
	require.NoError(t, err)
	defer f.Close()
	games, bad := readAllPDN(t, f, engine.English)
	require.Len(t, games, 1)
	require.Len(t, bad, 1)
	assert.Equal(t, 2, bad[0].Index)
	assert.Equal(t, 2, bad[0].MoveNumber)
	assert.Equal(t, "22-1", bad[0].MoveText)
	assert.Equal(t, 7, bad[0].Line)

	// Every cut of a real file: no panic, every complete game before the cut
	// still read.
	data, err := os.ReadFile("testdata/mixed_variants.pdn")
	require.NoError(t, err)
	for cut := 0; cut <= len(data); cut++ {
		games, bad := readAllPDN(t, bytes.NewReader(data[:cut]), engine.English)
		assert.LessOrEqual(t, len(games)+len(bad), 4)
	}
}

func TestPDNEdgeCases(t *testing.T) {
	t.Run("variations and comments", func(t *testing.T) {
		games, bad := readPDNString(t, `[Event "v"]
1. 11-15 (1. 9-14 (1. 10-14 {a ) in a comment} 22-18) ; a ( in a line comment
 22-17) 23-19 {after 23-19} {and more} 2. 8-11 $14 22-17!? 9-14?? *`, engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 1)
		g := games[0]
		assert.Equal(t, []string{"11-15", "23-19", "8-11", "22-17", "9-14"}, g.MoveTexts)
		assert.Equal(t, "after 23-19 and more", g.Comment(1))
		assert.Equal(t, "", g.Comment(0))
		assert.Equal(t, "", g.Comment(99))
		assert.Equal(t, "*", g.Result)
	})
	t.Run("SetUp spellings and FEN forms", func(t *testing.T) {
		for _, tag := range []string{"SetUp", "Setup", "setup"} {
			games, bad := readPDNString(t, `[`+tag+` "1"]
[FEN "B:W18,K30:B1-3,K5.:H0:F1"]
1. 5-9 *`, engine.English)
			require.Empty(t, bad, tag)
			require.Len(t, games, 1)
			g := games[0]
			assert.Equal(t, engine.Black, g.Start.Side)
			assert.Equal(t, engine.BlackKing, g.Start.PieceAt(5))
			assert.Equal(t, engine.BlackMan, g.Start.PieceAt(2))
			assert.Equal(t, "1", g.Tag("SetUp"))
		}
	})
	t.Run("missing result", func(t *testing.T) {
		games, bad := readPDNString(t, "[Event \"a\"]\n1. 11-15 23-19\n[Event \"b\"]\n[Result \"0-1\"]\n1. 9-14\n", engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 2)
		assert.Equal(t, "*", games[0].Result)
		assert.Len(t, games[0].Moves, 2)
		assert.Equal(t, "0-1", games[1].Result, "from the Result tag")
		assert.Equal(t, "b", games[1].Tag("Event"))
	})
	t.Run("garbage between games", func(t *testing.T) {
		games, bad := readPDNString(t, `Some header text, no digits!
[Event "a"] 1. 11-15 1-0
these words are ignored } ) ] 1-0 0-1 * {and a comment}

[Event "b"] 1. 9-14 0-1
stray text with a 12 in it
[Event "c"] 1. 10-14 1/2-1/2`, engine.English)
		require.Len(t, games, 3)
		assert.Equal(t, []string{"a", "b", "c"}, []string{games[0].Tag("Event"), games[1].Tag("Event"), games[2].Tag("Event")})
		require.Len(t, bad, 1, "text with a digit is read as a game without tags")
		assert.Equal(t, 3, bad[0].Index)
		assert.Equal(t, "12", bad[0].MoveText)
	})
	t.Run("games without tags", func(t *testing.T) {
		games, bad := readPDNString(t, "1. 11-15 23-19 1-0\n1.9-14 22-18 2.5-9 0-1 1...", engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 2)
		assert.Equal(t, []string{"9-14", "22-18", "5-9"}, games[1].MoveTexts)
	})
	t.Run("result tokens", func(t *testing.T) {
		for _, res := range []string{"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"} {
			for _, tail := range []string{"", ".", ","} {
				games, bad := readPDNString(t, "1. 32-28 "+res+tail+"\n1. 31-27 *", engine.International)
				require.Empty(t, bad)
				require.Len(t, games, 2, res)
				assert.Equal(t, res, games[0].Result)
			}
		}
	})
	t.Run("move numbers", func(t *testing.T) {
		games, bad := readPDNString(t, "[FEN \"W:W29,30:B1,2\"]\n1... 30-26 2. 1-5 26-22 3.5-9 22-18 4… 9-13 *", engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 1)
		assert.Equal(t, []string{"30-26", "1-5", "26-22", "5-9", "22-18", "9-13"}, games[0].MoveTexts)
		games, bad = readPDNString(t, "[FEN \"W:W29,30:B1,2\"]\n1... 30-26 2. 1-5 26-21 *", engine.English)
		require.Len(t, bad, 1)
		assert.Equal(t, 2, bad[0].MoveNumber)
		assert.Equal(t, "26-21", bad[0].MoveText)
		assert.Equal(t, "W:W26,29:B2,5", bad[0].FEN)
		require.Len(t, games, 0)
	})
	t.Run("glued text and legacy plain x", func(t *testing.T) {
		games, bad := readPDNString(t, "1. 11x15Blackthinks. 23-19 2. 8-11!Strong 22-17 *", engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 1)
		g := games[0]
		assert.Equal(t, []string{"11x15", "23-19", "8-11", "22-17"}, g.MoveTexts)
		assert.Equal(t, "Blackthinks.", g.Comment(0))
		assert.Equal(t, "Strong", g.Comment(2))
		games, bad = readPDNString(t, "[GameType \"25\"] 1. c3-d4Хорошо f6-g5 *", engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 1)
		assert.Equal(t, []string{"c3-d4", "f6-g5"}, games[0].MoveTexts)
	})
	t.Run("bad games do not lose the others", func(t *testing.T) {
		games, bad := readPDNString(t, `[Event "ok 1"] 1. 11-15 *
[Event "illegal"] 1. 11-15 24-19 2. 15-18 *
[Event "bad GameType"] [GameType "29"] 1. c3-d4 *
[Event "bad FEN"] [FEN "W:W33:B1"] *
[Event "malformed move"] 1. 11--15 *
[Event "unterminated tag value] 1. 11-15 *
[Event "ok 2"] 1. 9-13 *
[Event "ambiguous"] [FEN "W:W30:B25,26,17,18"] 1... 30x14 *
[Event "ok 3"] 1. 9-14 {unterminated comment`, engine.English)
		require.Len(t, games, 2)
		assert.Equal(t, "ok 1", games[0].Tag("Event"))
		assert.Equal(t, "ok 2", games[1].Tag("Event"))
		require.Len(t, bad, 7)
		idx := []int{}
		for _, e := range bad {
			idx = append(idx, e.Index)
		}
		assert.Equal(t, []int{2, 3, 4, 5, 6, 8, 9}, idx)
		var me *engine.MoveError
		require.ErrorAs(t, bad[0], &me)
		assert.Equal(t, engine.MoveIllegal, me.Kind)
		assert.Equal(t, 2, bad[0].MoveNumber)
		assert.Equal(t, "15-18", bad[0].MoveText)
		assert.Contains(t, bad[1].Error(), "GameType")
		assert.Contains(t, bad[2].Error(), "FEN")
		assert.Equal(t, "W:W33:B1", bad[2].FEN)
		require.ErrorAs(t, bad[3], &me)
		assert.Equal(t, engine.MoveMalformed, me.Kind)
		assert.Contains(t, bad[4].Error(), "missing closing quote")
		require.ErrorAs(t, bad[5], &me)
		assert.Equal(t, engine.MoveAmbiguous, me.Kind)
		assert.Contains(t, bad[6].Error(), "unterminated comment")
	})
	t.Run("tag escapes and unquoted values", func(t *testing.T) {
		games, bad := readPDNString(t, `[Event "a \"quoted\" name \\ here"]
[Round 3]
*`, engine.English)
		require.Empty(t, bad)
		require.Len(t, games, 1)
		assert.Equal(t, `a "quoted" name \ here`, games[0].Tag("Event"))
		assert.Equal(t, "3", games[0].Tag("Round"))
		var out bytes.Buffer
		require.NoError(t, Write(&out, games[0]))
		assert.Contains(t, out.String(), `[Event "a \"quoted\" name \\ here"]`)
		back, bad := readPDNString(t, out.String(), engine.Russian)
		require.Empty(t, bad)
		assert.Equal(t, games[0].Tag("Event"), back[0].Tag("Event"))
	})
	t.Run("missing quotes resynchronise", func(t *testing.T) {
		r := NewReader(strings.NewReader("[Event \"x] [Site y] 1. 11-15 *\n[Event \"z\"] 1. 9-13 *"), engine.English)
		g, err := r.Next()
		var pe *Error
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, 1, pe.Index)
		assert.Contains(t, pe.Error(), "missing closing quote")
		assert.Equal(t, "y", g.Tag("Site"), "the rest of the line is read again")
		g, err = r.Next()
		require.NoError(t, err)
		assert.Equal(t, "z", g.Tag("Event"))
		assert.Equal(t, 2, g.Line)
		_, err = r.Next()
		assert.Equal(t, io.EOF, err)
	})
	t.Run("limits", func(t *testing.T) {
		long := "[Event \"x] " + strings.Repeat("a ", 60000) + "\n" +
			"[Event \"big\"] {" + strings.Repeat("c", 1<<20) + "} 1. " + strings.Repeat("9", 5000) + " *\n" +
			"[Event \"ok\"] 1. 9-13 *"
		start := time.Now()
		games, bad := readPDNString(t, long, engine.English)
		assert.Less(t, time.Since(start), 5*time.Second)
		require.Len(t, bad, 2)
		assert.LessOrEqual(t, len(bad[1].MoveText), maxPDNWord)
		require.Len(t, games, 1)
		assert.Equal(t, "ok", games[0].Tag("Event"))
	})
	t.Run("empty input", func(t *testing.T) {
		for _, s := range []string{"", "\xEF\xBB\xBF", "   \r\n\n", "{only a comment}", "no games here"} {
			games, bad := readPDNString(t, s, engine.English)
			assert.Empty(t, games, "%q", s)
			assert.Empty(t, bad, "%q", s)
		}
	})
}

// failingReader returns some data, then a read error.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestPDNReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := NewReader(&failingReader{data: []byte("[Event \"a\"] 1. 11-15 *\n[Event \"b\"] 1. 9-"), err: boom}, engine.English)
	g, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "a", g.Tag("Event"))
	_, err = r.Next()
	assert.ErrorIs(t, err, boom)
	var pe *Error
	assert.False(t, errors.As(err, &pe))
	_, err = r.Next()
	assert.ErrorIs(t, err, boom, "sticky")
}

func TestPDNWriter(t *testing.T) {
	t.Run("new game, set-up, second mover first, comments", func(t *testing.T) {
		start := mustFEN(t, engine.English, "W:W21,22,23,K30:B1,2,3,K12")
		g := NewGame(engine.English, start)
		g.SetTag("Event", "damka self-play")
		g.SetTag("Opening", "set-up")
		for _, s := range []string{"22-18", "12-16", "18-15", "16-20"} {
			p := g.Position()
			g.AppendMove(mustMove(t, p, s))
		}
		g.Comments = make([]string, len(g.Moves))
		g.Comments[1] = "a {tricky} comment"
		g.Comments[2] = "a brace {"
		g.Result = engine.Draw.PDN(engine.English)
		var out bytes.Buffer
		require.NoError(t, Write(&out, g))
		want := `[Event "damka self-play"]
[Site "?"]
[Date "?"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2-1/2"]
[GameType "21"]
[SetUp "1"]
[FEN "W:W21,22,23,K30:B1,2,3,K12"]
[Opening "set-up"]

1... 22-18 2. 12-16 ; a {tricky} comment
2... 18-15 {a brace {} 3. 16-20 1/2-1/2

`
		assert.Equal(t, want, out.String())
		back, bad := readPDNString(t, out.String(), engine.Russian)
		require.Empty(t, bad)
		require.Len(t, back, 1)
		assert.Equal(t, g.Moves, back[0].Moves)
		assert.Equal(t, g.Start, back[0].Start)
		assert.Equal(t, g.Comments, back[0].Comments)
	})
	t.Run("a line comment's word longer than a line stays on its ; line", func(t *testing.T) {
		g := NewGame(engine.Russian, engine.StartPosition(engine.Russian))
		g.AppendMove(mustMove(t, g.Position(), "c3-d4"))
		long := strings.Repeat("0", 57) + "}" + strings.Repeat("0", 22)
		g.Comments = []string{"a " + long + " b " + long}
		g.Intro = long
		var out bytes.Buffer
		require.NoError(t, Write(&out, g))
		back, bad := readPDNString(t, out.String(), engine.Russian)
		require.Empty(t, bad, out.String())
		require.Len(t, back, 1)
		assert.Equal(t, g.Moves, back[0].Moves)
		assert.Equal(t, g.Comments, back[0].Comments, out.String())
		assert.Equal(t, g.Intro, back[0].Intro, out.String())
	})
	t.Run("russian notation, GameType 25, wrapped at 80 columns", func(t *testing.T) {
		g := NewGame(engine.Russian, engine.StartPosition(engine.Russian))
		var list engine.MoveList
		for i := 0; i < 60; i++ {
			p := g.Position()
			p.Generate(&list)
			if list.N == 0 {
				break
			}
			g.AppendMove(list.Moves[i%list.N])
		}
		var out bytes.Buffer
		require.NoError(t, Write(&out, g))
		s := out.String()
		assert.Contains(t, s, "[GameType \"25\"]\n", "CheckerBoard reads a game without GameType as English")
		assert.NotContains(t, s, "FEN")
		assert.Contains(t, s, "1. "+g.MoveTexts[0]+" "+g.MoveTexts[1]+" 2. ")
		for _, line := range strings.Split(s, "\n") {
			assert.LessOrEqual(t, len([]rune(line)), 80, line)
		}
		back, bad := readPDNString(t, s, engine.Russian)
		require.Empty(t, bad)
		assert.Equal(t, g.Moves, back[0].Moves)
		assert.Equal(t, g.MoveTexts, back[0].MoveTexts, "AppendMove writes FormatFull")
	})
	t.Run("set-up FEN in the notation of the moves", func(t *testing.T) {
		for _, c := range []struct {
			v         engine.VariantID
			fen, move string
			want      string
		}{
			{engine.Russian, "W:WKa1,c3:Bf6,Kh8", "c3-d4", `[FEN "W:Wc3,Ka1:BKh8,f6"]`},
			{engine.Brazilian, "B:Wa1,c3,e3:Bf6,Kh8", "f6-g5", `[FEN "B:Wc3,e3,a1:BKh8,f6"]`},
			{engine.English, "W:W21,22:B1,K12", "22-18", `[FEN "W:W21,22:B1,K12"]`},
			{engine.International, "W:W31,32:B1,K19", "31-26", `[FEN "W:W31,32:B1,K19"]`},
		} {
			g := NewGame(c.v, mustFEN(t, c.v, c.fen))
			g.AppendMove(mustMove(t, g.Position(), c.move))
			var out bytes.Buffer
			require.NoError(t, Write(&out, g))
			assert.Contains(t, out.String(), c.want+"\n", c.v.String())
			assert.Contains(t, out.String(), c.move, c.v.String())
			back, bad := readPDNString(t, out.String(), c.v)
			require.Empty(t, bad, c.v.String())
			require.Len(t, back, 1)
			assertSamePosition(t, g.Start, back[0].Start, c.v.String())
			assert.Equal(t, g.Moves, back[0].Moves, c.v.String())
		}
	})
	t.Run("errors", func(t *testing.T) {
		g := NewGame(engine.English, engine.StartPosition(engine.English))
		g.Result = "white won"
		assert.ErrorContains(t, Write(io.Discard, g), "result")
		g.Result = "*"
		g.Moves = append(g.Moves, engine.Move{From: 1, To: 2})
		assert.ErrorContains(t, Write(io.Discard, g), "not legal")
		g.Variant = 9
		assert.ErrorContains(t, Write(io.Discard, g), "variant")
	})
}

// FuzzPDNReader feeds arbitrary bytes to the reader: it must not panic,
// every call to Next must make progress (consume input), every error must be
// a *Error, and every good game must survive a write and a re-read with
// the same start, moves, comments, variations (Lines with their
// comments and intros too) and result.
func FuzzPDNReader(f *testing.F) {
	for _, s := range []string{
		"[Event \"a\"]\n1. 11-15 23-19 2. 8-11 22-17 1/2-1/2\n",
		"1. 11-15 (1. 9-14 {x} (22-18)) 23-19 $1 8-11!? *",
		"1. 11-15 ({i (} 1. 9-14 {x ( ) {} y (22-18 ; c } d\n) {e} 24-20glued) 23-19 ; f } (\n 8-11 (8-12 ; g\n) *",
		"[FEN \"B:W18,K30:B1-3,K5.:H0:F1\"][Setup \"1\"] 1. 5-9 *",
		"[GameType \"25\"] 1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 1-0",
		"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 2-0",
		"[Event \"x] 1. 11-15 *\n[Event \"y\"] 8-11Redoverstepped. 1-0 ; c\n",
		"\xEF\xBB\xBF[Event \"é\"]\r\n1.11-15 {unterminated",
	} {
		f.Add([]byte(s), uint8(engine.English))
	}
	f.Fuzz(func(t *testing.T, data []byte, v uint8) {
		variant := engine.VariantID(v % uint8(engine.NumVariants))
		r := NewReader(bytes.NewReader(data), variant)
		for calls := 0; ; calls++ {
			if calls > len(data)+1 {
				t.Fatalf("Next called %d times on %d bytes: no progress", calls, len(data))
			}
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Fatalf("error is not a *Error: %v", err)
				}
				if pe.Error() == "" || g == nil {
					t.Fatalf("bad Error %#v", pe)
				}
				continue
			}
			var out bytes.Buffer
			if err := Write(&out, g); err != nil {
				t.Fatalf("write: %v", err)
			}
			// Russian, the default variant, is written without GameType.
			back, err := NewReader(bytes.NewReader(out.Bytes()), engine.Russian).Next()
			if err != nil {
				t.Fatalf("re-read: %v\n%s", err, out.String())
			}
			if back.Variant != g.Variant || !samePlacement(&back.Start, &g.Start) ||
				!slices.Equal(back.Moves, g.Moves) || back.Result != g.Result ||
				back.Intro != g.Intro || !slices.Equal(back.Comments, g.Comments) ||
				!slices.EqualFunc(back.Variations, g.Variations, slices.Equal) || !reflect.DeepEqual(back.Lines, g.Lines) {
				t.Fatalf("round trip differs:\n%s\nfirst:  %+v\nsecond: %+v", out.String(), g, back)
			}
		}
	})
}

// TestPDNGlyphs reads annotation glyphs glued to a move and as the next
// word into Game.Glyphs, writes them glued, and reads them back.
func TestPDNGlyphs(t *testing.T) {
	in := "[GameType \"21\"]\n1. 11-15? 23-19 ?? 2. 8-11!? {good} 22-17 3. 9-13?!x *\n"
	games, bad := readAllPDN(t, strings.NewReader(in), engine.English)
	require.Empty(t, bad)
	require.Len(t, games, 1)
	g := games[0]
	require.Len(t, g.Moves, 5)
	assert.Equal(t, []string{"?", "??", "!?", "", "?!"}, g.Glyphs)
	assert.Equal(t, "x", g.Comment(4))
	assert.Equal(t, "good", g.Comment(2))
	var out bytes.Buffer
	require.NoError(t, Write(&out, g))
	assert.Contains(t, out.String(), "1. 11-15? 23-19?? 2. 8-11!? {good} 2... 22-17 3. 9-13?! {x} *")
	back, bad := readAllPDN(t, bytes.NewReader(out.Bytes()), engine.Russian)
	require.Empty(t, bad)
	assert.Equal(t, g.Glyphs, back[0].Glyphs)
	assert.Equal(t, g.Moves, back[0].Moves)

	g.Glyphs[0] = "?x"
	assert.Error(t, Write(&bytes.Buffer{}, g))
	g.Glyphs = nil
	g.AppendMove(mustMove(t, g.Position(), "24-20"))
	assert.Nil(t, g.Glyphs)
}
