// file.go: a whole PDN input reviewed (Run), written back (WritePDN) and
// summed up per game and per player (WriteSummary).

package review

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// Report is the review of a PDN input: the good games reviewed, in input
// order, and the bad games (a PDN error or an illegal move), which are
// not reviewed.
type Report struct {
	Games []*Game
	Bad   []*pdn.Error
	// BadGames are the games of Bad, index for index, as far as they
	// were read before the error (their tags and the moves before the
	// bad one); nil where nothing of the game could be read.
	BadGames []*pdn.Game
}

// Moves returns the number of moves reviewed.
func (rp *Report) Moves() int {
	n := 0
	for _, g := range rp.Games {
		n += g.Sides[engine.White].Moves + g.Sides[engine.Black].Moves
	}
	return n
}

// Run reads every game of in (games without a GameType tag are of variant
// v) and reviews the good ones with r. progress, if not nil, is called
// after each move reviewed with the moves done and the moves of all good
// games. A bad game goes to Report.Bad and the others are still reviewed.
// The error is a read error of in (nothing is reviewed), or ctx's error
// when ctx is done before the end (the report is then nil).
func Run(ctx context.Context, r *Reviewer, in io.Reader, v engine.VariantID, progress func(done, total int)) (*Report, error) {
	return RunWith(ctx, r, in, v, RunOptions{Progress: progress})
}

// RunOptions are the options of RunWith.
type RunOptions struct {
	// Progress, if not nil, is called after each move reviewed with the
	// moves done and the moves of all good games still to review.
	Progress func(done, total int)
	// Done are games reviewed before (read back from a progress file),
	// by their 1-based index in the input: they are not searched again
	// but put in the report as they are.
	Done map[int]*Game
	// Reviewed, if not nil, is called with each game as soon as it is
	// reviewed (not with the games of Done); an error from it ends the
	// run with that error.
	Reviewed func(*Game) error
}

// RunWith is Run with the options o: games already reviewed are taken
// from o.Done, and each game newly reviewed is handed to o.Reviewed. The
// report is the same as Run's when o.Done holds games that Run would
// have reviewed the same way.
func RunWith(ctx context.Context, r *Reviewer, in io.Reader, v engine.VariantID, o RunOptions) (*Report, error) {
	progress := o.Progress
	rd := pdn.NewReader(in, v)
	type input struct {
		index int
		g     *pdn.Game
	}
	var games []input
	rp := &Report{}
	total := 0
	for index := 1; ; index++ {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *pdn.Error
			if !errors.As(err, &pe) {
				return nil, err
			}
			rp.Bad = append(rp.Bad, pe)
			rp.BadGames = append(rp.BadGames, g)
			continue
		}
		games = append(games, input{index, g})
		if o.Done[index] == nil {
			total += len(g.Moves)
		}
	}
	done := 0
	tick := func() {
		done++
		if progress != nil {
			progress(done, total)
		}
	}
	for _, in := range games {
		if rv := o.Done[in.index]; rv != nil {
			rp.Games = append(rp.Games, rv)
			continue
		}
		rv, err := r.Review(ctx, in.index, in.g, tick)
		if err != nil {
			return nil, err
		}
		if o.Reviewed != nil {
			if err := o.Reviewed(rv); err != nil {
				return nil, err
			}
		}
		rp.Games = append(rp.Games, rv)
	}
	return rp, nil
}

// WritePDN writes the reviewed games as PDN (Game.PDN), in input order.
func (rp *Report) WritePDN(w io.Writer) error {
	for _, g := range rp.Games {
		b, err := g.PDN()
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Player sums one player's moves over the games reviewed.
type Player struct {
	Name  string // the White or Black tag ("?" when empty)
	Games int
	Side
}

// Players returns the players of the reviewed games, by name, in the
// order they first appear (White before Black).
func (rp *Report) Players() []Player {
	var ps []Player
	at := map[string]int{}
	for _, g := range rp.Games {
		for _, c := range []engine.Color{engine.White, engine.Black} {
			name := g.Names[c]
			i, ok := at[name]
			if !ok {
				i = len(ps)
				at[name] = i
				ps = append(ps, Player{Name: name})
			}
			if c == engine.White || name != g.Names[engine.White] {
				ps[i].Games++ // once when both sides have the same name ("?")
			}
			ps[i].add(g.Sides[c])
		}
	}
	return ps
}

// WriteSummary writes one line per reviewed game, one per player and a
// last line of totals: accuracies in per cent with one decimal, losses in
// men per graded move with two decimals, moves counted without book moves:
//
//	game=N white="NAME" black="NAME" result=R moves=M book=K white_accuracy=A white_avg_loss=L white_inaccuracies=I white_mistakes=K white_blunders=B black_accuracy=... black_avg_loss=... black_inaccuracies=... black_mistakes=... black_blunders=...
//	player="NAME" games=G moves=M accuracy=A avg_loss=L inaccuracies=I mistakes=K blunders=B
//	games=G reviewed=R bad=B moves=M accuracy=A inaccuracies=I mistakes=K blunders=B
func (rp *Report) WriteSummary(w io.Writer) error {
	var all Side
	for _, g := range rp.Games {
		ws, bs := g.Sides[engine.White], g.Sides[engine.Black]
		all.add(ws)
		all.add(bs)
		if _, err := fmt.Fprintf(w, "game=%d white=%q black=%q result=%s moves=%d book=%d white_accuracy=%.1f white_avg_loss=%.2f white_inaccuracies=%d white_mistakes=%d white_blunders=%d black_accuracy=%.1f black_avg_loss=%.2f black_inaccuracies=%d black_mistakes=%d black_blunders=%d\n",
			g.Index, g.Names[engine.White], g.Names[engine.Black], g.Result, ws.Moves+bs.Moves, ws.Book+bs.Book,
			ws.Accuracy(), ws.AvgLoss(), ws.Inaccuracies, ws.Mistakes, ws.Blunders,
			bs.Accuracy(), bs.AvgLoss(), bs.Inaccuracies, bs.Mistakes, bs.Blunders); err != nil {
			return err
		}
	}
	for _, p := range rp.Players() {
		if _, err := fmt.Fprintf(w, "player=%q games=%d moves=%d accuracy=%.1f avg_loss=%.2f inaccuracies=%d mistakes=%d blunders=%d\n",
			p.Name, p.Games, p.Moves, p.Accuracy(), p.AvgLoss(), p.Inaccuracies, p.Mistakes, p.Blunders); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "games=%d reviewed=%d bad=%d moves=%d accuracy=%.1f inaccuracies=%d mistakes=%d blunders=%d\n",
		len(rp.Games)+len(rp.Bad), len(rp.Games), len(rp.Bad), all.Moves, all.Accuracy(), all.Inaccuracies, all.Mistakes, all.Blunders)
	return err
}
