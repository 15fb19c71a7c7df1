package dxp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// testTimeout bounds every session of these tests.
const testTimeout = 60 * time.Second

// quick are search limits that keep games fast.
var quick = search.Limits{Depth: 1, Nodes: 1000}

// newPlayer returns a player of variant v with one thread, a 1 MiB table
// and no book; mk, if not nil, makes its searcher (a fake).
func newPlayer(v engine.VariantID, mk func(search.Options) player.Searcher) *player.Player {
	p := player.New(player.Config{NewSearcher: mk, BookSeed: 1})
	p.SetVariant(v)
	for _, kv := range [][2]string{{player.SetThreads, "1"}, {player.SetHash, "1"}, {player.SetBook, "false"}} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			panic(err) // the values are in range
		}
	}
	return p
}

// endpoint is one damka side of a test: its config, its games and its
// log.
type endpoint struct {
	cfg     Config
	mu      sync.Mutex
	records []*GameRecord
	pdn     bytes.Buffer
	log     *logjson.Buffer
	sum     Summary
	err     error
}

func newEndpoint(v engine.VariantID, role Role, name string) *endpoint {
	ep := &endpoint{log: &logjson.Buffer{}}
	ep.cfg = Config{
		Variant: v, Role: role, Name: name, Player: newPlayer(v, nil), Limits: quick,
		AckTimeout: 5 * time.Second,
		MessageGap: 10 * time.Millisecond, // fast tests; TestOneMessagePerRead checks the gap
		Logger:     zerolog.New(ep.log).Level(zerolog.DebugLevel),
	}
	ep.cfg.OnGame = func(r *GameRecord) {
		ep.mu.Lock()
		defer ep.mu.Unlock()
		ep.records = append(ep.records, r)
		if err := pdn.Write(&ep.pdn, r.PDN); err != nil {
			panic(err) // every move was checked legal when played
		}
	}
	return ep
}

// runPair plays a session between a and b on loopback TCP; listenA says
// which side listens.
func runPair(t *testing.T, a, b *endpoint, listenA bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	ln, err := dxpwire.Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	server, client := a, b
	if !listenA {
		server, client = b, a
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		conn, err := ln.Accept()
		if err != nil {
			server.err = err
			return
		}
		server.sum, server.err = Run(ctx, conn, server.cfg)
	}()
	go func() {
		defer wg.Done()
		conn, err := dxpwire.Dial(ctx, ln.Addr().String(), 5*time.Second)
		if err != nil {
			client.err = err
			return
		}
		client.sum, client.err = Run(ctx, conn, client.cfg)
	}()
	wg.Wait()
	require.NoError(t, ctx.Err(), "the session did not end in time")
}

// openingsFor returns two positions a few plies after the start.
func openingsFor(v engine.VariantID) []engine.Position {
	var out []engine.Position
	for _, pick := range [][]int{{0, 1}, {1, 0, 2}} {
		p := engine.StartPosition(v)
		for _, i := range pick {
			var list engine.MoveList
			p.Generate(&list)
			p = p.Play(list.Moves[i%list.N])
		}
		out = append(out, p)
	}
	return out
}

// checkGames reads an endpoint's PDN back and checks every game: legal,
// complete, and ended as the record says.
func checkGames(t *testing.T, ep *endpoint, v engine.VariantID, n, moveLimit int) []*pdn.Game {
	t.Helper()
	r := pdn.NewReader(bytes.NewReader(ep.pdn.Bytes()), v)
	var games []*pdn.Game
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		games = append(games, g)
	}
	require.Len(t, games, n)
	require.Len(t, ep.records, n)
	for i, g := range games {
		rec := ep.records[i]
		assert.Equal(t, v, g.Variant)
		assert.NotEqual(t, "*", g.Result, "game %d unfinished: %s", i+1, rec.Reason)
		res, err := engine.ParseResult(v, g.Result)
		require.NoError(t, err)
		assert.Equal(t, rec.Result, res)
		gm := g.Game()
		ruleRes, why := gm.Result()
		if ruleRes != engine.Ongoing {
			assert.Equal(t, ruleRes, res, "game %d: rules say %v (%v)", i+1, ruleRes, why)
			assert.Equal(t, why.String(), rec.Reason)
		} else {
			require.Positive(t, moveLimit, "game %d ended early: %s", i+1, rec.Reason)
			assert.Equal(t, 2*moveLimit, len(g.Moves), "game %d", i+1)
			assert.Equal(t, engine.Draw, res)
		}
	}
	return games
}

// TestMatchEveryVariant plays 4-game matches between two damka sessions
// on loopback in every variant, with each side listening in turn, and
// checks both sides' records.
func TestMatchEveryVariant(t *testing.T) {
	for _, v := range engine.AllVariants() {
		for _, initiatorListens := range []bool{true, false} {
			name := fmt.Sprintf("%s/initiator-listens=%v", v, initiatorListens)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				ini := newEndpoint(v, Initiator, "damka-I")
				fol := newEndpoint(v, Follower, "damka-F")
				// Games to the end by the rules, and games to a move limit.
				limit := 0
				if !initiatorListens {
					limit = 40
				}
				ini.cfg.Games, ini.cfg.Minutes, ini.cfg.Moves = 4, 1, limit
				ini.cfg.Openings = openingsFor(v)
				if v == engine.English {
					ini.cfg.Openings = nil // from the start position ('A')
				}
				runPair(t, ini, fol, initiatorListens)
				require.NoError(t, ini.err, ini.log.String())
				require.NoError(t, fol.err, fol.log.String())
				assert.Equal(t, 4, ini.sum.Games)
				assert.Equal(t, 4, fol.sum.Games)
				assert.Zero(t, ini.sum.Unfinished)
				assert.Zero(t, fol.sum.Unfinished)
				assert.Equal(t, ini.sum.Wins, fol.sum.Losses)
				assert.Equal(t, ini.sum.Losses, fol.sum.Wins)
				assert.Equal(t, ini.sum.Draws, fol.sum.Draws)
				gi := checkGames(t, ini, v, 4, limit)
				gf := checkGames(t, fol, v, 4, limit)
				for i := range gi {
					assert.Equal(t, gi[i].Moves, gf[i].Moves, "game %d: both sides recorded the same moves", i+1)
					assert.Equal(t, gi[i].Result, gf[i].Result)
					assert.Equal(t, gi[i].Start, gf[i].Start)
					// Colours alternate; openings are played twice each.
					wantWhite := "damka-I"
					if i%2 == 1 {
						wantWhite = "damka-F"
					}
					assert.Equal(t, wantWhite, gi[i].Tag("White"), "game %d", i+1)
					assert.Equal(t, wantWhite, gf[i].Tag("White"), "game %d", i+1)
				}
				if v != engine.English {
					assert.Equal(t, openingsFor(v)[0].Pieces, gi[0].Start.Pieces)
					assert.Equal(t, openingsFor(v)[1].Pieces, gi[2].Start.Pieces)
				} else {
					assert.Equal(t, engine.StartPosition(v), gi[0].Start)
				}
				// Every message sent and received is logged at debug level.
				assert.Contains(t, ini.log.String(), `"send":"R01damka-I`)
				assert.Contains(t, fol.log.String(), `"recv":"R01damka-I`)
			})
		}
	}
}
