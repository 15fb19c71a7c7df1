// message.go: the DXP messages (GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT,
// BACKREQ, BACKACC) and their fixed-width encoding (docs/dxp.md).

package dxpwire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// Kind is the one-letter header of a DXP message.
type Kind byte

// The message kinds of DXP.
const (
	KindGameReq Kind = 'R' // GAMEREQ: the initiator proposes a game
	KindGameAcc Kind = 'A' // GAMEACC: the follower accepts or refuses it
	KindMove    Kind = 'M' // MOVE
	KindGameEnd Kind = 'E' // GAMEEND, and its acknowledgement
	KindChat    Kind = 'C' // CHAT: free text
	KindBackReq Kind = 'B' // BACKREQ: take moves back
	KindBackAcc Kind = 'K' // BACKACC: the answer to a BACKREQ
)

// String returns the message's name: GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT,
// BACKREQ, BACKACC, or the header byte quoted for an unknown kind.
func (k Kind) String() string {
	switch k {
	case KindGameReq:
		return "GAMEREQ"
	case KindGameAcc:
		return "GAMEACC"
	case KindMove:
		return "MOVE"
	case KindGameEnd:
		return "GAMEEND"
	case KindChat:
		return "CHAT"
	case KindBackReq:
		return "BACKREQ"
	case KindBackAcc:
		return "BACKACC"
	}
	return strconv.QuoteRune(rune(k))
}

// MaxMessageLen is the longest message DXP allows, in bytes, header
// included and the terminating NUL excluded.
const MaxMessageLen = 127

// Field widths of docs/dxp.md "Messages".
const (
	NameLen      = 32 // names in GAMEREQ and GAMEACC, space-padded on the right
	Version      = 1  // the only DXP version: "01" in GAMEREQ
	gameReqALen  = 43 // GAMEREQ with the standard start position
	gameReqHead  = 44 // GAMEREQ up to and including the side to move after 'B'
	gameAccLen   = 34
	moveHeadLen  = 11 // MOVE without the captured squares
	maxCaptured  = (MaxMessageLen - moveHeadLen) / 2
	gameEndLen   = 3
	backReqLen   = 5
	backAccLen   = 2
	MaxChatText  = MaxMessageLen - 1 // the longest CHAT text, in bytes
	squares8x8   = 32
	squares10x10 = 50
)

// Message is one DXP message. Each kind is its own type: *GameReq,
// *GameAcc, *Move, *GameEnd, *Chat, *BackReq, *BackAcc.
type Message interface {
	// Kind returns the header letter.
	Kind() Kind
	// AppendEncode appends the message's wire form (without the NUL that
	// frames it) to b. It fails when a field does not fit its width or
	// holds a character DXP does not allow; b is then returned unchanged.
	AppendEncode(b []byte) ([]byte, error)
}

// GameReq is GAMEREQ, sent by the initiator: `R` | version (2) | initiator
// name (32) | follower colour W/Z (1) | minutes per player (3) | moves for
// that time (3) | `A`, or `B` + side to move W/Z (1) + one character per
// square (32 on 8x8, 50 on 10x10).
type GameReq struct {
	Version       int          // protocol version 0..99; DXP is version 1
	Name          string       // initiator's name, at most 32 characters; trailing spaces are not kept
	FollowerColor engine.Color // the colour the follower plays
	Minutes       int          // thinking time per player for the whole game, 0..999 minutes
	Moves         int          // moves for that time, 0..999; 0 = no limit (damka: the game's move limit, see Session)
	Setup         bool         // false: the variant's start position ('A'); true: ToMove and Board ('B')
	ToMove        engine.Color // with Setup: the side to move
	Board         string       // with Setup: e w z W Z per square in square-number order (see EncodeBoard)
}

// GameAcc is GAMEACC, the follower's answer: `A` | follower name (32) |
// code (1).
type GameAcc struct {
	Name string  // follower's name, at most 32 characters
	Code AccCode // 0 accepted, 1 wrong version, 2 refused this game, 3 no games at all
}

// AccCode is the answer code of a GAMEACC.
type AccCode int

// The GAMEACC codes.
const (
	AccAccepted     AccCode = 0 // the game is accepted
	AccWrongVersion AccCode = 1 // the protocol version is not supported
	AccRefused      AccCode = 2 // this game is refused; another may be proposed
	AccNoGames      AccCode = 3 // no games at all
)

// String describes the code in a few words.
func (c AccCode) String() string {
	switch c {
	case AccAccepted:
		return "accepted"
	case AccWrongVersion:
		return "wrong protocol version"
	case AccRefused:
		return "game refused"
	case AccNoGames:
		return "no games at all"
	}
	return fmt.Sprintf("code %d", int(c))
}

// Move is MOVE: `M` | seconds used (4) | from (2) | to (2) | number
// captured (2) | captured squares (2 each, any order). Squares are numbers
// in the variant's numbering (01..50 on 10x10, 01..32 on 8x8).
type Move struct {
	Seconds  int   // thinking time used on this move, 0..9999 s
	From, To int   // origin and destination, 1..99
	Captured []int // captured squares, 1..99 each, at most 58
}

// GameEnd is GAMEEND: `E` | reason (1) | stop code (1). The side to move
// sends it first with its reason; the other side answers with reason 0.
type GameEnd struct {
	Reason EndReason
	Stop   StopCode
}

// EndReason is a GAMEEND reason, from the sender's point of view.
type EndReason int

// The GAMEEND reasons.
const (
	EndNone EndReason = 0 // no result (also the acknowledgement)
	EndLose EndReason = 1 // the sender loses
	EndDraw EndReason = 2 // draw
	EndWin  EndReason = 3 // the sender wins
)

// String describes the reason: none, I lose, draw, I win.
func (r EndReason) String() string {
	switch r {
	case EndNone:
		return "none"
	case EndLose:
		return "I lose"
	case EndDraw:
		return "draw"
	case EndWin:
		return "I win"
	}
	return fmt.Sprintf("reason %d", int(r))
}

// StopCode is the GAMEEND stop code.
type StopCode int

// The GAMEEND stop codes.
const (
	StopContinue StopCode = 0 // another game may follow
	StopNoMore   StopCode = 1 // no more games
)

// Chat is CHAT: `C` | 1..126 characters of free text.
type Chat struct {
	Text string
}

// BackReq is BACKREQ: `B` | move number (3, first move 001) | side to move
// W/Z (1): take the game back to that move with that side to move.
type BackReq struct {
	MoveNumber int          // 1..999
	ToMove     engine.Color // side to move after the take-back
}

// BackAcc is BACKACC: `K` | code (1).
type BackAcc struct {
	Code BackCode
}

// BackCode is the BACKACC answer code. Only 0 (accepted) is fixed by the
// spec; damka sends 2 when it refuses (match play).
type BackCode int

// The BACKACC codes.
const (
	BackAccepted     BackCode = 0 // moves taken back
	BackNotSupported BackCode = 1 // take-backs are not supported
	BackRefused      BackCode = 2 // refused (damka in match play)
)

// Kind returns KindGameReq.
func (*GameReq) Kind() Kind { return KindGameReq }

// Kind returns KindGameAcc.
func (*GameAcc) Kind() Kind { return KindGameAcc }

// Kind returns KindMove.
func (*Move) Kind() Kind { return KindMove }

// Kind returns KindGameEnd.
func (*GameEnd) Kind() Kind { return KindGameEnd }

// Kind returns KindChat.
func (*Chat) Kind() Kind { return KindChat }

// Kind returns KindBackReq.
func (*BackReq) Kind() Kind { return KindBackReq }

// Kind returns KindBackAcc.
func (*BackAcc) Kind() Kind { return KindBackAcc }

// Encode returns m's wire form without the framing NUL (see Writer for
// framed output).
func Encode(m Message) ([]byte, error) { return m.AppendEncode(nil) }

// EncodeError reports a field that does not fit the wire format.
type EncodeError struct {
	Kind   Kind
	Field  string
	Reason string
}

// Error returns `dxp: encode GAMEREQ: minutes: 1000 does not fit 3 digits`.
func (e *EncodeError) Error() string {
	return fmt.Sprintf("dxp: encode %s: %s: %s", e.Kind, e.Field, e.Reason)
}

func encErr(k Kind, field, format string, a ...any) error {
	return &EncodeError{Kind: k, Field: field, Reason: fmt.Sprintf(format, a...)}
}

// appendNum appends n as a zero-padded decimal of width digits.
func appendNum(b []byte, k Kind, field string, n, width int) ([]byte, error) {
	limit := 1
	for range width {
		limit *= 10
	}
	if n < 0 || n >= limit {
		return b, encErr(k, field, "%d does not fit %d digits", n, width)
	}
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...), nil
}

// checkText checks that s has only characters DXP carries (ASCII 1..127).
func checkText(k Kind, field, s string) error {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c > 127 {
			return encErr(k, field, "byte 0x%02x at offset %d is not ASCII 1..127", c, i)
		}
	}
	return nil
}

// appendName appends s space-padded to NameLen.
func appendName(b []byte, k Kind, s string) ([]byte, error) {
	if len(s) > NameLen {
		return b, encErr(k, "name", "%q is longer than %d characters", s, NameLen)
	}
	if err := checkText(k, "name", s); err != nil {
		return b, err
	}
	b = append(b, s...)
	for i := len(s); i < NameLen; i++ {
		b = append(b, ' ')
	}
	return b, nil
}

func colorByte(c engine.Color) byte {
	if c == engine.Black {
		return 'Z'
	}
	return 'W'
}

// AppendEncode appends the GAMEREQ; see Message.
func (m *GameReq) AppendEncode(b []byte) ([]byte, error) {
	orig := b
	k := m.Kind()
	b = append(b, byte(k))
	var err error
	if b, err = appendNum(b, k, "version", m.Version, 2); err != nil {
		return orig, err
	}
	if b, err = appendName(b, k, m.Name); err != nil {
		return orig, err
	}
	if m.FollowerColor > engine.Black {
		return orig, encErr(k, "follower colour", "colour %d is neither White nor Black", m.FollowerColor)
	}
	b = append(b, colorByte(m.FollowerColor))
	if b, err = appendNum(b, k, "minutes", m.Minutes, 3); err != nil {
		return orig, err
	}
	if b, err = appendNum(b, k, "moves", m.Moves, 3); err != nil {
		return orig, err
	}
	if !m.Setup {
		return append(b, 'A'), nil
	}
	if m.ToMove > engine.Black {
		return orig, encErr(k, "side to move", "colour %d is neither White nor Black", m.ToMove)
	}
	if n := len(m.Board); n != squares8x8 && n != squares10x10 {
		return orig, encErr(k, "position", "%d squares, want %d (10x10) or %d (8x8)", n, squares10x10, squares8x8)
	}
	for i := 0; i < len(m.Board); i++ {
		if !isBoardChar(m.Board[i]) {
			return orig, encErr(k, "position", "square %d is %q, want e, w, z, W or Z", i+1, m.Board[i])
		}
	}
	b = append(b, 'B', colorByte(m.ToMove))
	return append(b, m.Board...), nil
}

// AppendEncode appends the GAMEACC; see Message.
func (m *GameAcc) AppendEncode(b []byte) ([]byte, error) {
	orig := b
	k := m.Kind()
	b = append(b, byte(k))
	var err error
	if b, err = appendName(b, k, m.Name); err != nil {
		return orig, err
	}
	if b, err = appendNum(b, k, "code", int(m.Code), 1); err != nil {
		return orig, err
	}
	return b, nil
}

// AppendEncode appends the MOVE; see Message.
func (m *Move) AppendEncode(b []byte) ([]byte, error) {
	orig := b
	k := m.Kind()
	b = append(b, byte(k))
	var err error
	if b, err = appendNum(b, k, "seconds", m.Seconds, 4); err != nil {
		return orig, err
	}
	if m.From < 1 {
		return orig, encErr(k, "from", "square %d is not 01..99", m.From)
	}
	if b, err = appendNum(b, k, "from", m.From, 2); err != nil {
		return orig, err
	}
	if m.To < 1 {
		return orig, encErr(k, "to", "square %d is not 01..99", m.To)
	}
	if b, err = appendNum(b, k, "to", m.To, 2); err != nil {
		return orig, err
	}
	if len(m.Captured) > maxCaptured {
		return orig, encErr(k, "captured", "%d squares do not fit a message (at most %d)", len(m.Captured), maxCaptured)
	}
	b, _ = appendNum(b, k, "number captured", len(m.Captured), 2)
	for i, sq := range m.Captured {
		if sq < 1 || sq > 99 {
			return orig, encErr(k, "captured", "square %d (number %d) is not 01..99", sq, i+1)
		}
		b, _ = appendNum(b, k, "captured", sq, 2)
	}
	return b, nil
}

// AppendEncode appends the GAMEEND; see Message.
func (m *GameEnd) AppendEncode(b []byte) ([]byte, error) {
	k := m.Kind()
	if m.Reason < EndNone || m.Reason > EndWin {
		return b, encErr(k, "reason", "%d is not 0..3", int(m.Reason))
	}
	if m.Stop < StopContinue || m.Stop > StopNoMore {
		return b, encErr(k, "stop code", "%d is not 0 or 1", int(m.Stop))
	}
	return append(b, byte(k), byte('0'+m.Reason), byte('0'+m.Stop)), nil
}

// AppendEncode appends the CHAT; see Message.
func (m *Chat) AppendEncode(b []byte) ([]byte, error) {
	k := m.Kind()
	if m.Text == "" {
		return b, encErr(k, "text", "empty (want 1..%d characters)", MaxChatText)
	}
	if len(m.Text) > MaxChatText {
		return b, encErr(k, "text", "%d characters, at most %d", len(m.Text), MaxChatText)
	}
	if err := checkText(k, "text", m.Text); err != nil {
		return b, err
	}
	b = append(b, byte(k))
	return append(b, m.Text...), nil
}

// AppendEncode appends the BACKREQ; see Message.
func (m *BackReq) AppendEncode(b []byte) ([]byte, error) {
	orig := b
	k := m.Kind()
	b = append(b, byte(k))
	var err error
	if b, err = appendNum(b, k, "move number", m.MoveNumber, 3); err != nil {
		return orig, err
	}
	if m.ToMove > engine.Black {
		return orig, encErr(k, "side to move", "colour %d is neither White nor Black", m.ToMove)
	}
	return append(b, colorByte(m.ToMove)), nil
}

// AppendEncode appends the BACKACC; see Message.
func (m *BackAcc) AppendEncode(b []byte) ([]byte, error) {
	orig := b
	k := m.Kind()
	b = append(b, byte(k))
	var err error
	if b, err = appendNum(b, k, "code", int(m.Code), 1); err != nil {
		return orig, err
	}
	return b, nil
}

// DecodeError reports a message that does not follow the wire format: the
// message kind (0 when the header itself is bad), the field, its offset
// in the message and what was wrong. Its text is short enough to be sent
// back in a CHAT.
type DecodeError struct {
	Kind   Kind
	Field  string
	Offset int
	Reason string
}

// Error returns e.g. `dxp: MOVE: seconds at offset 1: "00x2" is not a
// number`.
func (e *DecodeError) Error() string {
	if e.Kind == 0 {
		return fmt.Sprintf("dxp: %s", e.Reason)
	}
	if e.Field == "" {
		return fmt.Sprintf("dxp: %s: %s", e.Kind, e.Reason)
	}
	return fmt.Sprintf("dxp: %s: %s at offset %d: %s", e.Kind, e.Field, e.Offset, e.Reason)
}

// decoder reads the fields of one message.
type decoder struct {
	b   []byte
	k   Kind
	err *DecodeError
}

func (d *decoder) fail(field string, off int, format string, a ...any) {
	if d.err == nil {
		d.err = &DecodeError{Kind: d.k, Field: field, Offset: off, Reason: fmt.Sprintf(format, a...)}
	}
}

// num reads a width-digit decimal at off.
func (d *decoder) num(field string, off, width int) int {
	if d.err != nil {
		return 0
	}
	n := 0
	for i := off; i < off+width; i++ {
		c := d.b[i]
		if c < '0' || c > '9' {
			d.fail(field, off, "%q is not a %d-digit number", d.b[off:off+width], width)
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// color reads W or Z at off.
func (d *decoder) color(field string, off int) engine.Color {
	if d.err != nil {
		return engine.White
	}
	switch d.b[off] {
	case 'W':
		return engine.White
	case 'Z':
		return engine.Black
	}
	d.fail(field, off, "%q is not W or Z", d.b[off])
	return engine.White
}

// name reads a space-padded name at off.
func (d *decoder) name(off int) string {
	return strings.TrimRight(string(d.b[off:off+NameLen]), " ")
}

// length checks the message length.
func (d *decoder) length(want int) bool {
	if len(d.b) != want {
		d.fail("", 0, "%d characters, want %d", len(d.b), want)
		return false
	}
	return true
}

func isBoardChar(c byte) bool {
	return c == 'e' || c == 'w' || c == 'z' || c == 'W' || c == 'Z'
}

// Decode reads one message (without its framing NUL). Every byte must be
// ASCII 1..127; each kind must have exactly its length and its fields
// their digits and letters. The error is a *DecodeError naming the kind,
// field and offset. Decode never panics and keeps no reference to b.
func Decode(b []byte) (Message, error) {
	if len(b) == 0 {
		return nil, &DecodeError{Reason: "empty message"}
	}
	if len(b) > MaxMessageLen {
		return nil, &DecodeError{Kind: Kind(b[0]), Reason: fmt.Sprintf("%d characters, at most %d", len(b), MaxMessageLen)}
	}
	for i, c := range b {
		if c == 0 || c > 127 {
			return nil, &DecodeError{Reason: fmt.Sprintf("byte 0x%02x at offset %d is not ASCII 1..127", c, i)}
		}
	}
	d := &decoder{b: b, k: Kind(b[0])}
	var m Message
	switch d.k {
	case KindGameReq:
		m = d.gameReq()
	case KindGameAcc:
		if d.length(gameAccLen) {
			m = &GameAcc{Name: d.name(1), Code: AccCode(d.num("code", 33, 1))}
		}
	case KindMove:
		m = d.move()
	case KindGameEnd:
		if d.length(gameEndLen) {
			r := EndReason(d.num("reason", 1, 1))
			if d.err == nil && r > EndWin {
				d.fail("reason", 1, "%d is not 0..3", int(r))
			}
			s := StopCode(d.num("stop code", 2, 1))
			if d.err == nil && s > StopNoMore {
				d.fail("stop code", 2, "%d is not 0 or 1", int(s))
			}
			m = &GameEnd{Reason: r, Stop: s}
		}
	case KindChat:
		if len(b) < 2 {
			d.fail("text", 1, "empty")
		}
		m = &Chat{Text: string(b[1:])}
	case KindBackReq:
		if d.length(backReqLen) {
			n := d.num("move number", 1, 3)
			m = &BackReq{MoveNumber: n, ToMove: d.color("side to move", 4)}
		}
	case KindBackAcc:
		if d.length(backAccLen) {
			m = &BackAcc{Code: BackCode(d.num("code", 1, 1))}
		}
	default:
		return nil, &DecodeError{Reason: fmt.Sprintf("unknown message type %q", b[0])}
	}
	if d.err != nil {
		return nil, d.err
	}
	return m, nil
}

func (d *decoder) gameReq() Message {
	b := d.b
	if len(b) != gameReqALen && len(b) != gameReqHead+squares8x8 && len(b) != gameReqHead+squares10x10 {
		d.fail("", 0, "%d characters, want %d (start position), %d (10x10 position) or %d (8x8 position)",
			len(b), gameReqALen, gameReqHead+squares10x10, gameReqHead+squares8x8)
		return nil
	}
	m := &GameReq{
		Version:       d.num("version", 1, 2),
		Name:          d.name(3),
		FollowerColor: d.color("follower colour", 35),
		Minutes:       d.num("minutes", 36, 3),
		Moves:         d.num("moves", 39, 3),
	}
	if d.err != nil {
		return nil
	}
	switch b[42] {
	case 'A':
		if len(b) != gameReqALen {
			d.fail("", 0, "%d characters after 'A', want none", len(b)-gameReqALen)
		}
	case 'B':
		if len(b) == gameReqALen {
			d.fail("position", 43, "missing after 'B'")
			return nil
		}
		m.Setup = true
		m.ToMove = d.color("side to move", 43)
		for i := gameReqHead; i < len(b); i++ {
			if !isBoardChar(b[i]) {
				d.fail("position", i, "square %d is %q, want e, w, z, W or Z", i-gameReqHead+1, b[i])
				break
			}
		}
		m.Board = string(b[gameReqHead:])
	default:
		d.fail("start position", 42, "%q is not A or B", b[42])
	}
	if d.err != nil {
		return nil
	}
	return m
}

func (d *decoder) move() Message {
	b := d.b
	if len(b) < moveHeadLen {
		d.fail("", 0, "%d characters, want at least %d", len(b), moveHeadLen)
		return nil
	}
	m := &Move{
		Seconds: d.num("seconds", 1, 4),
		From:    d.num("from", 5, 2),
		To:      d.num("to", 7, 2),
	}
	n := d.num("number captured", 9, 2)
	if d.err != nil {
		return nil
	}
	if m.From == 0 {
		d.fail("from", 5, "square 00")
	}
	if m.To == 0 {
		d.fail("to", 7, "square 00")
	}
	if len(b) != moveHeadLen+2*n {
		d.fail("captured", moveHeadLen, "%d captured squares announced, %d characters follow (want %d)",
			n, len(b)-moveHeadLen, 2*n)
	}
	if d.err != nil {
		return nil
	}
	if n > 0 {
		m.Captured = make([]int, n)
	}
	for i := range n {
		off := moveHeadLen + 2*i
		m.Captured[i] = d.num("captured", off, 2)
		if d.err == nil && m.Captured[i] == 0 {
			d.fail("captured", off, "square 00")
		}
	}
	if d.err != nil {
		return nil
	}
	return m
}
