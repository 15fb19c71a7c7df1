package text

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// firstMove is a searcher that plays the first legal move at once, whatever
// the limits (so that level time 999 costs nothing), after one report.
type firstMove struct{}

func (firstMove) SearchJob(_ context.Context, j *search.Job) search.Result {
	p := j.Position()
	var l engine.MoveList
	p.Generate(&l)
	if l.N == 0 {
		return search.Result{}
	}
	r := search.Result{Move: l.Moves[0], HasMove: true, Depth: 1, Nodes: 1, PV: []engine.Move{l.Moves[0]}}
	j.Report(search.Info{Depth: 1, Nodes: 1, PV: r.PV})
	return r
}
func (firstMove) Clear()                    {}
func (firstMove) SetOptions(search.Options) {}

// maxFuzzLines bounds the lines of a FuzzTextCommands script.
const maxFuzzLines = 64

// FuzzTextCommands runs arbitrary command lines through a text mode session
// (damka play) whose engine plays its first legal move at once: the session
// never panics or hangs, answers every line (quit, exit and q are taken out
// of the script) and is still serving at the end: the board and pdn
// commands after the script work, and the PDN it prints reads back as the
// game the player holds (start, moves). Paths are kept inside an empty
// folder ('/' and '\' become '_'), so set book-file, eval-file and
// egdb-path read nothing outside it.
func FuzzTextCommands(f *testing.F) {
	for _, s := range []string{
		"help\nmoves\nc3-d4\nfen\nundo\nfen\ne3-f4\nundo\nundo\nhistory\npdn",
		"variant english\n11-15\ngo\ngo\nundo\nlevel clock 1+2\nclock\n99-1\n11-15\nlevel depth 0\nlevel nodes x\nlevel time 0.05\nlevel speed 3",
		"variant international\nfen W:W31:B19\nmoves\n31-26\ngo\nboard\nthinking off\ngo\nthinking on\nset multipv 3\ngo",
		"fen B:WK3,K13:BK25\ngo\ngo\ngo\nnew\nset variant brazilian\nset threads 2\nset book false\nset strength 1\ngo\nset eval-file nothing.dkw\nset egdb-path off\nsettings",
		"set\nset nosuch 1\nset hash x\nlevel clock 0+1\ngo\ngo\nfen\nfen x\nvariant chess\nthinking maybe\n\t  \n\x00\xff",
		"c3-d4\nf6-g5\nd4-c5\nb6:d4\ne3:c5 d6:b4\nundo\nundo\nundo\nundo\nundo",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		t.Chdir(t.TempDir())
		var script []string
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
		for sc.Scan() && len(script) < maxFuzzLines {
			line := strings.Map(func(r rune) rune {
				if r == '/' || r == '\\' {
					return '_'
				}
				return r
			}, sc.Text())
			if fs := strings.Fields(line); len(fs) > 0 && slices.Contains([]string{"quit", "exit", "q"}, strings.ToLower(fs[0])) {
				continue
			}
			script = append(script, line)
		}
		if sc.Err() != nil {
			t.Skip("a line over MaxLineBytes") // Run's answer to it: bufio.ErrTooLong
		}
		script = append(script, "board", "pdn")

		p := player.New(player.Config{BookSeed: 1, NewSearcher: func(search.Options) player.Searcher { return firstMove{} }})
		clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var out bytes.Buffer
		err := Run(ctx, strings.NewReader(strings.Join(script, "\n")+"\n"), &out, Config{
			Player: p, Version: "fuzz", Limits: search.Limits{Depth: 1},
			Now: func() time.Time { return clock },
		})
		if err != nil {
			t.Fatalf("session ended with %v (hung or failed)", err)
		}
		text := out.String()
		i := strings.LastIndex(text, "[Event \"damka text mode\"]")
		if i < 0 {
			t.Fatalf("pdn at the end printed no game:\n%s", text[max(0, len(text)-2000):])
		}
		g, err := pdn.NewReader(strings.NewReader(text[i:]), engine.Russian).Next()
		if err != nil && !errors.Is(err, io.EOF) || g == nil {
			t.Fatalf("the PDN printed does not read back: %v\n%s", err, text[i:])
		}
		game := p.Game()
		start := game.Start()
		if g.Variant != start.V || g.Start.Pieces != start.Pieces || g.Start.Kings != start.Kings ||
			g.Start.Side != start.Side || !slices.Equal(g.Moves, game.Moves()) {
			t.Fatalf("the PDN printed is not the player's game (%s, %d moves):\n%s", start.FEN(), len(game.Moves()), text[i:])
		}
	})
}
