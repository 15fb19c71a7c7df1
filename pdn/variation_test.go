package pdn

import (
	"bytes"
	"strings"
	"testing"

	"github.com/damka-draughts/damka/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadVariations reads every variation of a move, nested ones
// inside them (glyphs, numbers and NAGs left out), the first one's moves
// also in Variations, and writes them back the same.
func TestReadVariations(t *testing.T) {
	src := `[GameType "25"]

1. c3-d4 (1. a3-b4 {a comment} f6-g5?! (1... b6-a5) 2. b4-a5 $2) 1... f6-g5 (1... b6-c5 2. d4xb6 a7xc5) (1... h6-g5) 2. g3-f4 *
`
	r := NewReader(strings.NewReader(src), engine.Russian)
	g, err := r.Next()
	require.NoError(t, err)
	require.Len(t, g.Moves, 3)
	require.Len(t, g.Variations, 3, "one entry per move")
	require.Len(t, g.Lines, 3, "one entry per move")
	start := g.Start
	want := []engine.Move{mustMove(t, start, "a3-b4")}
	p := start.Play(want[0])
	want = append(want, mustMove(t, p, "f6-g5"))
	nested := mustMove(t, p, "b6-a5")
	p = p.Play(want[1])
	want = append(want, mustMove(t, p, "b4-a5"))
	assert.Equal(t, want, g.Variations[0], "the first move's variation")
	require.Len(t, g.Lines[0], 1)
	assert.Equal(t, want, g.Lines[0][0].Moves)
	assert.Equal(t, [][]Line{nil, {{Moves: []engine.Move{nested}}}, nil}, g.Lines[0][0].Lines, "the variation inside it")
	assert.Equal(t, []string{"a comment", "", ""}, g.Lines[0][0].Comments)
	require.Len(t, g.Lines[1], 2, "both variations of the second move")
	assert.Len(t, g.Lines[1][0].Moves, 3)
	assert.Len(t, g.Lines[1][1].Moves, 1)
	assert.Equal(t, g.Lines[1][0].Moves, g.Variations[1])
	assert.Nil(t, g.Variations[2])
	assert.Nil(t, g.Lines[2])

	var b bytes.Buffer
	require.NoError(t, Write(&b, g))
	text := strings.Join(strings.Fields(b.String()), " ")
	assert.Contains(t, text, "1. c3-d4 (1. a3-b4 {a comment} 1... f6-g5 (1... b6-a5) 2. b4-a5) 1... f6-g5 (1... b6-c5 2. d4:b6 a7:c5) (1... h6-g5) 2. g3-f4 *")
	back, err := NewReader(&b, engine.Russian).Next()
	require.NoError(t, err)
	assert.Equal(t, g.Variations, back.Variations, "written variations read back")
	assert.Equal(t, g.Lines, back.Lines)
}

// TestReadVariationIllegal keeps a variation's moves up to the first one
// that is not legal (the rest, nested variations with it, skipped), and
// skips a variation with none.
func TestReadVariationIllegal(t *testing.T) {
	src := "1. c3-d4 (1. a3-b4 a3-b4 (1... f6-g5) (x) b6-a5) 1... f6-g5 (1... e1-e2 (1... h6-g5)) (( *\n"
	g, err := NewReader(strings.NewReader(src), engine.Russian).Next()
	require.Error(t, err, "the unterminated variation")
	require.Len(t, g.Lines, 2)
	require.Len(t, g.Lines[0], 1)
	assert.Len(t, g.Lines[0][0].Moves, 1)
	assert.Nil(t, g.Lines[0][0].Lines)
	assert.Nil(t, g.Variations[1])
	assert.Empty(t, g.Lines[1])
}

// TestWriteVariationsOnly writes a game's Variations where it has no
// Lines, and its Lines where it has them.
func TestWriteVariationsOnly(t *testing.T) {
	g := NewGame(engine.Russian, engine.StartPosition(engine.Russian))
	g.AppendMove(mustMove(t, g.Position(), "c3-d4"))
	g.Variations = [][]engine.Move{{mustMove(t, g.Start, "a3-b4")}}
	g.AppendMove(mustMove(t, g.Position(), "f6-g5"))
	require.Len(t, g.Variations, 2, "AppendMove keeps one entry per move")
	var b bytes.Buffer
	require.NoError(t, Write(&b, g))
	assert.Contains(t, b.String(), "1. c3-d4 (1. a3-b4) 1... f6-g5 *")
	g.Lines = [][]Line{{{Moves: []engine.Move{mustMove(t, g.Start, "g3-h4")}}}, nil}
	b.Reset()
	require.NoError(t, Write(&b, g))
	assert.Contains(t, b.String(), "1. c3-d4 (1. g3-h4) 1... f6-g5 *")
}

// TestVariationComments reads the comments inside variations and nested
// ones (with "(", ")", "{" and "}" in their text, in braces and as ";"
// line comments, and before a line's first move) into Line.Comments and
// Line.Intro, writes them after their moves, and reads them back equal.
func TestVariationComments(t *testing.T) {
	src := "[GameType \"25\"]\n\n{game intro} 1. c3-d4 {main} ( {line  intro} 1. a3-b4 {after (with parens) and {brace} f6-g5 ; semi (x) {y} with } and )\n" +
		"2. b4-a5 {pre} (2. g3-h4 {nested (one) ) (}) (2. e3-f4 ; ends } here\n) (; intro } too\n2. g3-f4 Bare) {post}) 1... f6-g5 *\n"
	g, err := NewReader(strings.NewReader(src), engine.Russian).Next()
	require.NoError(t, err)
	require.Len(t, g.Moves, 2)
	assert.Equal(t, "game intro", g.Intro)
	assert.Equal(t, []string{"main", ""}, g.Comments)
	require.Len(t, g.Lines, 2)
	require.Len(t, g.Lines[0], 1)
	l := g.Lines[0][0]
	require.Len(t, l.Moves, 3)
	assert.Equal(t, "line intro", l.Intro)
	assert.Equal(t, []string{"after (with parens) and {brace", "semi (x) {y} with } and )", "pre post"}, l.Comments)
	require.Len(t, l.Lines, 3)
	require.Len(t, l.Lines[2], 3, "the three variations of b4-a5")
	p := g.Start.Play(l.Moves[0]).Play(l.Moves[1])
	assert.Equal(t, Line{Moves: []engine.Move{mustMove(t, p, "g3-h4")}, Comments: []string{"nested (one) ) ("}}, l.Lines[2][0])
	assert.Equal(t, Line{Moves: []engine.Move{mustMove(t, p, "e3-f4")}, Comments: []string{"ends } here"}}, l.Lines[2][1])
	assert.Equal(t, Line{Moves: []engine.Move{mustMove(t, p, "g3-f4")}, Comments: []string{"Bare"}, Intro: "intro } too"}, l.Lines[2][2])

	var b bytes.Buffer
	require.NoError(t, Write(&b, g))
	out := b.String()
	assert.Contains(t, out, "{game intro} 1. c3-d4 {main} ({line intro} 1. a3-b4 {after (with parens) and\n{brace} 1... f6-g5 ; semi (x) {y} with } and )\n"+
		"2. b4-a5 {pre post} (2. g3-h4 {nested (one) ) (}) (2. e3-f4 ; ends } here\n) ( ; intro } too\n2. g3-f4 {Bare})) 1... f6-g5 *\n")
	back, err := NewReader(&b, engine.Russian).Next()
	require.NoError(t, err)
	assert.Equal(t, g.Moves, back.Moves)
	assert.Equal(t, g.Intro, back.Intro)
	assert.Equal(t, g.Comments, back.Comments)
	assert.Equal(t, g.Variations, back.Variations)
	assert.Equal(t, g.Lines, back.Lines, "variations, their comments and intros read back")
}

// TestVariationCommentsSkipped leaves out the comments of what a
// variation leaves out (the words after an illegal move, a variation
// without a legal move), and reads an unterminated comment inside a
// variation as an unterminated variation.
func TestVariationCommentsSkipped(t *testing.T) {
	src := "1. c3-d4 (1. a3-b4 {kept} e1-e2 {gone} (1... f6-g5 {gone}) b6-a5) ({gone} e1-e2 {gone}) 1... f6-g5 *\n"
	g, err := NewReader(strings.NewReader(src), engine.Russian).Next()
	require.NoError(t, err)
	require.Len(t, g.Lines[0], 1)
	assert.Equal(t, []string{"kept"}, g.Lines[0][0].Comments)
	assert.Nil(t, g.Lines[0][0].Lines)

	_, err = NewReader(strings.NewReader("1. c3-d4 (1. a3-b4 {open) 1... f6-g5 *\n"), engine.Russian).Next()
	assert.ErrorContains(t, err, "unterminated variation")
	_, err = NewReader(strings.NewReader("1. c3-d4 (1. a3-b4 ; open) 1... f6-g5 *"), engine.Russian).Next()
	assert.ErrorContains(t, err, "unterminated variation")
}

// TestWriteLineComments writes a made Line's Intro and Comments (shorter
// Comments than Moves too), and a comment-less line as before.
func TestWriteLineComments(t *testing.T) {
	g := NewGame(engine.Russian, engine.StartPosition(engine.Russian))
	g.AppendMove(mustMove(t, g.Position(), "c3-d4"))
	a := mustMove(t, g.Start, "a3-b4")
	f := mustMove(t, g.Start.Play(a), "f6-g5")
	g.Lines = [][]Line{{{Moves: []engine.Move{a, f}, Comments: []string{"x"}, Intro: "why"}, {Moves: []engine.Move{a}}}}
	var b bytes.Buffer
	require.NoError(t, Write(&b, g))
	assert.Contains(t, b.String(), "1. c3-d4 ({why} 1. a3-b4 {x} 1... f6-g5) (1. a3-b4) *")
}
