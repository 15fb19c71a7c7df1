// pdn_replay.go: the replay of one PDN game (gameState): its tag section,
// setup from FEN, movetext words (move numbers, moves checked against the
// legal moves, results) and comments, with the word helpers they use.

package pdn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// gameState is the state of reading one game.
type gameState struct {
	r       *Reader
	index   int // 1-based index of this game
	g       *Game
	err     *Error // first fault; later moves are skipped
	pos     engine.Position
	num     int // current PDN move number
	comment []byte
	// commentFor is the move the pending comment text follows (-1: intro).
	commentFor int
}

func (s *gameState) fail(line int, format string, a ...any) {
	if s.err == nil {
		s.err = &Error{Index: s.index, Line: line, Err: fmt.Errorf(format, a...)}
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
		case tokVariation:
			s.addVariation(t.words)
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
	if g.Variant >= engine.NumVariants {
		s.fail(line, "unknown default variant %d", uint8(g.Variant))
		g.Variant = engine.Russian
	}
	if gt := strings.TrimSpace(g.Tag("GameType")); gt != "" {
		v, err := engine.VariantFromGameType(gt)
		if err != nil {
			s.fail(line, "%v", err)
		} else {
			g.Variant = v
		}
	}
	g.Start = engine.StartPosition(g.Variant)
	if fen := strings.TrimSpace(g.Tag("FEN")); fen != "" && s.err == nil {
		p, err := engine.ParseFEN(g.Variant, fen)
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
		if isGlyph(w) && s.err == nil {
			s.setGlyph(len(s.g.Moves)-1, w)
		} else if strings.Trim(w, "!?+#") != "" {
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
		s.err = &Error{Index: s.index, Line: t.line, MoveNumber: s.num, MoveText: mv,
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
	if s.g.Glyphs != nil {
		s.g.Glyphs = append(s.g.Glyphs, "")
	}
	if s.g.Variations != nil {
		s.g.Variations = append(s.g.Variations, nil)
	}
	if s.g.Lines != nil {
		s.g.Lines = append(s.g.Lines, nil)
	}
	if mover != s.g.Variant.Rules().FirstToMove {
		s.num++
	}
	if n := glyphPrefix(glued); n > 0 {
		s.setGlyph(len(s.g.Moves)-1, glued[:n])
	}
	if g := strings.Trim(glued, "!?+#"); g != "" {
		s.addComment(len(s.g.Moves)-1, g)
	}
	return false
}

// maxLineDepth bounds the nesting of variations read; deeper ones are
// skipped.
const maxLineDepth = 32

// addVariation reads a variation of the last move (words: what was
// between its parentheses, as Reader.variation returns it): its moves
// from the position before that move, as far as they are legal, with
// their comments and their own variations (move numbers, glyphs and NAGs
// are left out). One before the first move, or in a bad game, is
// skipped, and so is one without a legal move.
func (s *gameState) addVariation(words []string) {
	n := len(s.g.Moves)
	if n == 0 || s.err != nil {
		return
	}
	pos := s.g.Start
	for _, m := range s.g.Moves[:n-1] {
		pos = pos.Play(m)
	}
	line := readLine(&words, pos, 0)
	if len(line.Moves) == 0 {
		return
	}
	if s.g.Lines == nil {
		s.g.Lines = make([][]Line, n, max(n, 8))
		s.g.Variations = make([][]engine.Move, n, max(n, 8))
	}
	s.g.Lines[n-1] = append(s.g.Lines[n-1], line)
	if len(s.g.Variations[n-1]) == 0 {
		s.g.Variations[n-1] = line.Moves
	}
}

// variationTokens splits a variation's text into words, "(" and ")".
func variationTokens(text string) []string {
	return strings.Fields(parenSpacer.Replace(text))
}

var parenSpacer = strings.NewReplacer("(", " ( ", ")", " ) ")

// readLine reads a line of play from pos off the front of words, up to
// its ")" (taken too) or the end: its legal moves, each "(" after a move a
// variation of that move, each "{" word a comment (Reader.variation), kept
// with text glued to a move and bare words as the main line's comments
// are. A move that is not legal ends the line's moves; the rest of its
// words, nested variations and comments with them, is skipped.
func readLine(words *[]string, pos engine.Position, depth int) Line {
	var line Line
	before := pos // the position before the line's last move
	ok := true
	for len(*words) > 0 {
		w := (*words)[0]
		*words = (*words)[1:]
		switch w {
		case ")":
			return line
		case "(":
			if !ok || len(line.Moves) == 0 || depth >= maxLineDepth {
				skipLine(words)
				continue
			}
			sub := readLine(words, before, depth+1)
			if len(sub.Moves) == 0 {
				continue
			}
			if line.Lines == nil {
				line.Lines = make([][]Line, len(line.Moves))
			}
			i := len(line.Moves) - 1
			line.Lines[i] = append(line.Lines[i], sub)
			continue
		}
		if !ok {
			continue
		}
		if text, isComment := strings.CutPrefix(w, "{"); isComment {
			line.addComment(text)
			continue
		}
		if _, rest, isNum := splitMoveNumber(w); isNum {
			w = rest
		}
		if w == "" || strings.HasPrefix(w, "$") || isResultToken(w) || strings.Trim(w, ".…") == "" {
			continue
		}
		if !hasDigit(w) {
			// Free text, as in the main line (a glyph is left out).
			if strings.Trim(w, "!?+#") != "" {
				line.addComment(w)
			}
			continue
		}
		mv, glued := splitGlued(w)
		m, err := pos.ParseMove(mv)
		if err != nil {
			ok = false
			continue
		}
		line.Moves = append(line.Moves, m)
		if line.Lines != nil {
			line.Lines = append(line.Lines, nil)
		}
		if line.Comments != nil {
			line.Comments = append(line.Comments, "")
		}
		before = pos
		pos = pos.Play(m)
		if g := strings.Trim(glued, "!?+#"); g != "" {
			line.addComment(g)
		}
	}
	return line
}

// addComment adds text (white space collapsed) to the comment after the
// line's last move, or to its Intro before the first; as the main line's,
// a comment that would pass maxPDNComment bytes is left out.
func (l *Line) addComment(text string) {
	text = collapseSpace(text)
	if text == "" {
		return
	}
	i := len(l.Moves) - 1
	old := l.Intro
	if i >= 0 {
		old = l.Comment(i)
	}
	if old != "" {
		text = old + " " + text
	}
	if len(text) > maxPDNComment {
		return
	}
	if i < 0 {
		l.Intro = text
		return
	}
	if l.Comments == nil {
		l.Comments = make([]string, len(l.Moves))
	}
	l.Comments[i] = text
}

// skipLine skips words up to the ")" that closes a variation whose "("
// was taken.
func skipLine(words *[]string) {
	depth := 1
	for len(*words) > 0 {
		w := (*words)[0]
		*words = (*words)[1:]
		switch w {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return
			}
		}
	}
}

// glyphs are the annotation glyphs Game.Glyphs holds.
var glyphs = [...]string{"!!", "??", "!?", "?!", "!", "?"}

// isGlyph reports whether w is an annotation glyph.
func isGlyph(w string) bool { return glyphPrefix(w) == len(w) && w != "" }

// glyphPrefix returns the length of the annotation glyph w starts with
// (the longest), 0 for none.
func glyphPrefix(w string) int {
	for _, g := range glyphs {
		if strings.HasPrefix(w, g) {
			return len(g)
		}
	}
	return 0
}

// setGlyph sets the glyph of move i (nothing before the first move).
func (s *gameState) setGlyph(i int, glyph string) {
	if i < 0 || i >= len(s.g.Moves) {
		return
	}
	if s.g.Glyphs == nil {
		s.g.Glyphs = make([]string, len(s.g.Moves))
	}
	s.g.Glyphs[i] = glyph
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
