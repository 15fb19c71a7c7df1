// pdn.go: a streaming PDN reader that replays every game with legality
// checks, and a PDN writer (shared/spec/rules.md section 7, FMJD PDN 3.0).

package engine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Tag is one PDN tag pair, [Name "Value"].
type Tag struct {
	Name  string
	Value string
}

// PDNGame is one game of a PDN file: its tags in file order, the variant and
// start position they select, the moves (legal, replayed from Start) with
// the text each had in the file, the comments, and the result token.
type PDNGame struct {
	Tags    []Tag     // in file order; Tag looks one up
	Variant VariantID // from the GameType tag, else the reader's default
	Start   Position  // from the FEN tag, else StartPosition(Variant)
	Moves   []Move    // the moves, legal in order from Start
	// MoveTexts[i] is Moves[i] as the file wrote it, without move number,
	// annotation glyphs or glued comment text (AppendMove writes FormatFull).
	MoveTexts []string
	// Comments is nil when the game has no comment after any move;
	// otherwise len(Comments) == len(Moves) and Comments[i] is the comment
	// after Moves[i] ("" for none). Comment text has its white space runs
	// collapsed to one space. Text glued to a move in the file
	// ("8-11Redoversteppedthetimecontrol...") and bare words in the movetext
	// are kept here too.
	Comments []string
	// Intro is the comment before the first move ("" for none).
	Intro string
	// Result is the game's result token in the file's convention (the first
	// mover's score first, see Result.PDN): the movetext's, else the Result
	// tag's, else "*". "½-½" is normalised to "1/2-1/2".
	Result string
	// Line is the 1-based line of the input where the game starts (0 for a
	// game made with NewPDNGame).
	Line int
}

// NewPDNGame returns an empty game of variant v from start (a position of
// v), result "*", for match runners and protocol code that record games
// move by move (AppendMove) and write them with WritePDN.
func NewPDNGame(v VariantID, start Position) *PDNGame {
	start.V = v
	return &PDNGame{Variant: v, Start: start, Result: "*"}
}

// Tag returns the value of the first tag named name (compared without regard
// to case, so "SetUp" finds "Setup"), or "" when there is none.
func (g *PDNGame) Tag(name string) string {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// SetTag sets the value of the first tag named name (case-insensitive), or
// appends the tag when there is none.
func (g *PDNGame) SetTag(name, value string) {
	for i := range g.Tags {
		if strings.EqualFold(g.Tags[i].Name, name) {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

// Position returns the position after all of g's moves. The moves must be
// legal in order (as the reader and AppendMove guarantee).
func (g *PDNGame) Position() Position {
	p := g.Start
	for _, m := range g.Moves {
		p = p.Play(m)
	}
	return p
}

// AppendMove appends m, which must be legal in g.Position(), with its
// FormatFull text (and an empty comment when g has comments).
func (g *PDNGame) AppendMove(m Move) {
	p := g.Position()
	g.Moves = append(g.Moves, m)
	g.MoveTexts = append(g.MoveTexts, p.FormatMove(m, FormatFull))
	if g.Comments != nil {
		g.Comments = append(g.Comments, "")
	}
}

// Comment returns the comment after move i (0-based), or "".
func (g *PDNGame) Comment(i int) string {
	if i < 0 || i >= len(g.Comments) {
		return ""
	}
	return g.Comments[i]
}

// Game returns g's moves as a Game, for result and draw rule queries.
func (g *PDNGame) Game() *Game {
	gm := NewGame(g.Start)
	for _, m := range g.Moves {
		gm.Play(m)
	}
	return gm
}

// PDNError reports a bad game: the game's 1-based index in the input, where
// it went wrong, and why. MoveNumber, MoveText and FEN are set when a move
// failed; for a bad tag (an unknown GameType, a bad FEN) MoveNumber is 0
// and FEN holds the tag's text.
type PDNError struct {
	Index      int    // 1-based index of the game in the input
	Line       int    // 1-based input line of the bad move or tag
	Event      string // the game's Event tag, if any
	MoveNumber int    // move number of the bad move (as numbered in PDN: one number per pair of moves)
	MoveText   string // the bad move as written
	FEN        string // position before the bad move, in the variant's notation style
	Err        error  // the cause: a *MoveError, a FEN error, a syntax error
}

// Error returns one line: game index and Event, line, move number and text,
// the cause and the position.
func (e *PDNError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pdn: game %d", e.Index)
	if e.Event != "" {
		fmt.Fprintf(&b, " (%q)", e.Event)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.MoveText != "" {
		// A *MoveError repeats the move text; say it once.
		cause := strings.TrimPrefix(fmt.Sprint(e.Err), fmt.Sprintf("move %q: ", e.MoveText))
		fmt.Fprintf(&b, ": move %d %q: %s", e.MoveNumber, e.MoveText, cause)
		if e.FEN != "" {
			fmt.Fprintf(&b, " [position %s]", e.FEN)
		}
		return b.String()
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	if e.FEN != "" {
		fmt.Fprintf(&b, " [FEN %q]", e.FEN)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *PDNError) Unwrap() error { return e.Err }

// Limits that keep a hostile input from growing memory without bound.
const (
	maxPDNWord     = 1024    // longer words are cut (and then fail to parse as moves)
	maxPDNComment  = 1 << 16 // longer comments are cut
	maxPDNTagValue = 8 << 10 // longer tag values are cut
	maxPDNTags     = 1024    // tags beyond this are dropped
	maxPDNPlies    = 1 << 16 // moves beyond this end the game with an error
)

// PDNReader reads PDN games one at a time from a stream.
type PDNReader struct {
	r       *bufio.Reader
	def     VariantID
	line    int    // current input line, 1-based
	index   int    // games returned so far
	pending *token // a tag read while finishing the previous game
	ioErr   error  // a read error other than io.EOF (sticky)
	bomDone bool
	buf     []byte // scratch for words and values
	replay  []byte // bytes to read before the stream (see tag)
	replayN int    // bytes of replay already read
	last    uint8  // where the last byte came from: fromReplay or fromStream
}

// Sources of the last byte read, for unreadByte.
const (
	fromStream = iota + 1
	fromReplay
)

// NewPDNReader returns a reader of the PDN games in r. Games without a
// GameType tag are of variant defaultVariant. r is read through a buffer;
// a leading UTF-8 byte order mark is skipped.
func NewPDNReader(r io.Reader, defaultVariant VariantID) *PDNReader {
	return &PDNReader{r: bufio.NewReaderSize(r, 64<<10), def: defaultVariant, line: 1}
}

// Next returns the next game. At the end of the input it returns (nil,
// io.EOF). A bad game (illegal or malformed move, bad FEN, unknown
// GameType, a syntax error such as an unterminated comment) gives a
// *PDNError together with the part of the game read before the fault (its
// tags and the moves up to the bad one); the next call reads the next game,
// so one bad game never loses the others. Any other error is a read error of
// the underlying reader; it is returned again by every later call.
//
// Games are delimited by their result token, by the next tag section, or by
// the end of input (a missing result is no error). Text between games that
// holds no move (no digit) is skipped; text with a digit is read as a game
// without tags.
func (r *PDNReader) Next() (*PDNGame, error) {
	if r.ioErr != nil {
		return nil, r.ioErr
	}
	var st *gameState
	for {
		// Find the start of a game.
		var first token
		for {
			t := r.next()
			if r.ioErr != nil {
				return nil, r.ioErr
			}
			if t.kind == tokEOF {
				return nil, io.EOF
			}
			if t.kind == tokTag || (t.kind == tokWord && startsGame(t.text)) {
				first = t
				break
			}
		}
		st = &gameState{r: r, index: r.index + 1, g: &PDNGame{Line: first.line}}
		st.run(first)
		if r.ioErr != nil {
			return nil, r.ioErr
		}
		// A lone move number between games ("1...") is no game.
		g := st.g
		if len(g.Tags) > 0 || len(g.Moves) > 0 || g.Result != "" || st.err != nil {
			break
		}
	}
	r.index = st.index
	g := st.g
	if g.Result == "" {
		if res := strings.TrimSpace(g.Tag("Result")); isResultToken(res) {
			g.Result = normResult(res)
		} else {
			g.Result = "*"
		}
	}
	if st.err != nil {
		st.err.Event = g.Tag("Event")
		return g, st.err
	}
	return g, nil
}

// gameState is the state of reading one game.
type gameState struct {
	r       *PDNReader
	index   int // 1-based index of this game
	g       *PDNGame
	err     *PDNError // first fault; later moves are skipped
	pos     Position
	num     int // current PDN move number
	comment []byte
	// commentFor is the move the pending comment text follows (-1: intro).
	commentFor int
}

func (s *gameState) fail(line int, format string, a ...any) {
	if s.err == nil {
		s.err = &PDNError{Index: s.index, Line: line, Err: fmt.Errorf(format, a...)}
	}
}

// run reads the game whose first token is t.
func (s *gameState) run(t token) {
	// Tag section.
	for t.kind == tokTag || t.kind == tokComment {
		if t.kind == tokTag {
			if t.err != "" {
				s.fail(t.line, "tag: %s", t.err)
			} else if len(s.g.Tags) < maxPDNTags {
				s.g.Tags = append(s.g.Tags, Tag{Name: t.text, Value: t.value})
			}
		} else {
			s.addComment(-1, t.text)
		}
		t = s.r.next()
	}
	s.setup(t.line)
	// Movetext.
	for {
		switch t.kind {
		case tokEOF:
			s.flushComment()
			return
		case tokTag:
			s.r.pending = &t
			s.flushComment()
			return
		case tokComment:
			s.addComment(len(s.g.Moves)-1, t.text)
		case tokError:
			s.fail(t.line, "%s", t.err)
		case tokWord:
			if s.word(t) {
				s.flushComment()
				return
			}
		}
		t = s.r.next()
	}
}

// setup applies the GameType and FEN tags.
func (s *gameState) setup(line int) {
	g := s.g
	g.Variant = s.r.def
	if g.Variant >= numVariants {
		s.fail(line, "unknown default variant %d", uint8(g.Variant))
		g.Variant = Russian
	}
	if gt := strings.TrimSpace(g.Tag("GameType")); gt != "" {
		v, err := VariantFromGameType(gt)
		if err != nil {
			s.fail(line, "%v", err)
		} else {
			g.Variant = v
		}
	}
	g.Start = StartPosition(g.Variant)
	if fen := strings.TrimSpace(g.Tag("FEN")); fen != "" && s.err == nil {
		p, err := ParseFEN(g.Variant, fen)
		if err != nil {
			s.fail(line, "FEN tag: %v", err)
			s.err.FEN = fen
		} else {
			g.Start = p
		}
	}
	s.pos = g.Start
	s.num = 1
	s.commentFor = -1
}

// word handles a movetext word; it reports whether the game ended.
func (s *gameState) word(t token) bool {
	w := t.text
	if isResultToken(w) || isResultToken(strings.TrimRight(w, ".,")) {
		s.g.Result = normResult(strings.TrimRight(w, ".,"))
		return true
	}
	// Move number: "12." "12..." "12.11-15".
	if n, rest, ok := splitMoveNumber(w); ok {
		s.num = n
		w = rest
		if w == "" {
			return false
		}
		if isResultToken(w) {
			s.g.Result = normResult(w)
			return true
		}
	}
	if strings.Trim(w, ".…") == "" {
		return false // a lone "..." after a comment
	}
	if !hasDigit(w) {
		// Free text in the movetext (a word outside braces, "!?"): keep as comment.
		if strings.Trim(w, "!?+#") != "" {
			s.addComment(len(s.g.Moves)-1, w)
		}
		return false
	}
	mv, glued := splitGlued(w)
	if s.err != nil {
		return false // skip the rest of a bad game
	}
	if len(s.g.Moves) >= maxPDNPlies {
		s.fail(t.line, "more than %d moves", maxPDNPlies)
		return false
	}
	m, err := s.pos.ParseMove(mv)
	if err != nil {
		s.err = &PDNError{Index: s.index, Line: t.line, MoveNumber: s.num, MoveText: mv,
			FEN: s.pos.FENStyle(s.g.Variant.Rules().Notation), Err: err}
		return false
	}
	s.flushComment()
	mover := s.pos.Side
	s.pos = s.pos.Play(m)
	s.g.Moves = append(s.g.Moves, m)
	s.g.MoveTexts = append(s.g.MoveTexts, mv)
	if s.g.Comments != nil {
		s.g.Comments = append(s.g.Comments, "")
	}
	if mover != s.g.Variant.Rules().FirstToMove {
		s.num++
	}
	if g := strings.Trim(glued, "!?+#"); g != "" {
		s.addComment(len(s.g.Moves)-1, g)
	}
	return false
}

// addComment adds text to the comment after move i (-1: before the first).
func (s *gameState) addComment(i int, text string) {
	text = collapseSpace(text)
	if text == "" {
		return
	}
	if i != s.commentFor {
		s.flushComment()
		s.commentFor = i
	}
	if len(s.comment) > 0 {
		s.comment = append(s.comment, ' ')
	}
	if len(s.comment)+len(text) > maxPDNComment {
		return
	}
	s.comment = append(s.comment, text...)
}

// flushComment stores the pending comment.
func (s *gameState) flushComment() {
	if len(s.comment) == 0 {
		return
	}
	text := string(s.comment)
	s.comment = s.comment[:0]
	i := s.commentFor
	g := s.g
	switch {
	case i < 0:
		if g.Intro != "" {
			g.Intro += " "
		}
		g.Intro += text
	case i < len(g.Moves):
		if g.Comments == nil {
			g.Comments = make([]string, len(g.Moves))
		}
		if g.Comments[i] != "" {
			g.Comments[i] += " "
		}
		g.Comments[i] += text
	}
}

// collapseSpace trims s and replaces each run of white space by one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// isResultToken reports whether w is a PDN result token.
func isResultToken(w string) bool {
	switch w {
	case "*", "1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0":
		return true
	}
	return false
}

func normResult(w string) string {
	if w == "½-½" {
		return "1/2-1/2"
	}
	return w
}

func hasDigit(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			return true
		}
	}
	return false
}

// startsGame reports whether a word outside any game begins a game without
// tags: a move number or anything with a digit that is not a stray result.
func startsGame(w string) bool { return hasDigit(w) && !isResultToken(w) }

// splitMoveNumber splits "12." / "12..." / "12.11-15" / "12…" into the
// number and the rest. ok is false when w does not start with a number
// followed by a dot.
func splitMoveNumber(w string) (n int, rest string, ok bool) {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i == 0 || i > 6 {
		return 0, w, false
	}
	j := i
	for j < len(w) && w[j] == '.' {
		j++
	}
	if strings.HasPrefix(w[j:], "…") {
		j += len("…")
	}
	if j == i {
		return 0, w, false
	}
	n, _ = strconv.Atoi(w[:i])
	return n, w[j:], true
}

// isSquareAt reports whether w[i:] starts with a square: a file letter
// a..j (either case) followed by a digit, or a digit.
func isSquareAt(w string, i int) bool {
	if i >= len(w) {
		return false
	}
	c := w[i]
	if c >= '0' && c <= '9' {
		return true
	}
	lc := c | 0x20
	return lc >= 'a' && lc <= 'j' && i+1 < len(w) && w[i+1] >= '0' && w[i+1] <= '9'
}

// splitGlued splits a move from text glued to its end, as in
// "8-11Redoversteppedthetimecontrolonthismove.": after the first digit,
// the move goes on through digits, separators (- x X :) followed by a
// square, and squares (c3); the rest is returned as glued text.
func splitGlued(w string) (move, glued string) {
	seenDigit := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case !seenDigit:
		case (c == '-' || c == ':' || c == 'x' || c == 'X') && isSquareAt(w, i+1):
		case isSquareAt(w, i) && i > 0 && isSeparatorByte(w[i-1]):
		default:
			return w[:i], w[i:]
		}
	}
	return w, ""
}

func isSeparatorByte(c byte) bool { return c == '-' || c == ':' || c == 'x' || c == 'X' }

// ---------------------------------------------------------------------------
// Lexer.

type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokTag             // text = name, value = value; err set when malformed
	tokComment         // text = comment body ({...} or ;...)
	tokWord            // text = the word
	tokError           // err = what was wrong (unterminated variation, ...)
	tokSkip            // a NAG, a variation, a stray ')' or an escape line
)

type token struct {
	kind  tokKind
	text  string
	value string
	err   string
	line  int
}

// readByte returns the next byte, counting lines; ok is false at the end of
// input or on a read error (then r.ioErr is set).
func (r *PDNReader) readByte() (byte, bool) {
	if r.replayN < len(r.replay) {
		c := r.replay[r.replayN]
		r.replayN++
		r.last = fromReplay
		if c == '\n' {
			r.line++
		}
		return c, true
	}
	r.last = fromStream
	if !r.bomDone {
		r.bomDone = true
		if b, err := r.r.Peek(3); err == nil && bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
			_, _ = r.r.Discard(3)
		}
	}
	c, err := r.r.ReadByte()
	if err != nil {
		if err != io.EOF {
			r.ioErr = err
		}
		return 0, false
	}
	if c == '\n' {
		r.line++
	}
	return c, true
}

// unreadByte pushes back c, the byte just read (once per read).
func (r *PDNReader) unreadByte(c byte) {
	switch r.last {
	case fromReplay:
		r.replayN--
	case fromStream:
		if r.r.UnreadByte() != nil {
			return
		}
	default:
		return
	}
	r.last = 0
	if c == '\n' {
		r.line--
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isDelim reports whether c ends a word.
func isDelim(c byte) bool {
	return isSpace(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == '(' || c == ')' || c == ';'
}

// next returns the next token. Every call consumes at least one byte unless
// it returns tokEOF (or the pending token).
func (r *PDNReader) next() token {
	if r.pending != nil {
		t := *r.pending
		r.pending = nil
		return t
	}
	for {
		c, ok := r.readByte()
		if !ok {
			return token{kind: tokEOF, line: r.line}
		}
		if isSpace(c) {
			continue
		}
		line := r.line
		switch c {
		case '[':
			return r.tag(line)
		case '{':
			text, ok := r.until('}', maxPDNComment)
			if !ok {
				return token{kind: tokError, line: line, err: "unterminated comment {"}
			}
			return token{kind: tokComment, text: text, line: line}
		case ';':
			text, _ := r.until('\n', maxPDNComment)
			return token{kind: tokComment, text: text, line: line}
		case '(':
			if !r.skipVariation() {
				return token{kind: tokError, line: line, err: "unterminated variation ("}
			}
			return token{kind: tokSkip, line: line}
		case ')', ']', '}':
			return token{kind: tokSkip, line: line}
		case '$':
			for {
				d, ok := r.readByte()
				if !ok {
					break
				}
				if d < '0' || d > '9' {
					r.unreadByte(d)
					break
				}
			}
			return token{kind: tokSkip, line: line}
		}
		return r.word(c, line)
	}
}

// word reads a word starting with c.
func (r *PDNReader) word(c byte, line int) token {
	b := append(r.buf[:0], c)
	for {
		d, ok := r.readByte()
		if !ok {
			break
		}
		if isDelim(d) {
			r.unreadByte(d)
			break
		}
		if len(b) < maxPDNWord {
			b = append(b, d)
		}
	}
	r.buf = b
	return token{kind: tokWord, text: string(b), line: line}
}

// until reads up to the byte end (consumed, not returned), keeping at most
// max bytes; ok is false when the input ends first.
func (r *PDNReader) until(end byte, max int) (string, bool) {
	b := r.buf[:0]
	for {
		c, ok := r.readByte()
		if !ok {
			r.buf = b
			return string(b), false
		}
		if c == end {
			r.buf = b
			return string(b), true
		}
		if len(b) < max {
			b = append(b, c)
		}
	}
}

// skipVariation skips a variation whose "(" was read, with nested
// variations and comments; it reports false when the input ends first.
func (r *PDNReader) skipVariation() bool {
	depth := 1
	for {
		c, ok := r.readByte()
		if !ok {
			return false
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return true
			}
		case '{':
			if _, ok := r.until('}', 0); !ok {
				return false
			}
		case ';':
			if _, ok := r.until('\n', 0); !ok {
				return false
			}
		}
	}
}

// tag reads a tag whose "[" was read: [Name "Value"] on one line. An
// unquoted value runs to the "]". PGN escapes \" and \\ are honoured.
func (r *PDNReader) tag(line int) token {
	t := token{kind: tokTag, line: line}
	bad := func(msg string) token {
		t.err = msg
		// Resynchronise at the end of the line.
		r.until('\n', 0)
		return t
	}
	c, ok := r.skipBlanks()
	if !ok {
		t.err = "input ends inside a tag"
		return t
	}
	name := r.buf[:0]
	for ok && !isSpace(c) && c != '"' && c != ']' && c != '[' {
		if len(name) < maxPDNWord {
			name = append(name, c)
		}
		c, ok = r.readByte()
	}
	r.buf = name
	t.text = string(name)
	if !ok {
		t.err = "input ends inside a tag"
		return t
	}
	if c == '\n' {
		r.unreadByte(c)
		return bad(fmt.Sprintf("tag %q: line ends before its value", t.text))
	}
	if t.text == "" {
		r.unreadByte(c)
		return bad("tag without a name")
	}
	if isSpace(c) {
		c, ok = r.skipBlanks()
		if !ok {
			t.err = "input ends inside a tag"
			return t
		}
	}
	val := r.buf[:0]
	if c == '"' {
		for {
			c, ok = r.readByte()
			if !ok {
				t.err = fmt.Sprintf("tag %q: input ends inside the value", t.text)
				return t
			}
			if c == '\n' {
				r.unreadByte(c)
				t.err = fmt.Sprintf("tag %q: line ends inside the value (missing closing quote)", t.text)
				if i := bytes.IndexByte(val, ']'); i >= 0 {
					// [Name "value] movetext: read what follows "]" again,
					// then the newline (pushed back into the stream). The
					// line had no newline, so it cannot itself come from an
					// earlier replay still being read.
					r.replay = append(r.replay[:0], val[i+1:]...)
					r.replayN = 0
					return t
				}
				r.until('\n', 0)
				return t
			}
			if c == '\\' {
				d, ok := r.readByte()
				if !ok {
					t.err = fmt.Sprintf("tag %q: input ends inside the value", t.text)
					return t
				}
				if d != '"' && d != '\\' {
					val = append(val, '\\')
					if d == '\n' {
						r.unreadByte(d)
						continue
					}
				}
				c = d
			} else if c == '"' {
				break
			}
			if len(val) < maxPDNTagValue {
				val = append(val, c)
			}
		}
		t.value = strings.TrimRight(string(val), "\r")
		r.buf = val
		// Up to the "]".
		for {
			c, ok = r.readByte()
			if !ok {
				t.err = fmt.Sprintf("tag %q: input ends before ]", t.text)
				return t
			}
			if c == ']' {
				break
			}
			if c == '\n' {
				r.unreadByte(c)
				return bad(fmt.Sprintf("tag %q: missing ]", t.text))
			}
		}
	} else {
		// Unquoted value, up to "]".
		for c != ']' {
			if c == '\n' {
				r.unreadByte(c)
				return bad(fmt.Sprintf("tag %q: missing ]", t.text))
			}
			if len(val) < maxPDNTagValue {
				val = append(val, c)
			}
			c, ok = r.readByte()
			if !ok {
				t.err = fmt.Sprintf("tag %q: input ends before ]", t.text)
				return t
			}
		}
		t.value = strings.TrimSpace(string(val))
		r.buf = val
	}
	if !utf8.ValidString(t.value) {
		t.value = strings.ToValidUTF8(t.value, "\uFFFD")
	}
	return t
}

// skipBlanks skips spaces and tabs (not newlines) and returns the next byte.
func (r *PDNReader) skipBlanks() (byte, bool) {
	for {
		c, ok := r.readByte()
		if !ok || (c != ' ' && c != '\t' && c != '\r') {
			return c, ok
		}
	}
}

// ---------------------------------------------------------------------------
// Writer.

// pdnLineWidth is the column limit of the movetext WritePDN writes.
const pdnLineWidth = 80

// rosterTags are the tags WritePDN always writes first, in this order
// ("?" when g has no value), as PDN's seven-tag roster.
var rosterTags = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// derivedTags are written from g's fields, never copied from g.Tags.
var derivedTags = [...]string{"GameType", "FEN", "SetUp"}

// WritePDN writes g as PDN: the seven-tag roster (Event, Site, Date,
// Round, White, Black, Result; "?" for a missing value; Result from
// g.Result), GameType when the variant is not Russian (damka's default) or
// g has a GameType tag, SetUp "1" and FEN (numeric squares) when Start is not
// the variant's start position, the other tags of g in order; then a blank
// line, the movetext in the variant's notation (FormatFull: "11-15",
// "5x14x23", "c3-d4", "c3:e5:g3") with move numbers ("1." and, when a move
// of the second player starts a line of play, "1..."), comments in braces,
// lines of at most 80 columns, the result token, and a blank line.
// Every move is checked against the legal moves; an illegal one is an error
// and nothing more is written.
func WritePDN(w io.Writer, g *PDNGame) error {
	if g.Variant >= numVariants {
		return fmt.Errorf("pdn: write: unknown variant %d", uint8(g.Variant))
	}
	var b bytes.Buffer
	res := g.Result
	if res == "" {
		res = "*"
	}
	if !isResultToken(res) {
		return fmt.Errorf("pdn: write: result %q is not a PDN result token", res)
	}
	writeTag := func(name, value string) {
		b.WriteByte('[')
		b.WriteString(name)
		b.WriteString(` "`)
		for _, c := range []byte(value) {
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n', '\r':
				b.WriteByte(' ')
			default:
				b.WriteByte(c)
			}
		}
		b.WriteString("\"]\n")
	}
	for _, name := range rosterTags {
		v := g.Tag(name)
		if name == "Result" {
			v = res
		} else if v == "" && !g.hasTag(name) {
			v = "?"
		}
		writeTag(name, v)
	}
	r := g.Variant.Rules()
	if gt := strings.TrimSpace(g.Tag("GameType")); gt != "" {
		if v, err := VariantFromGameType(gt); err == nil && v == g.Variant {
			writeTag("GameType", gt)
		} else {
			writeTag("GameType", strconv.Itoa(r.GameType))
		}
	} else if g.Variant != Russian {
		writeTag("GameType", strconv.Itoa(r.GameType))
	}
	start := g.Start
	start.V = g.Variant
	if !isStartPosition(&start) {
		writeTag("SetUp", "1")
		writeTag("FEN", start.FEN())
	}
	for _, t := range g.Tags {
		if isRosterOrDerived(t.Name) {
			continue
		}
		writeTag(t.Name, t.Value)
	}
	b.WriteByte('\n')

	lw := lineWriter{b: &b}
	if g.Intro != "" {
		lw.comment(g.Intro)
	}
	p := start
	var list MoveList
	num := 1
	needNum := true
	for i, m := range g.Moves {
		p.Generate(&list)
		legal := false
		for _, lm := range list.Slice() {
			if lm == m {
				legal = true
				break
			}
		}
		if !legal {
			return fmt.Errorf("pdn: write: move %d (ply %d) is not legal in %s", num, i+1, p.FEN())
		}
		// A move number stays on the line of its move.
		text := p.FormatMove(m, FormatFull)
		if p.Side == r.FirstToMove {
			text = strconv.Itoa(num) + ". " + text
		} else if needNum {
			text = strconv.Itoa(num) + "... " + text
		}
		lw.word(text)
		needNum = false
		if p.Side != r.FirstToMove {
			num++
		}
		p = p.Play(m)
		if c := g.Comment(i); c != "" {
			lw.comment(c)
			needNum = true
		}
	}
	lw.word(res)
	b.WriteString("\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// hasTag reports whether g has a tag named name (case-insensitive).
func (g *PDNGame) hasTag(name string) bool {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return true
		}
	}
	return false
}

func isRosterOrDerived(name string) bool {
	for _, n := range rosterTags {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	for _, n := range derivedTags {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// isStartPosition reports whether p is its variant's start position.
func isStartPosition(p *Position) bool {
	s := StartPosition(p.V)
	return samePlacement(p, &s)
}

// lineWriter writes words separated by spaces in lines of at most
// pdnLineWidth columns (a longer word gets a line of its own).
type lineWriter struct {
	b   *bytes.Buffer
	col int
}

func (l *lineWriter) word(w string) {
	n := utf8.RuneCountInString(w)
	if l.col > 0 && l.col+1+n > pdnLineWidth {
		l.b.WriteByte('\n')
		l.col = 0
	}
	if l.col > 0 {
		l.b.WriteByte(' ')
		l.col++
	}
	l.b.WriteString(w)
	l.col += n
}

// comment writes {text}, wrapping at its spaces. A text with a "}" (which
// a ";" comment can hold) is written as ";" line comments instead, which the
// reader joins back with single spaces.
func (l *lineWriter) comment(text string) {
	fs := strings.Fields(text)
	if len(fs) == 0 {
		return
	}
	if !strings.Contains(text, "}") {
		fs[0] = "{" + fs[0]
		fs[len(fs)-1] += "}"
		for _, f := range fs {
			l.word(f)
		}
		return
	}
	l.word(";")
	for _, f := range fs {
		if l.col > 1 && l.col+1+utf8.RuneCountInString(f) > pdnLineWidth {
			l.newline()
			l.word(";")
		}
		l.word(f)
	}
	l.newline()
}

// newline ends the current line.
func (l *lineWriter) newline() {
	l.b.WriteByte('\n')
	l.col = 0
}
