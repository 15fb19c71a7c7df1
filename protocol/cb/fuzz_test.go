package cb

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

var fuzzVariants = []engine.VariantID{engine.English, engine.Russian, engine.Brazilian}

// FuzzParseGameHist: the "set gamehist" reader never panics; what it takes
// is a game whose every move is legal, and the engine answers the command
// with a reply that fits its buffer.
func FuzzParseGameHist(f *testing.F) {
	for _, s := range []string{
		"B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24 19-15 12-16",
		"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
		"W:WK29:BK4 29-25 4-8 25-29 8-4",
		"W:W22:B18,11,1 22x15x8",
		"W:W21-32:B1-12 22-18 11-15 18x11",
		"B:W1:B", "", "W:W:B 1-", "\"W:WK1-3:BK30-32\".",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range fuzzVariants {
			g, err := ParseGameHist(v, s)
			if err != nil {
				require.Nil(t, g)
				require.NotEmpty(t, err.Error())
			} else {
				// Replay: every move is legal from the start.
				r := engine.NewGame(g.Start())
				for _, m := range g.Moves() {
					require.NoError(t, r.PlayChecked(m))
				}
			}
			e := New(Config{Variant: v, HasVariant: true})
			reply, _ := e.Command("set gamehist " + s)
			require.Less(t, len(reply), ReplySize)
		}
	})
}

// FuzzMoveList: "get movelist" never panics, its reply fits the buffer,
// and a handled reply is well formed: "movelist 0" or N moves, each ended
// by ';', with as many moves as the position has.
func FuzzMoveList(f *testing.F) {
	for _, s := range []string{"B:W1:B", "B:W31:B3", "W:W22:B18,11,1", "W:WK29:B22,15,6",
		"W:W21-32:B1-12", "B:WK1,K4,K29,K32:BK10,K15", "W:Wa1,c1:Bh8", "", "W", "B:W0:B33"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range fuzzVariants {
			e := New(Config{Variant: v, HasVariant: true})
			reply, ok := e.Command("get movelist " + s)
			require.Less(t, len(reply), ReplySize)
			if !ok {
				continue
			}
			require.True(t, strings.HasPrefix(reply, "movelist "), reply)
			p, err := ParseFEN(v, s)
			require.NoError(t, err)
			var list engine.MoveList
			p.Generate(&list)
			if list.N == 0 {
				require.Equal(t, "movelist 0", reply)
			} else {
				require.Equal(t, list.N, strings.Count(reply, ";"))
			}
		}
	})
}
