// Package review replays recorded games and annotates them with the
// engine's assessment: after every move the score of the position it
// leads to, and for a move that loses half a man or more against the
// engine's best move a glyph ("?" or "??") and the better move with its
// line. It is the logic of `damka review` (docs/review.md).
//
// How the loss of a move is measured: every position of a game is
// searched once, with the same limits, the book off, the endgame tables
// of the search options on. The search of the position before move i
// gives the best move and its score B (centi-men, the mover's view); the
// search of the position after it, which the next move needs anyway,
// gives the played move's score P = search.ScoreAfterMove of that
// position's score. The loss is B - P, with both scores clamped to
// ±ClampScore (a won position counts as ten men, so that one lost win does
// not swamp an average) and never below 0 (the played move's score comes
// from one ply deeper, which can find it better than the best move's).
// A move that is the engine's best move loses nothing. A game of n moves
// costs n+1 searches (none of a final position without a legal move).
//
// The layer of package review is that of bench and match: it imports
// engine, pdn and search.
package review

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// Loss thresholds and the score clamp, in centi-men (a man is 100).
const (
	// MistakeLoss is the least loss of a mistake ("?").
	MistakeLoss = 50
	// BlunderLoss is the least loss of a blunder ("??"); a move that
	// turns a won or drawn position into a lost one (scores beyond
	// ±search.EGDBWinBound) is a blunder whatever its loss.
	BlunderLoss = 150
	// ClampScore bounds the scores that losses are computed from.
	ClampScore = 1000
	// PVPlies is the most moves of the better line written in a comment.
	PVPlies = 8
)

// Mark is the verdict on one move.
type Mark uint8

// The marks, from none to the worst.
const (
	None    Mark = iota // a loss under MistakeLoss
	Mistake             // "?": a loss of MistakeLoss or more
	Blunder             // "??": a loss of BlunderLoss or more, or a win or draw turned into a loss
)

// Glyph returns the mark's PDN annotation glyph: "", "?" or "??".
func (m Mark) Glyph() string {
	switch m {
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}

// String returns "", "mistake" or "blunder".
func (m Mark) String() string {
	switch m {
	case Mistake:
		return "mistake"
	case Blunder:
		return "blunder"
	}
	return ""
}

// Move is the review of one move.
type Move struct {
	Mover engine.Color
	// Score is the score of the position after the move, in centi-men
	// from White's view (a forced win in n plies is search.Mate-n, as in
	// package search).
	Score int
	// Best is the engine's best move in the position before the move,
	// BestScore its score (centi-men, White's view), PV its line starting
	// with Best (at most PVPlies moves). Best is the zero Move when the
	// search found none.
	Best      engine.Move
	BestScore int
	PV        []engine.Move
	// Loss is what the move gives away against Best, in centi-men (0 or
	// more, from the clamped scores; see the package comment).
	Loss int
	Mark Mark
}

// Side sums the reviewed moves of one side of a game, or of one player
// over games.
type Side struct {
	Moves    int // moves reviewed
	Loss     int // total loss in centi-men
	Mistakes int // moves marked "?"
	Blunders int // moves marked "??"
}

// AvgLoss returns the average loss per move in men (0 without moves).
func (s Side) AvgLoss() float64 {
	if s.Moves == 0 {
		return 0
	}
	return float64(s.Loss) / 100 / float64(s.Moves)
}

func (s *Side) add(o Side) {
	s.Moves += o.Moves
	s.Loss += o.Loss
	s.Mistakes += o.Mistakes
	s.Blunders += o.Blunders
}

// Game is one reviewed game.
type Game struct {
	Index int // 1-based index of the game in its input
	// Game is the annotated game: the input game with a glyph on each
	// marked move, the comments of the review added to its own, and the
	// Annotator tag when Config.Annotator is set. The input game is not
	// changed.
	Game   *pdn.Game
	Input  *pdn.Game // the game as read
	Moves  []Move    // one per move of the game
	Sides  [2]Side   // indexed by engine.Color (White, Black)
	Names  [2]string // the White and Black tags ("?" when empty)
	Result string    // the game's result token, as in pdn.Game
	// Record, when set, is the game's PDN text as Report.WritePDN writes
	// it: a game reviewed earlier and read back (a resumed review), whose
	// Game, Input and Moves are then nil; the summary needs only Index,
	// Sides, Names and Result.
	Record []byte
}

// PDN returns the game's PDN text as Report.WritePDN writes it: Record
// when set, else Game written by pdn.Write.
func (g *Game) PDN() ([]byte, error) {
	if g.Record != nil {
		return g.Record, nil
	}
	var b bytes.Buffer
	if err := pdn.Write(&b, g.Game); err != nil {
		return nil, fmt.Errorf("game %d: %w", g.Index, err)
	}
	return b.Bytes(), nil
}

// Config sets up a Reviewer.
type Config struct {
	Options search.Options // the search engine's settings (threads, table, weights, endgame tables)
	// Limits bound each search (a depth, a node count or a move time);
	// Draw is set per position from the game.
	Limits search.Limits
	// Annotator, if not empty, is written as the reviewed games'
	// Annotator tag (e.g. "damka 1.0, depth 6").
	Annotator string
}

// Reviewer reviews games with one search engine, one game at a time.
type Reviewer struct {
	e   *search.Engine
	cfg Config
}

// New returns a reviewer with a search engine made from cfg.Options.
func New(cfg Config) *Reviewer {
	return &Reviewer{e: search.New(cfg.Options), cfg: cfg}
}

// Review searches every position of g (see the package comment) and
// returns the review, its index set to index. done, if not nil, is
// called after each move is reviewed. The engine's table is cleared first,
// so that a game's review does not depend on the games before it. When ctx
// is done it returns ctx's error and no review.
func (r *Reviewer) Review(ctx context.Context, index int, g *pdn.Game, done func()) (*Game, error) {
	r.e.Clear()
	n := len(g.Moves)
	eg := engine.NewGame(g.Start)
	// scores[i] and results[i]: the search of the position after i moves,
	// its score from the side to move.
	scores := make([]int, n+1)
	results := make([]search.Result, n+1)
	for i := 0; i <= n; i++ {
		if i > 0 {
			eg.Play(g.Moves[i-1])
		}
		pos := eg.Position()
		var list engine.MoveList
		pos.Generate(&list)
		if list.N == 0 {
			scores[i] = -search.Mate // lost: no move
		} else {
			results[i] = r.e.SearchGame(ctx, eg, r.cfg.Limits, nil)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			scores[i] = results[i].Score
		}
		if i > 0 && done != nil {
			done()
		}
	}
	rv := &Game{Index: index, Input: g, Moves: make([]Move, n), Result: g.Result}
	rv.Names = [2]string{nameOr(g.Tag("White")), nameOr(g.Tag("Black"))}
	pos := g.Start
	for i, m := range g.Moves {
		mover := pos.Side
		best := results[i]
		bestS := scores[i]
		playedS := search.ScoreAfterMove(scores[i+1])
		mv := Move{Mover: mover, Score: whiteView(mover, playedS), BestScore: whiteView(mover, bestS)}
		if best.HasMove {
			mv.Best = best.Move
			mv.PV = best.PV[:min(len(best.PV), PVPlies)]
			if m != best.Move {
				mv.Loss = max(0, clamp(bestS)-clamp(playedS))
			} else {
				mv.BestScore = mv.Score
			}
		}
		mv.Mark = markOf(mv.Loss, bestS, playedS, m == best.Move)
		rv.Moves[i] = mv
		s := &rv.Sides[mover]
		s.Moves++
		s.Loss += mv.Loss
		switch mv.Mark {
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
		pos = pos.Play(m)
	}
	rv.Game = annotate(g, rv, r.cfg.Annotator)
	return rv, nil
}

// markOf is the mark of a move of loss (centi-men) whose position scored
// best and that scored played (the mover's view); same: it is the best move.
func markOf(loss, best, played int, same bool) Mark {
	switch {
	case same:
		return None
	case loss >= BlunderLoss, outcome(played) < 0 && outcome(best) >= 0:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	}
	return None
}

// outcome is 1 for a score of a won position (a table win or a mate),
// -1 for a lost one, 0 otherwise.
func outcome(s int) int {
	switch {
	case s >= search.EGDBWinBound:
		return 1
	case s <= -search.EGDBWinBound:
		return -1
	}
	return 0
}

func clamp(s int) int { return max(-ClampScore, min(ClampScore, s)) }

// whiteView turns a score from side c's view into White's.
func whiteView(c engine.Color, s int) int {
	if c == engine.White {
		return s
	}
	return -s
}

// colorName returns "White" or "Black", as the PDN tags name the sides.
func colorName(c engine.Color) string {
	if c == engine.White {
		return "White"
	}
	return "Black"
}

func nameOr(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return "?"
	}
	return s
}

// evalCommand matches an [%eval ...] command, which the review replaces.
var evalCommand = regexp.MustCompile(`\[%eval [^\]]*\]\s*`)

// FormatEval returns the comment command of a score (centi-men, White's
// view): "[%eval 0.35]", in men with two decimals as search.FormatScore
// writes them (a forced win in n plies is 100 - n/100 men).
func FormatEval(cs int) string { return "[%eval " + search.FormatScore(cs) + "]" }

// annotate returns a copy of g with the review's glyphs and comments: the
// comment after move i is "[%eval S]", then the game's own comment (an
// older [%eval] dropped), then, for a marked move, "mistake" or "blunder"
// and "better: M (S) PV;"; after the last move the summary of both sides.
func annotate(g *pdn.Game, rv *Game, annotator string) *pdn.Game {
	out := *g
	out.Tags = append([]pdn.Tag(nil), g.Tags...)
	if annotator != "" {
		out.SetTag("Annotator", annotator)
	}
	n := len(g.Moves)
	out.Comments = nil
	out.Glyphs = nil
	if n == 0 {
		return &out
	}
	out.Comments = make([]string, n)
	out.Glyphs = make([]string, n)
	pos := g.Start
	for i, m := range g.Moves {
		mv := rv.Moves[i]
		parts := []string{FormatEval(mv.Score)}
		if c := strings.TrimSpace(evalCommand.ReplaceAllString(g.Comment(i), "")); c != "" {
			parts = append(parts, c)
		}
		out.Glyphs[i] = g.Glyph(i)
		if mv.Mark != None {
			out.Glyphs[i] = mv.Mark.Glyph()
			parts = append(parts, fmt.Sprintf("%s; better: %s (%s) %s;", mv.Mark,
				pos.FormatMove(mv.Best, engine.FormatFull), search.FormatScore(mv.BestScore),
				search.FormatPV(&pos, mv.PV, engine.FormatFull)))
		}
		if i == n-1 {
			parts = append(parts, SummaryComment(rv))
		}
		out.Comments[i] = strings.Join(parts, " ")
		pos = pos.Play(m)
	}
	return &out
}

// SummaryComment is the comment after a reviewed game's last move:
// "review: White NAME: N moves, average loss L, M mistakes, B blunders;
// Black NAME: ...", L in men with two decimals.
func SummaryComment(rv *Game) string {
	side := func(c engine.Color) string {
		s := rv.Sides[c]
		return fmt.Sprintf("%s %s: %d moves, average loss %.2f, %d mistakes, %d blunders",
			colorName(c), rv.Names[c], s.Moves, s.AvgLoss(), s.Mistakes, s.Blunders)
	}
	return "review: " + side(engine.White) + "; " + side(engine.Black)
}
