package cb

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

func TestParseFENLenient(t *testing.T) {
	// CheckerBoard's probe: a white man on its crowning row, Black to move
	// without pieces. damka's FEN reader refuses the man; the lenient one
	// takes it.
	_, err := engine.ParseFEN(engine.English, "B:W1:B")
	require.Error(t, err)
	p, err := ParseFEN(engine.English, "B:W1:B")
	require.NoError(t, err)
	assert.Equal(t, engine.WhiteMan, p.PieceAt(1))
	assert.Equal(t, engine.Black, p.Side)

	p, err = ParseFEN(engine.Russian, "W:W21-32:B1-12")
	require.NoError(t, err)
	start := engine.StartPosition(engine.Russian)
	assert.True(t, samePosition(&p, &start))

	for _, bad := range []string{"", "X:W1:B2", "W:W33:B1", "W:Wx:B1", "W:W5,5:B5"} {
		_, err := ParseFEN(engine.English, bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestFENRoundTrip(t *testing.T) {
	for _, s := range []string{"B:WK12,K27,30,32:B21,K24,28,K31", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", "W:W:BK5"} {
		p, err := ParseFEN(engine.English, s)
		require.NoError(t, err)
		assert.Equal(t, s, FEN(&p))
	}
}

func TestParseGameHistSpecExample(t *testing.T) {
	g, err := ParseGameHist(engine.English, "B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24 19-15 12-16")
	require.NoError(t, err)
	assert.Equal(t, 4, g.Ply())
	p := g.Position()
	assert.Equal(t, "B:WK16,K24,30,32:BK15,21,28,K31", FEN(&p))
	assert.Equal(t, uint16(4), g.DrawState().Reversible)
}

// shuffleHist returns a gamehist of n king moves back and forth, two
// kings in opposite corners: every four moves repeat the position.
func shuffleHist(n int) string {
	moves := []string{"29-25", "4-8", "25-29", "8-4"}
	var sb strings.Builder
	sb.WriteString("W:WK29:BK4")
	for i := 0; i < n; i++ {
		sb.WriteString(" " + moves[i%4])
	}
	return sb.String()
}

func TestParseGameHistLongAndRepeating(t *testing.T) {
	s := shuffleHist(60)
	require.Greater(t, len(s), 300, "longer than CheckerBoard's 256-character command buffer")
	g, err := ParseGameHist(engine.English, s)
	require.NoError(t, err)
	assert.Equal(t, 60, g.Ply())
	assert.GreaterOrEqual(t, g.Repetitions(), 3)
	r, why := g.Result()
	assert.Equal(t, engine.Draw, r, "threefold repetition: %v", why)
}

func TestParseGameHistErrors(t *testing.T) {
	const hist = "B:WK12,K27,30,32:B21,K24,28,K31"
	for s, want := range map[string]string{
		"":                "missing FEN",
		"Q:W1:B2":         "gamehist:",
		hist + " 24-19 x": "move 2 of 2",
		hist + " 24-23":   "not a legal move",
		hist + " 99-19":   "not a square",
		hist + " 24":      "want from-to",
	} {
		_, err := ParseGameHist(engine.English, s)
		assert.ErrorContains(t, err, want, "%q", s)
	}
}

func TestParseMoveTextCaptures(t *testing.T) {
	// Russian: a white man on 22 takes 18 and 11 (22x15x8 in landing
	// squares); the short form, the full path and ':' all work.
	p, err := ParseFEN(engine.Russian, "W:W22:B18,11,1")
	require.NoError(t, err)
	var list engine.MoveList
	p.Generate(&list)
	require.Equal(t, 1, list.N)
	path := p.Path(list.Moves[0])
	var parts []string
	for _, s := range path {
		parts = append(parts, strconv.Itoa(int(s)))
	}
	for _, s := range []string{parts[0] + "-" + parts[len(parts)-1], strings.Join(parts, "x"), strings.Join(parts, ":")} {
		m, err := ParseMoveText(&p, s)
		require.NoError(t, err, s)
		assert.Equal(t, list.Moves[0], m)
	}
}

// parseMoveList reads a "get movelist" answer as CheckerBoard's
// get_movelist_from_engine does and returns one CBmove per move.
func parseMoveList(t *testing.T, s string) []Move {
	t.Helper()
	require.True(t, strings.HasPrefix(s, "movelist "), s)
	body := strings.TrimPrefix(s, "movelist ")
	if body == "0" {
		return nil
	}
	n, rest, ok := strings.Cut(body, ",")
	require.True(t, ok, s)
	count, err := strconv.Atoi(n)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(rest, ";"), s)
	entries := strings.Split(strings.TrimSuffix(rest, ";"), ";")
	require.Len(t, entries, count)
	var out []Move
	for _, e := range entries {
		var f []int
		for _, x := range strings.Split(e, ",") {
			v, err := strconv.Atoi(x)
			require.NoError(t, err, e)
			f = append(f, v)
		}
		require.GreaterOrEqual(t, len(f), 5, e)
		m := Move{Jumps: int32(f[0]), OldPiece: int32(f[1]), NewPiece: int32(f[2]), From: SquareCoor(f[3]), To: SquareCoor(f[4])}
		require.Len(t, f, 5+3*f[0], e)
		m.Path[0] = m.From
		for i := 0; i < f[0]; i++ {
			m.Path[i+1] = SquareCoor(f[5+3*i])
			m.Del[i] = SquareCoor(f[6+3*i])
			m.DelPiece[i] = int32(f[7+3*i])
		}
		if m.Jumps == 0 {
			m.Path[1] = m.To
		}
		out = append(out, m)
	}
	return out
}

func TestMoveList(t *testing.T) {
	p, err := ParseFEN(engine.English, "B:W1:B")
	require.NoError(t, err)
	assert.Equal(t, "movelist 0", MoveList(&p))

	// Two quiet moves of a black man on 3 (English).
	p, err = ParseFEN(engine.English, "B:W31:B3")
	require.NoError(t, err)
	assert.Equal(t, "movelist 2,0,6,6,3,7;0,6,6,3,8;", MoveList(&p))

	// A Russian double capture: jumps 2, a white man (5) from 22 over 18
	// to 15 and over 11 to 8 (or 6: free choice, both listed).
	p, err = ParseFEN(engine.Russian, "W:W22:B18,11,1")
	require.NoError(t, err)
	assert.Equal(t, "movelist 1,2,5,5,22,8,15,18,6,8,11,6;", MoveList(&p))

	// Every move of random positions survives CheckerBoard's parser.
	for _, v := range []engine.VariantID{engine.English, engine.Russian, engine.Brazilian} {
		p := engine.StartPosition(v)
		for ply := 0; ply < 120; ply++ {
			var list engine.MoveList
			p.Generate(&list)
			got := parseMoveList(t, MoveList(&p))
			require.Len(t, got, list.N)
			for i, m := range list.Slice() {
				want := ToMove(&p, m)
				require.Equal(t, want, got[i], "%v %s move %d", v, FEN(&p), i)
			}
			if list.N == 0 {
				break
			}
			p = p.Play(list.Moves[(ply*7)%list.N])
		}
	}
}
