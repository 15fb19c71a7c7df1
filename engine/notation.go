// notation.go: square names, and reading and writing moves in each
// variant's notation and in the Hub protocol's form (paths.go: capture paths).

package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// SquareName returns the name of square sq of variant v: its number ("11")
// in the Numeric style, file and rank ("c3", "a10" on 10x10) in the
// Algebraic style, following the maps of docs/rules.md. A
// square outside 1..Squares (or an unknown variant) is written as its
// number in either style, so that ParseSquare rejects it.
func SquareName(v VariantID, sq Square, style NotationStyle) string {
	return string(appendSquare(make([]byte, 0, 3), v, sq, style))
}

// appendSquare appends SquareName(v, sq, style) to b.
func appendSquare(b []byte, v VariantID, sq Square, style NotationStyle) []byte {
	if style != Algebraic || v >= numVariants || sq == 0 || int(sq) > variants[v].Squares {
		return strconv.AppendInt(b, int64(sq), 10)
	}
	row, col := SquareRowCol(v, sq)
	b = append(b, byte('a'+col))
	return strconv.AppendInt(b, int64(variants[v].BoardSize-row), 10)
}

// parseDecimal reads a run of ASCII digits. Values above 9999 are reported
// as 10000 (every caller treats that as out of range). ok is false when s
// is empty or holds a non-digit.
func parseDecimal(s string) (n int, ok bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < 10000 {
			n = n*10 + int(c-'0')
		}
	}
	if n > 10000 {
		n = 10000
	}
	return n, true
}

// ParseSquare reads a square of variant v written either as a number
// ("11", leading zeros allowed: "09") or algebraically as a file letter and
// a rank ("c3", "C3", "a10" on 10x10). Surrounding white space is ignored.
// The error says what was wrong: an empty string, a number out of range
// 1..Squares, a file or rank off the board, or a light square.
func ParseSquare(v VariantID, s string) (Square, error) {
	if v >= numVariants {
		return 0, fmt.Errorf("square %q: unknown variant %d", s, uint8(v))
	}
	r := &variants[v]
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty square")
	}
	c := t[0]
	if c >= '0' && c <= '9' {
		n, ok := parseDecimal(t)
		if !ok {
			return 0, fmt.Errorf("square %q: not a number", t)
		}
		if n < 1 || n > r.Squares {
			return 0, fmt.Errorf("square %q: out of range 1..%d for %s", t, r.Squares, r.Name)
		}
		return Square(n), nil
	}
	lc := c | 0x20
	if lc < 'a' || lc > 'z' {
		return 0, fmt.Errorf("square %q: want a number 1..%d or a file a..%c and a rank", t, r.Squares, 'a'+r.BoardSize-1)
	}
	file := int(lc - 'a')
	if file >= r.BoardSize {
		return 0, fmt.Errorf("square %q: file %c is off the %dx%d board (a..%c)", t, lc, r.BoardSize, r.BoardSize, 'a'+r.BoardSize-1)
	}
	rank, ok := parseDecimal(t[1:])
	if !ok {
		return 0, fmt.Errorf("square %q: want a rank number after the file letter", t)
	}
	if rank < 1 || rank > r.BoardSize {
		return 0, fmt.Errorf("square %q: rank %d is off the %dx%d board (1..%d)", t, rank, r.BoardSize, r.BoardSize, r.BoardSize)
	}
	sq := SquareFromRowCol(v, r.BoardSize-rank, file)
	if sq == 0 {
		return 0, fmt.Errorf("square %q: a light square (pieces stand on the dark squares)", t)
	}
	return sq, nil
}

// ---------------------------------------------------------------------------
// Writing moves.

// MoveFormat selects how FormatMove writes a move.
type MoveFormat uint8

const (
	// FormatFull is the variant's own notation with every landing square:
	// "11-15", "5x14x23x30" (English, international), "c3-d4", "c3:e5:g3"
	// (Russian, Brazilian). It always identifies the move uniquely.
	FormatFull MoveFormat = iota
	// FormatShort writes origin and destination only: "5x30", "c3:g3". It
	// can be ambiguous; ParseMove then reports MoveAmbiguous.
	FormatShort
	// FormatNumeric is FormatFull with numeric squares in every variant:
	// "22-18", "22x15x6".
	FormatNumeric
	// FormatHub is the Hub protocol's form (docs/hub.md): a quiet
	// move "32-28", a capture "from x to x captured..." with the captured
	// squares in ascending order ("28x19x23"), numeric squares.
	FormatHub
)

// String names the format: full, short, numeric, hub.
func (f MoveFormat) String() string {
	switch f {
	case FormatFull:
		return "full"
	case FormatShort:
		return "short"
	case FormatNumeric:
		return "numeric"
	case FormatHub:
		return "hub"
	}
	return fmt.Sprintf("format(%d)", uint8(f))
}

// FormatMove writes m, a legal move of p, in format f. A quiet move is
// "from-to" in every format; a capture uses "x" between squares, or ":"
// in the algebraic style of Russian and Brazilian FormatFull and
// FormatShort. A move whose squares are off the board is written "?".
func (p *Position) FormatMove(m Move, f MoveFormat) string {
	return string(p.AppendMove(make([]byte, 0, 32), m, f))
}

// AppendMove appends FormatMove(m, f) to b and returns the extended buffer.
func (p *Position) AppendMove(b []byte, m Move, f MoveFormat) []byte {
	from, to, ok := p.moveSquares(m)
	if !ok {
		return append(b, '?')
	}
	style := variants[p.V].Notation
	if f == FormatNumeric || f == FormatHub {
		style = Numeric
	}
	if m.Captured == 0 {
		b = appendSquare(b, p.V, from, style)
		b = append(b, '-')
		return appendSquare(b, p.V, to, style)
	}
	sep := byte('x')
	if style == Algebraic {
		sep = ':'
	}
	switch f {
	case FormatShort:
		b = appendSquare(b, p.V, from, style)
		b = append(b, sep)
		return appendSquare(b, p.V, to, style)
	case FormatHub:
		b = appendSquare(b, p.V, from, style)
		b = append(b, sep)
		b = appendSquare(b, p.V, to, style)
		for sq := 1; sq <= variants[p.V].Squares; sq++ {
			if m.Captured&SquareBit(p.V, Square(sq)) != 0 {
				b = append(b, sep)
				b = appendSquare(b, p.V, Square(sq), style)
			}
		}
		return b
	}
	for i, sq := range p.Path(m) {
		if i > 0 {
			b = append(b, sep)
		}
		b = appendSquare(b, p.V, sq, style)
	}
	return b
}

// ---------------------------------------------------------------------------
// Reading moves.

// MoveErrorKind tells why ParseMove rejected a move text.
type MoveErrorKind uint8

const (
	// MoveMalformed: the text is not a move in any accepted notation, or
	// names a square that is not on the board.
	MoveMalformed MoveErrorKind = iota + 1
	// MoveIllegal: the text is well formed but no legal move of the
	// position matches it.
	MoveIllegal
	// MoveAmbiguous: several legal moves match; Candidates lists them.
	MoveAmbiguous
)

// String returns "malformed", "illegal" or "ambiguous".
func (k MoveErrorKind) String() string {
	switch k {
	case MoveMalformed:
		return "malformed"
	case MoveIllegal:
		return "illegal"
	case MoveAmbiguous:
		return "ambiguous"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// MoveError is the error ParseMove returns.
type MoveError struct {
	Text       string        // the text as given
	Kind       MoveErrorKind // what went wrong
	Candidates []string      // MoveAmbiguous: every matching move, FormatFull, in generation order
	Reason     string        // details: the bad character or square, why the move is illegal
}

// Error returns one line such as `move "11-16": illegal in this position:
// no legal move goes from 11 to 16` or `move "5x30": ambiguous: 5x14x23x30
// or 5x9x18x27x30`.
func (e *MoveError) Error() string {
	switch e.Kind {
	case MoveMalformed:
		return fmt.Sprintf("move %q: malformed: %s", e.Text, e.Reason)
	case MoveIllegal:
		return fmt.Sprintf("move %q: illegal in this position: %s", e.Text, e.Reason)
	case MoveAmbiguous:
		return fmt.Sprintf("move %q: ambiguous: %s", e.Text, strings.Join(e.Candidates, " or "))
	}
	return fmt.Sprintf("move %q: %s", e.Text, e.Reason)
}

// maxMoveSquares bounds the squares one move text may name.
const maxMoveSquares = 64

// isSeparator reports whether c separates squares in a move text.
func isSeparator(c byte) bool { return c == '-' || c == 'x' || c == 'X' || c == ':' }

// isSquareChar reports whether c may appear in a square name.
func isSquareChar(c byte) bool {
	return (c >= '0' && c <= '9') || ((c|0x20) >= 'a' && (c|0x20) <= 'z' && (c|0x20) != 'x')
}

// ParseMove reads a move of p written in any accepted notation and returns
// the legal move it names.
//
// Accepted: numeric "11-15", "14x23", a full path with every landing square
// "5x14x23x30", the ends only "5x30", the legacy "x" for a plain move
// ("10x14" for 10-14), algebraic "c3-d4", "c3:e5:g3", "c3xe5", and the Hub
// form "from x to x captured..." (captured squares in any order; a single
// capture with or without its captured square). The separators "-", "x",
// "X" and ":" are interchangeable; numeric and algebraic squares are both
// accepted in every variant. Surrounding white space and trailing
// annotations "!", "?", "+", "*", "#" are ignored.
//
// Resolution: with two squares A-B the text is first read as a complete
// path (a plain move, or a capture of one piece jumping from A to B); only
// if no legal move has that path is it read as the ends of a longer
// capture. With three or more squares both readings are tried: a full
// landing path, and the Hub form (from, to, captured set); the moves
// matching either are the candidates.
//
// Russian crowning rule: a capture given by its ends or in the Hub form can
// match two moves that differ only in crowning (one route crowns the man
// mid-capture and one does not); ParseMove then takes the route that
// crowns. A full path always tells them apart.
//
// Errors are *MoveError: MoveMalformed (bad character, square off the
// board, fewer than two squares), MoveIllegal (well formed, but no legal
// move matches; Reason says why when it can), MoveAmbiguous (several moves
// match; Candidates lists all of them in FormatFull).
func (p *Position) ParseMove(s string) (Move, error) {
	malformed := func(format string, a ...any) (Move, error) {
		return Move{}, &MoveError{Text: s, Kind: MoveMalformed, Reason: fmt.Sprintf(format, a...)}
	}
	if p.V >= numVariants {
		return malformed("unknown variant %d", uint8(p.V))
	}
	t := strings.TrimSpace(s)
	t = strings.TrimRight(t, "!?+*# \t")
	if t == "" {
		return malformed("no move text")
	}
	var sqs [maxMoveSquares]Square
	n := 0
	for i := 0; ; {
		j := i
		for j < len(t) && isSquareChar(t[j]) {
			j++
		}
		if j == i {
			if i < len(t) {
				return malformed("unexpected character %q at offset %d (want a square)", t[i], i)
			}
			return malformed("missing square at the end")
		}
		sq, err := ParseSquare(p.V, t[i:j])
		if err != nil {
			return malformed("%v", err)
		}
		if n == maxMoveSquares {
			return malformed("more than %d squares", maxMoveSquares)
		}
		sqs[n] = sq
		n++
		if j == len(t) {
			break
		}
		if !isSeparator(t[j]) {
			return malformed("unexpected character %q at offset %d (want -, x or : between squares)", t[j], j)
		}
		i = j + 1
	}
	if n < 2 {
		return malformed("want at least two squares (origin and destination)")
	}
	return p.resolveMove(s, sqs[:n])
}

// resolveMove finds the legal move named by the squares sqs (see ParseMove).
func (p *Position) resolveMove(text string, sqs []Square) (Move, error) {
	var list MoveList
	p.Generate(&list)
	moves := list.Slice()
	from, to := SquareBit(p.V, sqs[0]), SquareBit(p.V, sqs[len(sqs)-1])
	fromBit := uint8(bits.TrailingZeros64(from))
	var cands []Move
	addCand := func(m Move) {
		for _, c := range cands {
			if c == m {
				return
			}
		}
		cands = append(cands, m)
	}
	var preferCrown bool
	if len(sqs) == 2 {
		toBit := uint8(bits.TrailingZeros64(to))
		// A complete path: a plain move or a single jump.
		for _, m := range moves {
			if m.From == fromBit && m.To == toBit && m.NCapt <= 1 {
				addCand(m)
			}
		}
		if len(cands) == 0 {
			// The ends of a capture.
			for _, m := range moves {
				if m.From == fromBit && m.To == toBit && m.Captured != 0 {
					addCand(m)
				}
			}
			preferCrown = true
		}
	} else {
		// A full landing path.
		var hasCapture bool
		for _, m := range moves {
			if m.Captured != 0 {
				hasCapture = true
				break
			}
		}
		if hasCapture {
			for _, cp := range p.piecePaths(sqs[0]) {
				if !slices.Equal(cp.squares, sqs) {
					continue
				}
				pm := cp.move(p.V)
				for _, m := range moves {
					if m == pm {
						addCand(m)
					}
				}
			}
		}
		// The Hub form: from, to, captured set.
		var capt uint64
		distinct := true
		for _, sq := range sqs[2:] {
			b := SquareBit(p.V, sq)
			if capt&b != 0 {
				distinct = false
			}
			capt |= b
		}
		if distinct {
			hubTo := uint8(bits.TrailingZeros64(SquareBit(p.V, sqs[1])))
			nFull := len(cands)
			for _, m := range moves {
				if m.From == fromBit && m.To == hubTo && m.Captured == capt {
					addCand(m)
				}
			}
			preferCrown = len(cands) > nFull
		}
	}
	switch {
	case len(cands) == 1:
		return cands[0], nil
	case len(cands) == 0:
		return Move{}, &MoveError{Text: text, Kind: MoveIllegal, Reason: p.illegalReason(sqs, moves)}
	}
	if preferCrown {
		// Russian: of two routes that differ only in crowning, the one that
		// crowns.
		var kept []Move
		for _, c := range cands {
			if !c.Crowns() && hasCrowningTwin(c, cands) {
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) == 1 {
			return kept[0], nil
		}
	}
	e := &MoveError{Text: text, Kind: MoveAmbiguous, Reason: fmt.Sprintf("%d legal moves match", len(cands))}
	for _, c := range cands {
		e.Candidates = append(e.Candidates, p.FormatMove(c, FormatFull))
	}
	return Move{}, e
}

// hasCrowningTwin reports whether ms holds a move that crowns and otherwise
// equals m.
func hasCrowningTwin(m Move, ms []Move) bool {
	for _, c := range ms {
		if c.Crowns() && c.From == m.From && c.To == m.To && c.Captured == m.Captured {
			return true
		}
	}
	return false
}

// illegalReason explains why no legal move of p matches the squares sqs.
func (p *Position) illegalReason(sqs []Square, moves []Move) string {
	style := variants[p.V].Notation
	name := func(sq Square) string { return SquareName(p.V, sq, style) }
	colour := "white"
	if p.Side == Black {
		colour = "black"
	}
	if len(moves) == 0 {
		return fmt.Sprintf("%s has no legal move", colour)
	}
	b := SquareBit(p.V, sqs[0])
	if p.Pieces[p.Side]&b == 0 {
		what := "it is empty"
		if p.Pieces[p.Side^1]&b != 0 {
			what = "it holds a piece of the side not to move"
		}
		return fmt.Sprintf("%s is to move and has no piece on %s (%s)", colour, name(sqs[0]), what)
	}
	var from []string
	fromBit := bitAt(p.V, sqs[0])
	for _, m := range moves {
		if m.From == fromBit {
			from = append(from, p.FormatMove(m, FormatFull))
		}
	}
	compulsory := ""
	if moves[0].Captured != 0 {
		compulsory = "capture is compulsory; "
	}
	if len(from) == 0 {
		return fmt.Sprintf("%sthe piece on %s has no legal move", compulsory, name(sqs[0]))
	}
	const maxListed = 8
	more := ""
	if len(from) > maxListed {
		more = fmt.Sprintf(" and %d more", len(from)-maxListed)
		from = from[:maxListed]
	}
	return fmt.Sprintf("%sno legal move of the piece on %s matches (its moves: %s%s)",
		compulsory, name(sqs[0]), strings.Join(from, ", "), more)
}
