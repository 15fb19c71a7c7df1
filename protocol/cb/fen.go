// fen.go: the text of enginecommand: FEN positions, "set gamehist" and the
// "get movelist" answer.

package cb

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// ParseFEN reads a PDN FEN position of variant v as CheckerBoard sends it
// ("B:W21-32:B1-12", "W:WK12,K27,30:B21,K24"). It first tries damka's FEN
// reader (numeric or algebraic squares, docs/pdn.md);
// when that refuses the text only because of a man on its crowning row, the
// position is read with CheckerBoard's own leniency (numeric squares, any
// man anywhere), as its "get movelist B:W1:B" probe needs. Errors name the
// field and the square.
func ParseFEN(v engine.VariantID, s string) (engine.Position, error) {
	p, err := engine.ParseFEN(v, s)
	if err == nil {
		return p, nil
	}
	if q, err2 := lenientFEN(v, s); err2 == nil {
		return q, nil
	}
	return p, err
}

// lenientFEN reads numeric FENs only: side, then W and B fields of
// squares, K-prefixed kings and ranges.
func lenientFEN(v engine.VariantID, s string) (engine.Position, error) {
	t := strings.Trim(strings.TrimSpace(s), `"`)
	t = strings.TrimSuffix(t, ".")
	fields := strings.Split(t, ":")
	if len(fields) < 1 {
		return engine.Position{}, fmt.Errorf("FEN %q: empty", s)
	}
	var side engine.Color
	switch strings.ToUpper(strings.TrimSpace(fields[0])) {
	case "W":
		side = engine.White
	case "B":
		side = engine.Black
	default:
		return engine.Position{}, fmt.Errorf("FEN %q: side to move %q is not W or B", s, fields[0])
	}
	var sets [2]uint64
	var kings uint64
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var c int
		switch f[0] {
		case 'W', 'w':
			c = 0
		case 'B', 'b':
			c = 1
		default:
			continue // other tags (":H0")
		}
		for _, item := range strings.Split(f[1:], ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			king := false
			if item[0] == 'K' || item[0] == 'k' {
				king, item = true, item[1:]
			}
			lo, hi, ok := strings.Cut(item, "-")
			a, err := strconv.Atoi(lo)
			if err != nil {
				return engine.Position{}, fmt.Errorf("FEN %q: square %q is not a number", s, item)
			}
			b := a
			if ok {
				if b, err = strconv.Atoi(hi); err != nil {
					return engine.Position{}, fmt.Errorf("FEN %q: range %q is not numeric", s, item)
				}
			}
			if a < 1 || b > 32 || a > b {
				return engine.Position{}, fmt.Errorf("FEN %q: square %q out of range 1..32", s, item)
			}
			for n := a; n <= b; n++ {
				bit := uint64(1) << (n - 1)
				sets[c] |= bit
				if king {
					kings |= bit
				}
			}
		}
	}
	return engine.PositionFromSquares(v, sets[0], sets[1], kings, side)
}

// FEN writes p as CheckerBoard writes a FEN: numeric squares in ascending
// order, kings prefixed by K, e.g. "B:W21,22,K30:B1,2".
func FEN(p *engine.Position) string {
	var sb strings.Builder
	if p.Side == engine.Black {
		sb.WriteString("B")
	} else {
		sb.WriteString("W")
	}
	w, b, k := p.Squares()
	for _, c := range []struct {
		letter string
		set    uint64
	}{{":W", w}, {":B", b}} {
		sb.WriteString(c.letter)
		first := true
		for n := 1; n <= 32; n++ {
			bit := uint64(1) << (n - 1)
			if c.set&bit == 0 {
				continue
			}
			if !first {
				sb.WriteByte(',')
			}
			first = false
			if k&bit != 0 {
				sb.WriteByte('K')
			}
			sb.WriteString(strconv.Itoa(n))
		}
	}
	return sb.String()
}

// ParseMoveText finds the legal move of p written as CheckerBoard and
// pydraughts write moves in "set gamehist": square numbers separated by
// '-' or 'x' (or ':'), the origin, optionally landing squares, and the
// destination ("24-19", "22x15", "9x18x25"). When several legal moves share
// those squares (captures of different pieces between the same squares),
// the first of damka's generated moves is taken; they can only be captures,
// which the history before them never matters for. Errors say which square
// or which part did not fit.
func ParseMoveText(p *engine.Position, s string) (engine.Move, error) {
	t := strings.TrimSpace(s)
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == 'x' || r == 'X' || r == ':' })
	if len(parts) < 2 {
		return engine.Move{}, fmt.Errorf("move %q: want from-to (square numbers)", s)
	}
	sq := make([]engine.Square, len(parts))
	for i, f := range parts {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > 32 {
			return engine.Move{}, fmt.Errorf("move %q: %q is not a square 1..32", s, f)
		}
		sq[i] = engine.Square(n)
	}
	var list engine.MoveList
	p.Generate(&list)
	for _, m := range list.Slice() {
		path := p.Path(m)
		if len(path) < 2 || path[0] != sq[0] || path[len(path)-1] != sq[len(sq)-1] {
			continue
		}
		if len(sq) > 2 && !samePath(path, sq) {
			continue
		}
		return m, nil
	}
	return engine.Move{}, fmt.Errorf("move %q: not a legal move in %s", s, FEN(p))
}

// samePath reports whether path visits the squares of sq in order (sq may
// leave out some landing squares).
func samePath(path, sq []engine.Square) bool {
	i := 0
	for _, s := range path {
		if i < len(sq) && s == sq[i] {
			i++
		}
	}
	return i == len(sq)
}

// ParseGameHist reads the argument of "set gamehist": a FEN and the moves
// played from it, separated by white space, as in
// "B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24 19-15 12-16". It returns the
// game, or an error naming the bad FEN or the bad move and its number (the
// game is then nil).
func ParseGameHist(v engine.VariantID, s string) (*engine.Game, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, fmt.Errorf("gamehist: missing FEN")
	}
	p, err := ParseFEN(v, fields[0])
	if err != nil {
		return nil, fmt.Errorf("gamehist: %w", err)
	}
	g := engine.NewGame(p)
	for i, f := range fields[1:] {
		q := g.Position()
		m, err := ParseMoveText(&q, f)
		if err != nil {
			return nil, fmt.Errorf("gamehist: move %d of %d: %w", i+1, len(fields)-1, err)
		}
		g.Play(m)
	}
	return g, nil
}

// MoveList writes the answer of "get movelist" for p: "movelist N," and per
// legal move "jumps,oldpiece,newpiece,from,to" then, per jump, "landed,
// captured,cappiece", each move ended by ';' (cb_api_reference.htm; the
// parser in CheckerBoard.c reads the jump triples in this order). No move
// is "movelist 0".
func MoveList(p *engine.Position) string {
	var list engine.MoveList
	p.Generate(&list)
	if list.N == 0 {
		return "movelist 0"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "movelist %d,", list.N)
	for _, m := range list.Slice() {
		cm := ToMove(p, m)
		path := p.Path(m)
		fmt.Fprintf(&sb, "%d,%d,%d,%d,%d", cm.Jumps, cm.OldPiece, cm.NewPiece, path[0], path[len(path)-1])
		if m.IsCapture() {
			landed, captured := jumps(p, m)
			for i := range captured {
				fmt.Fprintf(&sb, ",%d,%d,%d", landed[i], captured[i], pieceCode(p.PieceAt(captured[i])))
			}
		}
		sb.WriteByte(';')
	}
	return sb.String()
}
