// moves.go: the moves of the game: the person's, damka's, take-back,
// new positions and variants, the thinking lines.

package text

import (
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
	"strings"
	"time"
)

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
