package cb

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

func newTestEngine(v engine.VariantID) *Engine {
	return New(Config{Name: "damka", Version: "test", Variant: v, HasVariant: true, HashMiB: 4, BookSeed: 1})
}

func TestCommands(t *testing.T) {
	e := New(Config{Version: "v1"})
	for cmd, want := range map[string]string{
		"name":                "damka v1",
		"help":                "damkahelp.htm",
		"get protocolversion": "2",
		"get gametype":        "21",
		"get hashsize":        "64",
		"get book":            "2",
		"get searchthreads":   "1",
		"get movelist B:W1:B": "movelist 0",
		"set hashsize 16":     "16",
		"set book 0":          "0",
		"set searchthreads 2": "2",
		"set gametype 25":     "25",
		"  GET  gametype ":    "25",
	} {
		// map order is random: check the answers that do not depend on it.
		if strings.HasPrefix(strings.TrimSpace(cmd), "GET") || cmd == "get hashsize" || cmd == "get book" ||
			cmd == "get searchthreads" || cmd == "get gametype" {
			continue
		}
		reply, ok := e.Command(cmd)
		assert.True(t, ok, cmd)
		assert.Equal(t, want, reply, cmd)
	}
	// State after the sets.
	for cmd, want := range map[string]string{"get hashsize": "16", "get book": "0", "get searchthreads": "2",
		"get gametype": "25", "  GET  gametype ": "25"} {
		reply, ok := e.Command(cmd)
		assert.True(t, ok, cmd)
		assert.Equal(t, want, reply, cmd)
	}
	about, ok := e.Command("about")
	assert.True(t, ok)
	assert.Contains(t, about, "Russian")
	assert.Contains(t, about, "game type 25")

	// Refused: unknown commands and options, bad values.
	for cmd, want := range map[string]string{
		"frobnicate":             "",
		"set dbpath C:\\db":      "set dbpath C:\\db: endgame tables: open C:\\db",
		"set max_dbpieces 8":     "out of range 0..7",
		"set enable_wld 1":       "",
		"set gametype 22":        "game type 22",
		"set gametype x":         "not a number",
		"set hashsize 0":         "out of range",
		"set hashsize lots":      "not an integer",
		"set book 4":             "out of range 0..3",
		"set searchthreads 9999": "out of range",
		"get movelist Q:W1":      "get movelist:",
		"set gamehist W:W1:B2 x": "gamehist",
	} {
		reply, ok := e.Command(cmd)
		assert.False(t, ok, cmd)
		assert.Contains(t, reply, want, cmd)
	}
	reply, _ := e.Command("get hashsize")
	assert.Equal(t, "16", reply, "a refused value keeps the old one")
}

func TestCommandReplyFits(t *testing.T) {
	// Six Russian kings in the open: a long movelist must still fit the
	// reply buffer, or not be handled at all.
	e := newTestEngine(engine.Russian)
	reply, ok := e.Command("get movelist W:WK1,K4,K29,K32,K15,K18:BK10")
	assert.Less(t, len(reply), ReplySize)
	if ok {
		assert.True(t, strings.HasPrefix(reply, "movelist "))
	}
	long := "get movelist W:W" + strings.Repeat("K1,", 400) + ":B5"
	reply, _ = e.Command(long)
	assert.Less(t, len(reply), ReplySize)
}

func TestVariantFromFileName(t *testing.T) {
	for name, want := range map[string]engine.VariantID{
		`C:\Program Files\CheckerBoard\engines\damka-russian.dll`: engine.Russian,
		"damka_brazilian.dll": engine.Brazilian,
		"damka-english.dll":   engine.English,
		"DAMKA.RUS.DLL":       engine.Russian,
		"damka2_bra.dll":      engine.Brazilian,
	} {
		v, ok := VariantFromFileName(name)
		assert.True(t, ok, name)
		assert.Equal(t, want, v, name)
	}
	for _, name := range []string{"damka.dll", "cblibrary.dll", "trusty.dll", "", `C:\russian\damka.dll`} {
		v, ok := VariantFromFileName(name)
		assert.False(t, ok, name)
		assert.Equal(t, engine.English, v, name)
	}
}

func TestLimits(t *testing.T) {
	assert.Equal(t, search.Limits{MoveTime: 1500 * time.Millisecond}, Limits(1.5, 0, 0, 0))
	assert.Equal(t, search.Limits{MoveTime: 1500 * time.Millisecond}, Limits(1.5, InfoExactTime, 0, 0))
	assert.Equal(t, search.Limits{MoveTime: 10 * time.Millisecond}, Limits(0, 0, 0, 0))
	assert.Equal(t, search.Limits{MoveTime: 2 * time.Second, Depth: 7}, Limits(2, 0, 0, 7))
	// Incremental: mode 1 (ms) 5 s + 100 ms; mode 2 (10 ms); mode 3 (100 ms).
	assert.Equal(t, search.Limits{Time: 5 * time.Second, Inc: 100 * time.Millisecond},
		Limits(9, 1<<InfoIncrTimeShift, 5000<<16|100, 0))
	assert.Equal(t, search.Limits{Time: 600 * time.Second, Inc: time.Second},
		Limits(9, 2<<InfoIncrTimeShift|InfoExactTime, 60000<<16|100, 0))
	assert.Equal(t, search.Limits{Time: 6553500 * time.Millisecond, Inc: 0},
		Limits(9, 3<<InfoIncrTimeShift, -65536, 0))
	assert.Equal(t, search.Limits{MoveTime: 10 * time.Millisecond}, Limits(9, 1<<InfoIncrTimeShift, 0, 0))
}

// legalSuccessor reports whether after is the board of a legal move of p,
// and which.
func legalSuccessor(p *engine.Position, after *Board) (engine.Move, bool) {
	var list engine.MoveList
	p.Generate(&list)
	for _, m := range list.Slice() {
		q := p.Play(m)
		if FromPosition(&q) == *after {
			return m, true
		}
	}
	return engine.Move{}, false
}

func TestGetMoveSearchesEachVariant(t *testing.T) {
	for _, tc := range []struct {
		v     engine.VariantID
		color int
	}{{engine.English, Black}, {engine.Russian, White}, {engine.Brazilian, White}} {
		e := newTestEngine(tc.v)
		_, ok := e.Command("set book 0")
		require.True(t, ok)
		b := initBoard()
		var statuses []string
		ret, cm, err := e.GetMove(&b, tc.color, 0.05, 0, 0, nil, func(s string) { statuses = append(statuses, s) })
		require.NoError(t, err)
		assert.Equal(t, ResultUnknown, ret)
		start := engine.StartPosition(tc.v)
		m, ok := legalSuccessor(&start, &b)
		require.True(t, ok, "%v: the board after getmove is a legal move", tc.v)
		assert.Equal(t, ToMove(&start, m), cm)
		require.NotEmpty(t, statuses)
		last := statuses[len(statuses)-1]
		assert.Regexp(t, `^depth \d+  score -?\d+\.\d\d  nodes \d+  time \d+\.\d\ds  pv `, last)
	}
}

func TestGetMoveBook(t *testing.T) {
	e := newTestEngine(engine.Russian)
	b := initBoard()
	var last string
	_, _, err := e.GetMove(&b, White, 1, 0, 0, nil, func(s string) { last = s })
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(last, "damka: book move "), last)
	start := engine.StartPosition(engine.Russian)
	_, ok := legalSuccessor(&start, &b)
	assert.True(t, ok)
}

func TestGetMovePlaynow(t *testing.T) {
	e := newTestEngine(engine.English)
	e.Command("set book 0")
	b := initBoard()
	var mu sync.Mutex
	stop := false
	go func() {
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		stop = true
		mu.Unlock()
	}()
	t0 := time.Now()
	_, _, err := e.GetMove(&b, Black, 1000, 0, 0, func() bool { mu.Lock(); defer mu.Unlock(); return stop }, nil)
	require.NoError(t, err)
	assert.Less(t, time.Since(t0), 5*time.Second, "playnow stopped a 1000 s search")
	start := engine.StartPosition(engine.English)
	_, ok := legalSuccessor(&start, &b)
	assert.True(t, ok)
}

func TestGetMoveOddBoards(t *testing.T) {
	e := newTestEngine(engine.English)
	// No legal move: Black has no piece at all.
	b := FromPosition(ptr(mustFEN(t, engine.English, "B:W5:B")))
	orig := b
	var last string
	ret, _, err := e.GetMove(&b, Black, 0.05, 0, 0, nil, func(s string) { last = s })
	assert.Error(t, err)
	assert.Equal(t, ResultLoss, ret)
	assert.Equal(t, orig, b, "the board is left as it was")
	assert.Contains(t, last, "no legal move")

	// No legal move with a piece: a white man on its crowning row (as
	// CheckerBoard's setup mode allows) cannot move in English.
	b = FromPosition(ptr(mustFEN(t, engine.English, "W:W4:B")))
	ret, _, _ = e.GetMove(&b, White, 0.05, 0, 0, nil, nil)
	assert.Equal(t, ResultLoss, ret)

	// Bad input: a piece on a light square, a bad colour.
	b = initBoard()
	b[1][0] = 6
	orig = b
	ret, _, err = e.GetMove(&b, Black, 0.05, 0, 0, nil, func(s string) { last = s })
	assert.Error(t, err)
	assert.Equal(t, ResultUnknown, ret)
	assert.Equal(t, orig, b)
	assert.Contains(t, last, "light square")
	_, _, err = e.GetMove(&b, 7, 0.05, 0, 0, nil, nil)
	assert.Error(t, err)
}

func mustFEN(t *testing.T, v engine.VariantID, s string) engine.Position {
	t.Helper()
	p, err := ParseFEN(v, s)
	require.NoError(t, err)
	return p
}

func ptr[T any](x T) *T { return &x }

func TestGetMovePendingCaptureAndWin(t *testing.T) {
	// Russian: White must take (22x15 is the only move); it takes the last
	// black piece, so getmove reports a win.
	e := newTestEngine(engine.Russian)
	p := mustFEN(t, engine.Russian, "W:W22,30:B18")
	b := FromPosition(&p)
	ret, cm, err := e.GetMove(&b, White, 0.05, 0, 0, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, ResultWin, ret)
	assert.Equal(t, int32(1), cm.Jumps)
	assert.Equal(t, SquareCoor(18), cm.Del[0])
	m, ok := legalSuccessor(&p, &b)
	require.True(t, ok)
	assert.True(t, m.IsCapture())

	// English: a forced win found by the search (two kings against one
	// in the corner is a long win; a king trapping a man is short).
	e = newTestEngine(engine.English)
	e.Command("set book 0")
	p = mustFEN(t, engine.English, "W:WK18,K19:B26")
	b = FromPosition(&p)
	ret, _, err = e.GetMove(&b, White, 0.3, 0, 0, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, ResultWin, ret)
}

// recorder is a stand-in searcher that keeps the job it was given and
// plays the first legal move.
type recorder struct {
	play    string // the move to play in Hub form; "" or not legal: the first
	mu      sync.Mutex
	history []uint64
	limits  search.Limits
}

func (r *recorder) SearchJob(ctx context.Context, j *search.Job) search.Result {
	r.mu.Lock()
	r.history, r.limits = j.History(), j.Limits()
	r.mu.Unlock()
	p := j.Position()
	var list engine.MoveList
	p.Generate(&list)
	m := list.Moves[0]
	for _, c := range list.Slice() {
		if p.FormatMove(c, engine.FormatHub) == r.play {
			m = c
		}
	}
	return search.Result{Move: m, HasMove: true, Depth: 1, PV: []engine.Move{m}}
}
func (r *recorder) SetOptions(search.Options) {}
func (r *recorder) Clear()                    {}

func TestGetMoveUsesGameHist(t *testing.T) {
	rec := &recorder{}
	e := New(Config{Variant: engine.English, HasVariant: true, NewSearcher: func(search.Options) Searcher { return rec }})
	e.Command("set book 0")
	hist := shuffleHist(7) // white to move... after 7 plies Black is to move
	_, ok := e.Command("set gamehist " + hist)
	require.True(t, ok)
	g, err := ParseGameHist(engine.English, hist)
	require.NoError(t, err)
	p := g.Position()
	b := FromPosition(&p)
	_, _, err = e.GetMove(&b, Black, 0.05, 0, 0, nil, nil)
	require.NoError(t, err)
	rec.mu.Lock()
	assert.Len(t, rec.history, 7, "the 7 plies of the history reach the search")
	assert.Equal(t, uint16(7), rec.limits.Draw.Reversible)
	rec.mu.Unlock()

	// A history of another position is not used.
	p = mustFEN(t, engine.English, "B:WK30:BK8")
	b = FromPosition(&p)
	_, _, err = e.GetMove(&b, Black, 0.05, 0, 0, nil, nil)
	require.NoError(t, err)
	rec.mu.Lock()
	assert.Empty(t, rec.history)
	rec.mu.Unlock()
}

func TestGetMoveReachesRepetitionDraw(t *testing.T) {
	// After 29-25 4-8 25-29 8-4 29-25 4-8 25-29, Black's 8-4 repeats the
	// position a third time: getmove (with a stand-in searcher that plays
	// it) reports a draw.
	rec := &recorder{play: "8-4"}
	e := New(Config{Variant: engine.English, HasVariant: true, NewSearcher: func(search.Options) Searcher { return rec }})
	e.Command("set book 0")
	hist := "W:WK29:BK4 29-25 4-8 25-29 8-4 29-25 4-8 25-29"
	_, ok := e.Command("set gamehist " + hist)
	require.True(t, ok)
	g, err := ParseGameHist(engine.English, hist)
	require.NoError(t, err)
	p := g.Position()
	b := FromPosition(&p)
	ret, _, err := e.GetMove(&b, Black, 0.05, 0, 0, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, ResultDraw, ret)
}

func TestIsLegal(t *testing.T) {
	e := newTestEngine(engine.English)
	b := initBoard()
	m, ok := e.IsLegal(&b, Black, 11, 15)
	require.True(t, ok)
	assert.Equal(t, SquareCoor(11), m.From)
	assert.Equal(t, SquareCoor(15), m.To)
	assert.Equal(t, int32(Black|Man), m.NewPiece)
	_, ok = e.IsLegal(&b, Black, 11, 18)
	assert.False(t, ok)
	_, ok = e.IsLegal(&b, White, 11, 15)
	assert.False(t, ok)
	b[1][0] = 5
	_, ok = e.IsLegal(&b, Black, 11, 15)
	assert.False(t, ok)
}
