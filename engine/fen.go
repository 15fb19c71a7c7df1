// fen.go: reading and writing positions as PDN FEN and as Hub position strings.

package engine

import (
	"fmt"
	"strings"
	"unicode"
)

// colourName returns "white" or "black".
func colourName(c Color) string {
	if c == White {
		return "white"
	}
	return "black"
}

// crownRowViolation checks that no man of either colour stands on its own
// crowning row (such a man would have been crowned). It returns the first
// offending square and its colour, or 0.
func crownRowViolation(p *Position) (Square, Color) {
	for _, c := range [2]Color{White, Black} {
		if men := p.Pieces[c] &^ p.Kings & promoMask(p.V, c); men != 0 {
			for sq := 1; sq <= variants[p.V].Squares; sq++ {
				if men&SquareBit(p.V, Square(sq)) != 0 {
					return Square(sq), c
				}
			}
		}
	}
	return 0, White
}

// ParseFEN reads a PDN FEN position of variant v (PDN 3.0; docs/pdn.md
// section 7): the side to move W or B, then colour fields such as
// "W21,22,K30" and "B1-12", separated by ":", e.g. "W:W21,22,K30:B1,2,3".
//
// Accepted: colour fields in any order and squares in any order; numeric or
// algebraic squares ("Wa1,c1,Kd8"); numeric ranges ("W31-50", "K1-3"); the
// king marker K (or k) before a square or range; a colour field with no
// squares, or no field at all for a colour that has no piece; a trailing
// "."; extra fields that start with another letter (":H0:F1"), which are
// ignored; white space anywhere and surrounding double quotes. The side to
// move may be lower case.
//
// Errors name the field and what was wrong: an unknown side to move, a
// field with no colour letter, a square out of range or on a light square,
// a range that is not numeric or runs backwards, a square listed twice, a
// man on its own crowning row. The returned position has its Key computed.
func ParseFEN(v VariantID, s string) (Position, error) {
	var p Position
	if v >= numVariants {
		return p, fmt.Errorf("FEN %q: unknown variant %d", s, uint8(v))
	}
	r := &variants[v]
	p.V = v
	t := strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) || c == '"' {
			return -1
		}
		return c
	}, s)
	t = strings.TrimRight(t, ".")
	if t == "" {
		return p, fmt.Errorf("FEN %q: empty", s)
	}
	fields := strings.Split(t, ":")
	switch fields[0] {
	case "W", "w":
		p.Side = White
	case "B", "b":
		p.Side = Black
	default:
		return p, fmt.Errorf("FEN %q: side to move %q: want W or B", s, fields[0])
	}
	for _, field := range fields[1:] {
		field = strings.TrimRight(field, ".")
		if field == "" {
			continue
		}
		var c Color
		switch field[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		default:
			l := field[0] | 0x20
			if l >= 'a' && l <= 'z' && l != 'k' {
				continue // an extra field such as H0 or F1
			}
			return p, fmt.Errorf("FEN %q: field %q: want a colour W or B before the squares", s, field)
		}
		if err := parseFENColour(&p, r, c, field[1:]); err != nil {
			return p, fmt.Errorf("FEN %q: %s field %q: %w", s, colourName(c), field, err)
		}
	}
	if sq, c := crownRowViolation(&p); sq != 0 {
		n := SquareName(v, sq, r.Notation)
		return p, fmt.Errorf("FEN %q: %s field: %s man on %s stands on %s's crowning row (it would have been crowned: write K%s)",
			s, colourName(c), colourName(c), n, colourName(c), n)
	}
	p.Key = p.ComputeKey()
	return p, nil
}

// parseFENColour adds the pieces of one colour field body ("21,22,K30",
// "31-50") to p.
func parseFENColour(p *Position, r *Variant, c Color, body string) error {
	for body != "" {
		item := body
		if i := strings.IndexByte(body, ','); i >= 0 {
			item, body = body[:i], body[i+1:]
		} else {
			body = ""
		}
		item = strings.TrimRight(item, ".")
		if item == "" {
			continue // "W21,,22" or a trailing comma
		}
		king := false
		if item[0] == 'K' || item[0] == 'k' {
			king = true
			item = item[1:]
			if item == "" {
				return fmt.Errorf("king marker K without a square")
			}
		}
		var a, b Square
		var err error
		if i := strings.IndexByte(item, '-'); i >= 0 {
			lo, hi := item[:i], item[i+1:]
			_, okLo := parseDecimal(lo)
			_, okHi := parseDecimal(hi)
			if !okLo || !okHi {
				return fmt.Errorf("range %q: want two numeric squares such as 31-50", item)
			}
			if a, err = ParseSquare(r.ID, lo); err != nil {
				return err
			}
			if b, err = ParseSquare(r.ID, hi); err != nil {
				return err
			}
			if b < a {
				return fmt.Errorf("range %q runs backwards", item)
			}
		} else {
			if a, err = ParseSquare(r.ID, item); err != nil {
				return err
			}
			b = a
		}
		for sq := a; sq <= b; sq++ {
			bit := SquareBit(r.ID, sq)
			if (p.Pieces[White]|p.Pieces[Black])&bit != 0 {
				other := "white"
				if p.Pieces[Black]&bit != 0 {
					other = "black"
				}
				return fmt.Errorf("square %s listed twice (already %s)", SquareName(r.ID, sq, Numeric), other)
			}
			p.Pieces[c] |= bit
			if king {
				p.Kings |= bit
			}
		}
	}
	return nil
}

// FEN returns p as a PDN FEN with numeric squares in ascending order, kings
// marked K, White's field first: "W:W21,22,K30:B1,2,3". A colour with no
// piece gets an empty field ("B:W:B1"). ParseFEN reads it back to p.
func (p *Position) FEN() string { return p.FENStyle(Numeric) }

// FENStyle is FEN with squares written in the given style: Algebraic gives
// "W:Wa1,c1,Kd8:Bb8" (squares still in ascending number order).
func (p *Position) FENStyle(style NotationStyle) string {
	if p.V >= numVariants {
		return "?"
	}
	b := make([]byte, 0, 16+4*variants[p.V].Squares)
	b = append(b, p.Side.String()...)
	for _, c := range [2]Color{White, Black} {
		b = append(b, ':')
		b = append(b, c.String()...)
		first := true
		for sq := 1; sq <= variants[p.V].Squares; sq++ {
			bit := SquareBit(p.V, Square(sq))
			if p.Pieces[c]&bit == 0 {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			if p.Kings&bit != 0 {
				b = append(b, 'K')
			}
			b = appendSquare(b, p.V, Square(sq), style)
		}
	}
	return string(b)
}

// ParseHubPosition reads a Hub protocol position string of variant v
// (docs/pdn.md): the side to move W or B, then one character per
// square in square-number order, w white man, b black man, W white king, B
// black king, e empty; 33 characters on 8x8, 51 on 10x10. Surrounding white
// space is ignored. Errors give the wrong length, or the index (0 = side to
// move) and square of a bad character, or a man on its own crowning row.
func ParseHubPosition(v VariantID, s string) (Position, error) {
	var p Position
	if v >= numVariants {
		return p, fmt.Errorf("hub position %q: unknown variant %d", s, uint8(v))
	}
	r := &variants[v]
	p.V = v
	t := strings.TrimSpace(s)
	if len(t) != r.Squares+1 {
		return p, fmt.Errorf("hub position %q: length %d, want %d for %s (side to move and %d squares)",
			s, len(t), r.Squares+1, r.Name, r.Squares)
	}
	switch t[0] {
	case 'W':
		p.Side = White
	case 'B':
		p.Side = Black
	default:
		return p, fmt.Errorf("hub position %q: character 0 is %q: the side to move must be W or B", s, t[0])
	}
	for i := 1; i < len(t); i++ {
		bit := SquareBit(v, Square(i))
		switch t[i] {
		case 'w':
			p.Pieces[White] |= bit
		case 'b':
			p.Pieces[Black] |= bit
		case 'W':
			p.Pieces[White] |= bit
			p.Kings |= bit
		case 'B':
			p.Pieces[Black] |= bit
			p.Kings |= bit
		case 'e':
		default:
			return p, fmt.Errorf("hub position %q: character %d (square %d) is %q: want w, b, W, B or e", s, i, i, t[i])
		}
	}
	if sq, c := crownRowViolation(&p); sq != 0 {
		return p, fmt.Errorf("hub position %q: character %d: %s man on square %d stands on %s's crowning row",
			s, int(sq), colourName(c), int(sq), colourName(c))
	}
	p.Key = p.ComputeKey()
	return p, nil
}

// HubPosition returns p as a Hub position string: "W" or "B", then w, b, W,
// B or e for each square in number order (33 characters on 8x8, 51 on
// 10x10). ParseHubPosition reads it back to p.
func (p *Position) HubPosition() string {
	if p.V >= numVariants {
		return "?"
	}
	n := variants[p.V].Squares
	b := make([]byte, n+1)
	b[0] = p.Side.String()[0]
	for sq := 1; sq <= n; sq++ {
		c := byte('e')
		switch p.PieceAt(Square(sq)) {
		case WhiteMan:
			c = 'w'
		case BlackMan:
			c = 'b'
		case WhiteKing:
			c = 'W'
		case BlackKing:
			c = 'B'
		}
		b[sq] = c
	}
	return string(b)
}

// isHubShaped reports whether t (trimmed) looks like a Hub position string
// rather than a PDN FEN: a side to move W or B followed only by the square
// letters w, b, W, B and e, with no ":" field separator.
func isHubShaped(t string) bool {
	if len(t) < 2 || (t[0] != 'W' && t[0] != 'B') {
		return false
	}
	for i := 1; i < len(t); i++ {
		switch t[i] {
		case 'w', 'b', 'W', 'B', 'e':
		default:
			return false
		}
	}
	return true
}

// ParsePosition reads a game position of variant v given as a PDN FEN
// ("W:W21,22:B1,2", see ParseFEN) or as a Hub position string ("W" and one
// letter per square, see ParseHubPosition): a string of W or B followed
// only by the letters w, b, W, B and e is a Hub string, anything else a
// FEN. It is the one parser for a position a person or a GUI gives, so
// each mistake gets one message: a Hub string of the wrong length says the
// length wanted for v, and names the board it would fit ("51 characters is
// a 10x10 position (international)"); a FEN error is ParseFEN's. A position
// with no piece at all is refused: it is not a game position.
func ParsePosition(v VariantID, s string) (Position, error) {
	if v >= numVariants {
		return Position{}, fmt.Errorf("position %q: unknown variant %d", s, uint8(v))
	}
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"`))
	var (
		p   Position
		err error
	)
	if isHubShaped(t) {
		p, err = ParseHubPosition(v, t)
		if err != nil {
			if len(t) != variants[v].Squares+1 {
				for _, o := range AllVariants() {
					if variants[o].Squares+1 == len(t) && variants[o].Squares != variants[v].Squares {
						board := "an 8x8 position (russian, english or brazilian)"
						if !o.Is8x8() {
							board = "a 10x10 position (international)"
						}
						err = fmt.Errorf("%w; %d characters is %s", err, len(t), board)
						break
					}
				}
			}
			return p, err
		}
	} else if p, err = ParseFEN(v, s); err != nil {
		return p, err
	}
	if p.Pieces[White]|p.Pieces[Black] == 0 {
		return p, fmt.Errorf("position %q: no pieces on the board (a game position needs at least one)", s)
	}
	return p, nil
}

// Within8x8 reports whether p is a 10x10 position with at least one piece
// whose pieces all stand on the squares a1 to h8: what an 8x8 position
// written with algebraic squares ("W:Wa1,c1,...") reads as on the 10x10
// board, where those are valid squares too. A file of such positions given
// for international is an 8x8 file. It is false for every 8x8 variant.
func (p *Position) Within8x8() bool {
	if p.V >= numVariants || p.V.Is8x8() || p.Pieces[White]|p.Pieces[Black] == 0 {
		return false
	}
	for sq := 1; sq <= variants[p.V].Squares; sq++ {
		if (p.Pieces[White]|p.Pieces[Black])&SquareBit(p.V, Square(sq)) == 0 {
			continue
		}
		name := SquareName(p.V, Square(sq), Algebraic) // "a1" .. "j10"
		if name[0] > 'h' || len(name) > 2 || name[1] > '8' {
			return false
		}
	}
	return true
}
