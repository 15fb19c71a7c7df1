// pdn.go: the PDN game type (Game, Tag), its error type (Error), the
// input limits, and the streaming reader's API (Reader, NewReader,
// Next), FMJD PDN 3.0 as docs/pdn.md describes it. The reader's lexer is
// in pdn_lex.go, the replay of a game's movetext in pdn_replay.go, the writer
// in pdn_write.go.

package pdn

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// Tag is one PDN tag pair, [Name "Value"].
type Tag struct {
	Name  string
	Value string
}

// Game is one game of a PDN file: its tags in file order, the variant and
// start position they select, the moves (legal, replayed from Start) with
// the text each had in the file, the comments, and the result token.
type Game struct {
	Tags    []Tag            // in file order; Tag looks one up
	Variant engine.VariantID // from the GameType tag, else the reader's default
	Start   engine.Position  // from the FEN tag, else StartPosition(Variant)
	Moves   []engine.Move    // the moves, legal in order from Start
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
	// Glyphs is nil when no move has an annotation glyph; otherwise
	// len(Glyphs) == len(Moves) and Glyphs[i] is the glyph of Moves[i]
	// ("" for none): one of "!", "?", "!!", "??", "!?", "?!", as the file
	// wrote it glued to the move or as the next word. Write writes it glued
	// to the move ("11-15?").
	Glyphs []string
	// Variations is nil when no move has one; otherwise len(Variations)
	// == len(Moves) and Variations[i] is nil or a line of play from the
	// position before Moves[i], instead of it: a PDN variation (RAV), which
	// Write puts in parentheses after the move and its comment, as far as
	// its moves are legal. The reader sets Variations[i] to the moves of
	// Lines[i][0].
	Variations [][]engine.Move
	// Lines is nil when no move has a variation; otherwise len(Lines) ==
	// len(Moves) and Lines[i] holds every variation of Moves[i] in file
	// order, each with its comments and the variations of its own moves
	// (nested RAV), as far as their moves are legal. Write writes Lines[i]
	// where it is not empty, else Variations[i].
	Lines [][]Line
	// Intro is the comment before the first move ("" for none).
	Intro string
	// Result is the game's result token in the file's convention (the first
	// mover's score first, see Result.PDN): the movetext's, else the Result
	// tag's, else "*". "½-½" is normalised to "1/2-1/2".
	Result string
	// Line is the 1-based line of the input where the game starts (0 for a
	// game made with NewGame).
	Line int
}

// Line is a variation: a line of play from the position before a move,
// instead of it, with its comments and the variations of its own moves.
type Line struct {
	Moves []engine.Move
	// Lines is nil when none of Moves has a variation; otherwise
	// len(Lines) == len(Moves) and Lines[i] are the variations of
	// Moves[i], from the position before it.
	Lines [][]Line
	// Comments is nil when no move of the line has a comment after it;
	// otherwise len(Comments) == len(Moves) and Comments[i] is the comment
	// after Moves[i] ("" for none), as Game.Comments: white space runs
	// collapsed to one space, the comments after a move (also those after
	// its variations) joined with a space, text glued to a move and bare
	// words in the variation kept here too. Write writes Comments[i] after
	// Moves[i], before its variations.
	Comments []string
	// Intro is the comment before the line's first move ("" for none), as
	// Game.Intro: "( {intro} 1. c3-d4 ...)".
	Intro string
}

// NewGame returns an empty game of variant v from start (a position of
// v), result "*", for match runners and protocol code that record games
// move by move (AppendMove) and write them with Write.
func NewGame(v engine.VariantID, start engine.Position) *Game {
	start.V = v
	return &Game{Variant: v, Start: start, Result: "*"}
}

// Tag returns the value of the first tag named name (compared without regard
// to case, so "SetUp" finds "Setup"), or "" when there is none.
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// SetTag sets the value of the first tag named name (case-insensitive), or
// appends the tag when there is none.
func (g *Game) SetTag(name, value string) {
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
func (g *Game) Position() engine.Position {
	p := g.Start
	for _, m := range g.Moves {
		p = p.Play(m)
	}
	return p
}

// AppendMove appends m, which must be legal in g.Position(), with its
// FormatFull text (and an empty comment, glyph and variations when g has
// comments, glyphs or variations).
func (g *Game) AppendMove(m engine.Move) {
	p := g.Position()
	g.Moves = append(g.Moves, m)
	g.MoveTexts = append(g.MoveTexts, p.FormatMove(m, engine.FormatFull))
	if g.Comments != nil {
		g.Comments = append(g.Comments, "")
	}
	if g.Glyphs != nil {
		g.Glyphs = append(g.Glyphs, "")
	}
	if g.Variations != nil {
		g.Variations = append(g.Variations, nil)
	}
	if g.Lines != nil {
		g.Lines = append(g.Lines, nil)
	}
}

// Comment returns the comment after move i (0-based), or "".
func (g *Game) Comment(i int) string {
	if i < 0 || i >= len(g.Comments) {
		return ""
	}
	return g.Comments[i]
}

// Comment returns the comment after move i (0-based) of the line, or "".
func (l *Line) Comment(i int) string {
	if i < 0 || i >= len(l.Comments) {
		return ""
	}
	return l.Comments[i]
}

// Glyph returns the annotation glyph of move i (0-based), or "".
func (g *Game) Glyph(i int) string {
	if i < 0 || i >= len(g.Glyphs) {
		return ""
	}
	return g.Glyphs[i]
}

// Game returns g's moves as a Game, for result and draw rule queries.
func (g *Game) Game() *engine.Game {
	gm := engine.NewGame(g.Start)
	for _, m := range g.Moves {
		gm.Play(m)
	}
	return gm
}

// Error reports a bad game: the game's 1-based index in the input, where
// it went wrong, and why. MoveNumber, MoveText and FEN are set when a move
// failed; for a bad tag (an unknown GameType, a bad FEN) MoveNumber is 0
// and FEN holds the tag's text.
type Error struct {
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
func (e *Error) Error() string {
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
func (e *Error) Unwrap() error { return e.Err }

// Limits that keep a hostile input from growing memory without bound.
const (
	maxPDNWord     = 1024    // longer words are cut (and then fail to parse as moves)
	maxPDNComment  = 1 << 16 // longer comments are cut
	maxPDNTagValue = 8 << 10 // longer tag values are cut
	maxPDNTags     = 1024    // tags beyond this are dropped
	maxPDNPlies    = 1 << 16 // moves beyond this end the game with an error
)

// Reader reads PDN games one at a time from a stream.
type Reader struct {
	r       *bufio.Reader
	def     engine.VariantID
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

// NewReader returns a reader of the PDN games in r. Games without a
// GameType tag are of variant defaultVariant. r is read through a buffer;
// a leading UTF-8 byte order mark is skipped.
func NewReader(r io.Reader, defaultVariant engine.VariantID) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), def: defaultVariant, line: 1}
}

// Next returns the next game. At the end of the input it returns (nil,
// io.EOF). A bad game (illegal or malformed move, bad FEN, unknown
// GameType, a syntax error such as an unterminated comment) gives a
// *Error together with the part of the game read before the fault (its
// tags and the moves up to the bad one); the next call reads the next game,
// so one bad game never loses the others. Any other error is a read error of
// the underlying reader; it is returned again by every later call.
//
// Games are delimited by their result token, by the next tag section, or by
// the end of input (a missing result is no error). Text between games that
// holds no move (no digit) is skipped; text with a digit is read as a game
// without tags.
func (r *Reader) Next() (*Game, error) {
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
		st = &gameState{r: r, index: r.index + 1, g: &Game{Line: first.line}}
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
