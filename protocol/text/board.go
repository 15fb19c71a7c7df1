// board.go: what the text mode shows: the board, the legal moves, the
// move list, the game as PDN and the result.

package text

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

func colourWord(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

// player names who plays c: "you" or "damka".
func (tm *textMode) player(c engine.Color) string {
	if c == tm.engineSide {
		return "damka"
	}
	return "you"
}

// draw prints the board, White at the bottom, with the square names of the
// variant's notation beside it, then the clock and the last moves.
func (tm *textMode) draw() {
	p := tm.game().Position()
	v := p.V
	r := v.Rules()
	n := r.BoardSize
	var b strings.Builder
	for row := 0; row < n; row++ {
		if r.Notation == engine.Algebraic {
			fmt.Fprintf(&b, "%2d ", n-row)
		} else {
			b.WriteString("   ")
		}
		var nums []string
		for col := 0; col < n; col++ {
			sq := engine.SquareFromRowCol(v, row, col)
			c := " "
			if sq != 0 {
				c = "."
				switch p.PieceAt(sq) {
				case engine.WhiteMan:
					c = "w"
				case engine.BlackMan:
					c = "b"
				case engine.WhiteKing:
					c = "W"
				case engine.BlackKing:
					c = "B"
				}
				nums = append(nums, fmt.Sprintf("%2d", sq))
			}
			b.WriteString(" " + c)
		}
		if r.Notation == engine.Numeric {
			b.WriteString("     " + strings.Join(nums, "  "))
		}
		b.WriteByte('\n')
	}
	if r.Notation == engine.Algebraic {
		b.WriteString("   ")
		for col := 0; col < n; col++ {
			fmt.Fprintf(&b, " %c", 'a'+col)
		}
		b.WriteByte('\n')
	}
	b.WriteString("w/b: white/black man, W/B: king\n")
	b.WriteString(tm.clockLine() + "\n")
	if ply := tm.game().Ply(); ply > 0 {
		from := max(ply-boardPlies, 0)
		// Start the line at a move of the first mover, as PDN numbers them.
		for from > 0 && tm.game().PositionAt(from).Side != r.FirstToMove {
			from--
		}
		words := moveWords(tm.game(), from)
		if from > 0 {
			words = append([]string{"..."}, words...)
		}
		b.WriteString("moves: " + strings.Join(words, " ") + "\n")
	}
	tm.printf("%s", b.String())
}

func (tm *textMode) listMoves() {
	p := tm.game().Position()
	var ms []string
	for _, m := range p.SortedMoves() {
		ms = append(ms, p.FormatMove(m, engine.FormatFull))
	}
	if len(ms) == 0 {
		tm.printf("no legal move\n")
		return
	}
	tm.printf("%s\n", strings.Join(ms, " "))
}

// moveWords writes the moves of g from ply from on as PDN movetext words
// in the variant's notation, as pdn.Write numbers them: "1. c3-d4"
// before each move of the side that moves first, "1... f6-g5" when a
// move of the other side starts the list, a bare move otherwise.
func moveWords(g *engine.Game, from int) []string {
	first := g.Start().V.Rules().FirstToMove
	// The number of the first move: one more for every pair of plies
	// (a pair ends with a move of the second player).
	num := 1
	for i := 0; i < from; i++ {
		if g.PositionAt(i).Side != first {
			num++
		}
	}
	moves := g.Moves()
	words := make([]string, 0, len(moves)-from)
	for i := from; i < len(moves); i++ {
		p := g.PositionAt(i)
		text := p.FormatMove(moves[i], engine.FormatFull)
		switch {
		case p.Side == first:
			text = strconv.Itoa(num) + ". " + text
		case i == from:
			text = strconv.Itoa(num) + "... " + text
		}
		if p.Side != first {
			num++
		}
		words = append(words, text)
	}
	return words
}

// history prints the moves of the game, numbered, in lines of at most 80
// columns, with the result token when the game is over.
func (tm *textMode) history() {
	words := moveWords(tm.game(), 0)
	if res, _ := tm.ended(); res != engine.Ongoing {
		words = append(words, res.PDN(tm.variant()))
	}
	if len(words) == 0 {
		tm.printf("no moves yet\n")
		return
	}
	var b strings.Builder
	col := 0
	for _, w := range words {
		if col > 0 && col+1+len(w) > 80 {
			b.WriteByte('\n')
			col = 0
		}
		if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	tm.printf("%s\n", b.String())
}

// pdn prints the game as a PDN file: the seven-tag roster (White and Black
// say who plays which side now), GameType and FEN where needed, the moves.
func (tm *textMode) pdn() {
	v := tm.variant()
	g := pdn.NewGame(v, tm.game().Start())
	g.SetTag("Event", "damka text mode")
	g.SetTag("Date", tm.now().Format("2006.01.02"))
	g.SetTag("White", tm.player(engine.White))
	g.SetTag("Black", tm.player(engine.Black))
	for _, m := range tm.game().Moves() {
		g.AppendMove(m)
	}
	res, _ := tm.ended()
	g.Result = res.PDN(v)
	var b bytes.Buffer
	if err := pdn.Write(&b, g); err != nil {
		tm.printf("cannot write the game: %v\n", err)
		return
	}
	tm.printf("%s", b.String())
}

// ended returns the game's result and why: by the rules, or a loss on time
// (recorded in the game) when the side to move has run out of time.
func (tm *textMode) ended() (engine.Result, engine.Reason) {
	res, why := tm.game().Result()
	if res != engine.Ongoing {
		return res, why
	}
	side := tm.game().Position().Side
	if !tm.timed() || tm.remaining(side) >= 0 {
		return engine.Ongoing, engine.ReasonNone
	}
	res, why = engine.WhiteWins, engine.TimeForfeit
	if side == engine.White {
		res = engine.BlackWins
	}
	tm.game().SetResult(res, why)
	tm.clock.stopped = tm.now()
	return res, why
}

// over reports whether the game has ended (see ended) and if so prints who
// won and why.
func (tm *textMode) over() bool {
	res, why := tm.ended()
	if res == engine.Ongoing {
		return false
	}
	tm.printf("game over: %s (%s). Type new, undo or quit.\n", tm.resultText(res, why), res.PDN(tm.variant()))
	return true
}

// resultText says who won and why, or what drew: "Black (damka) wins,
// white has no pieces left", "draw by threefold repetition".
func (tm *textMode) resultText(res engine.Result, why engine.Reason) string {
	if res == engine.Draw {
		if why == engine.Repetition {
			return "draw by threefold repetition"
		}
		return "draw: " + why.String()
	}
	winner := engine.White
	if res == engine.BlackWins {
		winner = engine.Black
	}
	loser := colourWord(winner.Opp())
	var because string
	switch why {
	case engine.NoPieces:
		because = loser + " has no pieces left"
	case engine.NoLegalMove:
		because = loser + " has no legal move"
	case engine.TimeForfeit:
		because = loser + " ran out of time"
	case engine.Resignation:
		because = loser + " resigned"
	default:
		because = why.String()
	}
	name := colourWord(winner)
	return fmt.Sprintf("%s%s (%s) wins, %s", strings.ToUpper(name[:1]), name[1:], tm.player(winner), because)
}
