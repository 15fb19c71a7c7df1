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
		marks := [2][4]int{}
		pos := g.Start
		for j := range g.Moves {
			c := g.Comment(j)
			mv := rv.Moves[j]
			if mv.Score != NoScore {
				assert.True(t, strings.HasPrefix(c, "[%eval "), "game %d move %d: %q", i+1, j+1, c)
				assert.Contains(t, c, FormatEval(mv.Score))
			}
			if mv.Book {
				assert.Contains(t, c, "book", "game %d move %d", i+1, j+1)
			}
			if own := in.Comment(j); own != "" {
				assert.Contains(t, c, own)
			}
			m := mv.Mark
			assert.Equal(t, m.Glyph(), g.Glyph(j))
			if m != None {
				assert.Contains(t, c, m.String()+" (winning chances ")
			}
			if !mv.Book {
				marks[pos.Side][m]++
			}
			pos = pos.Play(g.Moves[j])
		}
		assert.Contains(t, g.Comment(len(g.Moves)-1), SummaryComment(rv))
		assert.Contains(t, g.Comment(len(g.Moves)-1), "; "+SummaryComment(rv), "the summary follows the last move's comment after a semicolon")
		checkMoves(t, rv)
		for _, c := range []engine.Color{engine.White, engine.Black} {
			assert.Equal(t, marks[c][Inaccuracy], rv.Sides[c].Inaccuracies)
			assert.Equal(t, marks[c][Mistake], rv.Sides[c].Mistakes)
			assert.Equal(t, marks[c][Blunder], rv.Sides[c].Blunders)
			assert.Equal(t, marks[c][None]+marks[c][Inaccuracy]+marks[c][Mistake]+marks[c][Blunder], rv.Sides[c].Moves)
		}
	}
}

// checkMoves checks each reviewed move against the thresholds and its
// neighbours: the loss and the drop are never negative, the mark is the
// one the drop calls for (none where the game was decided either way), a
// marked move is not the best move and its comment and variation name the
// best move, every position is searched once (the score after a move is
// the best score of the next move's position, both from White's view,
// unless the next move is the best one or the score is a mate, a ply
// further, or a second search graded the move), and the sides' sums are
// the moves'.
func checkMoves(t *testing.T, rv *Game) {
	t.Helper()
	var sides [2]Side
	pos := rv.Input.Start
	for j, mv := range rv.Moves {
		played := rv.Input.Moves[j]
		assert.Equal(t, pos.Side, mv.Mover, "move %d", j+1)
		s := &sides[mv.Mover]
		if mv.Book {
			assert.Equal(t, None, mv.Mark)
			s.Book++
			pos = pos.Play(played)
			continue
		}
		assert.GreaterOrEqual(t, mv.Loss, 0, "move %d", j+1)
		assert.GreaterOrEqual(t, mv.Drop, 0.0, "move %d", j+1)
		assert.InDelta(t, max(0, mv.Chance-mv.Played), mv.Drop, 1e-12, "move %d", j+1)
		decided := mv.Chance <= DecidedChance || mv.Played >= 1-DecidedChance
		switch {
		case decided:
			assert.Equal(t, None, mv.Mark, "move %d: decided (%.3f -> %.3f)", j+1, mv.Chance, mv.Played)
		case mv.Drop >= BlunderDrop:
			assert.Equal(t, Blunder, mv.Mark, "move %d drops %.3f", j+1, mv.Drop)
		case mv.Drop >= MistakeDrop:
			assert.Equal(t, Mistake, mv.Mark, "move %d drops %.3f", j+1, mv.Drop)
		case mv.Drop >= InaccuracyDrop:
			assert.Equal(t, Inaccuracy, mv.Mark, "move %d drops %.3f", j+1, mv.Drop)
		default:
			assert.Equal(t, None, mv.Mark, "move %d drops %.3f", j+1, mv.Drop)
		}
		if mv.Mark != None {
			assert.NotEqual(t, played, mv.Best, "move %d: the best move is never marked", j+1)
			assert.Contains(t, rv.Game.Comment(j), "better: "+pos.FormatMove(mv.Best, engine.FormatFull)+" (", "move %d", j+1)
			require.NotNil(t, rv.Game.Variations, "move %d", j+1)
			assert.Equal(t, mv.PV, rv.Game.Variations[j], "move %d: the better line as a variation", j+1)
		}
		if mv.Best == played {
			assert.Zero(t, mv.Loss, "move %d is the best move", j+1)
			assert.Zero(t, mv.Drop, "move %d is the best move", j+1)
		}
		if j+1 < len(rv.Moves) && mv.Verified == 0 && rv.Moves[j+1].Verified == 0 {
			next := rv.Moves[j+1]
			if next.Best != rv.Input.Moves[j+1] && max(mv.Score, -mv.Score) < search.MateBound {
				assert.Equal(t, mv.Score, next.BestScore, "move %d: the position after it is searched once", j+1)
			}
		}
		s.Moves++
		s.Loss += mv.Loss
		s.AccuracySum += mv.Accuracy
		switch mv.Mark {
		case Inaccuracy:
			s.Inaccuracies++
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
				marked += s.Inaccuracies + s.Mistakes + s.Blunders
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
	assert.GreaterOrEqual(t, mv.Drop, BlunderDrop)
	assert.Less(t, mv.Score, -100, "White's view after the blunder")
	assert.NotEqual(t, inputs[0].Moves[2], mv.Best)
	w := rv.Sides[engine.White]
	assert.Equal(t, 2, w.Moves)
	assert.Equal(t, 1, w.Blunders)
	assert.Less(t, w.Accuracy(), 80.0)
	assert.Contains(t, rv.Game.Comment(2), "blunder (winning chances ")
	assert.Contains(t, rv.Game.Comment(1), "the game's own comment")
	checkOutput(t, rp, inputs)

	var sum bytes.Buffer
	require.NoError(t, rp.WriteSummary(&sum))
	assert.Contains(t, sum.String(), `game=1 white="Careless" black="Alert" result=* moves=3 book=0 `)
	assert.Contains(t, sum.String(), "white_blunders=1")
	assert.Contains(t, sum.String(), `player="Careless" games=1 moves=2 `)
	assert.Contains(t, sum.String(), "blunders=1\n")
	assert.Regexp(t, `games=1 reviewed=1 bad=0 moves=3 accuracy=[0-9.]+ inaccuracies=\d+ mistakes=\d+ blunders=1\n$`, sum.String())
	var out bytes.Buffer
	require.NoError(t, rp.WritePDN(&out))
	assert.Contains(t, out.String(), "[WhiteAccuracy \"")
	assert.Contains(t, out.String(), "e3-d4?? {", "the glyph")
	assert.Regexp(t, `\}\s*\(2\. `, out.String(), "the better line as a variation")
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

// TestMarkOf checks the thresholds on the drop of the mover's expected
// result, and that nothing is marked where the game was decided either way.
func TestMarkOf(t *testing.T) {
	assert.Equal(t, None, markOf(0.099, 0.5, 0.401))
	assert.Equal(t, Inaccuracy, markOf(0.1, 0.5, 0.4))
	assert.Equal(t, Mistake, markOf(0.2, 0.5, 0.3))
	assert.Equal(t, Mistake, markOf(0.299, 0.5, 0.201))
	assert.Equal(t, Blunder, markOf(0.3, 0.5, 0.2))
	assert.Equal(t, Blunder, markOf(0.5, 1, 0.5), "a win thrown away")
	assert.Equal(t, None, markOf(0.02, 0.025, 0.005), "lost anyway")
	assert.Equal(t, None, markOf(0.02, 1, 0.98), "still winning")
	assert.Equal(t, 1000, clamp(search.Mate))
	assert.Equal(t, "[%eval -0.35]", FormatEval(-35))
}

// TestOutcomeWords: decided scores in words, from White's view.
func TestOutcomeWords(t *testing.T) {
	assert.Equal(t, "White wins in 5 plies", OutcomeWords(search.Mate-5))
	assert.Equal(t, "Black wins in 6 plies", OutcomeWords(-(search.Mate - 6)))
	assert.Equal(t, "White wins in 17 plies (tables)", OutcomeWords(search.EGDBWin-17))
	assert.Equal(t, "Black wins (tables)", OutcomeWords(-search.EGDBWinBound-10))
	assert.Equal(t, "", OutcomeWords(250))
	assert.Equal(t, "White wins in 1 ply", OutcomeWords(search.Mate-1))
}

// TestSummaryCounts: the summary writes 1 with the singular, other counts
// with the plural.
func TestSummaryCounts(t *testing.T) {
	rv := &Game{Names: [2]string{"A", "B"}}
	rv.Sides[engine.White] = Side{Moves: 1, Inaccuracies: 1, Mistakes: 1, Blunders: 1}
	rv.Sides[engine.Black] = Side{Moves: 2, Book: 1, Mistakes: 2}
	c := SummaryComment(rv)
	assert.Contains(t, c, "White A: accuracy ")
	assert.Contains(t, c, ", 1 move (0 book), ")
	assert.Contains(t, c, ", 1 inaccuracy, 1 mistake, 1 blunder;")
	assert.Contains(t, c, ", 2 moves (1 book), ")
	assert.Contains(t, c, ", 0 inaccuracies, 2 mistakes, 0 blunders")
}

// TestBookPlies: the moves of the Opening tag, then the book's, are book
// moves; a name in the tag is none.
func TestBookPlies(t *testing.T) {
	g := readGames(t, strings.NewReader(`[Opening "c3-b4 b6-a5"]
1. c3-b4 b6-a5 2. e3-d4 *`), engine.Russian)[0]
	assert.Equal(t, 2, BookPlies(g, nil))
	g.SetTag("Opening", "Kol")
	assert.Equal(t, 0, BookPlies(g, nil))
	g.SetTag("Opening", "1. c3-b4 a7-b6")
	assert.Equal(t, 1, BookPlies(g, nil), "the deck's second move is not the game's")
}

// TestVerifyLimits: the second search is deeper or longer.
func TestVerifyLimits(t *testing.T) {
	assert.Equal(t, search.Limits{Depth: 3 + VerifyPlies}, VerifyLimits(search.Limits{Depth: 3}))
	assert.Equal(t, search.Limits{Nodes: 1000 * VerifyFactor}, VerifyLimits(search.Limits{Nodes: 1000}))
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

// TestVerifyStages: a move about to be marked goes through two deeper
// stages by default, VerifyPlies deeper each (VerifyFactor times the
// nodes), or as many as Config.VerifyStages says; none without Verify.
func TestVerifyStages(t *testing.T) {
	opts := search.Options{Threads: 1, HashMiB: 1}
	d3 := search.Limits{Depth: 3}
	assert.Equal(t, []search.Limits{{Depth: 3 + VerifyPlies}, {Depth: 3 + 2*VerifyPlies}},
		New(Config{Options: opts, Limits: d3, Verify: VerifyLimits(d3)}).verifyStages())
	assert.Equal(t, []search.Limits{{Depth: 3 + VerifyPlies}},
		New(Config{Options: opts, Limits: d3, Verify: VerifyLimits(d3), VerifyStages: 1}).verifyStages())
	n := search.Limits{Nodes: 1000}
	assert.Equal(t, []search.Limits{{Nodes: 1000 * VerifyFactor}, {Nodes: 1000 * VerifyFactor * VerifyFactor}},
		New(Config{Options: opts, Limits: n, Verify: VerifyLimits(n)}).verifyStages())
	assert.Empty(t, New(Config{Options: opts, Limits: d3}).verifyStages())
}

// TestReviewVerifiesBlunder: the hand-made blunder stays a blunder
// through both deeper stages (Verified 2), or through the one stage asked
// for; each stage searches three positions (before the move, after it,
// after the best move), on top of the 4 positions of the game searched
// once; the moves not about to be marked are not searched again.
func TestReviewVerifiesBlunder(t *testing.T) {
	g := readGames(t, strings.NewReader(blunderGame), engine.Russian)[0]
	for _, c := range []struct{ stages, want int }{{0, DefaultVerifyStages}, {1, 1}} {
		d3 := search.Limits{Depth: 3}
		r := New(Config{Options: search.Options{Threads: 1, HashMiB: 8}, Limits: d3, Verify: VerifyLimits(d3), VerifyStages: c.stages})
		rv, err := r.Review(context.Background(), 1, g, nil)
		require.NoError(t, err)
		assert.Equal(t, Blunder, rv.Moves[2].Mark, "stages %d", c.stages)
		assert.Equal(t, c.want, rv.Moves[2].Verified, "stages %d", c.stages)
		assert.NotEqual(t, g.Moves[2], rv.Moves[2].Best)
		assert.Zero(t, rv.Moves[0].Verified)
		assert.Zero(t, rv.Moves[1].Verified)
		assert.Equal(t, len(g.Moves)+1+3*c.want, r.searches, "stages %d", c.stages)
	}
}
