package dxp

import (
	"context"
	"net"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// TestRemoteAgainstFollower: a Remote refereeing damka's own DXP follower
// plays whole games: from the start position and from a set-up position,
// with the engine as either colour, moves relayed both ways (the remote's
// side plays the first legal move), each game ended with GAMEEND by
// whichever side the rules end it for; the follower records the same
// results.
func TestRemoteAgainstFollower(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	a, b := net.Pipe()
	fol := newEndpoint(engine.International, Follower, "damka")
	fol.cfg.Limits = quick
	fol.cfg.MessageGap = -1
	done := make(chan struct{})
	go func() {
		fol.sum, fol.err = Run(ctx, b, fol.cfg)
		close(done)
	}()
	r := NewRemote(a, engine.International, "referee", zerolog.Nop())
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
				if end, ok := err.(*RemoteEnd); ok {
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
	require.NoError(t, fol.err)
	assert.Equal(t, 3, fol.sum.Games)
	assert.Equal(t, 0, fol.sum.Unfinished, fol.log.String())
	assert.Equal(t, 3, fol.sum.Wins+fol.sum.Draws+fol.sum.Losses)
}
