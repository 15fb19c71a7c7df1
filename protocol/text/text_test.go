package text

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// newPlayer returns a player of variant v with one thread and a small
// table.
func newPlayer(t *testing.T, v engine.VariantID) *player.Player {
	t.Helper()
	p := player.New(player.Config{})
	require.NoError(t, p.Set(player.SetVariant, v.String()))
	require.NoError(t, p.Set(player.SetThreads, "1"))
	require.NoError(t, p.Set(player.SetHash, "4"))
	return p
}

// textSession runs the text mode on a script, damka searching to depth 2,
// and returns its output.
func textSession(t *testing.T, v engine.VariantID, script string) string {
	t.Helper()
	var out strings.Builder
	err := Run(context.Background(), strings.NewReader(script), &out,
		Config{Player: newPlayer(t, v), Version: "test", Limits: search.Limits{Depth: 2}})
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

// fakeClock is a game clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// timedLine is a line the person types after thinking for wait.
type timedLine struct {
	wait time.Duration
	text string
}

// timedScript gives the text mode one line per Read, first moving the
// clock on by the line's wait.
type timedScript struct {
	clock *fakeClock
	lines []timedLine
}

func (s *timedScript) Read(b []byte) (int, error) {
	if len(s.lines) == 0 {
		return 0, io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	s.clock.t = s.clock.t.Add(l.wait)
	return copy(b, l.text+"\n"), nil
}

// timedSession runs the text mode on lines under a fake clock.
func timedSession(t *testing.T, v engine.VariantID, lines ...timedLine) string {
	t.Helper()
	clock := &fakeClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	var out strings.Builder
	err := Run(context.Background(), &timedScript{clock: clock, lines: lines}, &out,
		Config{Player: newPlayer(t, v), Limits: search.Limits{Depth: 2}, Now: clock.now})
	require.NoError(t, err)
	return out.String()
}

func TestTextModeClock(t *testing.T) {
	out := timedSession(t, engine.Russian,
		timedLine{0, "level clock 5+3x"},
		timedLine{0, "level clock 0"},
		timedLine{0, "level clock 0.05+1"}, // 3 s each, 1 s a move
		timedLine{0, "level"},
		timedLine{500 * time.Millisecond, "c3-d4"}, // damka answers at once on the fake clock
		timedLine{0, "clock"},
		timedLine{4 * time.Second, "clock"}, // the person's clock runs: 3.5 s - 4 s
		timedLine{0, "a3-b4"},               // too late: the flag has fallen
		timedLine{time.Minute, "clock"},     // the clocks stopped at the end of the game
		timedLine{0, "history"},
		timedLine{0, "undo"}, // both moves and their time taken back
		timedLine{0, "clock"},
		timedLine{0, "level depth 2"}, // no time control: the clock shows the time used
		timedLine{7 * time.Second, "clock"},
	)
	assert.Contains(t, out, `bad clock "5+3x" (increment "3x": want seconds from 0 to 600)`)
	assert.Contains(t, out, `bad clock "0" (minutes "0": want a number more than 0 and at most 600)`)
	assert.Contains(t, out, "ok, clock: white (you) 0:03.0, black (damka) 0:03.0 left (clock 0.05 min + 1 s a move)\n")
	assert.Contains(t, out, "level clock 0.05+1 (")
	// White used 0.5 s and got 1 s; damka used none and got 1 s.
	assert.Contains(t, out, "russian, white to move (0:03.5)> clock: white (you) 0:03.5, black (damka) 0:04.0 left")
	assert.Contains(t, out, "clock: white (you) -0:00.5, black (damka) 0:04.0 left")
	assert.Contains(t, out, "game over: Black (damka) wins, white ran out of time (0-1). Type new, undo or quit.\n")
	assert.NotContains(t, out, "you played a3-b4")
	assert.Equal(t, 2, strings.Count(out, "clock: white (you) -0:00.5, black (damka) 0:04.0 left"), "stopped: %s", out)
	assert.Regexp(t, `> 1\. c3-d4 [a-h][1-8]-[a-h][1-8] 0-1\n`, out)
	assert.Contains(t, out, "russian, white to move (0:03.0)> clock: white (you) 0:03.0, black (damka) 0:03.0 left")
	assert.Contains(t, out, "clock: white (you) 0:07, black (damka) 0:00 used (no time control")
}

func TestTextModeEngineLosesOnTime(t *testing.T) {
	// A clock 100 times faster than real time: damka's search (timed in
	// the clock's seconds, so about 100 times too long) oversteps it.
	realStart := time.Now()
	fast := func() time.Time { return realStart.Add(100 * time.Since(realStart)) }
	var out strings.Builder
	err := Run(context.Background(), strings.NewReader("fen W:Wa1,c1,e1,g1,b2,d2:Bb8,d8,f8,h8,a7,c7\nlevel clock 0.5\ngo\nclock\n"), &out,
		Config{Player: newPlayer(t, engine.Russian), Now: fast})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "game over: Black (you) wins, white ran out of time (0-1).")
	assert.NotContains(t, out.String(), "damka plays")
}

func TestTextModeThinking(t *testing.T) {
	// Out of the book: damka searches to depth 3 and says so at each depth.
	out := textSession(t, engine.Russian, strings.Join([]string{
		"fen W:Wa1,c1,e1,g1,b2,d2:Bb8,d8,f8,h8,a7,c7",
		"level depth 3",
		"go",
		"thinking",
		"thinking off",
		"undo",
		"go",
		"thinking maybe",
		"thinking on",
	}, "\n"))
	assert.Contains(t, out, "damka thinks (depth 3):\n")
	for d := 1; d <= 3; d++ {
		assert.Regexp(t, fmt.Sprintf(`\n  depth  %d  score +-?\d+\.\d\d  nodes +\d+  time +\d+\.\d\d s  pv [a-h][1-8]-[a-h][1-8]`, d), out)
	}
	// The move played with its search and main line, in the variant's
	// notation, the move first.
	re := regexp.MustCompile(`damka plays ([a-h][1-8]-[a-h][1-8]) \(depth 3, score -?\d+\.\d\d, \d+ nodes, \d+\.\d\d s\) pv ((?:[a-h][1-8][-:][a-h][1-8] ?)+)\n`)
	m := re.FindAllStringSubmatch(out, -1)
	require.Len(t, m, 2, out)
	assert.True(t, strings.HasPrefix(m[0][2], m[0][1]+" "), "pv %q starts with the move %q", m[0][2], m[0][1])
	assert.Equal(t, 3, len(strings.Fields(m[0][2])), "a depth 3 line")
	assert.Contains(t, out, "> thinking on\n")
	assert.Contains(t, out, "> thinking off\n")
	assert.Equal(t, 1, strings.Count(out, "damka thinks"), "no lines while thinking is off")
	assert.Contains(t, out, "want thinking, thinking on or thinking off\n")
	// A book move says so and has no thinking lines.
	out = textSession(t, engine.Russian, "c3-d4\n")
	assert.Contains(t, out, " (book)\n")
	assert.NotContains(t, out, "damka thinks")
}

// TestTextModeMultiPVLines: with multipv 2 each depth's thinking shows
// two lines, numbered; the move played is line 1's.
func TestTextModeMultiPVLines(t *testing.T) {
	out := textSession(t, engine.Russian, strings.Join([]string{
		"set multipv 2",
		"fen W:Wa1,c1,e1,g1,b2,d2:Bb8,d8,f8,h8,a7,c7",
		"level depth 3",
		"go",
	}, "\n"))
	re := regexp.MustCompile(`\n  line  (\d)  depth  (\d)  score +-?\d+\.\d\d  nodes +\d+  time +\d+\.\d\d s  pv ([a-h][1-8]-[a-h][1-8])`)
	m := re.FindAllStringSubmatch(out, -1)
	require.Len(t, m, 6, out)
	for i, l := range m {
		assert.Equal(t, fmt.Sprint(i%2+1), l[1], l[0])
		assert.Equal(t, fmt.Sprint(i/2+1), l[2], l[0])
	}
	assert.NotEqual(t, m[4][3], m[5][3], "two lines, two moves")
	assert.Contains(t, out, "damka plays "+m[4][3]+" (depth 3")
}

func TestTextModeMoveList(t *testing.T) {
	// damka plays both sides (go, go, ...): 12 plies at depth 2.
	out := textSession(t, engine.Russian, strings.Repeat("go\n", 12)+"history\npdn\n")
	// The board shows the last moves from a move of White, numbered.
	assert.Contains(t, out, "\nmoves: 1. ")
	assert.Regexp(t, `\nmoves: \.\.\. 3\. \S+ \S+ 4\. \S+ \S+ 5\. \S+ \S+ 6\. \S+ \S+\n`, out)
	// history: all the moves, as the PDN writer numbers them (wrapped at
	// 80 columns); record: the whole game.
	m := regexp.MustCompile(`(?s)> (1\. [^>]*)\nrussian, white to move> (\[Event.*)`).FindStringSubmatch(out)
	require.Len(t, m, 3, out)
	hist, record := m[1], m[2]
	assert.Regexp(t, `^1\. \S+ \S+ 2\. \S+ \S+ 3\. \S+ \S+ 4\. \S+ \S+ 5\. \S+ \S+ 6\. \S+ \S+$`, strings.Join(strings.Fields(hist), " "))
	assert.Contains(t, record, "[Event \"damka text mode\"]\n")
	assert.Contains(t, record, "[White \"you\"]\n[Black \"damka\"]\n[Result \"*\"]\n[GameType \"25\"]\n\n")
	movetext := record[strings.Index(record, "\n\n")+2:]
	movetext = movetext[:strings.Index(movetext, "\n\n")]
	assert.Equal(t, strings.Fields(hist+" *"), strings.Fields(movetext))
	// The game reads back.
	g, err := pdn.NewReader(strings.NewReader(record), engine.Russian).Next()
	require.NoError(t, err)
	assert.Len(t, g.Moves, 12)

	// A game from a position with the second player to move, and an
	// English game (Black first, GameType 21).
	out = textSession(t, engine.Russian, "history\nfen B:Wc3,a1:Bf6,h8\nf6-e5\nhistory\n")
	assert.Contains(t, out, "> no moves yet\n")
	assert.Regexp(t, `> 1\.\.\. f6-e5 2\. [a-h][1-8]-[a-h][1-8]\n`, out)
	assert.Regexp(t, `\nmoves: 1\.\.\. f6-e5 2\. [a-h][1-8]-[a-h][1-8]\n`, out)
	out = textSession(t, engine.English, "11-15\npdn\n")
	assert.Contains(t, out, "[GameType \"21\"]\n")
	assert.Regexp(t, `\n1\. 11-15 \d+-\d+ \*\n`, out)
}

func TestTextModeHelpListsCommands(t *testing.T) {
	out := textSession(t, engine.Russian, "help\n")
	for _, c := range []string{"help", "board", "moves", "history", "pdn", "clock", "new", "undo", "go", "fen [FEN]",
		"variant [NAME]", "level [depth N | nodes N | time S | clock M[+I]]", "thinking [on|off]", "settings", "set NAME VALUE", "quit"} {
		assert.Contains(t, out, "\n  "+c, c)
	}
}

func TestTextModeDrawAndResultText(t *testing.T) {
	var out strings.Builder
	tm := &textMode{out: &out, now: time.Now, p: newPlayer(t, engine.English)}
	p, err := engine.ParseFEN(engine.English, "W:WK29:BK4")
	require.NoError(t, err)
	tm.setPosition(p)
	for _, mv := range strings.Fields("29-25 4-8 25-29 8-4 29-25 4-8 25-29") {
		pos := tm.game().Position()
		m, err := pos.ParseMove(mv)
		require.NoError(t, err, mv)
		tm.play(m)
		require.False(t, tm.over(), mv)
	}
	tm.playerMove("8-4") // the third time: a draw, and damka does not move
	assert.Contains(t, out.String(), "game over: draw by threefold repetition (1/2-1/2). Type new, undo or quit.\n")

	tm.engineSide = engine.Black
	for _, c := range []struct {
		res  engine.Result
		why  engine.Reason
		want string
	}{
		{engine.WhiteWins, engine.NoLegalMove, "White (you) wins, black has no legal move"},
		{engine.BlackWins, engine.NoPieces, "Black (damka) wins, white has no pieces left"},
		{engine.BlackWins, engine.TimeForfeit, "Black (damka) wins, white ran out of time"},
		{engine.WhiteWins, engine.Resignation, "White (you) wins, black resigned"},
		{engine.Draw, engine.NoProgress, "draw: no man move and no capture"},
		{engine.Draw, engine.ThreeKingsVsOne, "draw: three kings against a lone king"},
	} {
		assert.Equal(t, c.want, tm.resultText(c.res, c.why))
	}
}

func TestFormatClock(t *testing.T) {
	for _, c := range []struct {
		d         time.Duration
		countdown bool
		want      string
	}{
		{0, false, "0:00"},
		{0, true, "0:00.0"},
		{9*time.Second + 910*time.Millisecond, true, "0:10.0"}, // time left rounds up
		{9*time.Second + 900*time.Millisecond, true, "0:09.9"},
		{9*time.Second + 990*time.Millisecond, false, "0:09"}, // time used rounds down
		{time.Millisecond, true, "0:00.1"},
		{10 * time.Second, true, "0:10"},
		{29*time.Second + 999*time.Millisecond, true, "0:30"},
		{5*time.Minute + 3*time.Second, true, "5:03"},
		{time.Hour + 2*time.Minute + 3*time.Second, false, "1:02:03"},
		{-1500 * time.Millisecond, true, "-0:01.5"},
		{-30 * time.Millisecond, true, "-0:00.1"},
		{-75 * time.Second, true, "-1:15"},
	} {
		assert.Equal(t, c.want, formatClock(c.d, c.countdown), "%v", c.d)
	}
}

// TestTextModeMovesSquareOrder: moves lists the legal moves by square
// numbers in the numeric notation, not by their text.
func TestTextModeMovesSquareOrder(t *testing.T) {
	out := textSession(t, engine.English, "moves\n")
	assert.Contains(t, out, "9-13 9-14 10-14 10-15 11-15 11-16 12-16\n")
}

// TestTextModeUnknownWord: a word that is neither a command nor looks like
// a move is answered with the list of commands, not a move error.
func TestTextModeUnknownWord(t *testing.T) {
	out := textSession(t, engine.Russian, "clear\nc3-d9\n")
	assert.Contains(t, out, `"clear" is not a command or a move; the commands are: help, board, moves, history, pdn, clock, new, undo, go, fen, variant, level, thinking, settings, set, quit`)
	assert.NotContains(t, out, `square "clear"`)
	assert.Contains(t, out, `move "c3-d9"`, "a word with a digit is still read as a move")
}

// liveSession runs the text mode on a pipe under the real clock; the test
// types with send and ends with the returned wait.
func liveSession(t *testing.T, cfg Config) (out *logjson.Buffer, send func(string), wait func() error) {
	t.Helper()
	r, w := io.Pipe()
	out = &logjson.Buffer{}
	errc := make(chan error, 1)
	go func() { errc <- Run(context.Background(), r, out, cfg) }()
	send = func(s string) {
		_, err := io.WriteString(w, s+"\n")
		require.NoError(t, err)
	}
	wait = func() error {
		w.Close()
		select {
		case err := <-errc:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("the text mode did not end")
			return nil
		}
	}
	return out, send, wait
}

// TestTextModeFlagFallsWhileWaiting: the person's flag falls while damka
// waits for input: the game ends then, not at the next input.
func TestTextModeFlagFallsWhileWaiting(t *testing.T) {
	out, send, wait := liveSession(t, Config{Player: newPlayer(t, engine.Russian), Limits: search.Limits{Depth: 2}})
	send("level clock 0.001") // 60 ms each
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "white ran out of time") },
		5*time.Second, 10*time.Millisecond, out.String())
	assert.NotContains(t, out.String(), "(-0:", "no negative time in a prompt")
	send("quit")
	require.NoError(t, wait())
}

// TestTextModeInterrupt: an interrupt (Ctrl-C) while damka thinks stops the
// search and damka plays its best move so far; at the prompt it ends the
// session, its input still open.
func TestTextModeInterrupt(t *testing.T) {
	intr := make(chan os.Signal, 1)
	r, w := io.Pipe()
	defer w.Close()
	out := &logjson.Buffer{}
	errc := make(chan error, 1)
	go func() {
		errc <- Run(context.Background(), r, out, Config{Player: newPlayer(t, engine.Russian), Interrupt: intr})
	}()
	send := func(s string) {
		_, err := io.WriteString(w, s+"\n")
		require.NoError(t, err)
	}
	send("fen W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6")
	send("level time 600")
	send("go")
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "damka thinks") },
		10*time.Second, 10*time.Millisecond, out.String())
	intr <- os.Interrupt
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "damka plays") },
		10*time.Second, 10*time.Millisecond, out.String())
	send("moves") // the session goes on
	require.Eventually(t, func() bool { return strings.Count(out.String(), "black to move> ") >= 1 },
		5*time.Second, 10*time.Millisecond, out.String())
	intr <- os.Interrupt // at the prompt: leave, the input still open
	select {
	case err := <-errc:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("an interrupt at the prompt did not end the text mode")
	}
}

// thinkingScores returns the scores of damka's thinking lines in out, in
// centi-men.
func thinkingScores(t *testing.T, out string) []int {
	t.Helper()
	var scores []int
	for _, m := range regexp.MustCompile(`(?m)^  depth +\d+  score +(-?\d+)\.(\d\d)  `).FindAllStringSubmatch(out, -1) {
		var men, cents int
		_, err := fmt.Sscan(m[1], &men)
		require.NoError(t, err)
		_, err = fmt.Sscan(m[2], &cents)
		require.NoError(t, err)
		if strings.HasPrefix(m[1], "-") {
			cents = -cents
		}
		scores = append(scores, men*100+cents)
	}
	return scores
}

// TestTextModeUsesTheEmbeddedTables: damka searches with the player's
// endgame tables, the embedded set by default: three kings against one in
// English are a table win at depth 2 (a depth 1 search ends in the
// quiescence search, which does not probe), which the search alone cannot
// see; with set egdb-path off the score is the evaluation's.
func TestTextModeUsesTheEmbeddedTables(t *testing.T) {
	const script = "level depth 2\nfen W:WK1,K2,K3:BK32\ngo\nquit\n"
	out := textSession(t, engine.English, script)
	scores := thinkingScores(t, out)
	require.Len(t, scores, 2, out)
	assert.GreaterOrEqual(t, scores[1], search.EGDBWinBound, "a table win at depth 2: %s", out)

	out = textSession(t, engine.English, "set egdb-path off\n"+script)
	assert.Contains(t, out, "ok, egdb-path off\n")
	scores = thinkingScores(t, out)
	require.Len(t, scores, 2, out)
	for _, s := range scores {
		assert.Less(t, s, search.EGDBWinBound, "no tables: %s", out)
	}
}

// settingLine matches a setting's line of settings: name, value, range.
var settingLine = regexp.MustCompile(`(?m)^  (\S+) +(\S+)  \((.*)\)\n  +(.*)$`)

// TestTextModeSettings: settings lists exactly the player's settings, in
// the table's order, with their defaults, ranges and descriptions.
func TestTextModeSettings(t *testing.T) {
	p := player.New(player.Config{})
	var b strings.Builder
	require.NoError(t, Run(context.Background(), strings.NewReader("settings\n"), &b, Config{Player: p}))
	out := b.String()
	assert.Contains(t, out, "settings (set NAME VALUE changes one):\n")
	m := settingLine.FindAllStringSubmatch(out, -1)
	all := player.Settings()
	require.Len(t, m, len(all), out)
	for i, st := range all {
		want := st.Default
		if want == "" {
			want = `""`
		}
		assert.Equal(t, []string{st.Name, want, st.Range(), st.Doc}, m[i][1:], st.Name)
	}
}

// TestTextModeSet: set changes a setting of the player; a bad name or
// value is refused with the player's reason and the old value kept; a new
// variant starts a new game.
func TestTextModeSet(t *testing.T) {
	p := newPlayer(t, engine.Russian)
	var b strings.Builder
	script := strings.Join([]string{
		"set threads 2",
		"set book false",
		"set egdb-path off",
		"set threads 0",
		"set book maybe",
		"set colour red",
		"set",
		"set book-file " + filepath.Join(t.TempDir(), "none.book"),
		"set variant english",
		"settings",
	}, "\n")
	require.NoError(t, Run(context.Background(), strings.NewReader(script), &b, Config{Player: p, Limits: search.Limits{Depth: 1}}))
	out := b.String()
	assert.Contains(t, out, "> ok, threads 2\n")
	assert.Contains(t, out, "> ok, book false\n")
	assert.Contains(t, out, "> ok, egdb-path off\n")
	assert.Contains(t, out, "> set threads 0: value 0 out of range 1..")
	assert.Contains(t, out, "; threads stays 2\n")
	assert.Contains(t, out, "> set book maybe: value 'maybe' is not a bool (want true or false); book stays false\n")
	assert.Contains(t, out, "> unknown setting 'colour' (known: variant, threads,")
	assert.Contains(t, out, "> want set NAME VALUE")
	assert.Contains(t, out, "none.book")
	assert.Contains(t, out, "book-file is back at its default (playing with the embedded book)\n")
	assert.Contains(t, out, "> ok, variant english\nnew game of english\n")
	assert.Contains(t, out, "english, black to move> ")
	for name, want := range map[string]string{"threads": "2", "book": "false", "egdb-path": "off", "variant": "english", "book-file": ""} {
		v, err := p.Get(name)
		require.NoError(t, err)
		assert.Equal(t, want, v, name)
	}
	assert.Equal(t, engine.English, p.Game().Position().V)
}
