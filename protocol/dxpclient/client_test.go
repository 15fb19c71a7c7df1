package dxpclient

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxp"
	"github.com/damka-draughts/damka/search"
)

// testTimeout bounds every session of these tests.
const testTimeout = 60 * time.Second

// TestAgainstFollower: a Client refereeing damka's own DXP follower
// plays whole games: from the start position and from a set-up position,
// with the engine as either colour, moves relayed both ways (the client's
// side plays the first legal move), each game ended with GAMEEND by
// whichever side the rules end it for; the follower records the same
// results.
func TestAgainstFollower(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	a, b := net.Pipe()
	p := player.New(player.Config{BookSeed: 1})
	p.SetVariant(engine.International)
	for _, kv := range [][2]string{{player.SetThreads, "1"}, {player.SetHash, "1"}, {player.SetBook, "false"}} {
		require.NoError(t, p.Set(kv[0], kv[1]))
	}
	var folLog logjson.Buffer
	var folSum dxp.Summary
	var folErr error
	done := make(chan struct{})
	go func() {
		folSum, folErr = dxp.Run(ctx, b, dxp.Config{
			Variant: engine.International, Role: dxp.Follower, Name: "damka", Player: p,
			Limits: search.Limits{Depth: 1, Nodes: 1000}, AckTimeout: 5 * time.Second, MessageGap: -1,
			Logger: zerolog.New(&folLog).Level(zerolog.DebugLevel),
		})
		close(done)
	}()
	r := New(a, engine.International, "referee", zerolog.Nop())
	setUp, err := engine.ParseFEN(engine.International, "B:W31-50:B1-20")
	require.NoError(t, err)
	for i, c := range []struct {
		start engine.Position
		color engine.Color
	}{
		{engine.StartPosition(engine.International), engine.White},
		{engine.StartPosition(engine.International), engine.Black},
		{setUp, engine.White},
	} {
		name, err := r.NewGame(ctx, c.start, c.color, 1, 0)
		require.NoError(t, err)
		assert.Equal(t, "damka", name)
		g := engine.NewGame(c.start)
		res := engine.Ongoing
		ended := false
		for ply := 0; ply < 300; ply++ {
			if res, _ = g.Result(); res != engine.Ongoing {
				break
			}
			pos := g.Position()
			if pos.Side == c.color {
				rm, err := r.ReadMove(ctx, &pos)
				if end, ok := err.(*GameEnd); ok {
					// damka's follower ends a game the rules end
					// for it (it checks before it moves).
					t.Logf("game %d: the engine sent GAMEEND %s", i+1, end.Reason)
					res, ended = end.Result, true
					break
				}
				require.NoError(t, err)
				require.NoError(t, rm.Err, rm.Text)
				g.Play(rm.Move)
				continue
			}
			var list engine.MoveList
			pos.Generate(&list)
			m := list.Slice()[0]
			require.NoError(t, r.SendMove(&pos, m, 0))
			g.Play(m)
		}
		if res == engine.Ongoing {
			res = engine.Draw
		}
		t.Logf("game %d: %d plies, %s", i+1, g.Ply(), res)
		assert.Greater(t, g.Ply(), 10)
		if !ended {
			require.NoError(t, r.EndGame(ctx, res, c.color), "game %d", i+1)
		}
	}
	require.NoError(t, r.Close())
	<-done
	require.NoError(t, folErr)
	assert.Equal(t, 3, folSum.Games)
	assert.Equal(t, 0, folSum.Unfinished, folLog.String())
	assert.Equal(t, 3, folSum.Wins+folSum.Draws+folSum.Losses)
}
