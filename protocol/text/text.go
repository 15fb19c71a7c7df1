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
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
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
	// ClockBase and ClockInc, when ClockBase is more than 0, start the
	// game with a clock, as "level clock M+I" does: ClockBase each,
	// ClockInc added after every move (ParseClock reads them). The clock
	// then decides damka's time instead of Limits.
	ClockBase, ClockInc time.Duration
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
	if cfg.ClockBase > 0 {
		tm.clock.base, tm.clock.inc = cfg.ClockBase, cfg.ClockInc
	}
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
func (lr *lineReader) close()                       { close(lr.done) }
func (tm *textMode) printf(format string, a ...any) { fmt.Fprintf(tm.out, format, a...) }

// game returns the game played: the player's.
func (tm *textMode) game() *engine.Game        { return tm.p.Game() }
func (tm *textMode) variant() engine.VariantID { return tm.game().Start().V }

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
