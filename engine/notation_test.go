package engine

import (
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Test positions: every distinct position of the perft(4) tree of each
// variant's start, plus the positions of random games (kings, long
// captures, crowning), computed once per test binary.
var (
	notationPositionsOnce [numVariants]sync.Once
	notationPositionsList [numVariants][]Position
)

// notationRandomGames is the number of random games per variant in the test
// positions (more without -short).
func notationRandomGames() int {
	if testing.Short() {
		return 40
	}
	return 400
}

func notationPositions(t *testing.T, v VariantID) []Position {
	t.Helper()
	notationPositionsOnce[v].Do(func() {
		type key struct {
			pieces [2]uint64
			kings  uint64
			side   Color
		}
		seen := map[key]bool{}
		var out []Position
		add := func(p Position) {
			k := key{p.Pieces, p.Kings, p.Side}
			if !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
		}
		var walk func(p Position, depth int)
		walk = func(p Position, depth int) {
			add(p)
			if depth == 0 {
				return
			}
			var l MoveList
			p.Generate(&l)
			for _, m := range l.Slice() {
				walk(p.Play(m), depth-1)
			}
		}
		walk(StartPosition(v), 4)
		rng := rand.New(rand.NewPCG(20261130, uint64(v)))
		for g := 0; g < notationRandomGames(); g++ {
			p := StartPosition(v)
			var l MoveList
			for ply := 0; ply < 300; ply++ {
				p.Generate(&l)
				if l.N == 0 {
					break
				}
				p = p.Play(l.Moves[rng.IntN(l.N)])
				add(p)
			}
		}
		notationPositionsList[v] = out
	})
	require.NotEmpty(t, notationPositionsList[v])
	return notationPositionsList[v]
}

func TestSquareNames(t *testing.T) {
	cases := []struct {
		v    VariantID
		sq   Square
		name string
	}{
		{Russian, 1, "b8"}, {Russian, 4, "h8"}, {Russian, 5, "a7"}, {Russian, 22, "c3"},
		{Russian, 29, "a1"}, {Russian, 32, "g1"}, {Brazilian, 18, "d4"}, {English, 15, "e5"},
		{International, 1, "b10"}, {International, 5, "j10"}, {International, 6, "a9"},
		{International, 46, "a1"}, {International, 50, "i1"},
	}
	for _, c := range cases {
		assert.Equal(t, c.name, SquareName(c.v, c.sq, Algebraic), "%s %d", c.v, c.sq)
		sq, err := ParseSquare(c.v, c.name)
		require.NoError(t, err)
		assert.Equal(t, c.sq, sq, c.name)
		sq, err = ParseSquare(c.v, strings.ToUpper(c.name))
		require.NoError(t, err)
		assert.Equal(t, c.sq, sq, c.name)
	}
	// The long diagonal a1-h8 (rules.md section 1).
	for i, n := range []Square{29, 25, 22, 18, 15, 11, 8, 4} {
		assert.Equal(t, string(rune('a'+i))+string(rune('1'+i)), SquareName(Russian, n, Algebraic))
	}
	for _, v := range AllVariants() {
		r := v.Rules()
		for sq := Square(1); int(sq) <= r.Squares; sq++ {
			for _, style := range []NotationStyle{Numeric, Algebraic} {
				name := SquareName(v, sq, style)
				got, err := ParseSquare(v, name)
				require.NoError(t, err, "%s %s", v, name)
				assert.Equal(t, sq, got, "%s %s", v, name)
			}
			// rules.md: algebraic -> n = (size-rank)*rowLen + file/2 + 1.
			a := SquareName(v, sq, Algebraic)
			file := int(a[0] - 'a')
			rank, _ := parseDecimal(a[1:])
			assert.Equal(t, int(sq), (r.BoardSize-rank)*r.RowLen+file/2+1, "%s %s", v, a)
		}
		assert.Equal(t, "0", SquareName(v, 0, Algebraic))
	}
	sq, err := ParseSquare(English, " 09 ")
	require.NoError(t, err)
	assert.Equal(t, Square(9), sq)
}

func TestParseSquareErrors(t *testing.T) {
	cases := []struct {
		v    VariantID
		in   string
		want []string // substrings of the error
	}{
		{Russian, "", []string{"empty"}},
		{Russian, "0", []string{`"0"`, "out of range 1..32"}},
		{Russian, "33", []string{`"33"`, "out of range 1..32"}},
		{International, "51", []string{`"51"`, "out of range 1..50"}},
		{International, "99999999999", []string{"out of range 1..50"}},
		{Russian, "a2", []string{`"a2"`, "light square"}},
		{International, "b1", []string{`"b1"`, "light square"}},
		{Russian, "i1", []string{`"i1"`, "file i", "a..h"}},
		{International, "k2", []string{`"k2"`, "file k", "a..j"}},
		{Russian, "a9", []string{`"a9"`, "rank 9"}},
		{Russian, "a0", []string{`"a0"`, "rank 0"}},
		{Russian, "c", []string{`"c"`, "rank"}},
		{Russian, "c3x", []string{`"c3x"`, "rank"}},
		{Russian, "1a", []string{`"1a"`, "not a number"}},
		{Russian, "?", []string{`"?"`, "want a number"}},
	}
	for _, c := range cases {
		_, err := ParseSquare(c.v, c.in)
		if assert.Error(t, err, c.in) {
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w, c.in)
			}
		}
	}
}

// TestFormatMove checks every format on known moves.
func TestFormatMove(t *testing.T) {
	cases := []struct {
		v                         VariantID
		fen                       string
		full, short, numeric, hub string
	}{
		{English, "B:W9,18,26:B5", "5x14x23x30", "5x30", "5x14x23x30", "5x30x9x18x26"},
		{Russian, "W:Wc3:Bd4,f4", "c3:e5:g3", "c3:g3", "22x15x24", "22x24x18x19"},
		{Russian, "W:Wh6:Bg7,c5,d2", "h6:f8:b4:e1", "h6:e1", "12x3x17x31", "12x31x8x14x26"},
		{International, "W:W33:B28", "33x22", "33x22", "33x22", "33x22x28"},
		{Brazilian, "W:Wc3:Bd8", "c3-b4", "c3-b4", "22-17", "22-17"},
		{English, "B:W32:B1", "1-5", "1-5", "1-5", "1-5"},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.v, c.fen)
		require.NoError(t, err)
		var l MoveList
		p.Generate(&l)
		require.NotZero(t, l.N, c.fen)
		m := l.Moves[0]
		assert.Equal(t, c.full, p.FormatMove(m, FormatFull), c.fen)
		assert.Equal(t, c.short, p.FormatMove(m, FormatShort), c.fen)
		assert.Equal(t, c.numeric, p.FormatMove(m, FormatNumeric), c.fen)
		assert.Equal(t, c.hub, p.FormatMove(m, FormatHub), c.fen)
		assert.Equal(t, c.full, string(p.AppendMove(nil, m, FormatFull)), c.fen)
	}
	p := StartPosition(Russian)
	assert.Equal(t, "?", p.FormatMove(Move{From: 8, To: 63}, FormatFull), "a ghost bit")
	assert.Nil(t, p.Path(Move{From: 200}))
}

// TestParseMoveAccepts reads every accepted notation.
func TestParseMoveAccepts(t *testing.T) {
	cases := []struct {
		v    VariantID
		fen  string
		text string
		want string // FormatFull of the expected move
	}{
		{English, "", "11-15", "11-15"},
		{English, "", " 11-15! ", "11-15"},
		{English, "", "11-15?!", "11-15"},
		{English, "", "09-13", "9-13"},
		{English, "", "10x14", "10-14"}, // legacy x for a plain move
		{English, "", "10X14", "10-14"},
		{English, "", "f6-e5", "11-15"}, // algebraic squares in a numeric variant
		{English, "B:W9,18,26:B5", "5x14x23x30", "5x14x23x30"},
		{English, "B:W9,18,26:B5", "5x30", "5x14x23x30"},
		{English, "B:W9,18,26:B5", "5x30x26x9x18", "5x14x23x30"}, // Hub, captured in any order
		{English, "B:W9,18,26:B5", "5x30x9x18x26", "5x14x23x30"},
		{English, "B:W9,18,26:B5", "5-14-23-30+", "5x14x23x30"},
		{English, "W:W22:B18,26", "22x15", "22x15"},
		{English, "W:W22:B18,26", "22x15x18", "22x15"}, // Hub single capture with its captured square
		{Russian, "", "c3-d4", "c3-d4"},
		{Russian, "", "C3-D4", "c3-d4"},
		{Russian, "", "22-18", "c3-d4"},
		{Russian, "", "c3xd4", "c3-d4"},
		{Russian, "W:Wc3:Bd4,f4", "c3:e5:g3", "c3:e5:g3"},
		{Russian, "W:Wc3:Bd4,f4", "c3xe5xg3", "c3:e5:g3"},
		{Russian, "W:Wc3:Bd4,f4", "c3:g3", "c3:e5:g3"},
		{Russian, "W:Wc3:Bd4,f4", "22x24x19x18", "c3:e5:g3"},
		{Russian, "W:Wc3:Bd4,f4", "22x15x24", "c3:e5:g3"},
		{Russian, "W:Wh6:Bg7,c5,d2", "h6:f8:b4:e1", "h6:f8:b4:e1"},
		{Russian, "W:Wh6:Bg7,c5,d2", "h6:e1", "h6:f8:b4:e1"},
		{Russian, "W:WKd2:Bc5,e5,c3,e3", "d2:f4:d6:b4:d2", "d2:b4:d6:f4:d2"}, // a duplicate path
		{Russian, "W:WKd2:Bc5,e5,c3,e3", "d2:d2", "d2:b4:d6:f4:d2"},
		{Russian, "W:WKd2:Bc5,e5,c3,e3", "d2:e1", "d2:f4:d6:b4:e1"},
		{Russian, "W:WKd2:Bf6,c5,e5,e3", "26x21x15x23x14", "d2:f4:d6:a3"},
		{Brazilian, "", "c3-b4", "c3-b4"},
		{International, "", "32-28", "32-28"},
		{International, "W:W33:B28", "33x22", "33x22"},
		{International, "W:W33:B28", "33x22x28", "33x22"},
		{International, "W:W33:B28", "f4xd6", "33x22"},
	}
	for _, c := range cases {
		p := StartPosition(c.v)
		if c.fen != "" {
			var err error
			p, err = ParseFEN(c.v, c.fen)
			require.NoError(t, err)
		}
		m, err := p.ParseMove(c.text)
		if assert.NoError(t, err, "%s in %s", c.text, p.FEN()) {
			assert.Equal(t, c.want, p.FormatMove(m, FormatFull), c.text)
		}
	}
}

// TestParseMoveErrors checks the error kind and message of bad move texts.
func TestParseMoveErrors(t *testing.T) {
	cases := []struct {
		v     VariantID
		fen   string
		text  string
		kind  MoveErrorKind
		want  []string // substrings of Error()
		cands []string // MoveAmbiguous: the candidates
	}{
		{English, "", "", MoveMalformed, []string{"malformed", "no move text"}, nil},
		{English, "", "  !? ", MoveMalformed, []string{"no move text"}, nil},
		{English, "", "11", MoveMalformed, []string{`"11"`, "at least two squares"}, nil},
		{English, "", "11-", MoveMalformed, []string{"missing square"}, nil},
		{English, "", "-15", MoveMalformed, []string{"unexpected character '-' at offset 0"}, nil},
		{English, "", "11--15", MoveMalformed, []string{"offset 3"}, nil},
		{English, "", "11/15", MoveMalformed, []string{"'/' at offset 2"}, nil},
		{English, "", "11-33", MoveMalformed, []string{`"33"`, "out of range 1..32"}, nil},
		{English, "", "11-0", MoveMalformed, []string{`"0"`, "out of range"}, nil},
		{Russian, "", "c3-d5", MoveMalformed, []string{`"d5"`, "light square"}, nil},
		{Russian, "", "c3-i4", MoveMalformed, []string{`"i4"`, "off the 8x8 board"}, nil},
		{International, "", "31-51", MoveMalformed, []string{`"51"`, "1..50"}, nil},
		{English, "", "11-18", MoveIllegal, []string{"illegal", "piece on 11", "11-15, 11-16"}, nil},
		{English, "", "15-19", MoveIllegal, []string{"no piece on 15", "empty"}, nil},
		{English, "", "22-18", MoveIllegal, []string{"no piece on 22", "not to move"}, nil},
		{English, "W:W22:B18,26", "22-17", MoveIllegal, []string{"capture is compulsory", "22x15"}, nil},
		{English, "W:W22:B18,26", "22x15x26", MoveIllegal, []string{"22x15"}, nil},
		{English, "W:W22:B18,26", "22x15x18x18", MoveIllegal, []string{"22x15"}, nil},
		{English, "W::B1", "1-5", MoveIllegal, []string{"white has no legal move"}, nil},
		{Russian, "", "c3-e5", MoveIllegal, []string{"piece on c3", "c3-b4", "c3-d4"}, nil},
		{Russian, "W:Wa1:Bd4,f4", "c3:e5:g3", MoveIllegal, []string{"no piece on c3"}, nil},
		{English, "W:W26:B22,23,14,15", "26x10", MoveAmbiguous, []string{"ambiguous", "26x17x10", "26x19x10"},
			[]string{"26x17x10", "26x19x10"}},
		{Russian, "W:WKd2:Bc5,e5,c3,e3", "d2:b4:d6:f4:e1", MoveIllegal, []string{"d2:b4:d6:f4:c1"}, nil},
	}
	for _, c := range cases {
		p := StartPosition(c.v)
		if c.fen != "" {
			var err error
			p, err = ParseFEN(c.v, c.fen)
			require.NoError(t, err)
		}
		_, err := p.ParseMove(c.text)
		var me *MoveError
		if !assert.True(t, errors.As(err, &me), "%q: want a *MoveError, got %v", c.text, err) {
			continue
		}
		assert.Equal(t, c.kind, me.Kind, "%q: %v", c.text, err)
		assert.Equal(t, c.text, me.Text)
		for _, w := range c.want {
			assert.Contains(t, err.Error(), w, c.text)
		}
		if c.cands != nil {
			assert.ElementsMatch(t, c.cands, me.Candidates, c.text)
		}
	}
}

// TestParseMoveDisambiguation: a two-square text is a complete path first,
// and the ends of a longer capture only when no complete path matches.
func TestParseMoveDisambiguation(t *testing.T) {
	// English: the white king on 18 (d4) can take 22 and land on 25 at once,
	// or first go round 14, 6, 7, 15 back to 18 and then take 22.
	p, err := ParseFEN(English, "W:WK18:B14,6,7,15,22")
	require.NoError(t, err)
	var l MoveList
	p.Generate(&l)
	var single, long Move
	for _, m := range l.Slice() {
		switch m.NCapt {
		case 1:
			single = m
		case 5:
			long = m
		}
	}
	require.Equal(t, 1, int(single.NCapt), "moves: %v", l.Slice())
	require.Equal(t, 5, int(long.NCapt), "moves: %v", l.Slice())
	assert.Equal(t, "18x25", p.FormatMove(single, FormatFull))
	assert.Equal(t, "18x25", p.FormatMove(long, FormatShort))
	got, err := p.ParseMove("18x25")
	require.NoError(t, err)
	assert.Equal(t, single, got, "18x25 is the complete path of the single jump")
	got, err = p.ParseMove(p.FormatMove(long, FormatFull))
	require.NoError(t, err)
	assert.Equal(t, long, got)
	got, err = p.ParseMove("18x25x22x15x14x7x6")
	require.NoError(t, err)
	assert.Equal(t, long, got, "the Hub form tells them apart")
	got, err = p.ParseMove("18x25x22")
	require.NoError(t, err)
	assert.Equal(t, single, got)

	// The same situation in the test positions, wherever it occurs.
	for _, v := range AllVariants() {
		ps := notationPositions(t, v)
		for i := range ps {
			p := &ps[i]
			if !p.HasCapture() {
				continue
			}
			p.Generate(&l)
			for _, single := range l.Slice() {
				for _, long := range l.Slice() {
					if single.NCapt == 1 && long.NCapt > 1 && long.From == single.From && long.To == single.To {
						got, err := p.ParseMove(p.FormatMove(long, FormatShort))
						require.NoError(t, err)
						assert.Equal(t, single, got, "in %s", p.FEN())
					}
				}
			}
		}
	}
}

// TestCrowningPreference checks the Russian rule of ParseMove on a move
// list holding two routes that differ only in crowning. (By the rules such
// twins cannot arise, since a man can only reach its crowning row by a jump
// over a piece on the row before it, which the other route must jump too;
// the rule is still applied, as hub.md asks for one.)
func TestCrowningPreference(t *testing.T) {
	crown := Move{Captured: 1 << 10, From: 20, To: 2, Flags: FlagCrown, NCapt: 1}
	plain := crown
	plain.Flags = 0
	other := Move{Captured: 1 << 11, From: 20, To: 2, NCapt: 1}
	assert.True(t, hasCrowningTwin(plain, []Move{plain, crown}))
	assert.False(t, hasCrowningTwin(plain, []Move{plain, other}))
	assert.False(t, hasCrowningTwin(other, []Move{other, crown}))
}

// checkMoveRoundTrips formats every legal move of p in every format and
// reads it back. It returns false after the first failure.
func checkMoveRoundTrips(t *testing.T, p *Position) bool {
	t.Helper()
	var l MoveList
	p.Generate(&l)
	fen := p.FEN()
	seen := map[string]bool{}
	for _, m := range l.Slice() {
		full := p.FormatMove(m, FormatFull)
		if !assert.False(t, seen[full], "two moves written %s in %s", full, fen) {
			return false
		}
		seen[full] = true
		for _, f := range []MoveFormat{FormatFull, FormatNumeric, FormatHub, FormatShort} {
			text := p.FormatMove(m, f)
			got, err := p.ParseMove(text)
			if f == FormatShort && err != nil {
				var me *MoveError
				if !assert.True(t, errors.As(err, &me), "%s", err) ||
					!assert.Equal(t, MoveAmbiguous, me.Kind, "%s in %s: %v", text, fen, err) ||
					!assert.Contains(t, me.Candidates, full, "%s in %s", text, fen) {
					return false
				}
				same := 0
				for _, o := range l.Slice() {
					if o.From == m.From && o.To == m.To {
						same++
					}
				}
				if !assert.GreaterOrEqual(t, same, 2, "%s reported ambiguous in %s", text, fen) {
					return false
				}
				continue
			}
			if !assert.NoError(t, err, "%s text %q of %s in %s", f, text, full, fen) {
				return false
			}
			if got == m {
				continue
			}
			switch {
			case f == FormatShort && p.FormatMove(got, FormatFull) == text:
				// The text is the complete path of a single jump.
			case (f == FormatHub || f == FormatShort) && got.Crowns() && !m.Crowns() &&
				got.From == m.From && got.To == m.To && got.Captured == m.Captured:
				// Russian: the crowning route is preferred.
			default:
				assert.Equal(t, full, p.FormatMove(got, FormatFull), "%s text %q in %s", f, text, fen)
				return false
			}
		}
	}
	return true
}

// TestMoveRoundTrips: every legal move of every test position, in every
// format, reads back to itself.
func TestMoveRoundTrips(t *testing.T) {
	for _, v := range AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			ps := notationPositions(t, v)
			moves := 0
			for i := range ps {
				if !checkMoveRoundTrips(t, &ps[i]) {
					return
				}
				var l MoveList
				ps[i].Generate(&l)
				moves += l.N
			}
			t.Logf("%d positions, %d moves", len(ps), moves)
		})
	}
}

// fuzzMovePositions are the positions FuzzParseMove reads moves against.
var fuzzMovePositions = []struct {
	v   VariantID
	fen string
}{
	{Russian, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
	{English, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
	{International, "W:W31-50:B1-20"},
	{Brazilian, "W:Wc3:Bd4,f4"},
	{Russian, "W:Wh6:Bg7,c5,d2"},
	{Russian, "W:WKd2:Bc5,e5,c3,e3"},
	{English, "W:W26:B22,23,14,15"},
	{English, "W:WK26:B23,15,14,22"},
	{International, "W:WK46,28:B37,24,13,11,K4"},
}

func FuzzParseMove(f *testing.F) {
	for i, s := range []string{"11-15", "c3:e5:g3", "26x10", "d2:f4:d6:b4:d2", "5x30x9x18x26", "32-28"} {
		f.Add(uint8(i), s)
	}
	positions := make([]Position, len(fuzzMovePositions))
	for i, fp := range fuzzMovePositions {
		p, err := ParseFEN(fp.v, fp.fen)
		require.NoError(f, err)
		positions[i] = p
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		p := &positions[int(which)%len(positions)]
		m, err := p.ParseMove(text)
		if err != nil {
			var me *MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%q: error %v is not a *MoveError", text, err)
			}
			if me.Kind == MoveAmbiguous && len(me.Candidates) < 2 {
				t.Fatalf("%q: ambiguous with %d candidates", text, len(me.Candidates))
			}
			return
		}
		var l MoveList
		p.Generate(&l)
		legal := false
		for _, o := range l.Slice() {
			legal = legal || o == m
		}
		if !legal {
			t.Fatalf("%q in %s: parsed to a move that is not legal: %+v", text, p.FEN(), m)
		}
		back, err := p.ParseMove(p.FormatMove(m, FormatFull))
		if err != nil || back != m {
			t.Fatalf("%q in %s: full form %q does not read back: %v", text, p.FEN(), p.FormatMove(m, FormatFull), err)
		}
	})
}
