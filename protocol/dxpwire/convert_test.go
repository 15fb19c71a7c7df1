package dxpwire

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

func TestBoardStartPositions(t *testing.T) {
	want := map[engine.VariantID]string{
		engine.International: startBoard10,
		engine.Russian:       "zzzzzzzzzzzzeeeeeeeewwwwwwwwwwww",
		engine.English:       "zzzzzzzzzzzzeeeeeeeewwwwwwwwwwww",
		engine.Brazilian:     "zzzzzzzzzzzzeeeeeeeewwwwwwwwwwww",
	}
	for v, w := range want {
		p := engine.StartPosition(v)
		assert.Equal(t, w, EncodeBoard(&p), v.String())
		back, err := DecodeBoard(v, p.Side, w)
		require.NoError(t, err)
		assert.Equal(t, p, back, v.String())
	}
}

func TestBoardKingsAndErrors(t *testing.T) {
	p, err := engine.ParseFEN(engine.International, "B:WK1,46,47:BK50,2,3")
	require.NoError(t, err)
	b := EncodeBoard(&p)
	assert.Equal(t, "Wzz"+repeat('e', 42)+"wweeZ", b)
	back, err := DecodeBoard(engine.International, engine.Black, b)
	require.NoError(t, err)
	assert.Equal(t, p, back)

	_, err = DecodeBoard(engine.Russian, engine.White, startBoard10)
	assert.ErrorContains(t, err, "position has 50 squares, russian needs 32")
	_, err = DecodeBoard(engine.International, engine.White, "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwwb")
	assert.ErrorContains(t, err, "square 50 is 'b'")
	// A white man on White's crowning row.
	_, err = DecodeBoard(engine.International, engine.White, "w"+repeat('e', 48)+"z")
	assert.ErrorContains(t, err, "crowning row")
}

func repeat(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// TestMoveRoundTrip plays random games in every variant and checks that
// every legal move survives MoveMessage, the wire and FindMove, with the
// captured squares in any order.
func TestMoveRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for _, v := range engine.AllVariants() {
		moves := 0
		games := 20
		if testing.Short() {
			games = 8
		}
		for range games {
			p := engine.StartPosition(v)
			for ply := 0; ply < 200; ply++ {
				var list engine.MoveList
				p.Generate(&list)
				if list.N == 0 {
					break
				}
				for _, m := range list.Slice() {
					mm := MoveMessage(&p, m, 3)
					wire, err := Encode(mm)
					require.NoError(t, err)
					dec, err := Decode(wire)
					require.NoError(t, err)
					back := dec.(*Move)
					rng.Shuffle(len(back.Captured), func(i, j int) {
						back.Captured[i], back.Captured[j] = back.Captured[j], back.Captured[i]
					})
					got, err := FindMove(&p, back)
					require.NoError(t, err, "%s %s in %s", v, wire, p.FEN())
					assert.Equal(t, m, got, "%s %s in %s", v, wire, p.FEN())
					moves++
				}
				p = p.Play(list.Moves[rng.IntN(list.N)])
			}
		}
		assert.Greater(t, moves, 1000, v.String())
	}
}

func TestFindMoveSpecExampleAndErrors(t *testing.T) {
	// A flying king capture, 5x14x23x45 taking 10, 19 and 40: the only
	// legal move.
	p, err := engine.ParseFEN(engine.International, "W:WK5,46:B10,19,40")
	require.NoError(t, err)
	var list engine.MoveList
	p.Generate(&list)
	require.Positive(t, list.N)
	m := list.Moves[0]
	mm := MoveMessage(&p, m, 12)
	assert.Equal(t, &Move{Seconds: 12, From: 5, To: 45, Captured: []int{10, 19, 40}}, mm)

	// Without captured squares: still found when origin and destination
	// name one capture.
	got, err := FindMove(&p, &Move{From: mm.From, To: mm.To})
	require.NoError(t, err)
	assert.Equal(t, m, got)

	q := engine.StartPosition(engine.International)
	_, err = FindMove(&q, &Move{From: 31, To: 22})
	assert.ErrorContains(t, err, "move 31-22 is not legal for white")
	_, err = FindMove(&q, &Move{From: 31, To: 51})
	assert.ErrorContains(t, err, "squares must be 01..50")
	_, err = FindMove(&q, &Move{From: 31, To: 26, Captured: []int{60}})
	assert.ErrorContains(t, err, "captured square 60")
	_, err = FindMove(&q, &Move{From: 31, To: 26, Captured: []int{20, 20}})
	assert.ErrorContains(t, err, "given twice")
	_, err = FindMove(&q, &Move{From: 32, To: 28, Captured: []int{27}})
	assert.ErrorContains(t, err, "capturing 27")
	good, err := FindMove(&q, &Move{From: 32, To: 28})
	require.NoError(t, err)
	assert.Equal(t, "32-28", q.FormatMove(good, engine.FormatFull))

	r := engine.StartPosition(engine.Russian)
	_, err = FindMove(&r, &Move{From: 22, To: 33})
	assert.ErrorContains(t, err, "01..32")
}
