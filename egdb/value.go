// value.go: game values, the one-byte codes tables store, and the lookup
// that resolves captures before reading a table.

package egdb

import (
	"fmt"

	"github.com/damka-draughts/damka/engine"
)

// Value is a game-theoretic value from the side to move's point of view.
type Value int8

// The values.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

// String returns "win", "draw" or "loss".
func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Draw:
		return "draw"
	case Loss:
		return "loss"
	}
	return fmt.Sprintf("value(%d)", int8(v))
}

// TrustPlies is the fewest plies the move-count draw rules must leave
// (engine.DrawState.PliesToRule) before a win or loss of a table without
// distances (win/draw/loss only) is taken for the value of the game: with
// fewer, a rule may draw the won ending first. The search, the match
// runner's adjudication and the trainer's labels all use it.
const TrustPlies = 20

// Decided reports whether the table value v of a position, with distance
// dist (plies to the end of the game; -1: the table stores none), is the
// value of the game where the draw rules leave left plies
// (engine.DrawState.PliesToRule; engine.RuleHorizon or more: no rule
// applies): a draw always is; a win or loss with a distance when it ends
// before the rules do (dist < left); one without a distance when left is at
// least TrustPlies.
func Decided(v Value, dist, left int) bool {
	switch {
	case v == Draw:
		return true
	case dist >= 0:
		return dist < left
	default:
		return left >= TrustPlies
	}
}

// The one-byte codes of a table entry. A WLD slice stores codeDraw,
// codeWin or codeLoss. A distance (DTM) slice stores the number of plies
// to the end of the game with best play (the winner the shortest way, the
// loser the longest): an odd number is a win for the side to move, an
// even one a loss (0: no legal move), and codeDTMDraw a draw. codeDontCare
// marks, in memory only, the entries no probe reads (a capture is pending,
// or the index is invalid); the encoder gives them whatever value makes
// the longest runs.
const (
	codeDraw     = 0
	codeWin      = 1
	codeLoss     = 2
	maxDTM       = 253
	codeDontCare = 254
	codeDTMDraw  = 255
)

// decodeCode returns the value and distance of code in a slice with
// distances (dtm) or without.
func decodeCode(c uint8, dtm bool) (Value, int) {
	if dtm {
		switch {
		case c == codeDTMDraw:
			return Draw, 0
		case c&1 == 1:
			return Win, int(c)
		default:
			return Loss, int(c)
		}
	}
	switch c {
	case codeWin:
		return Win, 0
	case codeLoss:
		return Loss, 0
	}
	return Draw, 0
}

// encodeCode is the inverse of decodeCode (d is ignored without dtm).
func encodeCode(v Value, d int, dtm bool) uint8 {
	if dtm {
		if v == Draw {
			return codeDTMDraw
		}
		return uint8(d)
	}
	switch v {
	case Win:
		return codeWin
	case Loss:
		return codeLoss
	}
	return codeDraw
}

// source gives the code of index i of slice m (White to move) of variant
// v: the builder's finished slices in memory, or a DB's files. ok is false
// when the slice is not available.
type source interface {
	code(v engine.VariantID, m Material, i uint64) (c uint8, dtm bool, ok bool)
}

// better reports whether (v1, d1) is better than (v2, d2) for the side to
// move: a win beats a draw beats a loss, a shorter win a longer one and a
// longer loss a shorter one.
func better(v1 Value, d1 int, v2 Value, d2 int) bool {
	if v1 != v2 {
		return v1 > v2
	}
	switch v1 {
	case Win:
		return d1 < d2
	case Loss:
		return d1 > d2
	}
	return false
}

// lookup returns the value of p for its side to move, the distance in
// plies to the end of the game (known: every table read stores distances)
// and ok (false when some slice needed is not available or p has more
// pieces than the tables). A pending capture is resolved by searching the
// captures: each one leads to a slice of fewer pieces. It allocates
// nothing (the capture lists live on the stack, one a level, at most one
// level per piece).
func lookup(src source, p *engine.Position) (v Value, d int, known, ok bool) {
	return lookupIn(src, p, nil, nil)
}

// captureLists is scratch for lookupIn: one capture list per level of the
// capture search (each capture takes a piece, so at most MaxPieces levels).
// A caller that looks up many positions (verify) keeps one and saves the
// zeroing of a move list (8 KiB) per level and lookup.
type captureLists [MaxPieces + 1]engine.MoveList

// lookupIn is lookup with the capture lists taken from lists (the first for
// this level, the rest for deeper ones; with none left, a level's list is
// a zeroed local one), and with the capture positions of memo's slice
// answered from memo (nil: none).
func lookupIn(src source, p *engine.Position, lists []engine.MoveList, memo *captureMemo) (v Value, d int, known, ok bool) {
	g, _ := geomOf(p.V)
	q := *p
	if q.Side == engine.Black {
		q = g.flip(p)
	}
	if q.Pieces[engine.White] == 0 {
		return Loss, 0, true, true
	}
	if q.Pieces[engine.Black] == 0 {
		return Draw, 0, false, false // not a game position: Black lost on the move before
	}
	m := MaterialOf(&q)
	if m.Pieces() > MaxPieces {
		return Draw, 0, false, false
	}
	if q.HasCapture() {
		if memo != nil && m == memo.m {
			if e := memo.vals[memo.s.index(&q)]; e&memoPresent != 0 {
				return memoUnpack(e)
			}
		}
		return lookupCaptures(src, &q, lists)
	}
	s := newSlice(m, g)
	c, dtm, ok := src.code(q.V, m, s.index(&q))
	if !ok || c == codeDontCare {
		return Draw, 0, false, false
	}
	v, d = decodeCode(c, dtm)
	return v, d, dtm, true
}

// lookupCaptures is lookup of q (White to move) where a capture is
// pending: the best capture's value.
// lists is scratch as for lookupIn.
func lookupCaptures(src source, q *engine.Position, lists []engine.MoveList) (v Value, d int, known, ok bool) {
	var list *engine.MoveList
	if len(lists) > 0 {
		list, lists = &lists[0], lists[1:]
	} else {
		var local engine.MoveList
		list = &local
	}
	q.GenerateCaptures(list)
	v, d, known = Loss, -1, true
	for i := 0; i < list.N; i++ {
		c := q.Play(list.Moves[i])
		cv, cd, ck, cok := lookupIn(src, &c, lists, nil)
		if !cok {
			return Draw, 0, false, false
		}
		known = known && ck
		if mv, md := -cv, cd+1; better(mv, md, v, d) {
			v, d = mv, md
		}
	}
	return v, d, known, true
}
