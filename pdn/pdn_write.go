// pdn_write.go: the PDN writer (Write), the tag order it writes, and the
// line writer that keeps movetext within pdnLineWidth columns.

package pdn

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/damka-draughts/damka/engine"
)

// pdnLineWidth is the column limit of the movetext Write writes.
const pdnLineWidth = 80

// rosterTags are the tags Write always writes first, in this order
// ("?" when g has no value), as PDN's seven-tag roster.
var rosterTags = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// derivedTags are written from g's fields, never copied from g.Tags.
var derivedTags = [...]string{"GameType", "FEN", "SetUp"}

// Write writes g as PDN: the seven-tag roster (Event, Site, Date,
// Round, White, Black, Result; "?" for a missing value; Result from
// g.Result), GameType (always: g's own tag when it names g's variant, else
// the variant's number: 25 Russian, 21 English, 26 Brazilian, 20
// international), SetUp "1" and FEN (in the notation of the moves:
// algebraic squares for Russian and Brazilian, numbers for English and
// international) when Start is not the variant's start position, the other tags of g in order; then a blank
// line, the movetext in the variant's notation (FormatFull: "11-15",
// "5x14x23", "c3-d4", "c3:e5:g3") with its annotation glyph glued ("11-15?",
// Game.Glyphs), move numbers ("1." and, when a move
// of the second player starts a line of play, "1..."), comments in braces
// (";" line comments for a text with a "}"), variations in parentheses
// after their move's comment (Game.Lines, else Game.Variations; nested to
// maxLineDepth), each with its comments (Line.Intro before its first move,
// Line.Comments after theirs), lines of at most 80 columns,
// the result token, and a blank line.
// Every move is checked against the legal moves; an illegal one is an error
// and nothing more is written.
func Write(w io.Writer, g *Game) error {
	if g.Variant >= engine.NumVariants {
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
		if v, err := engine.VariantFromGameType(gt); err == nil && v == g.Variant {
			writeTag("GameType", gt)
		} else {
			writeTag("GameType", strconv.Itoa(r.GameType))
		}
	} else {
		// Always, also for Russian (damka's default when reading): other
		// programs default to another variant (CheckerBoard to English, the
		// PDN standard to international).
		writeTag("GameType", strconv.Itoa(r.GameType))
	}
	start := g.Start
	start.V = g.Variant
	if !isStartPosition(&start) {
		writeTag("SetUp", "1")
		writeTag("FEN", start.FENStyle(r.Notation))
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
	var list engine.MoveList
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
		text := p.FormatMove(m, engine.FormatFull)
		if gl := g.Glyph(i); gl != "" {
			if !isGlyph(gl) {
				return fmt.Errorf("pdn: write: move %d (ply %d): %q is not an annotation glyph", num, i+1, gl)
			}
			text += gl
		}
		if p.Side == r.FirstToMove {
			text = strconv.Itoa(num) + ". " + text
		} else if needNum {
			text = strconv.Itoa(num) + "... " + text
		}
		lw.word(text)
		needNum = false
		before, moveNum := p, num
		if p.Side != r.FirstToMove {
			num++
		}
		p = p.Play(m)
		if c := g.Comment(i); c != "" {
			lw.comment(c)
			needNum = true
		}
		lines := []Line(nil)
		if i < len(g.Lines) {
			lines = g.Lines[i]
		}
		if len(lines) == 0 && i < len(g.Variations) && len(g.Variations[i]) > 0 {
			lines = []Line{{Moves: g.Variations[i]}}
		}
		for _, line := range lines {
			if ps := linePieces(before, moveNum, line, r.FirstToMove, 0); len(ps) > 0 {
				for _, pc := range enclose(ps) {
					lw.put(pc)
				}
				needNum = true
			}
		}
	}
	lw.word(res)
	b.WriteString("\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// piece is a part of the movetext that a lineWriter writes: a word (a
// move with its number, a comment's word in braces, a parenthesis glued
// to one), or, where semi is set, a comment written as ";" line comments.
type piece struct {
	text string
	semi bool
}

// linePieces returns the pieces of a variation played from p, whose
// first move has move number num: its Intro, its moves numbered as the
// main line's are, each followed by its comment and the variations of
// the move in parentheses (to maxLineDepth), as far as its moves are
// legal (nil when the first is not).
func linePieces(p engine.Position, num int, line Line, first engine.Color, depth int) []piece {
	var ps []piece
	var list engine.MoveList
	needNum := true
	for i, m := range line.Moves {
		p.Generate(&list)
		if !slices.Contains(list.Slice(), m) {
			break
		}
		if i == 0 && line.Intro != "" {
			ps = append(ps, commentPieces(line.Intro)...)
		}
		text := p.FormatMove(m, engine.FormatFull)
		before, moveNum := p, num
		if p.Side == first {
			text = strconv.Itoa(num) + ". " + text
		} else {
			if needNum {
				text = strconv.Itoa(num) + "... " + text
			}
			num++
		}
		needNum = false
		ps = append(ps, piece{text: text})
		p = p.Play(m)
		if c := line.Comment(i); c != "" {
			ps = append(ps, commentPieces(c)...)
			needNum = true
		}
		if i >= len(line.Lines) || depth >= maxLineDepth {
			continue
		}
		for _, sub := range line.Lines[i] {
			if sp := linePieces(before, moveNum, sub, first, depth+1); len(sp) > 0 {
				ps = append(ps, enclose(sp)...)
				needNum = true
			}
		}
	}
	return ps
}

// enclose puts the pieces of a variation (at least one) in parentheses,
// glued to its first and last words; one next to a ";" comment is a word
// of its own (after the comment's line, a ")" on the next).
func enclose(ps []piece) []piece {
	if ps[0].semi {
		ps = append([]piece{{text: "("}}, ps...)
	} else {
		ps[0].text = "(" + ps[0].text
	}
	if last := &ps[len(ps)-1]; last.semi {
		ps = append(ps, piece{text: ")"})
	} else {
		last.text += ")"
	}
	return ps
}

// hasTag reports whether g has a tag named name (case-insensitive).
func (g *Game) hasTag(name string) bool {
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
func isStartPosition(p *engine.Position) bool {
	s := engine.StartPosition(p.V)
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
	for _, pc := range commentPieces(text) {
		l.put(pc)
	}
}

// commentPieces returns the pieces of comment text that comment writes:
// its words, the first after "{" and the last before "}", or one ";"
// piece for a text with a "}".
func commentPieces(text string) []piece {
	fs := strings.Fields(text)
	if len(fs) == 0 {
		return nil
	}
	if strings.Contains(text, "}") {
		return []piece{{text: text, semi: true}}
	}
	fs[0] = "{" + fs[0]
	fs[len(fs)-1] += "}"
	ps := make([]piece, len(fs))
	for i, f := range fs {
		ps[i] = piece{text: f}
	}
	return ps
}

// put writes a piece: a word, or a ";" comment's lines (ending its line).
func (l *lineWriter) put(pc piece) {
	if !pc.semi {
		l.word(pc.text)
		return
	}
	l.word(";")
	for _, f := range strings.Fields(pc.text) {
		n := utf8.RuneCountInString(f)
		if l.col > 1 && l.col+1+n > pdnLineWidth {
			l.newline()
			l.word(";")
		}
		// Never word's own wrapping: a break would end the ";" comment,
		// so a word longer than a line stays on its ";" line.
		l.b.WriteByte(' ')
		l.b.WriteString(f)
		l.col += 1 + n
	}
	l.newline()
}

// newline ends the current line.
func (l *lineWriter) newline() {
	l.b.WriteByte('\n')
	l.col = 0
}

// samePlacement reports whether a and b have the same pieces and side to move.
func samePlacement(a, b *engine.Position) bool {
	return a.Pieces == b.Pieces && a.Kings == b.Kings && a.Side == b.Side
}
