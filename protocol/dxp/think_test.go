package dxp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/book"
	"damka/engine"
	"damka/protocol/dxp/internal/wire"
)

// TestBookMoveWithoutSearch: with a book, damka's move in a book position
// comes from the book (search.Start probes it) and the engine is not
// asked.
func TestBookMoveWithoutSearch(t *testing.T) {
	v := engine.Russian
	b, err := book.Default(v)
	require.NoError(t, err)
	cfg, fe, _ := scripted(v, Follower)
	cfg.Book, cfg.BookMargin = b, 10
	p, done := startDamka(t, testContext(t), cfg)
	start := engine.StartPosition(v)
	g := engine.NewGame(start)
	p.sendMsg(gameReq(engine.White, nil)) // damka plays white and moves first
	p.expectAcc(wire.AccAccepted)
	p.expectMove(g)
	found := false
	for _, e := range b.Probe(&start) {
		found = found || e.Move == g.Moves()[0]
	}
	assert.True(t, found, "damka's first move is not a book move")
	assert.Empty(t, fe.searches(), "a book move needs no search")
	p.send("E21")
	assert.Equal(t, wire.EndNone, p.expectEnd().Reason)
	p.conn.Close()
	require.NoError(t, result(t, done).err)
}
