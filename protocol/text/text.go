// Package text is damka for a person at a terminal: the board drawn in
// text, moves typed in the variant's notation, the engine answering, with
// a game clock, the move list, damka's thinking, the result of the game
// and the player's settings (settings, set NAME VALUE).
//
// It is a front end beside Hub, DXP and CheckerBoard: it drives a
// *player.Player, which owns the settings, the resources they name (the
// evaluation weights, the opening book, the endgame tables) and the game.
// The limits of damka's moves (level: a depth, a node count, a time per
// move or a game clock) are the text mode's own.
package text

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"damka/engine"
	"damka/pdn"
	"damka/player"
	"damka/search"
)

// Config sets up a text mode session.
type Config struct {
	// Player is the engine the person plays against (required): its
	// settings, resources and game. Run starts a new game of its variant
	// and, while it runs, prints the player's notices (SetNotice).
	Player *player.Player
	// Version is damka's version, shown in the greeting line.
	Version string
	// Limits are damka's limits per move until the person types level;
	// the zero value means DefaultMoveTime a move.
	Limits search.Limits
	// Now reads the game clock; nil means time.Now (tests pass a fake).
	Now func() time.Time
	// Interrupt delivers Ctrl-C (os.Interrupt): it stops damka's search
	// (damka plays its best move so far) or, at the prompt, ends the
	// session. nil: none.
	Interrupt <-chan os.Signal
}

// DefaultMoveTime is damka's thinking time per move when Config.Limits is
// zero.
const DefaultMoveTime = time.Second

// MaxLineBytes bounds one input line, in bytes; a longer line ends the
// session with bufio.ErrTooLong.
const MaxLineBytes = 1 << 20

// boardPlies is how many of the last plies the move line under the board
// shows (history shows them all).
const boardPlies = 8

const helpText = `Type a move in the variant's notation (russian, brazilian: c3-d4, c3:e5;
english, international: 11-15, 15x24; captures may list every landing square)
and damka answers. While it thinks, damka prints a line per finished search
depth: depth, score in men (+ is good for damka), nodes, time, main line.
Commands:
  help              this text
  board             draw the board again, with the clock and the last moves
  moves             list the legal moves
  history           the moves of the game so far, numbered as in PDN
  pdn               the game as a PDN file (tags and moves), to save or paste
  clock             show both clocks
  new               a new game (you move first, damka answers)
  undo              take back your last move and damka's answer (and the time
                    spent on them)
  go                damka moves now for the side to move (you take the other side)
  fen [FEN]         show the position as a PDN FEN in the variant's notation, or
                    set it (PDN FEN, numeric or algebraic, or a Hub position)
  variant [NAME]    show the variant, or start a new game of russian, english
                    (american), brazilian or international
  level [depth N | nodes N | time S | clock M[+I]]
                    show or set how damka thinks: a depth, a node count,
                    seconds per move, or a game clock of M minutes each with
                    I seconds added after every move (the clocks restart; a
                    side whose time runs out loses)
  thinking [on|off] show or hide damka's line per search depth
  settings          list the engine's settings: value, range, what each does
  set NAME VALUE    change a setting, e.g. set threads 2, set book false,
                    set egdb-path off (no endgame tables); set variant starts
                    a new game
  quit              leave (end of input, or Ctrl-C at the prompt, does the same)
Ctrl-C while damka thinks makes it play its best move so far.
`

// textMode is the state of a text mode session.
type textMode struct {
	ctx        context.Context
	out        io.Writer
	p          *player.Player
	limits     search.Limits // damka's limits per move (without a game clock)
	now        func() time.Time
	interrupt  <-chan os.Signal
	engineSide engine.Color // the side damka plays
	quiet      bool         // thinking off: no line per search depth
	clock      textClock
	// shown is the game the clock belongs to: when a setting (variant)
	// makes the player start another, the clock and sides start again.
	shown *engine.Game
}

// textClock is the game clock: a time control (none when base and inc are
// zero) and the time each ply of the game took, so that undo takes the time
// back with the moves.
type textClock struct {
	base, inc time.Duration   // time control: base per side, increment per move
	fromPly   int             // the ply the clocks (re)started at
	spent     []time.Duration // spent[i]: the time ply i took
	turnStart time.Time       // when the side to move began its turn
	stopped   time.Time       // when the side to move lost on time; zero while its clock runs
}

// Run runs the text mode on in and out until quit, the end of in, an
// interrupt at the prompt or the end of ctx (then it returns ctx.Err()).
// It starts a new game of the player's variant, the person moving first.
// Bad input is answered with a line saying what was wrong; it never ends
// the session. The error is an input error (a line over MaxLineBytes:
// bufio.ErrTooLong) or ctx's; an error without Config.Player.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	if cfg.Player == nil {
		return errors.New("text: no player")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if cfg.Limits == (search.Limits{}) {
		cfg.Limits = search.Limits{MoveTime: DefaultMoveTime}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	tm := &textMode{ctx: ctx, out: out, p: cfg.Player, limits: cfg.Limits, now: cfg.Now, interrupt: cfg.Interrupt}
	tm.p.SetNotice(func(msg string) { tm.printf("note: %s\n", msg) })
	defer tm.p.SetNotice(nil)
	tm.p.NewGame()
	tm.restart()
	fmt.Fprintf(out, "damka %s, a draughts engine. Type help for the commands.\n", cfg.Version)
	tm.draw()
	lines := newLineReader(in)
	defer lines.close()
	for {
		tm.prompt()
		line, ok, err := tm.nextLine(lines)
		if err != nil || !ok {
			fmt.Fprintln(out)
			return err
		}
		if tm.command(strings.TrimSpace(line)) {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// nextLine waits for the next input line. Meanwhile, when the person's
// flag falls, it ends the game and prompts again; an interrupt at the
// prompt ends the session (ok false, no error), as does the end of input.
func (tm *textMode) nextLine(lines *lineReader) (line string, ok bool, err error) {
	armed := true // false after a timer that did not end the game (a clock that is not the wall clock)
	for {
		var flag <-chan time.Time
		if d, ticking := tm.flagIn(); ticking && armed {
			timer := time.NewTimer(d)
			defer timer.Stop()
			flag = timer.C
		}
		select {
		case r := <-lines.next():
			lines.pending = false
			return r.text, r.ok, r.err
		case <-flag:
			if tm.over() {
				tm.prompt()
			} else {
				armed = false
			}
		case <-tm.interrupt:
			return "", false, nil
		case <-tm.ctx.Done():
			return "", false, tm.ctx.Err()
		}
	}
}

// flagIn returns how long until the flag of the person to move falls, and
// false when no flag can fall (no clock, damka to move, the game over).
func (tm *textMode) flagIn() (time.Duration, bool) {
	p := tm.game().Position()
	if !tm.timed() || p.Side == tm.engineSide || !tm.clock.stopped.IsZero() {
		return 0, false
	}
	if res, _ := tm.game().Result(); res != engine.Ongoing {
		return 0, false
	}
	return max(tm.remaining(p.Side)+time.Millisecond, 0), true
}

// lineReader reads input lines in its own goroutine, one per request, so
// that the text mode can wait for a line and for the clock or Ctrl-C at
// once, and never reads ahead of the person.
type lineReader struct {
	sc      *bufio.Scanner
	want    chan struct{}
	got     chan lineResult
	pending bool
	done    chan struct{}
}

// lineResult is one Scan: the line, whether there was one, the error.
type lineResult struct {
	text string
	ok   bool
	err  error
}

func newLineReader(in io.Reader) *lineReader {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	lr := &lineReader{sc: sc, want: make(chan struct{}, 1), got: make(chan lineResult, 1), done: make(chan struct{})}
	go func() {
		for {
			select {
			case <-lr.want:
			case <-lr.done:
				return
			}
			ok := sc.Scan()
			lr.got <- lineResult{sc.Text(), ok, sc.Err()}
			if !ok {
				return
			}
		}
	}()
	return lr
}

// next asks for the next line, unless a request is still pending, and
// returns the channel the line comes on.
func (lr *lineReader) next() <-chan lineResult {
	if !lr.pending {
		lr.pending = true
		lr.want <- struct{}{}
	}
	return lr.got
}

// close stops the reader goroutine (one blocked in a read stays blocked
// until the read returns).
func (lr *lineReader) close() { close(lr.done) }

func (tm *textMode) printf(format string, a ...any) { fmt.Fprintf(tm.out, format, a...) }

// game returns the game played: the player's.
func (tm *textMode) game() *engine.Game { return tm.p.Game() }

// newGame starts a new game of the player's variant from its start
// position; the person plays the side to move.
func (tm *textMode) newGame() {
	tm.p.NewGame()
	tm.restart()
}

// setPosition starts a game from p with a fresh search table; the person
// plays the side to move.
func (tm *textMode) setPosition(p engine.Position) {
	tm.p.NewGame()
	tm.p.SetGame(engine.NewGame(p))
	tm.restart()
}

// restart makes the player's game the one the sides and the clock belong
// to: the person plays the side to move, the clock counts from now.
func (tm *textMode) restart() {
	g := tm.game()
	tm.shown = g
	tm.engineSide = g.Position().Side.Opp()
	tm.clock.spent = append(tm.clock.spent[:0], make([]time.Duration, g.Ply())...)
	tm.clock.fromPly = g.Ply()
	tm.clock.turnStart, tm.clock.stopped = tm.now(), time.Time{}
}

func (tm *textMode) variant() engine.VariantID { return tm.game().Start().V }

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

// prompt asks for the next line, with the clock of the side to move when
// there is a time control (never below zero: a fallen flag ends the game
// first).
func (tm *textMode) prompt() {
	p := tm.game().Position()
	if tm.timed() {
		if tm.clock.stopped.IsZero() && tm.remaining(p.Side) < 0 {
			tm.over()
		}
		tm.printf("%s, %s to move (%s)> ", tm.variant(), colourWord(p.Side), formatClock(max(tm.remaining(p.Side), 0), true))
		return
	}
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
		tm.printf("%s", helpText)
	case "board", "b":
		tm.draw()
	case "moves":
		tm.listMoves()
	case "history":
		tm.history()
	case "pdn":
		tm.pdn()
	case "clock":
		tm.printf("%s\n", tm.clockLine())
	case "new":
		tm.newGame()
		tm.draw()
	case "undo":
		tm.undo()
	case "go":
		tm.engineSide = tm.game().Position().Side
		tm.engineMove()
	case "fen":
		tm.fen(strings.TrimSpace(line[len(f[0]):]))
	case "variant":
		tm.setVariant(f[1:])
	case "level":
		tm.level(f[1:])
	case "thinking":
		tm.thinking(f[1:])
	case "settings":
		tm.settings()
	case "set":
		tm.set(strings.TrimSpace(line[len(f[0]):]))
	default:
		if !strings.ContainsAny(f[0], "0123456789") {
			tm.printf("%q is not a command or a move; the commands are: %s (help explains them)\n", f[0], strings.Join(commands, ", "))
			return false
		}
		tm.playerMove(line)
	}
	return false
}

// commands are the text mode's commands, as help lists them.
var commands = []string{"help", "board", "moves", "history", "pdn", "clock", "new", "undo", "go", "fen", "variant", "level", "thinking", "settings", "set", "quit"}

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

// playerMove plays the person's move text, then damka's answer.
func (tm *textMode) playerMove(text string) {
	if tm.over() {
		return
	}
	p := tm.game().Position()
	m, err := p.ParseMove(text)
	if err != nil {
		tm.printf("%v (type help for the commands, moves for the legal moves)\n", err)
		return
	}
	tm.play(m)
	tm.printf("you played %s\n", p.FormatMove(m, engine.FormatFull))
	if res, _ := tm.ended(); res == engine.Ongoing && tm.game().Position().Side == tm.engineSide {
		tm.engineMove()
		return
	}
	tm.draw()
	tm.over()
}

// play plays m and charges the time since the turn began to the mover.
func (tm *textMode) play(m engine.Move) {
	now := tm.now()
	tm.clock.spent = append(tm.clock.spent[:tm.game().Ply()], now.Sub(tm.clock.turnStart))
	tm.clock.turnStart, tm.clock.stopped = now, time.Time{}
	tm.game().Play(m)
}

// engineMove lets damka search and play for the side to move, printing a
// line per completed iteration unless thinking is off, then the move with
// its score and main line.
func (tm *textMode) engineMove() {
	if tm.over() {
		return
	}
	p := tm.game().Position()
	lim := tm.limits
	if tm.timed() {
		lim = search.Limits{Time: max(tm.remaining(p.Side), time.Millisecond), Inc: tm.clock.inc}
	}
	var report func(search.Info)
	if !tm.quiet {
		header := true
		multi := tm.p.MultiPV() > 1
		report = func(info search.Info) {
			if header {
				tm.printf("damka thinks (%s):\n", tm.levelText())
				header = false
			}
			if multi {
				// A multi-PV search: each line's number first.
				tm.printf("  line %2d", max(info.MultiPV, 1))
			}
			tm.printf("  depth %2d  score %6s  nodes %10d  time %6.2f s  pv %s\n", info.Depth,
				search.FormatScore(info.Score), info.Nodes, info.Time.Seconds(), search.FormatPV(&p, info.PV, engine.FormatFull))
		}
	}
	c := tm.chooseMove(lim, report)
	if !c.HasMove {
		tm.printf("damka has no legal move\n")
		return
	}
	if tm.timed() && tm.remaining(p.Side) < 0 {
		// The flag fell before the move was made: it is not played.
		tm.over()
		return
	}
	tm.play(c.Move)
	mv := p.FormatMove(c.Move, engine.FormatFull)
	if c.Source == search.FromBook {
		tm.printf("damka plays %s (book)\n", mv)
	} else {
		r := c.Result
		tm.printf("damka plays %s (depth %d, score %s, %d nodes, %.2f s) pv %s\n", mv,
			r.Depth, search.FormatScore(r.Score), r.Nodes, r.Time.Seconds(), search.FormatPV(&p, r.PV, engine.FormatFull))
	}
	tm.draw()
	tm.over()
}

// chooseMove picks damka's move in the game's current position: the
// player's book move when its book settings give one, else a search under
// lim (with the endgame tables of its settings); report, if not nil, gets
// each completed iteration (and the line of the move played). An
// interrupt (Ctrl-C) ends the search: the choice is the best move found so
// far.
func (tm *textMode) chooseMove(lim search.Limits, report func(search.Info)) search.Choice {
	job := tm.p.Go(tm.ctx, player.Think, lim, report)
	select {
	case <-job.Done():
	case <-tm.interrupt:
		tm.p.Stop()
		tm.printf("interrupted: damka plays its best move so far\n")
	}
	return job.Wait()
}

// undo takes back moves until it is the person's turn again, at least one,
// with the time they took.
func (tm *textMode) undo() {
	if !tm.game().Undo() {
		tm.printf("nothing to undo\n")
		return
	}
	for tm.game().Ply() > 0 && tm.game().Position().Side == tm.engineSide {
		tm.game().Undo()
	}
	tm.engineSide = tm.game().Position().Side.Opp()
	tm.clock.spent = tm.clock.spent[:tm.game().Ply()]
	tm.clock.fromPly = min(tm.clock.fromPly, tm.game().Ply())
	tm.clock.turnStart, tm.clock.stopped = tm.now(), time.Time{}
	tm.draw()
}

// fen prints the current position, or sets the one given.
func (tm *textMode) fen(arg string) {
	if arg == "" {
		p := tm.game().Position()
		tm.printf("%s\n", p.FENStyle(p.V.Rules().Notation))
		return
	}
	v := tm.variant()
	p, err := engine.ParsePosition(v, arg)
	if err != nil {
		tm.printf("bad position: %v\n", err)
		return
	}
	tm.setPosition(p)
	tm.draw()
}

func (tm *textMode) setVariant(args []string) {
	if len(args) == 0 {
		tm.printf("variant %s (%s)\n", tm.variant(), strings.Join(engine.VariantNames(), ", "))
		return
	}
	v, err := engine.ParseVariant(args[0])
	if err != nil {
		tm.printf("%v\n", err)
		return
	}
	tm.p.SetVariant(v)
	tm.newGame()
	tm.printf("new game of %s\n", v)
	tm.draw()
}

// thinking shows or sets whether damka prints a line per search depth.
func (tm *textMode) thinking(args []string) {
	switch {
	case len(args) == 0:
	case len(args) == 1 && strings.EqualFold(args[0], "on"):
		tm.quiet = false
	case len(args) == 1 && strings.EqualFold(args[0], "off"):
		tm.quiet = true
	default:
		tm.printf("want thinking, thinking on or thinking off\n")
		return
	}
	if tm.quiet {
		tm.printf("thinking off\n")
	} else {
		tm.printf("thinking on\n")
	}
}

// settings lists the player's settings, in the table's order: each one's
// name, value and range on one line, its description under it.
func (tm *textMode) settings() {
	all := player.Settings()
	width := 0
	for _, st := range all {
		width = max(width, len(st.Name))
	}
	var b strings.Builder
	b.WriteString("settings (set NAME VALUE changes one):\n")
	for _, st := range all {
		v, err := tm.p.Get(st.Name)
		if err != nil {
			v = err.Error()
		}
		fmt.Fprintf(&b, "  %-*s  %s  (%s)\n  %-*s  %s\n", width, st.Name, showValue(v), st.Range(), width, "", st.Doc)
	}
	tm.printf("%s", b.String())
}

// showValue writes a setting's value for settings and set: "" for the
// empty text.
func showValue(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// set sets one of the player's settings from "NAME VALUE": the value is
// the rest of the line (a file name may hold spaces; "" is the empty
// text). A refused value keeps the old one; a file that does not load
// resets the setting to its default. A new variant starts a new game.
func (tm *textMode) set(arg string) {
	name, value, _ := strings.Cut(arg, " ")
	name = strings.ToLower(name)
	value = strings.TrimSpace(value)
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		value = value[1 : len(value)-1]
	}
	if name == "" {
		tm.printf("want set NAME VALUE (settings lists the settings, their values and ranges)\n")
		return
	}
	old, err := tm.p.Get(name)
	if err != nil {
		tm.printf("%v\n", err)
		return
	}
	if err := tm.p.Set(name, value); err != nil {
		var reset *player.ResetError
		if errors.As(err, &reset) {
			tm.printf("set %s %s: %v; %s is back at its default (%s)\n", name, showValue(value), err, name, reset.Now)
			return
		}
		tm.printf("set %s %s: %v; %s stays %s\n", name, showValue(value), err, name, showValue(old))
		return
	}
	now, _ := tm.p.Get(name)
	tm.printf("ok, %s %s\n", name, showValue(now))
	if tm.game() != tm.shown {
		tm.restart()
		tm.printf("new game of %s\n", tm.variant())
		tm.draw()
	}
}

// timed reports whether a time control is set.
func (tm *textMode) timed() bool { return tm.clock.base > 0 || tm.clock.inc > 0 }

// used returns the time c has spent since the clocks started, its running
// turn included.
func (tm *textMode) used(c engine.Color) time.Duration {
	var d time.Duration
	for i := tm.clock.fromPly; i < tm.game().Ply(); i++ {
		if tm.game().PositionAt(i).Side == c {
			d += tm.clock.spent[i]
		}
	}
	if tm.game().Position().Side == c {
		if !tm.clock.stopped.IsZero() {
			d += tm.clock.stopped.Sub(tm.clock.turnStart)
		} else if res, _ := tm.game().Result(); res == engine.Ongoing {
			d += tm.now().Sub(tm.clock.turnStart)
		}
	}
	return d
}

// remaining returns c's time left under the time control: the base, plus
// the increment for each move c has completed since the clocks started,
// minus the time used. It is negative once c's time has run out.
func (tm *textMode) remaining(c engine.Color) time.Duration {
	moves := 0
	for i := tm.clock.fromPly; i < tm.game().Ply(); i++ {
		if tm.game().PositionAt(i).Side == c {
			moves++
		}
	}
	return tm.clock.base + time.Duration(moves)*tm.clock.inc - tm.used(c)
}

// clockLine shows both clocks: time left under a time control, else the
// time used.
func (tm *textMode) clockLine() string {
	side := func(c engine.Color) string {
		s := fmt.Sprintf("%s (%s) ", colourWord(c), tm.player(c))
		if tm.timed() {
			return s + formatClock(tm.remaining(c), true)
		}
		return s + formatClock(tm.used(c), false)
	}
	first := tm.variant().Rules().FirstToMove
	line := "clock: " + side(first) + ", " + side(first.Opp())
	if tm.timed() {
		return line + " left (" + tm.levelText() + ")"
	}
	return line + " used (no time control: level clock M+I sets one)"
}

// formatClock writes d as m:ss, h:mm:ss from an hour on. A countdown (time
// left) is rounded up, with tenths under ten seconds, so that a clock just
// set shows all its time and 0:00.0 only once it has run out; a negative d
// (a fallen flag) gets a minus sign. Time used is rounded down.
func formatClock(d time.Duration, countdown bool) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	if countdown && d < 10*time.Second {
		d = (d + 100*time.Millisecond - 1).Truncate(100 * time.Millisecond)
		return fmt.Sprintf("%s0:%04.1f", sign, d.Seconds())
	}
	if countdown {
		d += time.Second - 1
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d:%02d", sign, s/60, s%60)
}

// levelText describes how damka thinks: "depth 8", "1 s a move", "5 min + 3 s".
func (tm *textMode) levelText() string {
	if tm.timed() {
		return fmt.Sprintf("clock %s min + %s s a move", strconv.FormatFloat(tm.clock.base.Minutes(), 'g', -1, 64),
			strconv.FormatFloat(tm.clock.inc.Seconds(), 'g', -1, 64))
	}
	l := tm.limits
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes", l.Nodes)
	}
	return fmt.Sprintf("%g s a move", l.MoveTime.Seconds())
}

// level shows or sets the engine's limit per move or the game clock.
func (tm *textMode) level(args []string) {
	l := tm.limits
	if len(args) == 0 {
		switch {
		case tm.timed():
			tm.printf("level clock %s+%s (%s)\n", strconv.FormatFloat(tm.clock.base.Minutes(), 'g', -1, 64),
				strconv.FormatFloat(tm.clock.inc.Seconds(), 'g', -1, 64), tm.levelText())
		case l.Depth > 0:
			tm.printf("level depth %d\n", l.Depth)
		case l.Nodes > 0:
			tm.printf("level nodes %d\n", l.Nodes)
		default:
			tm.printf("level time %g\n", l.MoveTime.Seconds())
		}
		return
	}
	usage := "want level depth N (1..%d), level nodes N, level time S (seconds a move) or level clock M+I (minutes each, seconds added a move)\n"
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
		tm.limits = search.Limits{Depth: d}
	case "nodes":
		n, err := strconv.ParseUint(args[1], 10, 63)
		if err != nil || n == 0 {
			tm.printf("bad node count %q: "+usage, args[1], search.MaxDepth)
			return
		}
		tm.limits = search.Limits{Nodes: n}
	case "time":
		s, err := strconv.ParseFloat(args[1], 64)
		if err != nil || !(s > 0 && s <= 3600) {
			tm.printf("bad time %q (want seconds, more than 0 and at most 3600): "+usage, args[1], search.MaxDepth)
			return
		}
		tm.limits = search.Limits{MoveTime: time.Duration(s * float64(time.Second))}
	case "clock":
		base, inc, err := parseTextClock(args[1])
		if err != nil {
			tm.printf("bad clock %q (%v): "+usage, args[1], err, search.MaxDepth)
			return
		}
		tm.clock.base, tm.clock.inc = base, inc
		// Both clocks restart: the time control counts from now.
		tm.clock.fromPly = tm.game().Ply()
		tm.clock.turnStart, tm.clock.stopped = tm.now(), time.Time{}
		tm.printf("ok, %s\n", tm.clockLine())
		return
	default:
		tm.printf(usage, search.MaxDepth)
		return
	}
	tm.clock.base, tm.clock.inc = 0, 0
	tm.printf("ok\n")
}

// parseTextClock reads a time control M[+I]: M minutes each (more than 0,
// at most 600), I seconds added after each move (0 to 600).
func parseTextClock(s string) (base, inc time.Duration, err error) {
	ms, is, hasInc := strings.Cut(s, "+")
	m, err := strconv.ParseFloat(ms, 64)
	if err != nil || !(m > 0 && m <= 600) {
		return 0, 0, fmt.Errorf("minutes %q: want a number more than 0 and at most 600", ms)
	}
	i := 0.0
	if hasInc {
		i, err = strconv.ParseFloat(is, 64)
		if err != nil || !(i >= 0 && i <= 600) {
			return 0, 0, fmt.Errorf("increment %q: want seconds from 0 to 600", is)
		}
	}
	return time.Duration(m * float64(time.Minute)), time.Duration(i * float64(time.Second)), nil
}
