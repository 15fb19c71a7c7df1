package review

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// newReviewer searches to depth 3 with one thread and a small table.
func newReviewer() *Reviewer {
	return New(Config{Options: search.Options{Threads: 1, HashMiB: 8}, Limits: search.Limits{Depth: 3}, Annotator: "test"})
}

// readGames reads every game of in; bad games fail the test.
func readGames(t *testing.T, in io.Reader, v engine.VariantID) []*pdn.Game {
	t.Helper()
	r := pdn.NewReader(in, v)
	var gs []*pdn.Game
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return gs
		}
		require.NoError(t, err)
		gs = append(gs, g)
	}
}

// shortGame returns the shortest game of a data file with at least min
// moves, as PDN text.
func shortGame(t *testing.T, name string, v engine.VariantID, min int) (string, *pdn.Game) {
	t.Helper()
	f, err := os.Open(testfiles.Path(t, name))
	require.NoError(t, err)
	defer f.Close()
	r := pdn.NewReader(bufio.NewReader(f), v)
	var best *pdn.Game
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(g.Moves) < min {
			continue
		}
		if best == nil || len(g.Moves) < len(best.Moves) {
			best = g
		}
	}
	require.NotNil(t, best)
	var b bytes.Buffer
	require.NoError(t, pdn.Write(&b, best))
	return b.String(), best
}

// checkOutput reads the written review back: the same games and moves, a
// score first in every move's comment, the glyphs where the review marked
// a move, the game's own comments kept, and the summary's counts equal to
// the marks.
func checkOutput(t *testing.T, rp *Report, inputs []*pdn.Game) {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, rp.WritePDN(&out))
	back := readGames(t, &out, engine.International)
	require.Len(t, back, len(inputs))
	for i, g := range back {
		in := inputs[i]
		assert.Equal(t, in.Moves, g.Moves)
		assert.Equal(t, in.Variant, g.Variant)
		assert.Equal(t, "test", g.Tag("Annotator"))
		rv := rp.Games[i]
		marks := [2][3]int{}
		pos := g.Start
		for j := range g.Moves {
			c := g.Comment(j)
			assert.True(t, strings.HasPrefix(c, "[%eval "), "game %d move %d: %q", i+1, j+1, c)
			assert.Contains(t, c, FormatEval(rv.Moves[j].Score))
			if own := in.Comment(j); own != "" {
				assert.Contains(t, c, own)
			}
			m := rv.Moves[j].Mark
			assert.Equal(t, m.Glyph(), g.Glyph(j))
			if m != None {
				assert.Contains(t, c, m.String()+"; better: ")
			}
			marks[pos.Side][m]++
			pos = pos.Play(g.Moves[j])
		}
		assert.Contains(t, g.Comment(len(g.Moves)-1), SummaryComment(rv))
		checkMoves(t, rv)
		for _, c := range []engine.Color{engine.White, engine.Black} {
			assert.Equal(t, marks[c][Mistake], rv.Sides[c].Mistakes)
			assert.Equal(t, marks[c][Blunder], rv.Sides[c].Blunders)
			assert.Equal(t, marks[c][None]+marks[c][Mistake]+marks[c][Blunder], rv.Sides[c].Moves)
		}
	}
}

// checkMoves checks each reviewed move against the thresholds and its
// neighbours: the loss is never negative, the mark is the one the loss
// calls for (a blunder also when it loses a won or drawn position), a
// marked move is not the best move and its comment names the best move,
// every position is searched once (the score after a move is the best
// score of the next move's position, both from White's view, unless the
// next move is the best one or the score is a mate, a ply further), and
// the sides' sums are the moves'.
func checkMoves(t *testing.T, rv *Game) {
	t.Helper()
	var sides [2]Side
	pos := rv.Input.Start
	for j, mv := range rv.Moves {
		played := rv.Input.Moves[j]
		assert.Equal(t, pos.Side, mv.Mover, "move %d", j+1)
		assert.GreaterOrEqual(t, mv.Loss, 0, "move %d", j+1)
		switch {
		case mv.Loss >= BlunderLoss:
			assert.Equal(t, Blunder, mv.Mark, "move %d loses %d", j+1, mv.Loss)
		case mv.Loss >= MistakeLoss:
			assert.Contains(t, []Mark{Mistake, Blunder}, mv.Mark, "move %d loses %d", j+1, mv.Loss)
		default:
			assert.Contains(t, []Mark{None, Blunder}, mv.Mark, "move %d loses %d", j+1, mv.Loss)
		}
		if mv.Mark != None {
			assert.NotEqual(t, played, mv.Best, "move %d: the best move is never marked", j+1)
			assert.Contains(t, rv.Game.Comment(j), "better: "+pos.FormatMove(mv.Best, engine.FormatFull)+" (", "move %d", j+1)
		}
		if mv.Best == played {
			assert.Zero(t, mv.Loss, "move %d is the best move", j+1)
		}
		if j+1 < len(rv.Moves) {
			next := rv.Moves[j+1]
			if next.Best != rv.Input.Moves[j+1] && max(mv.Score, -mv.Score) < search.MateBound {
				assert.Equal(t, mv.Score, next.BestScore, "move %d: the position after it is searched once", j+1)
			}
		}
		s := &sides[mv.Mover]
		s.Moves++
		s.Loss += mv.Loss
		switch mv.Mark {
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
		pos = pos.Play(played)
	}
	assert.Equal(t, sides, rv.Sides)
}

// TestReviewRealGames reviews the shortest English game of the Tinsley
// file and a Russian game of the USSR championship at depth 3 and checks
// every move's score, mark and better move (checkOutput, checkMoves).
func TestReviewRealGames(t *testing.T) {
	marked := 0
	for _, fc := range []struct {
		name string
		v    engine.VariantID
	}{
		{"english_tinsley_checkerboard.pdn", engine.English},
		{"russian_ussr_championship_X.pdn", engine.Russian},
	} {
		t.Run(fc.v.String(), func(t *testing.T) {
			text, g := shortGame(t, fc.name, fc.v, 20)
			var calls, last int
			rp, err := Run(context.Background(), newReviewer(), strings.NewReader(text), fc.v, func(done, total int) {
				calls++
				last = done
				assert.Equal(t, len(g.Moves), total)
			})
			require.NoError(t, err)
			require.Empty(t, rp.Bad)
			require.Len(t, rp.Games, 1)
			assert.Equal(t, len(g.Moves), calls)
			assert.Equal(t, len(g.Moves), last)
			assert.Equal(t, len(g.Moves), rp.Moves())
			checkOutput(t, rp, []*pdn.Game{g})
			for _, s := range rp.Games[0].Sides {
				marked += s.Mistakes + s.Blunders
			}
		})
	}
	assert.Positive(t, marked, "the real games' reviews mark a move, so that the marks are checked")
}

// blunderGame is a Russian game whose third move, 2. e3-d4, gives away
// men: 1... b6-a5 threatens a5:c3, and e3-d4 opens the way for a shot.
const blunderGame = `[White "Careless"]
[Black "Alert"]
[GameType "25"]

1. c3-b4 b6-a5 {the game's own comment} 2. e3-d4 *
`

// TestReviewMarksBlunder checks the review of a hand-made blunder: the
// move is marked "??" with the better move, and the summary counts it.
func TestReviewMarksBlunder(t *testing.T) {
	inputs := readGames(t, strings.NewReader(blunderGame), engine.Russian)
	rp, err := Run(context.Background(), newReviewer(), strings.NewReader(blunderGame), engine.Russian, nil)
	require.NoError(t, err)
	require.Len(t, rp.Games, 1)
	rv := rp.Games[0]
	require.Len(t, rv.Moves, 3)
	mv := rv.Moves[2]
	assert.Equal(t, Blunder, mv.Mark)
	assert.GreaterOrEqual(t, mv.Loss, BlunderLoss)
	assert.Less(t, mv.Score, -BlunderLoss, "White's view after the blunder")
	assert.NotEqual(t, inputs[0].Moves[2], mv.Best)
	assert.Equal(t, Side{Moves: 2, Loss: rv.Moves[0].Loss + mv.Loss, Blunders: 1, Mistakes: rv.Sides[engine.White].Mistakes}, rv.Sides[engine.White])
	assert.Contains(t, rv.Game.Comment(2), "blunder; better: ")
	assert.Contains(t, rv.Game.Comment(1), "the game's own comment")
	checkOutput(t, rp, inputs)

	var sum bytes.Buffer
	require.NoError(t, rp.WriteSummary(&sum))
	assert.Contains(t, sum.String(), `game=1 white="Careless" black="Alert" result=* moves=3 `)
	assert.Contains(t, sum.String(), "white_blunders=1")
	assert.Contains(t, sum.String(), `player="Careless" games=1 moves=2 `)
	assert.Contains(t, sum.String(), "blunders=1\n")
	assert.True(t, strings.HasSuffix(sum.String(), "games=1 reviewed=1 bad=0 moves=3 mistakes=0 blunders=1\n"), sum.String())
}

// TestReviewBadGame checks that a bad game is reported by its index and
// the games around it are reviewed.
func TestReviewBadGame(t *testing.T) {
	in := "[GameType \"21\"]\n1. 11-15 23-19 *\n\n[GameType \"21\"]\n1. 11-15 23-18 2. 15-14 *\n\n[GameType \"21\"]\n1. 9-13 22-18 *\n"
	rp, err := Run(context.Background(), newReviewer(), strings.NewReader(in), engine.English, nil)
	require.NoError(t, err)
	require.Len(t, rp.Bad, 1)
	assert.Equal(t, 2, rp.Bad[0].Index)
	assert.Equal(t, "15-14", rp.Bad[0].MoveText)
	assert.Equal(t, 2, rp.Bad[0].MoveNumber)
	require.Len(t, rp.Games, 2)
	assert.Equal(t, 1, rp.Games[0].Index)
	assert.Equal(t, 3, rp.Games[1].Index)
	var sum bytes.Buffer
	require.NoError(t, rp.WriteSummary(&sum))
	assert.Contains(t, sum.String(), "games=3 reviewed=2 bad=1 moves=4 ")
}

// TestReviewCancelled checks that a cancelled review returns the
// context's error and no report.
func TestReviewCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rp, err := Run(ctx, newReviewer(), strings.NewReader(blunderGame), engine.Russian, nil)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, rp)
}

// TestMarkOf checks the thresholds: a mistake from half a man, a blunder
// from one and a half, or a drawn position turned into a lost one; the
// best move is never marked.
func TestMarkOf(t *testing.T) {
	assert.Equal(t, None, markOf(49, 0, -49, false))
	assert.Equal(t, Mistake, markOf(50, 0, -50, false))
	assert.Equal(t, Mistake, markOf(149, 0, -149, false))
	assert.Equal(t, Blunder, markOf(150, 0, -150, false))
	assert.Equal(t, Blunder, markOf(20, -search.EGDBWinBound+10, -search.EGDBWinBound-10, false))
	assert.Equal(t, None, markOf(0, search.Mate-3, search.Mate-7, false))
	assert.Equal(t, None, markOf(500, 100, -400, true))
	assert.Equal(t, 1000, clamp(search.Mate))
	assert.Equal(t, "[%eval -0.35]", FormatEval(-35))
}

// TestRunWithDone: games of RunOptions.Done (read back with only their
// PDN text, sides, names and result) are not reviewed again, the others
// go to Reviewed as they are reviewed, and the PDN and the summary are
// those of a plain Run.
func TestRunWithDone(t *testing.T) {
	in := "[GameType \"21\"]\n[White \"A\"]\n1. 11-15 23-19 *\n\n[GameType \"21\"]\n1. 11-15 23-18 2. 15-14 *\n\n[GameType \"21\"]\n[Black \"A\"]\n1. 9-13 22-18 1-0\n"
	rp, err := Run(context.Background(), newReviewer(), strings.NewReader(in), engine.English, nil)
	require.NoError(t, err)
	var want, wantSum bytes.Buffer
	require.NoError(t, rp.WritePDN(&want))
	require.NoError(t, rp.WriteSummary(&wantSum))

	first := rp.Games[0]
	text, err := first.PDN()
	require.NoError(t, err)
	done := map[int]*Game{1: {Index: 1, Record: text, Sides: first.Sides, Names: first.Names, Result: first.Result}}
	var reviewed []int
	rp2, err := RunWith(context.Background(), newReviewer(), strings.NewReader(in), engine.English, RunOptions{
		Done:     done,
		Reviewed: func(g *Game) error { reviewed = append(reviewed, g.Index); return nil },
	})
	require.NoError(t, err)
	assert.Equal(t, []int{3}, reviewed, "game 1 is done, game 2 bad")
	var got, gotSum bytes.Buffer
	require.NoError(t, rp2.WritePDN(&got))
	require.NoError(t, rp2.WriteSummary(&gotSum))
	assert.Equal(t, want.String(), got.String())
	assert.Equal(t, wantSum.String(), gotSum.String())
	assert.Equal(t, rp.Moves(), rp2.Moves())
}
