package cb

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// initBoard is CheckerBoard's InitCheckerBoard: Black on y = 0..2, White
// on y = 5..7.
func initBoard() Board {
	var b Board
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			if (x+y)%2 != 0 {
				continue
			}
			switch {
			case y <= 2:
				b[x][y] = Black | Man
			case y >= 5:
				b[x][y] = White | Man
			}
		}
	}
	return b
}

func TestSquareCoorMatchesCheckerBoard(t *testing.T) {
	// cb_interface.h's default numbertocoors.
	assert.Equal(t, Coor{6, 0}, SquareCoor(1))
	assert.Equal(t, Coor{0, 0}, SquareCoor(4))
	assert.Equal(t, Coor{7, 1}, SquareCoor(5))
	assert.Equal(t, Coor{1, 7}, SquareCoor(32))
	seen := map[Coor]bool{}
	for n := 1; n <= 32; n++ {
		c := SquareCoor(n)
		require.Equal(t, n, CoorSquare(int(c.X), int(c.Y)), "square %d", n)
		require.Zero(t, (c.X+c.Y)%2, "square %d on a light square", n)
		require.False(t, seen[c])
		seen[c] = true
	}
	assert.Zero(t, CoorSquare(1, 0), "light square")
	assert.Zero(t, CoorSquare(-1, 1))
	assert.Zero(t, CoorSquare(0, 8))
}

func TestStartPositionRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		v     engine.VariantID
		color int
	}{{engine.English, Black}, {engine.Russian, White}, {engine.Brazilian, White}} {
		b := initBoard()
		p, err := ToPosition(tc.v, &b, tc.color)
		require.NoError(t, err)
		start := engine.StartPosition(tc.v)
		assert.True(t, samePosition(&p, &start), "%v: CheckerBoard's start is damka's", tc.v)
		assert.Equal(t, start.Key, p.Key)
		assert.Equal(t, b, FromPosition(&start))
	}
}

func TestToPositionErrors(t *testing.T) {
	b := initBoard()
	b[1][0] = White | Man // light square
	_, err := ToPosition(engine.English, &b, Black)
	assert.ErrorContains(t, err, "board[1][0] = 5: a piece on a light square")

	b = initBoard()
	b[0][0] = 3
	_, err = ToPosition(engine.English, &b, Black)
	assert.ErrorContains(t, err, "square 4) = 3: not a piece code")

	b = initBoard()
	_, err = ToPosition(engine.English, &b, 3)
	assert.ErrorContains(t, err, "color 3")
	_, err = ToPosition(engine.English, nil, Black)
	assert.Error(t, err)
}

func TestVariantAndGameType(t *testing.T) {
	for _, v := range []engine.VariantID{engine.English, engine.Russian, engine.Brazilian} {
		got, err := Variant(GameType(v))
		require.NoError(t, err)
		assert.Equal(t, v, got)
	}
	_, err := Variant(22)
	assert.ErrorContains(t, err, "game type 22")
	assert.Zero(t, GameType(engine.International))
}

// applyCB plays a CBmove on a board as CheckerBoard's domove does: the
// piece leaves From, the captured pieces go, NewPiece lands on To.
func applyCB(b Board, m Move) Board {
	b[m.From.X][m.From.Y] = Free
	for i := 0; i < int(m.Jumps); i++ {
		b[m.Del[i].X][m.Del[i].Y] = Free
	}
	b[m.To.X][m.To.Y] = m.NewPiece
	return b
}

// checkMove checks every field of ToMove(p, m).
func checkMove(t *testing.T, p *engine.Position, m engine.Move) {
	t.Helper()
	cm := ToMove(p, m)
	b := FromPosition(p)
	after := p.Play(m)
	require.Equal(t, FromPosition(&after), applyCB(b, cm), "%s: board after the CBmove", p.FormatMove(m, engine.FormatHub))
	require.Equal(t, b[cm.From.X][cm.From.Y], cm.OldPiece)
	require.Equal(t, int(m.NCapt), int(cm.Jumps))
	require.Equal(t, cm.From, cm.Path[0])
	if !m.IsCapture() {
		require.Equal(t, cm.To, cm.Path[1])
		return
	}
	require.Equal(t, cm.To, cm.Path[cm.Jumps], "the last landing square is To")
	for i := 0; i < int(cm.Jumps); i++ {
		// Jump i goes from Path[i] to Path[i+1] over Del[i], on a diagonal.
		a, c, d := cm.Path[i], cm.Path[i+1], cm.Del[i]
		require.Equal(t, abs(c.X-a.X), abs(c.Y-a.Y), "jump %d on a diagonal", i)
		require.Equal(t, abs(d.X-a.X), abs(d.Y-a.Y), "captured piece %d on the jump's diagonal", i)
		require.True(t, between(a.X, d.X, c.X) && between(a.Y, d.Y, c.Y), "captured piece %d between the landing squares", i)
		require.Equal(t, b[d.X][d.Y], cm.DelPiece[i])
		require.NotZero(t, cm.DelPiece[i]&cbColor(p.Side.Opp()))
	}
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func between(a, b, c int32) bool { return (a < b && b < c) || (a > b && b > c) }

func TestToMoveOnRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range []engine.VariantID{engine.English, engine.Russian, engine.Brazilian} {
		captures := 0
		for game := 0; game < 40; game++ {
			p := engine.StartPosition(v)
			for ply := 0; ply < 200; ply++ {
				var list engine.MoveList
				p.Generate(&list)
				if list.N == 0 {
					break
				}
				for _, m := range list.Slice() {
					checkMove(t, &p, m)
					if m.NCapt > 1 {
						captures++
					}
				}
				p = p.Play(list.Moves[rng.IntN(list.N)])
			}
		}
		assert.Greater(t, captures, 10, "%v: multi-captures were checked", v)
	}
}

func TestToMoveFlyingKingAndCrowning(t *testing.T) {
	// Russian: the white king on 29 (the long diagonal) takes 22 and 15
	// in one move, landing between them.
	p, err := ParseFEN(engine.Russian, "W:WK29:B22,15,6")
	require.NoError(t, err)
	var list engine.MoveList
	p.Generate(&list)
	require.NotZero(t, list.N)
	for _, m := range list.Slice() {
		checkMove(t, &p, m)
	}
	// English: a man crowned by a plain move.
	p, err = ParseFEN(engine.English, "W:W6:B30")
	require.NoError(t, err)
	p.Generate(&list)
	for _, m := range list.Slice() {
		cm := ToMove(&p, m)
		assert.Equal(t, int32(White|Man), cm.OldPiece)
		assert.Equal(t, int32(White|King), cm.NewPiece)
	}
}

func TestCLayout(t *testing.T) {
	// cb_interface.h: int board[8][8] and struct CBmove with 32-bit ints.
	assert.Equal(t, uintptr(256), unsafe.Sizeof(Board{}))
	assert.Equal(t, uintptr(268), unsafe.Sizeof(Move{}))
	assert.Equal(t, uintptr(20), unsafe.Offsetof(Move{}.To))
	assert.Equal(t, uintptr(124), unsafe.Offsetof(Move{}.Del))
}
