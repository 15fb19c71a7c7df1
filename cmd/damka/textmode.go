// textmode.go: damka for a person at a terminal: the board drawn in text,
// moves typed in the variant's notation, the engine answering.

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"damka/engine"
	"damka/protocol/hub"
	"damka/search"
)

// textOptions are the text mode's starting settings.
type textOptions struct {
	variant engine.VariantID
	threads int
	hashMiB int
	limits  search.Limits // the engine's limits per move; zero means textDefaultMoveTime
}

// textDefaultMoveTime is the engine's thinking time per move by default.
const textDefaultMoveTime = time.Second

const textHelp = `Type a move in the variant's notation (russian, brazilian: c3-d4, c3:e5;
english, international: 11-15, 15x24; captures may list every landing square)
and damka answers. Commands:
  help              this text
  board             draw the board again
  moves             list the legal moves
  new               a new game (you move first, damka answers)
  undo              take back your last move and damka's answer
  go                damka moves now for the side to move (you take the other side)
  fen [FEN]         show the position as a PDN FEN in the variant's notation, or
                    set it (PDN FEN, numeric or algebraic, or a Hub position)
  variant [NAME]    show the variant, or start a new game of russian, english
                    (american), brazilian or international
  level [depth N | nodes N | time S]
                    show or set how damka thinks: a depth, a node count or
                    seconds per move
  quit              leave (end of input does the same)
`

// textMode is the state of a text mode session.
type textMode struct {
	ctx        context.Context
	out        io.Writer
	opt        textOptions
	eng        *search.Engine
	game       *engine.Game
	engineSide engine.Color // the side damka plays
}

// runTextMode runs the text mode on in and out until quit or the end of
// in. Bad input is answered with a line saying what was wrong; it never ends
// the session.
func runTextMode(ctx context.Context, in io.Reader, out io.Writer, opt textOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opt.limits == (search.Limits{}) {
		opt.limits = search.Limits{MoveTime: textDefaultMoveTime}
	}
	tm := &textMode{ctx: ctx, out: out, opt: opt,
		eng: search.New(search.Options{Threads: opt.threads, HashMiB: opt.hashMiB})}
	tm.newGame(opt.variant)
	fmt.Fprintf(out, "damka %s, a draughts engine. Type help for the commands.\n", version)
	tm.draw()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), hub.MaxLineBytes)
	for {
		tm.prompt()
		if !sc.Scan() {
			fmt.Fprintln(out)
			return sc.Err()
		}
		if tm.command(strings.TrimSpace(sc.Text())) {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

func (tm *textMode) printf(format string, a ...any) { fmt.Fprintf(tm.out, format, a...) }

// newGame starts a game of v from its start position; the person plays the
// side to move.
func (tm *textMode) newGame(v engine.VariantID) {
	tm.setPosition(engine.StartPosition(v))
}

func (tm *textMode) setPosition(p engine.Position) {
	tm.game = engine.NewGame(p)
	tm.engineSide = p.Side.Opp()
	tm.eng.Clear()
}

func (tm *textMode) variant() engine.VariantID { return tm.game.Start().V }

func colourWord(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

func (tm *textMode) prompt() {
	p := tm.game.Position()
	tm.printf("%s, %s to move> ", tm.variant(), colourWord(p.Side))
}

// command handles one input line; it reports whether to quit.
func (tm *textMode) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(f[0]) {
	case "quit", "exit", "q":
		return true
	case "help", "?":
		tm.printf("%s", textHelp)
	case "board", "b":
		tm.draw()
	case "moves":
		tm.listMoves()
	case "new":
		tm.newGame(tm.variant())
		tm.draw()
	case "undo":
		tm.undo()
	case "go":
		tm.engineSide = tm.game.Position().Side
		tm.engineMove()
	case "fen":
		tm.fen(strings.TrimSpace(line[len(f[0]):]))
	case "variant":
		tm.setVariant(f[1:])
	case "level":
		tm.level(f[1:])
	default:
		tm.playerMove(line)
	}
	return false
}

// draw prints the board, White at the bottom, with the square names of the
// variant's notation beside it.
func (tm *textMode) draw() {
	p := tm.game.Position()
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
	tm.printf("%s", b.String())
}

func (tm *textMode) listMoves() {
	p := tm.game.Position()
	var list engine.MoveList
	p.Generate(&list)
	var ms []string
	for _, m := range list.Slice() {
		ms = append(ms, p.FormatMove(m, engine.FormatFull))
	}
	if len(ms) == 0 {
		tm.printf("no legal move\n")
		return
	}
	sort.Strings(ms)
	tm.printf("%s\n", strings.Join(ms, " "))
}

// over reports (and prints) whether the game has ended.
func (tm *textMode) over() bool {
	res, why := tm.game.Result()
	if res == engine.Ongoing {
		return false
	}
	tm.printf("game over: %s (%s). Type new, undo or quit.\n", res.PDN(tm.variant()), why)
	return true
}

// playerMove plays the person's move text, then damka's answer.
func (tm *textMode) playerMove(text string) {
	if tm.over() {
		return
	}
	p := tm.game.Position()
	m, err := p.ParseMove(text)
	if err != nil {
		tm.printf("%v (type help for the commands, moves for the legal moves)\n", err)
		return
	}
	tm.game.Play(m)
	tm.printf("you played %s\n", p.FormatMove(m, engine.FormatFull))
	if tm.game.Position().Side == tm.engineSide && !tm.over() {
		tm.engineMove()
		return
	}
	tm.draw()
}

// engineMove lets damka search and play for the side to move.
func (tm *textMode) engineMove() {
	if tm.over() {
		return
	}
	p := tm.game.Position()
	r := tm.eng.Start(tm.ctx, search.Request{Game: tm.game, Limits: tm.opt.limits,
		Book: search.BookOptions{Use: true, Margin: search.DefaultBookMargin}}).Wait()
	if !r.HasMove {
		tm.printf("damka has no legal move\n")
		return
	}
	if r.Source == search.FromBook {
		tm.game.Play(r.Move)
		tm.printf("damka plays %s (book)\n", p.FormatMove(r.Move, engine.FormatFull))
		tm.draw()
		tm.over()
		return
	}
	tm.game.Play(r.Move)
	tm.printf("damka plays %s (depth %d, score %s, %d nodes, %.2f s)\n",
		p.FormatMove(r.Move, engine.FormatFull), r.Depth, hub.FormatScore(r.Score), r.Nodes, r.Time.Seconds())
	tm.draw()
	tm.over()
}

// undo takes back moves until it is the person's turn again, at least one.
func (tm *textMode) undo() {
	if !tm.game.Undo() {
		tm.printf("nothing to undo\n")
		return
	}
	for tm.game.Ply() > 0 && tm.game.Position().Side == tm.engineSide {
		tm.game.Undo()
	}
	tm.engineSide = tm.game.Position().Side.Opp()
	tm.draw()
}

// fen prints the current position, or sets the one given.
func (tm *textMode) fen(arg string) {
	if arg == "" {
		p := tm.game.Position()
		tm.printf("%s\n", p.FENStyle(p.V.Rules().Notation))
		return
	}
	v := tm.variant()
	p, err := engine.ParseFEN(v, arg)
	if err != nil {
		hp, herr := engine.ParseHubPosition(v, arg)
		if herr != nil {
			tm.printf("bad position: %v\n", err)
			return
		}
		p = hp
	}
	tm.setPosition(p)
	tm.draw()
}

func (tm *textMode) setVariant(args []string) {
	if len(args) == 0 {
		tm.printf("variant %s (russian, english, brazilian, international)\n", tm.variant())
		return
	}
	v, err := engine.ParseVariant(args[0])
	if err != nil {
		tm.printf("%v\n", err)
		return
	}
	tm.newGame(v)
	tm.printf("new game of %s\n", v)
	tm.draw()
}

// level shows or sets the engine's limit per move.
func (tm *textMode) level(args []string) {
	l := tm.opt.limits
	if len(args) == 0 {
		switch {
		case l.Depth > 0:
			tm.printf("level depth %d\n", l.Depth)
		case l.Nodes > 0:
			tm.printf("level nodes %d\n", l.Nodes)
		default:
			tm.printf("level time %g\n", l.MoveTime.Seconds())
		}
		return
	}
	usage := "want level depth N (1..%d), level nodes N or level time S (seconds)\n"
	if len(args) != 2 {
		tm.printf(usage, search.MaxDepth)
		return
	}
	switch args[0] {
	case "depth":
		d, err := strconv.Atoi(args[1])
		if err != nil || d < 1 || d > search.MaxDepth {
			tm.printf("bad depth %q: "+usage, args[1], search.MaxDepth)
			return
		}
		tm.opt.limits = search.Limits{Depth: d}
	case "nodes":
		n, err := strconv.ParseUint(args[1], 10, 63)
		if err != nil || n == 0 {
			tm.printf("bad node count %q: "+usage, args[1], search.MaxDepth)
			return
		}
		tm.opt.limits = search.Limits{Nodes: n}
	case "time":
		s, err := strconv.ParseFloat(args[1], 64)
		if err != nil || !(s > 0 && s <= 3600) {
			tm.printf("bad time %q (want seconds, more than 0 and at most 3600): "+usage, args[1], search.MaxDepth)
			return
		}
		tm.opt.limits = search.Limits{MoveTime: time.Duration(s * float64(time.Second))}
	default:
		tm.printf(usage, search.MaxDepth)
		return
	}
	tm.printf("ok\n")
}
