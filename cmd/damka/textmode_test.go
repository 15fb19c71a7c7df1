package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/engine"
	"damka/search"
)

// textSession runs the text mode on a script and returns its output.
func textSession(t *testing.T, v engine.VariantID, script string) string {
	t.Helper()
	var out strings.Builder
	err := runTextMode(context.Background(), strings.NewReader(script), &out,
		textOptions{variant: v, threads: 1, hashMiB: 4, limits: search.Limits{Depth: 2}})
	require.NoError(t, err)
	return out.String()
}

func TestTextModeRussian(t *testing.T) {
	out := textSession(t, engine.Russian, strings.Join([]string{
		"help", "moves", "c3-d4", "fen", "undo", "fen", "e3-f4", "undo", "undo", "quit", "c3-d4",
	}, "\n"))
	// The board: White at the bottom, ranks and files.
	assert.Contains(t, out, " 8    b   b   b   b\n")
	assert.Contains(t, out, " 1  w   w   w   w  \n")
	assert.Contains(t, out, "    a b c d e f g h\n")
	assert.Contains(t, out, "Type a move in the variant's notation")
	assert.Contains(t, out, "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4\n")
	assert.Contains(t, out, "you played c3-d4\ndamka plays ")
	assert.Contains(t, out, "> W:Wd4,a3,")                                                                     // the FEN after damka's answer: white to move
	assert.Contains(t, out, "> W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6\n") // after undo
	assert.Contains(t, out, "nothing to undo")
	// quit ends the session: the move after it is never played.
	assert.Equal(t, 1, strings.Count(out, "you played c3-d4"))
	assert.Contains(t, out, "russian, white to move> ")
}

func TestTextModeEnglishAndCommands(t *testing.T) {
	out := textSession(t, engine.English, strings.Join([]string{
		"11-16",           // black moves first in English
		"99-1",            // malformed
		"11-15",           // illegal now
		"level",           // show
		"level depth 1",   // set
		"level",           // show
		"level depth 0",   // bad
		"level nodes x",   // bad
		"level time 0.05", // ok
		"level speed 3",   // bad
		"variant",         // show
		"variant chess",   // bad
		"variant international",
		"fen W:W31:B19", // set a position: white to move
		"moves",
		"go", // damka plays white
		"fen nonsense",
		"new",
		"board",
		"",
	}, "\n"))
	assert.Contains(t, out, "english, black to move> ")
	assert.Contains(t, out, "you played 11-16\ndamka plays ")
	assert.Contains(t, out, `move "99-1": malformed`)
	assert.Contains(t, out, "level depth 2\n")
	assert.Contains(t, out, "level depth 1\n")
	assert.Contains(t, out, `bad depth "0"`)
	assert.Contains(t, out, `bad node count "x"`)
	assert.Contains(t, out, "want level depth N")
	assert.Contains(t, out, "variant english (")
	assert.Contains(t, out, `unknown variant "chess"`)
	assert.Contains(t, out, "new game of international")
	// Numeric variants show the square numbers beside the board.
	assert.Contains(t, out, " 1   2   3   4   5\n")
	assert.Contains(t, out, "46  47  48  49  50\n")
	assert.Contains(t, out, "31-26 31-27\n")
	assert.Contains(t, out, "damka plays 31-2")
	assert.Contains(t, out, "bad position")
	assert.True(t, strings.HasSuffix(out, "international, white to move> \n"), "ends at the end of input: %q", out[len(out)-80:])
}

func TestTextModeGameOver(t *testing.T) {
	// Black's last man is captured: the game is over and damka does not move.
	out := textSession(t, engine.English, "fen W:W22:B18\n22x15\n13-17\nundo\nmoves\nquit\n")
	// The line names the winner; English PDN puts Black's score first.
	assert.Contains(t, out, "you played 22x15\n")
	assert.Contains(t, out, "moves: 1... 22x15\ngame over: White (you) wins, black has no pieces left (0-1). Type new, undo or quit.\n")
	assert.Equal(t, 2, strings.Count(out, "game over: White (you) wins, black has no pieces left (0-1). Type new, undo or quit."))
	assert.NotContains(t, out, "damka plays")
	assert.Contains(t, out, "22x15\n") // the capture is listed again after undo

	// Russian: White's score first.
	out = textSession(t, engine.Russian, "fen W:Wc3:Bd4\nc3:e5\n")
	assert.Contains(t, out, "game over: White (you) wins, black has no pieces left (1-0).")
	// damka wins: the person's last man is taken.
	out = textSession(t, engine.Russian, "fen W:Wd4:Bd6\nd4-e5\n")
	assert.Contains(t, out, "game over: Black (damka) wins, white has no pieces left (0-1).")
}
