// enumerate.go: every opening of a few plies from the start position, and
// a deck written as PDN.

package openings

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// MaxEnumerated bounds the deck All makes (one million openings).
const MaxEnumerated = 1_000_000

// MaxPlies bounds the plies All accepts.
const MaxPlies = 12

// All returns every distinct opening of plies moves of variant v from the
// start position: one per sequence of distinct legal moves (duplicate
// capture paths once, as engine.Generate gives them), so that their number
// is engine.Perft(start, plies, false). Sequences that end in a position
// without a legal move before plies are left out (perft counts none for
// them either). The order is depth first, the moves of each position in
// engine.SortMoves order; each opening is named by its moves in the
// variant's notation ("11-15 23-19 8-11"). plies outside 1..MaxPlies, or a
// deck of more than MaxEnumerated openings, is an error.
func All(v engine.VariantID, plies int) ([]Opening, error) {
	if plies < 1 || plies > MaxPlies {
		return nil, fmt.Errorf("plies %d out of range 1..%d", plies, MaxPlies)
	}
	start := engine.StartPosition(v)
	if n := engine.Perft(start, plies, false); n > MaxEnumerated {
		return nil, fmt.Errorf("%d openings of %d plies in %s: more than %d", n, plies, v, MaxEnumerated)
	}
	var out []Opening
	var moves []engine.Move
	var names []string
	var walk func(p engine.Position)
	walk = func(p engine.Position) {
		if len(moves) == plies {
			out = append(out, Opening{
				Name:  strings.Join(names, " "),
				Start: start,
				Moves: append([]engine.Move(nil), moves...),
			})
			return
		}
		for _, m := range p.SortedMoves() {
			moves = append(moves, m)
			names = append(names, p.FormatMove(m, engine.FormatFull))
			walk(p.Play(m))
			moves, names = moves[:len(moves)-1], names[:len(names)-1]
		}
	}
	walk(start)
	return out, nil
}

// WritePDN writes ops, openings of variant v, as PDN that Load reads back
// to the same openings: one game per opening with the tags Event (event),
// GameType, Opening (the name), SetUp and FEN when the opening does not
// start from the start position, and result "*". Moves are numbered as in
// PDN: "1. a b 2. c", "1... b 2. c d" when the side that moves second
// starts. event and the names must not hold '"'. The error is the
// writer's.
func WritePDN(w io.Writer, v engine.VariantID, event string, ops []Opening) error {
	bw := bufio.NewWriter(w)
	rules := v.Rules()
	sp := engine.StartPosition(v)
	startFEN := sp.FEN()
	for i, o := range ops {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "[Event \"%s\"]\n[GameType \"%d\"]\n[Opening \"%s\"]\n", event, rules.GameType, o.Name)
		if fen := o.Start.FEN(); fen != startFEN {
			fmt.Fprintf(bw, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen)
		}
		bw.WriteString("\n")
		p := o.Start
		num := 1
		for j, m := range o.Moves {
			switch {
			case p.Side == rules.FirstToMove:
				fmt.Fprintf(bw, "%d. ", num)
			case j == 0:
				fmt.Fprintf(bw, "%d... ", num)
			}
			bw.WriteString(p.FormatMove(m, engine.FormatFull))
			bw.WriteString(" ")
			if p.Side != rules.FirstToMove {
				num++
			}
			p = p.Play(m)
		}
		bw.WriteString("*\n")
	}
	return bw.Flush()
}
