// convert.go: between DXP's position strings and MOVE messages and the
// engine's positions and moves, for 10x10 and damka's 8x8 extension; the
// start position of a GAMEREQ; game results and GAMEEND reasons; names and
// texts made fit for a message.

package dxpwire

import (
	"fmt"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// EncodeBoard returns p's pieces as a DXP position: one character per
// square in square-number order, e empty, w white man, z black man, W white
// king, Z black king; 50 characters on 10x10 and, in damka's 8x8 extension,
// 32 characters in the variant's own numbering.
func EncodeBoard(p *engine.Position) string {
	n := p.V.Rules().Squares
	b := make([]byte, n)
	for sq := 1; sq <= n; sq++ {
		c := byte('e')
		switch p.PieceAt(engine.Square(sq)) {
		case engine.WhiteMan:
			c = 'w'
		case engine.BlackMan:
			c = 'z'
		case engine.WhiteKing:
			c = 'W'
		case engine.BlackKing:
			c = 'Z'
		}
		b[sq-1] = c
	}
	return string(b)
}

// DecodeBoard returns the position of variant v given by a DXP position
// string (see EncodeBoard) with side toMove to move. The error names a
// wrong length for the variant, a bad character with its square, or a man
// on its own crowning row.
func DecodeBoard(v engine.VariantID, toMove engine.Color, board string) (engine.Position, error) {
	r := v.Rules()
	if len(board) != r.Squares {
		return engine.Position{}, fmt.Errorf("position has %d squares, %s needs %d", len(board), r.Name, r.Squares)
	}
	// The Hub position string has the same layout with b/B for Black.
	hub := make([]byte, 1+len(board))
	hub[0] = 'W'
	if toMove == engine.Black {
		hub[0] = 'B'
	}
	for i := 0; i < len(board); i++ {
		switch c := board[i]; c {
		case 'e', 'w', 'W':
			hub[i+1] = c
		case 'z':
			hub[i+1] = 'b'
		case 'Z':
			hub[i+1] = 'B'
		default:
			return engine.Position{}, fmt.Errorf("position: square %d is %q, want e, w, z, W or Z", i+1, c)
		}
	}
	p, err := engine.ParseHubPosition(v, string(hub))
	if err != nil {
		// Name the DXP characters, not the Hub form.
		msg := err.Error()
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		return engine.Position{}, fmt.Errorf("position: %s", msg)
	}
	return p, nil
}

// squareOf returns the square number of an internal bit index of v.
func squareOf(v engine.VariantID, bit uint8) int {
	n := v.Rules().Squares
	for sq := 1; sq <= n; sq++ {
		if engine.SquareBit(v, engine.Square(sq)) == uint64(1)<<bit {
			return sq
		}
	}
	return 0
}

// MoveMessage returns the MOVE message for m, a legal move of p, after
// seconds of thought: origin, destination and every captured square in
// ascending order.
func MoveMessage(p *engine.Position, m engine.Move, seconds int) *Move {
	v := p.V
	mm := &Move{Seconds: min(max(seconds, 0), 9999), From: squareOf(v, m.From), To: squareOf(v, m.To)}
	if m.Captured != 0 {
		n := v.Rules().Squares
		for sq := 1; sq <= n; sq++ {
			if m.Captured&engine.SquareBit(v, engine.Square(sq)) != 0 {
				mm.Captured = append(mm.Captured, sq)
			}
		}
	}
	return mm
}

// FindMove returns the legal move of p that mm names: same origin,
// destination and set of captured squares (in any order). A MOVE that
// gives no captured squares for a capture is still read when its origin
// and destination name one capture. When two moves differ only in
// crowning (a Russian man that may crown on the way or not), the one that
// crowns is taken, as engine.ParseMove does. The error says why no move
// matched.
func FindMove(p *engine.Position, mm *Move) (engine.Move, error) {
	v := p.V
	n := v.Rules().Squares
	sqName := func(sq int) string { return fmt.Sprintf("%02d", sq) }
	if mm.From < 1 || mm.From > n || mm.To < 1 || mm.To > n {
		return engine.Move{}, fmt.Errorf("move %s-%s: squares must be 01..%d on %s", sqName(mm.From), sqName(mm.To), n, v)
	}
	var capt uint64
	for _, sq := range mm.Captured {
		if sq < 1 || sq > n {
			return engine.Move{}, fmt.Errorf("move %s-%s: captured square %s is not 01..%d", sqName(mm.From), sqName(mm.To), sqName(sq), n)
		}
		bit := engine.SquareBit(v, engine.Square(sq))
		if capt&bit != 0 {
			return engine.Move{}, fmt.Errorf("move %s-%s: captured square %s given twice", sqName(mm.From), sqName(mm.To), sqName(sq))
		}
		capt |= bit
	}
	from := engine.SquareBit(v, engine.Square(mm.From))
	to := engine.SquareBit(v, engine.Square(mm.To))
	var list engine.MoveList
	p.Generate(&list)
	// pick returns the move matching origin, destination and match, and
	// how many different captured sets matched (0, 1, or 2 for "several").
	// Moves with the same captured set that differ only in crowning count
	// once; the crowning one is returned.
	pick := func(match func(m engine.Move) bool) (engine.Move, int) {
		var found engine.Move
		count := 0
		for _, m := range list.Slice() {
			if uint64(1)<<m.From != from || uint64(1)<<m.To != to || !match(m) {
				continue
			}
			switch {
			case count == 0:
				found, count = m, 1
			case m.Captured != found.Captured:
				count = 2
			case m.Crowns() && !found.Crowns():
				found = m
			}
		}
		return found, count
	}
	m, count := pick(func(m engine.Move) bool { return m.Captured == capt })
	if count == 1 {
		return m, nil
	}
	if len(mm.Captured) == 0 {
		m, count = pick(func(engine.Move) bool { return true })
		if count == 1 {
			return m, nil
		}
		if count > 1 {
			return engine.Move{}, fmt.Errorf("move %s-%s: ambiguous without its captured squares", sqName(mm.From), sqName(mm.To))
		}
	}
	desc := sqName(mm.From) + "-" + sqName(mm.To)
	if len(mm.Captured) > 0 {
		parts := make([]string, len(mm.Captured))
		for i, sq := range mm.Captured {
			parts[i] = sqName(sq)
		}
		desc += " capturing " + strings.Join(parts, ",")
	}
	return engine.Move{}, fmt.Errorf("move %s is not legal for %s in %s", desc, SideName(p.Side), p.FEN())
}

// SideName returns "white" or "black", the side's name in errors and logs.
func SideName(c engine.Color) string {
	if c == engine.Black {
		return "black"
	}
	return "white"
}

// SetStart sets m's position fields for a game from start: no set-up (the
// 'A' of the variant's start position) when start has the pieces and the
// side to move of its variant's start position, else Setup with start's
// side to move and its board (EncodeBoard).
func (m *GameReq) SetStart(start *engine.Position) {
	std := engine.StartPosition(start.V)
	if start.Pieces == std.Pieces && start.Kings == std.Kings && start.Side == std.Side {
		m.Setup, m.ToMove, m.Board = false, engine.White, ""
		return
	}
	m.Setup, m.ToMove, m.Board = true, start.Side, EncodeBoard(start)
}

// ReasonFor returns the GAMEEND reason with which colour c reports the
// result r: EndWin or EndLose for a win, EndDraw, or EndNone for
// engine.Ongoing (no result).
func ReasonFor(r engine.Result, c engine.Color) EndReason {
	switch {
	case r == engine.Draw:
		return EndDraw
	case (r == engine.WhiteWins) == (c == engine.White) && r != engine.Ongoing:
		return EndWin
	case r != engine.Ongoing:
		return EndLose
	}
	return EndNone
}

// Result returns the game result when colour c sends GAMEEND with reason
// r: engine.Ongoing for EndNone (and an unknown reason).
func (r EndReason) Result(c engine.Color) engine.Result {
	win, loss := engine.WhiteWins, engine.BlackWins
	if c == engine.Black {
		win, loss = loss, win
	}
	switch r {
	case EndWin:
		return win
	case EndLose:
		return loss
	case EndDraw:
		return engine.Draw
	}
	return engine.Ongoing
}

// ASCIIText returns s fit for a name or CHAT text of at most max bytes:
// characters outside printable ASCII replaced by '?', cut to max bytes,
// and "?" for an empty s.
func ASCIIText(s string, max int) string {
	b := []byte(s)
	for i, c := range b {
		if c < 32 || c > 126 {
			b[i] = '?'
		}
	}
	if len(b) > max {
		b = b[:max]
	}
	if len(b) == 0 {
		return "?"
	}
	return string(b)
}
