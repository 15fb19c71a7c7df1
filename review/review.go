// Package review replays recorded games and annotates them with the
// engine's assessment: after every move the score of the position it
// leads to, and for a move that lowers the mover's winning chances against
// the engine's best move a glyph ("?!", "?" or "??") and the better move
// with its line, as a comment and as a PDN variation. It is the logic of
// `damka review` (docs/review.md).
//
// How a move is graded: every position of a game is searched once, with
// the same limits, the book off, the endgame tables of the search options
// on. The search of the position before move i gives the best move and its
// score B (centi-men, the mover's view); the search of the position after
// it, which the next move needs anyway, gives the played move's score P =
// search.ScoreAfterMove of that position's score. Each score becomes the
// mover's expected result (a win 1, a draw 1/2) by the variant's win model
// (winchance.go, fitted to game results), with the men on the board before
// the move; the drop from B's to P's is what the move gave away. A drop of
// InaccuracyDrop, MistakeDrop or BlunderDrop or more is marked, except
// where the game was decided either way (the mover was lost whatever it
// played, or is still winning after its move). A move about to be marked
// "?" or "??" is searched again deeper (Config.Verify): the position
// before it, which gives the best move, the position after it and the
// position after the best move, so that both moves are scored by searches
// of the same depth from the positions they lead to; it is graded on those
// scores. If it is still about to be marked "?" or "??", a second stage
// does the same deeper again (Config.VerifyStages). Its mark is the least
// of the marks of the stages it went through. A move that is the engine's
// best move drops nothing. Moves of the game's opening deck (its Opening
// tag) and of the opening book that follow it are book moves: written as
// such and not graded. Each graded move's
// accuracy is 100 * exp(-AccuracyRate * drop); a side's accuracy is their
// mean. The loss in men (B - P, clamped to ±ClampScore) is kept beside it.
//
// The layer of package review is that of player, below the front ends
// (damka gui reviews in its page): it imports engine, pdn, book, learn and
// search.
package review

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// Grading thresholds: drops of the mover's expected result (0 to 1).
const (
	// InaccuracyDrop is the least drop of an inaccuracy ("?!").
	InaccuracyDrop = 0.10
	// MistakeDrop is the least drop of a mistake ("?").
	MistakeDrop = 0.20
	// BlunderDrop is the least drop of a blunder ("??").
	BlunderDrop = 0.30
	// DecidedChance: no move is marked where the mover's expected result
	// after the best move is at most DecidedChance (it was lost anyway),
	// or after the played move at least 1 - DecidedChance (it still wins).
	DecidedChance = 0.03
	// AccuracyRate sets how fast a move's accuracy falls with its drop:
	// 100 * exp(-AccuracyRate * drop): a drop of 0.05 is 82%, of 0.3 30%.
	AccuracyRate = 4.0
	// ClampScore bounds the scores that the loss in men is computed from
	// (centi-men): a won position counts as ten men.
	ClampScore = 1000
	// PVPlies is the most moves of the better line written.
	PVPlies = 8
)

// Mark is the verdict on one move.
type Mark uint8

// The marks, from none to the worst.
const (
	None       Mark = iota // a drop under InaccuracyDrop, a book move, or a decided game
	Inaccuracy             // "?!": a drop of InaccuracyDrop or more
	Mistake                // "?": a drop of MistakeDrop or more
	Blunder                // "??": a drop of BlunderDrop or more
)

// Glyph returns the mark's PDN annotation glyph: "", "?!", "?" or "??".
func (m Mark) Glyph() string {
	switch m {
	case Inaccuracy:
		return "?!"
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}

// String returns "", "inaccuracy", "mistake" or "blunder".
func (m Mark) String() string {
	switch m {
	case Inaccuracy:
		return "inaccuracy"
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
	// Book is set for a move of the opening deck or book (not graded:
	// Score is NoScore when its position was not searched, the rest zero).
	Book bool
	// Score is the score of the position after the move, in centi-men
	// from White's view (a forced win in n plies is search.Mate-n, as in
	// package search), or NoScore.
	Score int
	// Best is the engine's best move in the position before the move,
	// BestScore its score (centi-men, White's view), PV its line starting
	// with Best (at most PVPlies moves). Best is the zero Move when the
	// search found none.
	Best      engine.Move
	BestScore int
	PV        []engine.Move
	// Chance and Played are the mover's expected results (0 to 1) after
	// Best and after the move played; Drop is Chance - Played, 0 or more.
	Chance, Played, Drop float64
	// Accuracy is 100 * exp(-AccuracyRate * Drop).
	Accuracy float64
	// Loss is what the move gives away against Best, in centi-men (0 or
	// more, from the clamped scores).
	Loss int
	Mark Mark
	// Verified is how many stages of deeper searches graded the move
	// before its mark was given (Config.Verify, Config.VerifyStages): 0
	// when none did.
	Verified int
}

// NoScore is the Score of a book move whose position was not searched.
const NoScore = math.MinInt32

// Side sums the reviewed moves of one side of a game, or of one player
// over games.
type Side struct {
	Moves        int     // moves graded (book moves not counted)
	Book         int     // book moves
	Loss         int     // total loss in centi-men
	Inaccuracies int     // moves marked "?!"
	Mistakes     int     // moves marked "?"
	Blunders     int     // moves marked "??"
	AccuracySum  float64 // the sum of the graded moves' accuracies
}

// AvgLoss returns the average loss per graded move in men (0 without
// moves).
func (s Side) AvgLoss() float64 {
	if s.Moves == 0 {
		return 0
	}
	return float64(s.Loss) / 100 / float64(s.Moves)
}

// Accuracy returns the mean accuracy of the graded moves, 0 to 100 (100
// without graded moves).
func (s Side) Accuracy() float64 {
	if s.Moves == 0 {
		return 100
	}
	return s.AccuracySum / float64(s.Moves)
}

func (s *Side) add(o Side) {
	s.Moves += o.Moves
	s.Book += o.Book
	s.Loss += o.Loss
	s.Inaccuracies += o.Inaccuracies
	s.Mistakes += o.Mistakes
	s.Blunders += o.Blunders
	s.AccuracySum += o.AccuracySum
}

// Game is one reviewed game.
type Game struct {
	Index int // 1-based index of the game in its input
	// Game is the annotated game: the input game with a glyph on each
	// marked move, the comments of the review added to its own, the
	// better line of each marked move as a variation, the accuracy tags,
	// and the Annotator tag when Config.Annotator is set. The input game
	// is not changed.
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
	// Verify bounds the searches of the first deeper stage of a move
	// about to be marked "?" or "??" (VerifyLimits makes them from
	// Limits); zero: no deeper stage.
	Verify search.Limits
	// VerifyStages is how many deeper stages a move may go through:
	// the first searches under Verify, each next one VerifyPlies deeper
	// again (VerifyFactor times the nodes or the time), and only while
	// the move is still about to be marked "?" or "??". 0 means
	// DefaultVerifyStages.
	VerifyStages int
	// Books are the opening books by variant (nil: none) whose moves at
	// the start of a game of that variant (after its deck's) are book
	// moves.
	Books [engine.NumVariants]*book.Book
	// Annotator, if not empty, is written as the reviewed games'
	// Annotator tag (e.g. "damka 1.0, depth 6").
	Annotator string
}

// DefaultDepth is the search depth of damka review without a limit flag
// (docs/review.md, "Reliable marks": how often a "??" it gives holds up
// against a search 6 plies deeper).
const DefaultDepth = 10

// VerifyPlies is how much deeper each deeper stage of a move about to be
// marked searches than the one before it, in plies, under a depth limit;
// under a node or time limit it gets VerifyFactor times as much.
const (
	VerifyPlies  = 4
	VerifyFactor = 8
)

// VerifyLimits returns the limits of the deeper stage that follows
// searches under l: VerifyPlies deeper, or VerifyFactor times the nodes
// or the time.
func VerifyLimits(l search.Limits) search.Limits {
	v := l
	switch {
	case l.Depth > 0:
		v.Depth = min(l.Depth+VerifyPlies, search.MaxDepth)
	case l.Nodes > 0:
		v.Nodes = l.Nodes * VerifyFactor
	case l.MoveTime > 0:
		v.MoveTime = l.MoveTime * VerifyFactor
	}
	return v
}

// DefaultVerifyStages is the number of deeper stages of Config.Verify
// when Config.VerifyStages is 0.
const DefaultVerifyStages = 2

// verifyStages returns the limits of the deeper stages of a move about to
// be marked: none without Config.Verify.
func (r *Reviewer) verifyStages() []search.Limits {
	if r.cfg.Verify == (search.Limits{}) {
		return nil
	}
	n := r.cfg.VerifyStages
	if n <= 0 {
		n = DefaultVerifyStages
	}
	ls := []search.Limits{r.cfg.Verify}
	for len(ls) < n {
		ls = append(ls, VerifyLimits(ls[len(ls)-1]))
	}
	return ls
}

// Reviewer reviews games with one search engine, one game at a time.
type Reviewer struct {
	e        *search.Engine
	cfg      Config
	nodes    uint64 // searched so far, for the cost in the reliability test
	searches int    // positions searched so far
}

// New returns a reviewer with a search engine made from cfg.Options.
func New(cfg Config) *Reviewer {
	return &Reviewer{e: search.New(cfg.Options), cfg: cfg}
}

// BookPlies returns how many moves at the start of g are book moves: the
// moves of its Opening tag (a match's deck writes the opening's moves
// there), then those that b (nil: none) has in the positions they are
// played in.
func BookPlies(g *pdn.Game, b *book.Book) int {
	n := 0
	p := g.Start
	for _, w := range strings.Fields(g.Tag("Opening")) {
		if n == len(g.Moves) {
			break
		}
		w = strings.TrimRight(w, "!?")
		if i := strings.LastIndex(w, "."); i >= 0 {
			w = w[i+1:]
		}
		if w == "" {
			continue
		}
		m, err := p.ParseMove(w)
		if err != nil || m != g.Moves[n] {
			break
		}
		p = p.Play(m)
		n++
	}
	for b != nil && n < len(g.Moves) {
		found := false
		for _, e := range b.Probe(&p) {
			if e.Move == g.Moves[n] {
				found = true
				break
			}
		}
		if !found {
			break
		}
		p = p.Play(g.Moves[n])
		n++
	}
	return n
}

// Review searches every position of g (see the package comment) and
// returns the review, its index set to index. done, if not nil, is
// called after each move is reviewed. The engine's table is cleared first,
// so that a game's review does not depend on the games before it. When ctx
// is done it returns ctx's error and no review.
func (r *Reviewer) Review(ctx context.Context, index int, g *pdn.Game, done func()) (*Game, error) {
	r.e.Clear()
	n := len(g.Moves)
	var b *book.Book
	if g.Variant < engine.NumVariants {
		b = r.cfg.Books[g.Variant]
	}
	nBook := BookPlies(g, b)
	eg := engine.NewGame(g.Start)
	// scores[i] and results[i]: the search of the position after i moves,
	// its score from the side to move; positions inside the book are not
	// searched (searched[i] false).
	scores := make([]int, n+1)
	results := make([]search.Result, n+1)
	searched := make([]bool, n+1)
	for i := 0; i <= n; i++ {
		if i > 0 {
			eg.Play(g.Moves[i-1])
		}
		if i < nBook {
			if i > 0 && done != nil {
				done()
			}
			continue
		}
		s, res, err := r.search(ctx, eg, r.cfg.Limits)
		if err != nil {
			return nil, err
		}
		scores[i], results[i], searched[i] = s, res, true
		if i > 0 && done != nil {
			done()
		}
	}
	rv := &Game{Index: index, Input: g, Moves: make([]Move, n), Result: g.Result}
	rv.Names = [2]string{nameOr(g.Tag("White")), nameOr(g.Tag("Black"))}
	model := Model(g.Variant)
	stages := r.verifyStages()
	pos := g.Start
	for i, m := range g.Moves {
		mover := pos.Side
		mv := Move{Mover: mover, Score: NoScore}
		if searched[i+1] {
			mv.Score = whiteView(mover, search.ScoreAfterMove(scores[i+1]))
		}
		if i < nBook {
			mv.Book = true
			rv.Moves[i] = mv
			rv.Sides[mover].Book++
			pos = pos.Play(m)
			continue
		}
		men := menOf(&pos)
		grade(&mv, m, model, men, results[i], scores[i], scores[i+1])
		for k, l := range stages {
			if mv.Mark < Mistake {
				break
			}
			bs, br, err := r.search(ctx, gameAt(g, i), l)
			if err != nil {
				return nil, err
			}
			as, _, err := r.search(ctx, gameAt(g, i+1), l)
			if err != nil {
				return nil, err
			}
			if br.HasMove && br.Move != m {
				// The best move is scored as the played one is: by a
				// search of the position it leads to, to the same depth.
				ga := gameAt(g, i)
				ga.Play(br.Move)
				xs, _, err := r.search(ctx, ga, l)
				if err != nil {
					return nil, err
				}
				bs = search.ScoreAfterMove(xs)
			}
			prev := mv.Mark
			grade(&mv, m, model, men, br, bs, as)
			mv.Verified = k + 1
			// A mark stands as far as every search agrees on it.
			mv.Mark = min(mv.Mark, prev)
		}
		mv.Accuracy = 100 * math.Exp(-AccuracyRate*mv.Drop)
		rv.Moves[i] = mv
		s := &rv.Sides[mover]
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
		pos = pos.Play(m)
	}
	rv.Game = annotate(g, rv, r.cfg.Annotator)
	return rv, nil
}

// grade sets mv's scores, best move, chances, drop, loss and mark for the
// move played in a position with men men, from the search of that
// position (best, its score bestS, the mover's view) and the score afterS
// of the position after the move (the other side's view).
func grade(mv *Move, played engine.Move, model WinModel, men int, best search.Result, bestS, afterS int) {
	playedS := search.ScoreAfterMove(afterS)
	mv.Score = whiteView(mv.Mover, playedS)
	mv.BestScore = whiteView(mv.Mover, bestS)
	mv.Best, mv.PV, mv.Loss, mv.Drop = engine.Move{}, nil, 0, 0
	mv.Chance = model.Expected(bestS, men)
	mv.Played = model.Expected(playedS, men)
	if best.HasMove {
		mv.Best = best.Move
		mv.PV = best.PV[:min(len(best.PV), PVPlies)]
		if played != best.Move {
			mv.Loss = max(0, clamp(bestS)-clamp(playedS))
			mv.Drop = max(0, mv.Chance-mv.Played)
		} else {
			mv.BestScore, mv.Chance = mv.Score, mv.Played
		}
	}
	mv.Mark = markOf(mv.Drop, mv.Chance, mv.Played)
}

// gameAt returns g after its first i moves, with its history (for the
// draw rules).
func gameAt(g *pdn.Game, i int) *engine.Game {
	eg := engine.NewGame(g.Start)
	for _, m := range g.Moves[:i] {
		eg.Play(m)
	}
	return eg
}

// search searches the position of g under l and returns its score (the
// side to move's view: -search.Mate when it has no move, the position
// then not searched) and the result.
func (r *Reviewer) search(ctx context.Context, g *engine.Game, l search.Limits) (int, search.Result, error) {
	pos := g.Position()
	var list engine.MoveList
	pos.Generate(&list)
	if list.N == 0 {
		return -search.Mate, search.Result{}, nil
	}
	res := r.e.SearchGame(ctx, g, l, nil)
	r.nodes += res.Nodes
	r.searches++
	if err := ctx.Err(); err != nil {
		return 0, res, err
	}
	return res.Score, res, nil
}

// markOf is the mark of a move that dropped drop of the mover's expected
// result, which was chance after the best move and is played after it.
func markOf(drop, chance, played float64) Mark {
	switch {
	case chance <= DecidedChance, played >= 1-DecidedChance:
		return None
	case drop >= BlunderDrop:
		return Blunder
	case drop >= MistakeDrop:
		return Mistake
	case drop >= InaccuracyDrop:
		return Inaccuracy
	}
	return None
}

func clamp(s int) int { return max(-ClampScore, min(ClampScore, s)) }

// whiteView turns a score from side c's view into White's.
func whiteView(c engine.Color, s int) int {
	if c == engine.White {
		return s
	}
	return -s
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

// OutcomeWords says what a decided score (centi-men, White's view) means,
// for a person: "White wins in 17 plies (tables)", "Black wins (tables)",
// "White wins in 5 plies"; "" for a score that decides nothing.
func OutcomeWords(cs int) string {
	sign, plies, table, ok := search.Decided(cs)
	if !ok {
		return ""
	}
	who := "White"
	if sign < 0 {
		who = "Black"
	}
	w := who + " wins"
	if plies >= 0 {
		w += " in " + counted(plies, "ply", "plies")
	}
	if table {
		w += " (tables)"
	}
	return w
}

// annotate returns a copy of g with the review's glyphs and comments: the
// comment after move i is "[%eval S]" (with the outcome in words for a
// decided score), "book" for a book move, then the game's own comment (an
// older [%eval] dropped), then, for a marked move, its mark, the drop of
// the mover's chances and "better: M (S) PV;", with the better line also
// as a variation; after the last move the summary of both sides. The
// tags WhiteAccuracy and BlackAccuracy hold the sides' accuracies.
func annotate(g *pdn.Game, rv *Game, annotator string) *pdn.Game {
	out := *g
	out.Tags = append([]pdn.Tag(nil), g.Tags...)
	if annotator != "" {
		out.SetTag("Annotator", annotator)
	}
	for _, c := range []engine.Color{engine.White, engine.Black} {
		if rv.Sides[c].Moves > 0 {
			out.SetTag(c.Name()+"Accuracy", fmt.Sprintf("%.1f", rv.Sides[c].Accuracy()))
		}
	}
	n := len(g.Moves)
	out.Comments = nil
	out.Glyphs = nil
	out.Variations = nil
	if n == 0 {
		return &out
	}
	out.Comments = make([]string, n)
	out.Glyphs = make([]string, n)
	pos := g.Start
	for i, m := range g.Moves {
		mv := rv.Moves[i]
		var parts []string
		if mv.Score != NoScore {
			parts = append(parts, FormatEval(mv.Score))
			if w := OutcomeWords(mv.Score); w != "" {
				parts = append(parts, w)
			}
		}
		if mv.Book {
			parts = append(parts, "book")
		}
		if c := strings.TrimSpace(evalCommand.ReplaceAllString(g.Comment(i), "")); c != "" {
			parts = append(parts, c)
		}
		out.Glyphs[i] = g.Glyph(i)
		if mv.Mark != None {
			out.Glyphs[i] = mv.Mark.Glyph()
			parts = append(parts, fmt.Sprintf("%s (winning chances %.0f%% -> %.0f%%); better: %s (%s) %s;", mv.Mark,
				100*mv.Chance, 100*mv.Played,
				pos.FormatMove(mv.Best, engine.FormatFull), search.FormatScore(mv.BestScore),
				search.FormatPV(&pos, mv.PV, engine.FormatFull)))
			if len(mv.PV) > 0 {
				if out.Variations == nil {
					out.Variations = make([][]engine.Move, n)
				}
				out.Variations[i] = slices.Clone(mv.PV)
			}
		}
		if i == n-1 {
			if k := len(parts) - 1; k >= 0 && !strings.HasSuffix(parts[k], ";") {
				parts[k] += ";" // the summary is a sentence of its own
			}
			parts = append(parts, SummaryComment(rv))
		}
		out.Comments[i] = strings.Join(parts, " ")
		pos = pos.Play(m)
	}
	return &out
}

// SummaryComment is the comment after a reviewed game's last move:
// "review: White NAME: accuracy A%, N moves (K book), average loss L, I
// inaccuracies, M mistakes, B blunders; Black NAME: ...", L in men with two
// decimals.
func SummaryComment(rv *Game) string {
	side := func(c engine.Color) string {
		s := rv.Sides[c]
		return fmt.Sprintf("%s %s: accuracy %.1f%%, %s (%d book), average loss %.2f, %s, %s, %s",
			c.Name(), rv.Names[c], s.Accuracy(), counted(s.Moves, "move", "moves"), s.Book, s.AvgLoss(),
			counted(s.Inaccuracies, "inaccuracy", "inaccuracies"), counted(s.Mistakes, "mistake", "mistakes"),
			counted(s.Blunders, "blunder", "blunders"))
	}
	return "review: " + side(engine.White) + "; " + side(engine.Black)
}

// counted writes n with the noun's singular for 1 and its plural
// otherwise: "1 ply", "0 plies", "17 plies".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
