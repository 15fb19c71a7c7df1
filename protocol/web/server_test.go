//go:build !js

package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// smallPlayer is a player with the smallest table, for tests.
func smallPlayer() (*player.Player, error) {
	p := player.New(player.Config{BookSeed: 1})
	if err := p.Set(player.SetHash, strconv.Itoa(player.MustLookup(player.SetHash).Min)); err != nil {
		return nil, err
	}
	return p, nil
}

// fakeEngine plays the first legal move, after waiting for ctx when slow.
type fakeEngine struct {
	slow   bool
	closed *atomic.Int32
}

func (f *fakeEngine) Think(ctx context.Context, g *engine.Game, _ search.Limits) (engine.Move, error) {
	if f.slow {
		<-ctx.Done()
		return engine.Move{}, ctx.Err()
	}
	pos := g.Position()
	ms := pos.SortedMoves()
	if len(ms) == 0 {
		return engine.Move{}, errors.New("no move")
	}
	return ms[0], nil
}

func (f *fakeEngine) Close() error { f.closed.Add(1); return nil }

func newTestServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = smallPlayer
	}
	srv := New(cfg)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	return srv, hs
}

type wsClient struct {
	t *testing.T
	c *websocket.Conn
}

func dial(t *testing.T, hs *httptest.Server, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
}

func connect(t *testing.T, hs *httptest.Server) *wsClient {
	t.Helper()
	c, _, err := dial(t, hs, hs.URL)
	require.NoError(t, err)
	c.SetReadLimit(16 << 20)
	wc := &wsClient{t: t, c: c}
	t.Cleanup(func() { c.CloseNow() })
	wc.next("hello")
	wc.next("state")
	return wc
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(w.t, err)
	w.sendRaw(string(b))
}

func (w *wsClient) sendRaw(s string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(w.t, w.c.Write(ctx, websocket.MessageText, []byte(s)))
}

// next reads messages until one of type typ (or an error message when typ
// is not "error", which fails the test) and returns it.
func (w *wsClient) next(typ string) map[string]any {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitScale*20*time.Second)
	defer cancel()
	for {
		_, data, err := w.c.Read(ctx)
		require.NoError(w.t, err, "waiting for %s", typ)
		var m map[string]any
		require.NoError(w.t, json.Unmarshal(data, &m))
		if m["type"] == typ {
			return m
		}
		if m["type"] == "error" {
			w.t.Fatalf("error message while waiting for %s: %v", typ, m["message"])
		}
	}
}

// nextState reads states until pred holds.
func (w *wsClient) nextState(pred func(map[string]any) bool) map[string]any {
	w.t.Helper()
	for {
		if st := w.next("state"); pred(st) {
			return st
		}
	}
}

func plies(st map[string]any) int { return len(st["played"].([]any)) }

func TestForeignOriginRefused(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	for _, origin := range []string{"http://evil.example", "", "null", "http://127.0.0.1:1"} {
		_, resp, err := dial(t, hs, origin)
		require.Error(t, err, origin)
		require.NotNil(t, resp, origin)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, origin)
		body, _ := io.ReadAll(resp.Body)
		assert.Contains(t, string(body), "refused", origin)
		assert.Contains(t, string(body), "damka gui: WebSocket", origin)
	}
}

func TestLoopbackHostOnly(t *testing.T) {
	_, hs := newTestServer(t, Config{Loopback: true})
	req, err := http.NewRequest("GET", hs.URL+"/", nil)
	require.NoError(t, err)
	req.Host = "rebind.example:80"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Contains(t, string(body), "not this machine's loopback address")

	resp, err = http.Get(hs.URL + "/")
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), `<div id="board"`)
	for _, h := range []string{"localhost:80", "127.0.0.1", "[::1]:8080"} {
		assert.True(t, loopbackHost(h), h)
	}
	assert.False(t, loopbackHost("10.0.0.1:80"))
}

func TestBadMessagesAnswered(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	cases := map[string]string{
		`not json`:                                           "bad message",
		`{"type":"frob"}`:                                    `unknown message type "frob"`,
		`{"move":"c3-d4"}`:                                   `no "type"`,
		`{"type":"move","move":"c3-c4"}`:                     "c3-c4",
		`{"type":"move","move":"a1-h8"}`:                     "illegal",
		`{"type":"new","variant":"chess"}`:                   "chess",
		`{"type":"fen","fen":"W:W99"}`:                       "bad position",
		`{"type":"set","name":"frob","value":1}`:             "bad message",
		`{"type":"set","name":"frob","value":"1"}`:           "unknown setting",
		`{"type":"set","name":"threads","value":"0"}`:        "threads",
		`{"type":"set","name":"book-file","value":"/x"}`:     "set it on the command line",
		`{"type":"sides","white":"/bin/sh","black":"human"}`: `no player "/bin/sh"`,
		`{"type":"loadpdn","text":"1. c3-d4 c3-d4 *"}`:       "PDN",
		`{"type":"loadpdn","text":""}`:                       "no game",
		`{"type":"level","movetime":-1}`:                     "level",
		`{"type":"undo"}`:                                    "nothing to take back",
		`{"type":"state","extra":1}`:                         "unknown field",
	}
	for msg, want := range cases {
		w.sendRaw(msg)
		m := w.next("error")
		assert.Contains(t, m["message"], want, msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, w.c.Write(ctx, websocket.MessageBinary, []byte{1, 2}))
	assert.Contains(t, w.next("error")["message"], "not binary")
	// The connection is still there.
	w.send(map[string]any{"type": "state"})
	st := w.next("state")
	assert.Equal(t, "russian", st["variant"])
}

func TestMessageSizeLimit(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.sendRaw(`{"type":"loadpdn","text":"` + strings.Repeat("x", MaxMessageBytes) + `"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, _, err := w.c.Read(ctx)
		if err != nil {
			assert.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(err), "%v", err)
			return
		}
	}
}

func TestGamePlayUndoFENPDN(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "level", "nodes": 200})
	w.next("level")
	w.send(map[string]any{"type": "sides", "white": "damka", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "new", "variant": "english"})
	// damka may have moved in Russian before the new game: its state comes first.
	st := w.nextState(func(s map[string]any) bool { return s["variant"] == "english" })
	assert.EqualValues(t, 8, st["size"])
	assert.Equal(t, "black", st["side"], "Black moves first in English")
	// damka plays White: the person (Black) moves, damka answers.
	mv := st["moves"].([]any)[0].(map[string]any)
	assert.Len(t, mv["path"], 2)
	w.send(map[string]any{"type": "move", "move": mv["text"]})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 2 })
	assert.Equal(t, "black", st["side"])

	w.send(map[string]any{"type": "pdn"})
	text := w.next("pdn")["text"].(string)
	assert.Contains(t, text, `[GameType "21"]`)
	assert.Contains(t, text, `[Black "human"]`)
	assert.Contains(t, text, `[White "damka"]`)

	w.send(map[string]any{"type": "undo"})
	st = w.nextState(func(s map[string]any) bool { return plies(s) == 0 })
	assert.Equal(t, "black", st["side"])

	w.send(map[string]any{"type": "loadpdn", "text": text})
	st = w.next("state")
	assert.Equal(t, 2, plies(st))

	// A capture with two routes: every path is given, square by square.
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "new", "variant": "russian"})
	w.next("state")
	w.send(map[string]any{"type": "fen", "fen": "W:WKd2:Bc5,e5,c3,e3"})
	st = w.next("state")
	assert.Equal(t, "W:WKd2:Bc5,e5,c3,e3", st["fen"])
	ends := map[[2]float64]int{}
	for _, m := range st["moves"].([]any) {
		mm := m.(map[string]any)
		path := mm["path"].([]any)
		assert.GreaterOrEqual(t, len(path), 2, mm["text"])
		assert.Len(t, mm["captured"], len(path)-1, mm["text"])
		ends[[2]float64{path[0].(float64), path[len(path)-1].(float64)}]++
	}
	assert.Len(t, ends, 3, "three captures of four men, each with its path")

	// Settings: one by name through player.Set, the list comes back.
	w.send(map[string]any{"type": "set", "name": "multipv", "value": "2"})
	set := w.next("settings")
	for _, s := range set["settings"].([]any) {
		sm := s.(map[string]any)
		if sm["name"] == "multipv" {
			assert.Equal(t, "2", sm["value"])
		}
		if sm["name"] == "book-file" {
			assert.Equal(t, true, sm["readonly"])
		}
	}
	// Analysis: two lines, then stop.
	w.send(map[string]any{"type": "fen", "fen": "W:W21,22,23:B9,10,11"})
	w.next("state")
	w.send(map[string]any{"type": "analyse"})
	seen := map[float64]bool{}
	for len(seen) < 2 {
		m := w.next("info")
		assert.Equal(t, true, m["analysis"])
		seen[m["line"].(float64)] = true
	}
	w.send(map[string]any{"type": "stop"})
	for w.next("busy")["what"] != "" {
	}
}

func TestNewGameFromBallot(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	for _, v := range []string{"international", "english"} {
		start := time.Now()
		w.send(map[string]any{"type": "new", "variant": v, "ballot": -1})
		st := w.next("state")
		assert.Equal(t, v, st["variant"])
		assert.Equal(t, 3, plies(st), "a 3-move ballot")
		assert.Less(t, time.Since(start), 5*time.Second)
	}
	w.send(map[string]any{"type": "new", "ballot": 1_000_000})
	assert.Contains(t, w.next("error")["message"], "ballot 1000000")
}

func TestClockAndGameOver(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "clock", "base": 150})
	st := w.next("state")
	assert.Equal(t, true, st["clock"].(map[string]any)["timed"])
	// Nobody moves: White's flag falls and the page is told.
	st = w.nextState(func(s map[string]any) bool { return s["result"] != "" })
	assert.Contains(t, st["reason"], "Black wins")
	w.send(map[string]any{"type": "move", "move": "c3-d4"})
	assert.Contains(t, w.next("error")["message"], "game is over")
}

func TestEngineAgainstDamkaToTheEnd(t *testing.T) {
	var closed atomic.Int32
	_, hs := newTestServer(t, Config{
		Engines: []string{"first"},
		StartEngine: func(ctx context.Context, name string) (Engine, error) {
			return &fakeEngine{closed: &closed}, nil
		},
	})
	w := connect(t, hs)
	w.send(map[string]any{"type": "level", "depth": 1})
	w.next("level")
	w.send(map[string]any{"type": "sides", "white": "first", "black": "damka"})
	st := w.nextState(func(s map[string]any) bool { return s["result"] != "" })
	assert.Greater(t, plies(st), 10)
	w.send(map[string]any{"type": "pdn"})
	text := w.next("pdn")["text"].(string)
	assert.Contains(t, text, `[White "first"]`)
	assert.Contains(t, text, `[Result "`+st["result"].(string)+`"]`)
	w.c.Close(websocket.StatusNormalClosure, "")
	require.Eventually(t, func() bool { return closed.Load() == 1 }, 10*time.Second, 10*time.Millisecond, "the engine is closed with the page")
}

// TestClosedPageStopsEverything: a page that goes while damka analyses and
// an engine thinks leaves no goroutine and no engine behind.
func TestClosedPageStopsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	var closed atomic.Int32
	srv := New(Config{
		NewPlayer: smallPlayer,
		Engines:   []string{"slow"},
		StartEngine: func(ctx context.Context, name string) (Engine, error) {
			return &fakeEngine{slow: true, closed: &closed}, nil
		},
	})
	hs := httptest.NewServer(srv)
	for range 3 {
		w := connect(t, hs)
		w.send(map[string]any{"type": "analyse"})
		w.next("info")
		w.c.CloseNow()

		w = connect(t, hs)
		w.send(map[string]any{"type": "sides", "white": "slow", "black": "human"})
		w.next("busy")
		w.c.CloseNow()
	}
	require.Eventually(t, func() bool { return closed.Load() == 3 }, 10*time.Second, 10*time.Millisecond)
	hs.Close()
	srv.Close()
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, 10*time.Second, 20*time.Millisecond,
		"goroutines: %d before, %d now", before, runtime.NumGoroutine())
}

// TestFallenFlagShowsNoTimeLeft: when a flag falls, the loser's clock
// shows the time used up (none left), not the time it had when its turn
// began.
func TestFallenFlagShowsNoTimeLeft(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "clock", "base": 300})
	w.next("state")
	st := w.nextState(func(s map[string]any) bool { return s["result"] != "" })
	clock := st["clock"].(map[string]any)
	assert.Equal(t, false, clock["running"])
	assert.LessOrEqual(t, clock["white"].(float64), 0.0, "White's fallen flag: %v", clock)
	assert.EqualValues(t, 300, clock["black"], "Black never moved")
	// Asked again later, the clock stays where it stopped.
	time.Sleep(50 * time.Millisecond)
	w.send(map[string]any{"type": "state"})
	again := w.next("state")["clock"].(map[string]any)
	assert.Equal(t, clock["white"], again["white"])
}

// TestSettingKeepsDamkaGoing: a setting changed while damka thinks of its
// move, or analyses, stops that search and starts it again with the new
// setting: damka still moves, the analysis goes on.
func TestSettingKeepsDamkaGoing(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "set", "name": "book", "value": "false"})
	w.next("settings")
	w.send(map[string]any{"type": "level", "movetime": 60_000})
	w.next("level")
	w.send(map[string]any{"type": "move", "move": "c3-d4"})
	for w.next("busy")["what"] != "think" {
	}
	w.send(map[string]any{"type": "set", "name": "strength", "value": "5"})
	w.next("settings")
	assert.Equal(t, "think", w.next("busy")["what"], "damka thinks again after the setting")
	w.send(map[string]any{"type": "stop"})
	st := w.nextState(func(s map[string]any) bool { return plies(s) == 2 })
	assert.Equal(t, "", st["busy"])

	w.send(map[string]any{"type": "new"})
	w.next("state")
	w.send(map[string]any{"type": "analyse"})
	w.next("info")
	w.send(map[string]any{"type": "set", "name": "multipv", "value": "2"})
	w.next("settings")
	assert.Equal(t, "analyse", w.next("busy")["what"], "the analysis goes on after the setting")
	for w.next("info")["line"] != 2.0 {
	}
	w.send(map[string]any{"type": "stop"})
	for w.next("busy")["what"] != "" {
	}
}

// TestAnalyseWithNoLegalMove: at a position with no legal move the
// analysis is refused, rather than shown running with no line.
func TestAnalyseWithNoLegalMove(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "fen", "fen": "W:W29:B25,22"})
	st := w.next("state")
	require.NotEmpty(t, st["result"])
	w.send(map[string]any{"type": "analyse"})
	assert.Contains(t, w.next("error")["message"], "no legal move")
	w.send(map[string]any{"type": "state"})
	assert.Equal(t, "", w.next("state")["busy"])
}

// gateEngine plays the first legal move of the game it was given once gate
// is closed.
type gateEngine struct{ gate chan struct{} }

func (g gateEngine) Think(ctx context.Context, game *engine.Game, _ search.Limits) (engine.Move, error) {
	pos := game.Position()
	<-g.gate
	return pos.SortedMoves()[0], nil
}

func (g gateEngine) Close() error { return nil }

// TestVariantSettingDropsEngineMove: the variant setting, changed while an
// external engine thinks, starts a new game, and the engine's move of the
// game before is not played in it.
func TestVariantSettingDropsEngineMove(t *testing.T) {
	gate := make(chan struct{})
	_, hs := newTestServer(t, Config{Engines: []string{"gate"},
		StartEngine: func(ctx context.Context, name string) (Engine, error) { return gateEngine{gate}, nil }})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "gate", "black": "human"})
	for w.next("busy")["what"] != "think" {
	}
	w.send(map[string]any{"type": "set", "name": "variant", "value": "international"})
	st := w.nextState(func(s map[string]any) bool { return s["variant"] == "international" })
	assert.Equal(t, 0, plies(st))
	close(gate)
	// The engine plays White again, now in the new game.
	st = w.nextState(func(s map[string]any) bool { return plies(s) > 0 })
	assert.Equal(t, "international", st["variant"])
	assert.Equal(t, 1, plies(st))
	assert.Regexp(t, `^3[1-5]-(2[6-9]|30)$`, st["played"].([]any)[0], "a first move of international")
}

// TestTakeBackAfterFlagStopsClocks: a take back in a game lost on time
// takes the move back and stops the clocks (untimed play from there, with
// a notice saying so) rather than letting the flag fall again at once.
func TestTakeBackAfterFlagStopsClocks(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	w.send(map[string]any{"type": "clock", "base": 300})
	w.next("state")
	w.send(map[string]any{"type": "move", "move": "c3-d4"})
	st := w.nextState(func(s map[string]any) bool { return s["result"] != "" })
	assert.Contains(t, st["reason"], "White wins")
	w.send(map[string]any{"type": "undo"})
	assert.Contains(t, w.next("notice")["message"], "clocks are stopped")
	st = w.next("state")
	assert.Equal(t, 0, plies(st))
	assert.Equal(t, "", st["result"])
	clock := st["clock"].(map[string]any)
	assert.Equal(t, false, clock["timed"], "the clocks stop: %v", clock)
	assert.Equal(t, true, clock["running"], "untimed, the turn's time counts up: %v", clock)
	// Well past the old base: no flag falls again.
	time.Sleep(400 * time.Millisecond)
	w.send(map[string]any{"type": "state"})
	assert.Equal(t, "", w.next("state")["result"])
	// Start clocks times the game again from here.
	w.send(map[string]any{"type": "clock", "base": 60_000})
	assert.Equal(t, true, w.next("state")["clock"].(map[string]any)["timed"])
}

// TestLoadPDNOfSeveralGames: a PDN text of several games loads the first
// and says so, lists the games by their tags, and loads the one asked
// for by its number.
func TestLoadPDNOfSeveralGames(t *testing.T) {
	_, hs := newTestServer(t, Config{})
	w := connect(t, hs)
	w.send(map[string]any{"type": "sides", "white": "human", "black": "human"})
	w.next("state")
	text := `[Event "Cup"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
1. c3-d4 *

[Event "Cup"]
[White "Cid"]
[Black "Dan"]
[Result "1-0"]
1. c3-d4 f6-g5 2. g3-f4 1-0

[White "Eve"]
[Black "Fay"]
1. a3-b4 *
`
	w.send(map[string]any{"type": "loadpdn", "text": text})
	assert.Equal(t, "loaded game 1 of the 3 games in the text", w.next("notice")["message"])
	list := w.next("pdngames")
	assert.EqualValues(t, 1, list["game"])
	games := list["games"].([]any)
	require.Len(t, games, 3)
	assert.Equal(t, map[string]any{"white": "Cid", "black": "Dan", "event": "Cup", "result": "1-0"}, games[1])
	assert.Equal(t, "Eve", games[2].(map[string]any)["white"])
	assert.Equal(t, 1, plies(w.next("state")))

	w.send(map[string]any{"type": "loadpdn", "text": text, "game": 2})
	assert.Equal(t, "loaded game 2 of the 3 games in the text", w.next("notice")["message"])
	assert.EqualValues(t, 2, w.next("pdngames")["game"])
	st := w.next("state")
	assert.Equal(t, 3, plies(st))
	assert.Equal(t, "1-0", st["result"])

	w.send(map[string]any{"type": "loadpdn", "text": text, "game": 4})
	assert.Contains(t, w.next("error")["message"], "game 4: the text holds 3 games")
	w.send(map[string]any{"type": "loadpdn", "text": text, "game": -1})
	assert.Contains(t, w.next("error")["message"], "game -1")

	// One game: no notice, a list of one.
	w.send(map[string]any{"type": "loadpdn", "text": "1. c3-d4 *"})
	assert.Len(t, w.next("pdngames")["games"], 1)

	// More games than the list holds: the list stops at maxPDNGamesListed,
	// the total is given, and a game past the list loads by its number.
	many := strings.Repeat("1. c3-d4 *\n\n", maxPDNGamesListed+5) + "1. a3-b4 b6-a5 *\n"
	w.send(map[string]any{"type": "loadpdn", "text": many, "game": maxPDNGamesListed + 6})
	assert.Equal(t, fmt.Sprintf("loaded game %d of the %d games in the text", maxPDNGamesListed+6, maxPDNGamesListed+6), w.next("notice")["message"])
	list = w.next("pdngames")
	assert.Len(t, list["games"], maxPDNGamesListed)
	assert.EqualValues(t, maxPDNGamesListed+6, list["total"])
	assert.Equal(t, 2, plies(w.next("state")))
}
