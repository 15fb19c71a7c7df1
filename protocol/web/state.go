// state.go: what the page is told: the position and its legal moves,
// the settings, the greeting; and the game's edits (take back, FEN, PDN).

package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
)

// undo takes back moves until a person is to move again, at least one.
// In a game lost on time it also stops the clocks: play goes on untimed
// until the page starts them again.
func (s *session) undo() {
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	_, why := s.ended()
	g := s.game()
	if !g.Undo() {
		s.sendError("nothing to take back")
		return
	}
	if why == engine.TimeForfeit {
		s.clock.base, s.clock.inc = 0, 0
		s.send(map[string]any{"type": "notice", "message": "taken back after a loss on time: the clocks are stopped (untimed play); Start clocks to time the game again"})
	}
	hasHuman := s.sides[0] == Human || s.sides[1] == Human
	for hasHuman && g.Ply() > 0 && s.sides[g.Position().Side] != Human {
		g.Undo()
	}
	g.SetResult(engine.Ongoing, engine.ReasonNone)
	s.clock.spent = s.clock.spent[:g.Ply()]
	s.clock.fromPly = min(s.clock.fromPly, g.Ply())
	s.clock.turnStart, s.clock.stopped = time.Now(), false
	s.sendStateLocked()
	s.autoplay()
}

func (s *session) setFEN(fen string) {
	pos, err := engine.ParsePosition(s.p.Variant(), fen)
	if err != nil {
		s.sendError("bad position: %v", err)
		return
	}
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	s.p.NewGame()
	s.p.SetGame(engine.NewGame(pos))
	s.restartLocked()
	s.sendStateLocked()
	s.autoplay()
}

// maxPDNGamesListed bounds the games of a loaded PDN text listed to the
// page (a pdngames message); the total is sent as well, and a game past
// the list is loaded by its number.
const maxPDNGamesListed = 1000

// pdnGameMsg is one game of a loaded PDN text, for the page's list.
type pdnGameMsg struct {
	White  string `json:"white"`
	Black  string `json:"black"`
	Event  string `json:"event"`
	Result string `json:"result"`
}

// loadPDN plays game number n (1-based; 0 is the first) of a PDN text (its
// variant, start and moves): the text itself, never a file it names. The
// page is told the games the text holds (a pdngames message) and, when
// there are several, which one was loaded.
func (s *session) loadPDN(text string, n int) {
	if n < 0 {
		s.sendError("PDN: game %d: want a game number from 1", n)
		return
	}
	n = max(n, 1)
	board := s.p.Variant()
	list, total, pg, pgErr := readPDN(text, board, n)
	var notes []string
	if total > 1 {
		notes = append(notes, fmt.Sprintf("loaded game %d of the %d games in the text", n, total))
	}
	hasType := strings.Contains(strings.ToLower(text), "[gametype")
	if (pgErr != nil || pg == nil) && total > 0 && !hasType {
		// No GameType tag: the board's variant was assumed; a game of
		// another variant is read as that one.
		for _, v := range engine.AllVariants() {
			if v == board {
				continue
			}
			if l2, t2, pg2, err2 := readPDN(text, v, n); err2 == nil && pg2 != nil {
				list, total, pg, pgErr = l2, t2, pg2, nil
				notes = append(notes, fmt.Sprintf("the text has no GameType tag and is not %s game: read as %s", aVariant(board), v))
				break
			}
		}
		if pgErr != nil {
			pgErr = fmt.Errorf("%w (the text has no GameType tag, so it was read as %s, the board's variant: for another variant's game choose that variant and start a new game first, or add its GameType tag)", pgErr, board)
		}
	}
	if pg != nil && pgErr == nil && hasType && pg.Variant != board {
		notes = append(notes, fmt.Sprintf("the game's GameType tag says %s: the board is now %s", pg.Variant, pg.Variant))
	}
	switch {
	case total == 0 && pgErr == nil:
		s.sendError("PDN: no game in the text")
		return
	case pgErr != nil:
		if total > 1 {
			s.sendError("PDN: game %d of %d: %v", n, total, pgErr)
		} else {
			s.sendError("PDN: %v", pgErr)
		}
		return
	case pg == nil:
		s.sendError("PDN: game %d: the text holds %d games", n, total)
		return
	}
	if len(notes) > 0 {
		s.send(map[string]any{"type": "notice", "message": strings.Join(notes, "; ")})
	}
	s.send(map[string]any{"type": "pdngames", "games": list, "total": total, "game": n})
	s.stopLocked()
	s.send(map[string]any{"type": "busy", "what": ""})
	g := engine.NewGame(pg.Start)
	for _, mv := range pg.Moves {
		g.Play(mv)
	}
	variant := s.p.Variant()
	s.p.NewGame()
	s.p.SetGame(g)
	if s.p.Variant() != variant {
		s.send(s.settingsMsg())
	}
	s.restartLocked()
	s.tree = treeFromPDN(pg)
	s.names = [2]string{pg.Tag("White"), pg.Tag("Black")}
	if r, err := engine.ParseResult(pg.Variant, pg.Result); err == nil && r != engine.Ongoing {
		if res, _ := g.Result(); res == engine.Ongoing {
			// Recorded in the game; why is not known.
			g.SetResult(r, engine.ReasonNone)
			s.tree.result, s.tree.why = r, engine.ReasonNone
		}
	}
	s.sendStateLocked()
	s.autoplay()
}

// readPDN reads the games of a PDN text, those without a GameType tag as
// variant v: the list of the games for the page (the first
// maxPDNGamesListed), their number and game number n with its error.
func readPDN(text string, v engine.VariantID, n int) (list []pdnGameMsg, total int, pg *pdn.Game, pgErr error) {
	r := pdn.NewReader(strings.NewReader(text), v)
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) || g == nil {
			if err != nil && !errors.Is(err, io.EOF) && total < n {
				pgErr = err // a read error before the game asked for
			}
			return list, total, pg, pgErr
		}
		total++
		if len(list) < maxPDNGamesListed {
			list = append(list, pdnGameMsg{White: g.Tag("White"), Black: g.Tag("Black"), Event: g.Tag("Event"), Result: g.Result})
		}
		if total == n {
			pg, pgErr = g, err
		}
	}
}

// resultToken writes a result as the PDN of variant v has it: "2-0",
// "0-2" and "1-1" in international draughts (FMJD), as Result.PDN
// elsewhere.
func resultToken(r engine.Result, v engine.VariantID) string {
	if v == engine.International {
		switch r {
		case engine.WhiteWins:
			return "2-0"
		case engine.BlackWins:
			return "0-2"
		case engine.Draw:
			return "1-1"
		}
	}
	return r.PDN(v)
}

// pdnText is the game as a PDN file.
func (s *session) pdnText() string {
	g := s.game()
	v := g.Start().V
	pg := pdn.NewGame(v, g.Start())
	pg.SetTag("Event", "damka gui")
	pg.SetTag("Date", time.Now().Format("2006.01.02"))
	pg.SetTag("White", s.playerName(engine.White))
	pg.SetTag("Black", s.playerName(engine.Black))
	s.syncTree()
	s.tree.toPDN(pg)
	pg.Result = resultToken(s.mainLineResult(), v)
	var b bytes.Buffer
	if err := pdn.Write(&b, pg); err != nil {
		return ""
	}
	return b.String()
}

func (s *session) playerName(c engine.Color) string {
	if s.names[c] != "" {
		return s.names[c]
	}
	return s.sides[c]
}

func (s *session) sendState() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sendStateLocked()
}

// moveMsg is one legal move for the page: its text (FormatFull, which the
// move message takes back), the squares of its path and the captured
// squares.
type moveMsg struct {
	Text     string `json:"text"`
	Path     []int  `json:"path"`
	Captured []int  `json:"captured"`
}

// sendStateLocked sends the whole state: the position, its legal moves,
// the moves played, the result and the clocks.
func (s *session) sendStateLocked() {
	if s.game() != s.shown {
		s.restartLocked()
	}
	s.syncTree()
	g := s.game()
	pos := g.Position()
	v := pos.V
	r := v.Rules()
	board := make([]string, r.Squares+1) // board[sq]: "", "w", "W", "b", "B"
	for sq := 1; sq <= r.Squares; sq++ {
		switch pos.PieceAt(engine.Square(sq)) {
		case engine.WhiteMan:
			board[sq] = "w"
		case engine.WhiteKing:
			board[sq] = "W"
		case engine.BlackMan:
			board[sq] = "b"
		case engine.BlackKing:
			board[sq] = "B"
		}
	}
	res, why := s.ended()
	var moves []moveMsg
	if res == engine.Ongoing {
		for _, mv := range pos.SortedMoves() {
			mm := moveMsg{Text: pos.FormatMove(mv, engine.FormatFull), Path: squareInts(pos.Path(mv)), Captured: []int{}}
			for set := engine.SquareSet(v, mv.Captured); set != 0; set &= set - 1 {
				mm.Captured = append(mm.Captured, bits.TrailingZeros64(set)+1)
			}
			moves = append(moves, mm)
		}
	}
	played := make([]string, 0, g.Ply())
	for i, mv := range g.Moves() {
		p := g.PositionAt(i)
		played = append(played, p.FormatMove(mv, engine.FormatFull))
	}
	squares := make([]map[string]any, 0, r.Squares)
	for sq := 1; sq <= r.Squares; sq++ {
		row, col := engine.SquareRowCol(v, engine.Square(sq))
		squares = append(squares, map[string]any{"sq": sq, "row": row, "col": col, "name": engine.SquareName(v, engine.Square(sq), r.Notation)})
	}
	var last []int
	if g.Ply() > 0 {
		prev := g.PositionAt(g.Ply() - 1)
		last = squareInts(prev.Path(g.Moves()[g.Ply()-1]))
	}
	state := map[string]any{
		"type":      "state",
		"variant":   v.String(),
		"size":      r.BoardSize,
		"algebraic": r.Notation == engine.Algebraic,
		"first":     colourWord(r.FirstToMove),
		"squares":   squares,
		"board":     board,
		"side":      colourWord(pos.Side),
		"fen":       pos.FENStyle(r.Notation),
		"moves":     moves,
		"played":    played,
		"startSide": colourWord(g.Start().Side),
		"last":      last,
		"white":     s.sides[engine.White],
		"black":     s.sides[engine.Black],
		"busy":      s.busyWhat(),
		"result":    "",
		"reason":    "",
		"tree":      s.tree.message(),
		"node":      s.tree.cur,
		"game":      s.gameID,
		"accuracy":  s.tree.accuracy,
	}
	if res != engine.Ongoing {
		state["result"] = resultToken(res, v)
		state["reason"] = resultText(res, why)
	}
	clock := map[string]any{"timed": s.timed(), "running": res == engine.Ongoing && !s.clock.stopped}
	for _, c := range []engine.Color{engine.White, engine.Black} {
		if s.timed() {
			clock[colourWord(c)] = s.remaining(c).Milliseconds()
		} else {
			clock[colourWord(c)] = s.used(c).Milliseconds()
		}
	}
	state["clock"] = clock
	s.send(state)
}

// squareInts returns the squares as numbers (a []uint8 would be
// written to JSON as base64).
func squareInts(sqs []engine.Square) []int {
	out := make([]int, len(sqs))
	for i, sq := range sqs {
		out[i] = int(sq)
	}
	return out
}

func colourWord(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

// resultText says who won and why, or why the game is drawn.
func resultText(res engine.Result, why engine.Reason) string {
	if why == engine.ReasonNone && res != engine.Ongoing {
		return map[engine.Result]string{engine.Draw: "draw", engine.WhiteWins: "White wins", engine.BlackWins: "Black wins"}[res] +
			" (the result recorded in the game)"
	}
	switch res {
	case engine.Draw:
		if why == engine.Repetition {
			return "draw by threefold repetition"
		}
		return "draw: " + why.String()
	case engine.WhiteWins:
		return "White wins: " + why.String()
	case engine.BlackWins:
		return "Black wins: " + why.String()
	}
	return ""
}

// settingMsg is one setting for the page: its declaration and value.
type settingMsg struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	Unit     string   `json:"unit"`
	Values   []string `json:"values"`
	Default  string   `json:"default"`
	Doc      string   `json:"doc"`
	Range    string   `json:"range"`
	Value    string   `json:"value"`
	ReadOnly bool     `json:"readonly"` // names a file: set on the command line only
}

// settingsMsg lists every setting of player.Settings with its value, so
// that a new setting appears on the page by itself.
func (s *session) settingsMsg() map[string]any {
	var list []settingMsg
	for _, st := range player.Settings() {
		v, err := s.p.Get(st.Name)
		if err != nil {
			v = ""
		}
		if bound, _ := s.cfg.bound(st.Name); bound > 0 && bound < st.Max {
			st.Max = bound // this server's bound (damka gui --max-hash, --max-threads)
		}
		list = append(list, settingMsg{
			Name: st.Name, Kind: st.Kind.String(), Min: st.Min, Max: st.Max, Unit: st.Unit,
			Values: st.Values, Default: st.Default, Doc: st.Doc, Range: st.Range(), Value: v,
			ReadOnly: st.Kind == player.String,
		})
	}
	return map[string]any{"type": "settings", "settings": list}
}

// hello is the first message: the version, the variants, the external
// engines and the settings.
func (s *session) hello() map[string]any {
	m := s.settingsMsg()
	m["type"] = "hello"
	m["version"] = s.cfg.Version
	m["variants"] = engine.VariantNames()
	engines := s.cfg.Engines
	if engines == nil {
		engines = []string{}
	}
	m["engines"] = engines
	m["messages"] = msgTypes
	m["maxMessage"] = MaxMessageBytes
	return m
}

// aVariant returns the variant's name with its article: "a russian",
// "an international".
func aVariant(v fmt.Stringer) string {
	name := v.String()
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
