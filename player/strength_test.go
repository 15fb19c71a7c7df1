package player

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// levelPlayer returns a player at strength s, book off, with a small table.
func levelPlayer(t *testing.T, s int, seed uint64) *Player {
	t.Helper()
	p := small(t, Config{BookSeed: seed})
	require.NoError(t, p.Set(SetBook, "false"))
	require.NoError(t, p.Set(SetStrength, strconv.Itoa(s)))
	return p
}

func TestStrengthSetting(t *testing.T) {
	s := MustLookup(SetStrength)
	assert.Equal(t, Int, s.Kind)
	assert.Equal(t, 1, s.Min)
	assert.Equal(t, MaxStrength, s.Max)
	assert.Equal(t, strconv.Itoa(MaxStrength), s.Default)
	_, ok := levelOf(MaxStrength)
	assert.False(t, ok, "the default is full strength")
	prev := level{}
	for s := 1; s < MaxStrength; s++ {
		lv, ok := levelOf(s)
		require.True(t, ok)
		if lv.depth > 0 {
			assert.Zero(t, prev.nodes, "level %d: depth-cut levels are the weakest", s)
			assert.Greater(t, lv.depth, prev.depth, "level %d searches deeper than the one below", s)
		} else {
			assert.Greater(t, lv.nodes, prev.nodes, "level %d searches more than the one below", s)
		}
		assert.GreaterOrEqual(t, lv.lines, 2)
		if s > 1 {
			assert.Less(t, lv.margin, 100, "level %d never gives a man away for nothing", s)
			assert.LessOrEqual(t, lv.margin, prev.margin)
		}
		prev = lv
	}
}

// TestStrengthLimits: below full strength Think and Ponder search under
// the level's node budget (or the limits' own, when smaller) and lines;
// analysis and full strength keep the limits as given.
func TestStrengthLimits(t *testing.T) {
	spy := &limitsSpy{}
	p := small(t, Config{NewSearcher: func(o search.Options) Searcher {
		spy.Engine = search.New(o)
		return spy
	}})
	require.NoError(t, p.Set(SetBook, "false"))
	ctx := context.Background()
	given := search.Limits{MoveTime: 50 * time.Millisecond}
	p.Go(ctx, Think, given, nil).Wait()
	require.NoError(t, p.Set(SetStrength, "5"))
	lv, _ := levelOf(5)
	p.Go(ctx, Think, given, nil).Wait()
	p.Go(ctx, Think, search.Limits{Nodes: 100}, nil).Wait()
	j := p.Go(ctx, Analyse, search.Limits{Depth: 2}, nil)
	p.Stop()
	j.Wait()
	require.NoError(t, p.Set(SetStrength, "1"))
	p.Go(ctx, Think, given, nil).Wait()
	require.Len(t, spy.limits, 5)
	assert.Zero(t, spy.limits[0].Nodes, "full strength")
	assert.Zero(t, spy.limits[0].MultiPV)
	assert.Equal(t, lv.nodes, spy.limits[1].Nodes)
	assert.Zero(t, spy.limits[1].Depth)
	assert.Equal(t, lv.lines, spy.limits[1].MultiPV)
	assert.Equal(t, given.MoveTime, spy.limits[1].MoveTime, "the time limit stays")
	assert.Equal(t, uint64(100), spy.limits[2].Nodes, "a smaller budget of the limits stays")
	assert.Zero(t, spy.limits[3].Nodes, "analysis is at full strength")
	assert.Zero(t, spy.limits[3].MultiPV)
	lv, _ = levelOf(1)
	assert.Equal(t, lv.depth, spy.limits[4].Depth, "the weakest levels cut the depth")
	assert.Zero(t, spy.limits[4].Nodes)
	assert.Equal(t, given.MoveTime, spy.limits[4].MoveTime)
	assert.False(t, spy.limits[0].NoEGDB, "full strength probes the tables")
	assert.True(t, spy.limits[1].NoEGDB, "level 5 plays endings by its search")
	assert.False(t, spy.limits[3].NoEGDB, "analysis probes the tables")
	assert.True(t, spy.limits[4].NoEGDB, "level 1 plays endings by its search")
	for s := 1; s < MaxStrength; s++ {
		lv, _ := levelOf(s)
		assert.Equal(t, s >= 7, !lv.limits(search.Limits{}).NoEGDB, "level %d: tables from level 7 up", s)
	}
}

// TestHumanTime: a level's time over a move is a half to all of a move
// time, a share of a clock at most an eighth of it, and nothing without
// either or in analysis and pondering.
func TestHumanTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		mt := humanTime(search.Limits{MoveTime: time.Second}, rng)
		assert.GreaterOrEqual(t, mt, 500*time.Millisecond)
		assert.LessOrEqual(t, mt, time.Second-search.DefaultMoveOverhead)
		ct := humanTime(search.Limits{Time: 60 * time.Second, Inc: time.Second}, rng)
		assert.GreaterOrEqual(t, ct, (60*time.Second/40+750*time.Millisecond)/2)
		assert.LessOrEqual(t, ct, 60*time.Second/8)
		short := humanTime(search.Limits{Time: 800 * time.Millisecond, Inc: 5 * time.Second}, rng)
		assert.LessOrEqual(t, short, 100*time.Millisecond, "at most an eighth of the time left")
	}
	assert.Zero(t, humanTime(search.Limits{Depth: 5}, rng))
	assert.Zero(t, humanTime(search.Limits{Nodes: 5000}, rng))
	assert.Zero(t, humanTime(search.Limits{MoveTime: time.Second, Infinite: true}, rng))
	assert.Zero(t, humanTime(search.Limits{Time: time.Minute, Ponder: true}, rng))
	assert.Zero(t, humanTime(search.Limits{MoveTime: 5 * time.Millisecond}, rng), "the overhead is kept back")
}

// TestStrengthTakesHumanTime: a level under a move time answers after at
// least half of it, not in a few milliseconds; Stop ends the wait; a
// forced move is played at once.
func TestStrengthTakesHumanTime(t *testing.T) {
	p := levelPlayer(t, 4, 1)
	start := time.Now()
	c := p.Go(context.Background(), Think, search.Limits{MoveTime: 400 * time.Millisecond}, nil).Wait()
	require.True(t, c.HasMove)
	assert.GreaterOrEqual(t, time.Since(start), 190*time.Millisecond, "a level thinks for a person's time")

	start = time.Now()
	j := p.Go(context.Background(), Think, search.Limits{MoveTime: 20 * time.Second}, nil)
	time.Sleep(100 * time.Millisecond)
	p.Stop()
	c = j.Wait()
	assert.True(t, c.HasMove)
	assert.Less(t, time.Since(start), 10*time.Second, "Stop ends the wait")

	forced, err := engine.ParseFEN(engine.Russian, "W:Wc3:Bd4,h8")
	require.NoError(t, err)
	p.SetGame(engine.NewGame(forced))
	start = time.Now()
	c = p.Go(context.Background(), Think, search.Limits{MoveTime: 20 * time.Second}, nil).Wait()
	assert.True(t, c.HasMove)
	assert.Less(t, time.Since(start), 10*time.Second, "a forced move is played at once")
}

// TestStrengthAnswersInTime: under a move time every level answers, in
// every variant, no later than full strength does (plus a margin for a
// loaded machine), with a legal move.
func TestStrengthAnswersInTime(t *testing.T) {
	const moveTime = 50 * time.Millisecond
	for _, v := range engine.AllVariants() {
		p := levelPlayer(t, MaxStrength, 1)
		p.SetVariant(v)
		start := time.Now()
		c := p.Go(context.Background(), Think, search.Limits{MoveTime: moveTime}, nil).Wait()
		full := time.Since(start)
		require.True(t, c.HasMove)
		for s := 1; s < MaxStrength; s++ {
			require.NoError(t, p.Set(SetStrength, strconv.Itoa(s)))
			start := time.Now()
			c := p.Go(context.Background(), Think, search.Limits{MoveTime: moveTime}, nil).Wait()
			took := time.Since(start)
			assert.LessOrEqual(t, took, max(full, moveTime)+250*time.Millisecond, "%v strength %d", v, s)
			assert.True(t, c.HasMove, "%v strength %d", v, s)
			assert.Empty(t, c.Problem, "%v strength %d", v, s)
		}
	}
}

// TestStrengthPlaysLegalMoves: a short game of each level against itself
// in every variant: every move is legal, every reported line is a line of
// the position, and only the multipv setting's lines are reported.
func TestStrengthPlaysLegalMoves(t *testing.T) {
	plies := 16
	if testing.Short() {
		plies = 8
	}
	for _, v := range engine.AllVariants() {
		for s := 1; s < MaxStrength; s++ {
			p := levelPlayer(t, s, uint64(s))
			p.SetVariant(v)
			for ply := 0; ply < plies; ply++ {
				g := p.Game()
				pos := g.Position()
				var list engine.MoveList
				pos.Generate(&list)
				if list.N == 0 {
					break
				}
				// A node limit above every level's budget: under a move
				// time a level would take a person's time over each move.
				c := p.Go(context.Background(), Think, search.Limits{Nodes: 1 << 20}, func(info search.Info) {
					assert.Equal(t, 1, info.MultiPV, "%v strength %d", v, s)
				}).Wait()
				require.True(t, c.HasMove)
				assert.Empty(t, c.Problem)
				assert.Contains(t, list.Slice(), c.Move, "%v strength %d ply %d", v, s, ply)
				assert.Equal(t, c.Move, c.PV[0])
				assert.Nil(t, c.Lines, "multipv 1 shows no lines")
				g.Play(c.Move)
			}
		}
	}
}

// TestStrengthCapturesWhenForced: the lowest level captures when a capture
// is forced (the rules leave it nothing else).
func TestStrengthCapturesWhenForced(t *testing.T) {
	pos, err := engine.ParseFEN(engine.Russian, "W:Wa1,c1,e1,g1,c3,e3,g3:Bd4,b6,d6,f6,h6,a7,c7")
	require.NoError(t, err)
	for seed := uint64(1); seed <= 5; seed++ {
		p := levelPlayer(t, 1, seed)
		p.SetGame(engine.NewGame(pos))
		c := p.Go(context.Background(), Think, search.Limits{}, nil).Wait()
		require.True(t, c.HasMove)
		assert.True(t, c.Move.IsCapture(), pos.FormatMove(c.Move, engine.FormatHub))
	}
}

// hangsAMan is a Russian position, White to move, where g3-f4 gives a
// man away for nothing (e5:g3, and the black man runs to crown) and no
// other move loses anything.
const hangsAMan = "W:Wa1,b2,c1,a3,g3:Be5,a7,c7,h8"

// TestStrengthKeepsMenSafe: every level above the lowest avoids the move
// that hangs a man, whatever the draw; full-strength multi-PV confirms the
// move scores a man below the others.
func TestStrengthKeepsMenSafe(t *testing.T) {
	pos, err := engine.ParseFEN(engine.Russian, hangsAMan)
	require.NoError(t, err)
	hang, err := pos.ParseMove("g3-f4")
	require.NoError(t, err)

	full := levelPlayer(t, MaxStrength, 1)
	require.NoError(t, full.Set(SetEGDBPieces, "0"))
	require.NoError(t, full.Set(SetMultiPV, strconv.Itoa(search.MaxMultiPV)))
	full.SetGame(engine.NewGame(pos))
	c := full.Go(context.Background(), Think, search.Limits{Depth: 8}, nil).Wait()
	var list engine.MoveList
	pos.Generate(&list)
	require.Len(t, c.Lines, list.N)
	for _, l := range c.Lines {
		if l.Move == hang {
			assert.LessOrEqual(t, l.Score, c.Lines[0].Score-100, "g3-f4 loses a man")
		} else {
			assert.Greater(t, l.Score, c.Lines[0].Score-100, pos.FormatMove(l.Move, engine.FormatHub))
		}
	}

	tries := 20
	if testing.Short() {
		tries = 8
	}
	// The control: level 2's search with a margin of ten men does play
	// g3-f4 (it is among the lines the level sees), so the margins are what
	// keeps the levels below from playing it.
	saved := levels[1]
	levels[1].margin = 1000
	hung := false
	for i := 0; i < 60 && !hung; i++ {
		p := levelPlayer(t, 2, uint64(i+1))
		require.NoError(t, p.Set(SetEGDBPieces, "0"))
		p.SetGame(engine.NewGame(pos))
		hung = p.Go(context.Background(), Think, search.Limits{}, nil).Wait().Move == hang
	}
	levels[1] = saved
	require.True(t, hung, "with a margin of ten men level 2 never plays g3-f4: the position does not test the margins")

	for s := 2; s < MaxStrength; s++ {
		p := levelPlayer(t, s, 7)
		require.NoError(t, p.Set(SetEGDBPieces, "0"))
		for i := 0; i < tries; i++ {
			p.SetGame(engine.NewGame(pos))
			p.Game() // the game is the player's now
			c := p.Go(context.Background(), Think, search.Limits{}, nil).Wait()
			require.True(t, c.HasMove)
			assert.NotEqual(t, hang, c.Move, "strength %d plays g3-f4", s)
		}
	}
}

// TestStrengthPick: the draw takes only lines within the margin, the
// nearer ones more often, and the best when it is a proven win.
func TestStrengthPick(t *testing.T) {
	lv := level{margin: 40}
	lines := []search.Line{{Score: 50}, {Score: 30}, {Score: 10}, {Score: -60}}
	rng := rand.New(rand.NewPCG(1, 2))
	var n [4]int
	for range 3000 {
		n[lv.pick(lines, rng)]++
	}
	assert.Zero(t, n[3], "80 below the best is outside the margin")
	assert.Greater(t, n[0], n[1])
	assert.Greater(t, n[1], n[2])
	assert.Positive(t, n[2])
	won := []search.Line{{Score: search.Mate - 9}, {Score: search.Mate - 11}}
	for range 100 {
		assert.Zero(t, lv.pick(won, rng))
	}
	assert.Zero(t, lv.pick(lines[:1], rng))
}

// TestStrengthDefaultSearchesAsBefore: at the default strength a search
// to a fixed depth visits exactly the nodes it visits with the setting
// never touched, and level 10 set explicitly is the same.
func TestStrengthDefaultSearchesAsBefore(t *testing.T) {
	nodes := func(set bool) uint64 {
		p := small(t, Config{BookSeed: 1})
		require.NoError(t, p.Set(SetBook, "false"))
		if set {
			require.NoError(t, p.Set(SetStrength, "3"))
			require.NoError(t, p.Set(SetStrength, strconv.Itoa(MaxStrength)))
		}
		c := p.Go(context.Background(), Think, search.Limits{Depth: 9}, nil).Wait()
		require.Equal(t, search.FromSearch, c.Source)
		return c.Nodes
	}
	assert.Equal(t, nodes(false), nodes(true))
}

// TestStrengthPonderWaitsForTheHit: a weak level's ponder search, done on
// its node budget, answers only after the ponder-hit (or Stop).
func TestStrengthPonderWaitsForTheHit(t *testing.T) {
	p := levelPlayer(t, 1, 1)
	j := p.Go(context.Background(), Ponder, search.Limits{MoveTime: 50 * time.Millisecond}, nil)
	select {
	case <-j.Done():
		t.Fatal("a ponder search answered before the ponder-hit")
	case <-time.After(100 * time.Millisecond):
	}
	p.PonderHit()
	c := j.Wait()
	assert.True(t, c.HasMove)

	j = p.Go(context.Background(), Ponder, search.Limits{MoveTime: 50 * time.Millisecond}, nil)
	time.Sleep(20 * time.Millisecond)
	p.Stop()
	assert.True(t, j.Wait().HasMove)
}

// TestStrengthMultiPVReportsKeepTheirLines: below full strength with
// multipv 2, each line of a depth is reported once; the move the level
// draws is not reported again as line 1 of its depth (it may be none of the
// lines shown), and with multipv 1 the last report is the move played.
func TestStrengthMultiPVReportsKeepTheirLines(t *testing.T) {
	type key struct{ depth, line int }
	drawnElsewhere := 0
	for _, shown := range []int{1, 2} {
		for s := 1; s <= 4; s++ {
			p := levelPlayer(t, s, uint64(10*s+shown))
			require.NoError(t, p.Set(SetMultiPV, strconv.Itoa(shown)))
			for ply := 0; ply < 6; ply++ {
				var infos []search.Info
				c := p.Go(context.Background(), Think, search.Limits{Nodes: 1 << 20}, func(info search.Info) {
					infos = append(infos, info)
				}).Wait()
				require.True(t, c.HasMove)
				require.NotEmpty(t, infos, "strength %d ply %d", s, ply)
				last := infos[len(infos)-1]
				if shown == 1 {
					assert.Equal(t, c.Move, last.PV[0], "strength %d ply %d: multipv 1 ends with the move played", s, ply)
				} else {
					seen := map[key]engine.Move{}
					for _, info := range infos {
						k := key{info.Depth, info.MultiPV}
						if mv, ok := seen[k]; ok {
							assert.Equal(t, mv, info.PV[0], "strength %d ply %d: line %d of depth %d reported with two moves", s, ply, k.line, k.depth)
						}
						seen[k] = info.PV[0]
					}
					if seen[key{last.Depth, 1}] != c.Move {
						drawnElsewhere++
					}
				}
				p.Game().Play(c.Move)
			}
		}
	}
	assert.Positive(t, drawnElsewhere, "the levels drew some move other than line 1")
}
