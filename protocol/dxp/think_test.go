package dxp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// TestBookMoveWithoutSearch: with the player's book on, damka's move in a
// book position comes from the embedded book (the player's Go probes it)
// and the engine is not asked.
func TestBookMoveWithoutSearch(t *testing.T) {
	v := engine.Russian
	b, err := book.Default(v)
	require.NoError(t, err)
	cfg, fe, _ := scripted(v, Follower)
	require.NoError(t, cfg.Player.Set(player.SetBook, "true"))
	require.NoError(t, cfg.Player.Set(player.SetBookMargin, "10"))
	p, done := startDamka(t, testContext(t), cfg)
	start := engine.StartPosition(v)
	g := engine.NewGame(start)
	p.sendMsg(gameReq(engine.White, nil)) // damka plays white and moves first
	p.expectAcc(dxpwire.AccAccepted)
	p.expectMove(g)
	found := false
	for _, e := range b.Probe(&start) {
		found = found || e.Move == g.Moves()[0]
	}
	assert.True(t, found, "damka's first move is not a book move")
	assert.Empty(t, fe.searches(), "a book move needs no search")
	p.send("E21")
	assert.Equal(t, dxpwire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	require.NoError(t, result(t, done).err)
}

// TestBookFileOfThePlayer: the player's book-file is the session's book:
// damka plays its only move at the start, one the fake engine never
// chooses, without a search.
func TestBookFileOfThePlayer(t *testing.T) {
	v := engine.Russian
	start := engine.StartPosition(v)
	var list engine.MoveList
	start.Generate(&list)
	only := list.Moves[list.N-1] // the fake engine plays the first
	data, err := book.Encode(v, "dxp test book", []book.Record{{Position: start, Moves: []book.Entry{{Move: only, Weight: 1}}}})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "russian.book")
	require.NoError(t, os.WriteFile(path, data, 0o644))

	cfg, fe, _ := scripted(v, Follower)
	require.NoError(t, cfg.Player.Set(player.SetBook, "true"))
	require.NoError(t, cfg.Player.Set(player.SetBookFile, path))
	p, done := startDamka(t, testContext(t), cfg)
	g := engine.NewGame(start)
	p.sendMsg(gameReq(engine.White, nil))
	p.expectAcc(dxpwire.AccAccepted)
	p.expectMove(g)
	assert.Equal(t, only, g.Moves()[0], "the book file's move")
	assert.Empty(t, fe.searches(), "a book move needs no search")
	p.send("E21")
	p.expectEnd()
	p.conn.Close()
	require.NoError(t, result(t, done).err)
}

// TestMoveOverheadOfThePlayer: the search's move overhead is the player's
// move-overhead setting; Config.Limits.MoveOverhead is not used.
func TestMoveOverheadOfThePlayer(t *testing.T) {
	v := engine.International
	cfg, fe, _ := scripted(v, Follower)
	require.NoError(t, cfg.Player.Set(player.SetMoveOverhead, "250"))
	cfg.Limits = search.Limits{MoveOverhead: 5 * time.Second}
	p, done := startDamka(t, testContext(t), cfg)
	g := engine.NewGame(engine.StartPosition(v))
	p.sendMsg(gameReq(engine.White, nil))
	p.expectAcc(dxpwire.AccAccepted)
	p.expectMove(g)
	p.send("E21")
	p.expectEnd()
	p.conn.Close()
	require.NoError(t, result(t, done).err)
	ls := fe.searches()
	require.Len(t, ls, 1)
	assert.Equal(t, 250*time.Millisecond, ls[0].MoveOverhead)
}

// TestSessionVariantOnThePlayer: a player of another variant than
// Config.Variant is set to the session's variant at Run, and plays its
// games by that variant's rules.
func TestSessionVariantOnThePlayer(t *testing.T) {
	v := engine.International
	cfg, fe, _ := scripted(v, Follower)
	cfg.Player.SetVariant(engine.Russian)
	p, done := startDamka(t, testContext(t), cfg)
	g := engine.NewGame(engine.StartPosition(v))
	p.sendMsg(gameReq(engine.White, nil))
	p.expectAcc(dxpwire.AccAccepted)
	p.expectMove(g) // an international move from the international start
	p.send("E21")
	p.expectEnd()
	p.conn.Close()
	require.NoError(t, result(t, done).err)
	assert.Equal(t, v, cfg.Player.Variant())
	assert.Len(t, fe.searches(), 1)
}

// TestRunWithoutPlayer: Run refuses a Config without a player and closes
// the connection.
func TestRunWithoutPlayer(t *testing.T) {
	cfg, _, _ := scripted(engine.Russian, Follower)
	cfg.Player = nil
	c := &closeRecorder{}
	_, err := Run(context.Background(), c, cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Config.Player is nil")
	assert.True(t, c.closed)
}

// closeRecorder is a connection that records Close; reads end at once.
type closeRecorder struct{ closed bool }

func (c *closeRecorder) Read([]byte) (int, error)    { return 0, os.ErrClosed }
func (c *closeRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (c *closeRecorder) Close() error                { c.closed = true; return nil }
