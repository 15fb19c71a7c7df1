package dxpwire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestReasonResult: each result, reported by either colour, is read back
// as the same result by the receiver, and the reasons are the sender's.
func TestReasonResult(t *testing.T) {
	for _, r := range []engine.Result{engine.Ongoing, engine.WhiteWins, engine.BlackWins, engine.Draw} {
		for _, c := range []engine.Color{engine.White, engine.Black} {
			assert.Equal(t, r, ReasonFor(r, c).Result(c), "%v from %v", r, c)
		}
	}
	assert.Equal(t, EndWin, ReasonFor(engine.WhiteWins, engine.White))
	assert.Equal(t, EndLose, ReasonFor(engine.WhiteWins, engine.Black))
	assert.Equal(t, EndDraw, ReasonFor(engine.Draw, engine.Black))
	assert.Equal(t, EndNone, ReasonFor(engine.Ongoing, engine.White))
	assert.Equal(t, engine.BlackWins, EndWin.Result(engine.Black))
	assert.Equal(t, engine.Ongoing, EndReason(9).Result(engine.White))
}

// TestSetStart: the variant's start position is sent as 'A', any other as
// 'B' with its side to move and board, and a GameReq reused for the start
// position again loses its set-up.
func TestSetStart(t *testing.T) {
	for _, v := range []engine.VariantID{engine.International, engine.English, engine.Russian} {
		var m GameReq
		std := engine.StartPosition(v)
		m.SetStart(&std)
		assert.False(t, m.Setup, "%v", v)
		b, err := Encode(&m)
		require.NoError(t, err)
		assert.Equal(t, byte('A'), b[len(b)-1], "%v", v)

		other := std.Play(firstMove(&std))
		m.SetStart(&other)
		assert.True(t, m.Setup)
		assert.Equal(t, other.Side, m.ToMove)
		assert.Equal(t, EncodeBoard(&other), m.Board)

		m.SetStart(&std)
		assert.Equal(t, GameReq{}, m)
	}
}

func firstMove(p *engine.Position) engine.Move {
	var list engine.MoveList
	p.Generate(&list)
	return list.Slice()[0]
}

// TestASCIIText: names and texts become printable ASCII, byte by byte,
// cut to the width, and never empty.
func TestASCIIText(t *testing.T) {
	assert.Equal(t, "damka", ASCIIText("damka", NameLen))
	assert.Equal(t, "Fran??ais?", ASCIIText("Fran\u00e7ais\n", NameLen), "byte by byte")
	assert.Equal(t, "?", ASCIIText("", NameLen))
	assert.Len(t, ASCIIText(string(make([]byte, 100)), NameLen), NameLen)
}
