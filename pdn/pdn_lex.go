// pdn_lex.go: the PDN lexer, the Reader methods that turn bytes into
// tokens (tags, comments, words, skipped NAGs and variations, errors),
// counting lines and bounding every word, comment and tag value.

package pdn

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tokEOF       tokKind = iota
	tokTag               // text = name, value = value; err set when malformed
	tokComment           // text = comment body ({...} or ;...)
	tokWord              // text = the word
	tokError             // err = what was wrong (unterminated variation, ...)
	tokSkip              // a NAG, a stray ')' or an escape line
	tokVariation         // words = the variation's words, "(" and ")" of nested ones, comments (see variation)
)

type token struct {
	kind  tokKind
	text  string
	value string
	err   string
	line  int
	words []string // tokVariation's
}

// readByte returns the next byte, counting lines; ok is false at the end of
// input or on a read error (then r.ioErr is set).
func (r *Reader) readByte() (byte, bool) {
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
func (r *Reader) unreadByte(c byte) {
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
func (r *Reader) next() token {
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
			words, ok := r.variation()
			if !ok {
				return token{kind: tokError, line: line, err: "unterminated variation ("}
			}
			return token{kind: tokVariation, words: words, line: line}
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
func (r *Reader) word(c byte, line int) token {
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
func (r *Reader) until(end byte, max int) (string, bool) {
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

// variation reads a variation whose "(" was read and returns its words
// (variationTokens: split at white space, "(" and ")"), "(" and ")" around nested
// variations, and each comment ({...} up to the first "}", ;... up to the
// end of its line) as one word: "{" and its text with white space runs
// collapsed (none for an empty one). At most maxPDNComment bytes of the
// text outside comments are kept, each comment counting one; after that
// the rest, comments too, is left out. The comments kept are bounded
// too: one that would make their bytes (each one's and one for each)
// pass maxPDNComment is left out, as the comment after a main line move
// that would pass it is. It reports false when the input ends first.
func (r *Reader) variation() ([]string, bool) {
	var words []string
	var text []byte // since the last comment
	end := func() {
		words = append(words, variationTokens(string(text))...)
		text = text[:0]
	}
	depth := 1
	n := 0        // bytes kept outside comments
	comments := 0 // the comments' bytes kept, one more for each
	for {
		c, ok := r.readByte()
		if !ok {
			return nil, false
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				end()
				return words, true
			}
		case '{', ';':
			stop := byte('}')
			if c == ';' {
				stop = '\n'
			}
			body, ok := r.until(stop, maxPDNComment)
			if !ok {
				return nil, false
			}
			if n >= maxPDNComment {
				continue
			}
			n++
			end()
			if body = collapseSpace(body); body != "" && comments+len(body) <= maxPDNComment {
				comments += len(body) + 1
				words = append(words, "{"+body)
			}
			continue
		}
		if n >= maxPDNComment {
			continue
		}
		n++
		text = append(text, c)
	}
}

// tag reads a tag whose "[" was read: [Name "Value"] on one line. An
// unquoted value runs to the "]". PGN escapes \" and \\ are honoured.
func (r *Reader) tag(line int) token {
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
func (r *Reader) skipBlanks() (byte, bool) {
	for {
		c, ok := r.readByte()
		if !ok || (c != ' ' && c != '\t' && c != '\r') {
			return c, ok
		}
	}
}
