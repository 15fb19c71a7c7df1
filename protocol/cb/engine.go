// engine.go: one CheckerBoard engine: a player (the settings, their
// resources and the searcher), the game history of "set gamehist", and
// getmove, enginecommand and islegal.

package cb

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// ReplySize is the size of enginecommand's reply buffer (ENGINECOMMAND_REPLY_SIZE)
// and of getmove's status string, terminating NUL included.
const ReplySize = 1024

// ProtocolVersion is the answer to "get protocolversion".
const ProtocolVersion = 2

// Book levels of "get book" and "set book" (CB_BOOK_*): no book, all kinds
// of moves, good moves, best moves.
const (
	BookNone = 0
	BookAll  = 1
	BookGood = 2
	BookBest = 3
)

// bookMargins are the book-margin settings (centi-men) of the book
// levels 1..3: how far below the best book move a candidate may score.
// Level 0 turns the book setting off.
var bookMargins = [4]int{0, 40, search.DefaultBookMargin, 0}

// Searcher is the search engine an Engine's player drives
// (player.Searcher); *search.Engine implements it.
type Searcher = player.Searcher

// Config sets up an Engine. The zero value is usable: English, one
// thread, the default table, the book at "good moves", no logging.
type Config struct {
	// Name and Version make the answer to "name" ("damka" when empty).
	Name, Version string
	// Variant is the game played until "set gametype" (English by
	// default: the zero VariantID is Russian, so use HasVariant).
	Variant    engine.VariantID
	HasVariant bool
	// Threads and HashMiB are the defaults of "searchthreads" and
	// "hashsize" (0: the player's defaults; larger than the settings'
	// maximum: the maximum).
	Threads, HashMiB int
	// BookSeed seeds the choice among book moves; 0 seeds from the clock.
	BookSeed uint64
	// NewSearcher makes the searcher at the first getmove; nil means
	// search.New.
	NewSearcher func(search.Options) Searcher
	// Player, if not nil, is the player the engine drives, its settings
	// already made: Variant to NewSearcher above are then not used. Its
	// variant should be one CheckerBoard plays (GameType not 0).
	Player *player.Player
	// Log receives the commands and the searches (the zero Logger is
	// silent: a DLL has no standard error).
	Log zerolog.Logger
}

// Engine is one CheckerBoard engine: a player (its settings, resources and
// searcher) and the state of CheckerBoard's own commands. Its methods may
// be called from any goroutine; GetMove runs one search at a time, and
// commands sent while it searches take effect at the next search.
type Engine struct {
	cfg Config
	log zerolog.Logger
	p   *player.Player

	searchMu sync.Mutex // held by GetMove for the whole search

	mu       sync.Mutex   // guards the fields below; held by each command
	depth    int          // "set depth" (a damka extension for hosts): 0 none
	hist     *engine.Game // from the last "set gamehist", nil when none
	histText string
}

// New returns an engine set up by cfg.
func New(cfg Config) *Engine {
	if cfg.Name == "" {
		cfg.Name = "damka"
	}
	e := &Engine{cfg: cfg, log: cfg.Log, p: cfg.Player}
	if e.p != nil {
		return e
	}
	e.p = player.New(player.Config{BookSeed: cfg.BookSeed, NewSearcher: cfg.NewSearcher, Log: cfg.Log})
	v := engine.English
	if cfg.HasVariant {
		v = cfg.Variant
	}
	e.p.SetVariant(v)
	for name, n := range map[string]int{player.SetThreads: cfg.Threads, player.SetHash: cfg.HashMiB} {
		if n > 0 {
			if err := e.p.Set(name, strconv.Itoa(min(n, player.MustLookup(name).Max))); err != nil {
				e.log.Error().Err(err).Str("setting", name).Msg("cb: default")
			}
		}
	}
	return e
}

// Player returns the player the engine drives.
func (e *Engine) Player() *player.Player { return e.p }

// VariantFromFileName picks the game a DLL plays from its file name, so
// that copies named damka-russian.dll or damka_brazilian.dll play Russian
// or Brazilian in CheckerBoard, which never sends "set gametype". The name
// (without folder and extension) is cut into words at every character that
// is not a letter; a word "russian" or "rus" selects Russian, "brazilian",
// "brazil" or "bra" Brazilian, "english" or "american" English. ok is false
// when no word names a game (English is returned).
func VariantFromFileName(name string) (v engine.VariantID, ok bool) {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(name, `\`, "/")))
	base = strings.TrimSuffix(base, filepath.Ext(base))
	words := strings.FieldsFunc(base, func(r rune) bool { return r < 'a' || r > 'z' })
	for _, w := range words {
		switch w {
		case "russian", "rus":
			return engine.Russian, true
		case "brazilian", "brazil", "bra":
			return engine.Brazilian, true
		case "english", "american":
			return engine.English, true
		}
	}
	return engine.English, false
}

// Variant returns the variant the engine plays now.
func (e *Engine) Variant() engine.VariantID { return e.p.Variant() }

// fit returns s if it fits a reply buffer with its NUL, and ok false
// otherwise.
func fit(s string) (string, bool) {
	if len(s) >= ReplySize {
		return fmt.Sprintf("reply too long (%d bytes, at most %d)", len(s), ReplySize-1), false
	}
	return s, true
}

// Command answers one enginecommand: the reply text and whether the
// command was handled (enginecommand's return value 1). CheckerBoard's keys
// (NativeKeys) read and set the player's settings; every other setting is
// "get NAME" and "set NAME VALUE" under its table name (player.Settings).
// A set answers the value now in use. Unknown commands, and the options
// damka does not have (book files, dbmbytes, enable_wld, mtcpath,
// allscores, solve), are not handled: the reply is empty. A bad value is
// not handled either; the reply then says what was wrong. Every reply fits
// ReplySize with its NUL; an answer that would not (a very long movelist)
// is not handled.
func (e *Engine) Command(cmd string) (reply string, ok bool) {
	reply, ok = e.command(strings.TrimSpace(cmd))
	e.log.Debug().Str("command", cmd).Str("reply", reply).Bool("handled", ok).Msg("cb enginecommand")
	if !ok {
		if r, fits := fit(reply); fits {
			return r, false
		}
		return "", false
	}
	return fit(reply)
}

func (e *Engine) command(cmd string) (string, bool) {
	verb, rest, _ := strings.Cut(cmd, " ")
	rest = strings.TrimSpace(rest)
	key, arg, _ := strings.Cut(rest, " ")
	key, arg = strings.ToLower(key), strings.TrimSpace(arg)
	switch strings.ToLower(verb) {
	case "name":
		return e.name(), true
	case "about":
		v := e.Variant()
		return fmt.Sprintf("%s\n\nA draughts engine for English checkers, Russian and Brazilian draughts.\n"+
			"Now playing: %s (game type %d).\nThe search and the opening book of the damka binary.", e.name(), v, GameType(v)), true
	case "help":
		return "damkahelp.htm", true
	case "get":
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.get(key, arg)
	case "set":
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.set(key, arg)
	}
	return "", false
}

func (e *Engine) name() string {
	if e.cfg.Version == "" {
		return e.cfg.Name
	}
	return e.cfg.Name + " " + e.cfg.Version
}

// NativeKeys returns CheckerBoard's own enginecommand keys that stand for
// player settings, each with the setting it reads and sets: gametype
// (variant, as a game type number), hashsize (hash), searchthreads
// (threads), book (book and book-margin, as a book level), dbpath
// (egdb-path) and max_dbpieces (egdb-pieces; get answers the pieces
// probed). Every other setting is "get NAME" and "set NAME VALUE" under
// its table name.
func NativeKeys() map[string]string {
	return map[string]string{
		"gametype":      player.SetVariant,
		"hashsize":      player.SetHash,
		"searchthreads": player.SetThreads,
		"book":          player.SetBook,
		"dbpath":        player.SetEGDBPath,
		"max_dbpieces":  player.SetEGDBPieces,
	}
}

// get answers "get key arg"; e.mu is held.
func (e *Engine) get(key, arg string) (string, bool) {
	switch key {
	case "protocolversion":
		return strconv.Itoa(ProtocolVersion), true
	case "gametype":
		return strconv.Itoa(GameType(e.p.Variant())), true
	case "hashsize":
		return e.setting(player.SetHash), true
	case "book":
		return strconv.Itoa(e.bookLevel()), true
	case "searchthreads":
		return e.setting(player.SetThreads), true
	case "depth":
		return strconv.Itoa(e.depth), true
	case "dbpath":
		return e.setting(player.SetEGDBPath), true
	case "max_dbpieces":
		return strconv.Itoa(e.p.EGDBPieces()), true
	case "movelist":
		p, err := ParseFEN(e.p.Variant(), arg)
		if err != nil {
			return "get movelist: " + err.Error(), false
		}
		return MoveList(&p), true
	}
	if _, ok := player.Lookup(key); ok {
		return e.setting(key), true
	}
	return "", false
}

// setting returns the value of the player setting called name, a name of
// the table.
func (e *Engine) setting(name string) string {
	v, err := e.p.Get(name)
	if err != nil {
		e.log.Error().Err(err).Msg("cb: get setting")
	}
	return v
}

// bookLevel is the book level of the book and book-margin settings: 0
// when the book is off; 1, 3 for the margins of bookMargins; else 2.
func (e *Engine) bookLevel() int {
	if on, _ := player.ParseBool(e.setting(player.SetBook)); !on {
		return BookNone
	}
	switch m, _ := strconv.Atoi(e.setting(player.SetBookMargin)); m {
	case bookMargins[BookAll]:
		return BookAll
	case bookMargins[BookBest]:
		return BookBest
	}
	return BookGood
}

// set answers "set key arg"; e.mu is held.
func (e *Engine) set(key, arg string) (string, bool) {
	reply, ok := e.setKey(key, arg)
	if e.hist != nil && e.hist.Position().V != e.p.Variant() {
		e.hist = nil // a history of the game played before
	}
	return reply, ok
}

func (e *Engine) setKey(key, arg string) (string, bool) {
	switch key {
	case "gametype":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return fmt.Sprintf("set gametype: %q is not a number", arg), false
		}
		v, err := Variant(n)
		if err != nil {
			return "set gametype: " + err.Error(), false
		}
		e.p.SetVariant(v)
		return strconv.Itoa(n), true
	case "gamehist":
		g, err := ParseGameHist(e.p.Variant(), arg)
		if err != nil {
			e.hist = nil
			e.log.Warn().Err(err).Msg("cb: set gamehist refused")
			return err.Error(), false
		}
		e.hist, e.histText = g, arg
		return "", true
	case "depth":
		n, err := player.ParseInt(arg, 0, search.MaxDepth)
		if err != nil {
			return e.refused(key, err)
		}
		e.depth = n
		return strconv.Itoa(n), true
	case "book":
		return e.setBook(arg)
	case "hashsize", "searchthreads", "dbpath", "max_dbpieces":
		return e.setSetting(key, NativeKeys()[key], arg)
	case player.SetVariant:
		if id, err := engine.ParseVariant(arg); err == nil && GameType(id) == 0 {
			return fmt.Sprintf("set variant: %v is not played by CheckerBoard (want english, russian or brazilian)", id), false
		}
	}
	if _, ok := player.Lookup(key); ok {
		return e.setSetting(key, key, arg)
	}
	return "", false
}

// setSetting sets the player setting name from "set key arg" and answers
// what "get key" then answers. A refused value is not handled: the reply
// gives the player's reason and the value kept. A file or directory that
// cannot be read is not handled either: the reply says what is used
// instead (the setting is back at its default).
func (e *Engine) setSetting(key, name, arg string) (string, bool) {
	if err := e.p.Set(name, arg); err != nil {
		var reset *player.ResetError
		if errors.As(err, &reset) {
			e.log.Warn().Err(err).Str(key, arg).Msg("cb: set refused")
			return fmt.Sprintf("set %s %s: %v (%s)", key, arg, err, reset.Now), false
		}
		return e.refused(key, err)
	}
	reply, _ := e.get(key, "")
	return reply, true
}

// refused is the reply to a "set key" whose value was refused: the reason
// and the value kept.
func (e *Engine) refused(key string, err error) (string, bool) {
	kept, _ := e.get(key, "")
	e.log.Warn().Err(err).Str("key", key).Msg("cb: set refused")
	return fmt.Sprintf("set %s: %v (kept %s)", key, err, kept), false
}

// setBook answers "set book": a level 0..3 (none, all, good, best: the
// book setting off, or on with the margin of bookMargins), or a bool (the
// book setting, the margin kept). The reply is the level.
func (e *Engine) setBook(arg string) (string, bool) {
	level, err := player.ParseInt(arg, BookNone, BookBest)
	if err != nil {
		on, berr := player.ParseBool(arg)
		if berr != nil {
			return e.refused("book", err)
		}
		if err := e.p.Set(player.SetBook, strconv.FormatBool(on)); err != nil {
			return e.refused("book", err)
		}
		return strconv.Itoa(e.bookLevel()), true
	}
	if err := e.p.Set(player.SetBook, strconv.FormatBool(level != BookNone)); err != nil {
		return e.refused("book", err)
	}
	if level != BookNone {
		if err := e.p.Set(player.SetBookMargin, strconv.Itoa(bookMargins[level])); err != nil {
			return e.refused("book", err)
		}
	}
	return strconv.Itoa(level), true
}

// Limits returns the search limits of getmove's time arguments: with
// incremental time (info bits 2-3) the clock and increment packed in
// moreinfo; else maxtime seconds for the move (CheckerBoard's maxtime
// already holds its match clock management; CB_EXACT_TIME asks for the
// same). A maxtime of 0 or less, or one that is not a number, is 10 ms.
// depth > 0 adds a depth limit.
func Limits(maxtime float64, info, moreinfo int, depth int) search.Limits {
	var lim search.Limits
	if mode := (info >> InfoIncrTimeShift) & 3; mode != 0 {
		unit := [4]time.Duration{0, time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}[mode]
		lim.Inc = time.Duration(uint16(moreinfo&0xffff)) * unit
		lim.Time = time.Duration(uint16(uint32(moreinfo)>>16)) * unit
		if lim.Time == 0 && lim.Inc == 0 {
			lim.MoveTime = 10 * time.Millisecond
		}
	} else {
		if !(maxtime > 0) {
			maxtime = 0.01
		}
		maxtime = min(maxtime, 1e7)
		lim.MoveTime = time.Duration(maxtime * float64(time.Second))
	}
	if depth > 0 {
		lim.Depth = depth
	}
	return lim
}

// samePosition reports whether a and b have the same pieces and side to
// move.
func samePosition(a, b *engine.Position) bool {
	wa, ba, ka := a.Squares()
	wb, bb, kb := b.Squares()
	return wa == wb && ba == bb && ka == kb && a.Side == b.Side
}

// GetMove is getmove: it chooses a move for color in board b (the book,
// else a search under the time arguments), writes the position after it to
// b and returns its CBmove and the getmove return value (ResultWin or
// ResultLoss for a forced result: a mate or a win or loss of the endgame
// tables; ResultDraw when the move reaches a draw
// by the rules, else ResultUnknown). The history of the last "set gamehist"
// is used when its position is b's (repetitions, draw rules). playnow, if
// not nil, is polled about every 5 ms during the search: true stops it with
// the best move so far. status, if not nil, receives the status text
// (depth, score, nodes, time, PV) after every iteration and at the end.
// A bad board or colour, or a position without a legal move, leaves b as it
// was and returns ResultLoss (no move) or ResultUnknown (bad input), with
// the reason in the status text and the error.
func (e *Engine) GetMove(b *Board, color int, maxtime float64, info, moreinfo int,
	playnow func() bool, status func(string)) (int, Move, error) {
	if status == nil {
		status = func(string) {}
	}
	e.searchMu.Lock()
	defer e.searchMu.Unlock()

	e.mu.Lock() // no command between reading the variant and setting the game
	v, hist, histText, depth := e.p.Variant(), e.hist, e.histText, e.depth
	pos, err := ToPosition(v, b, color)
	if err != nil {
		e.mu.Unlock()
		status("damka: bad board: " + err.Error())
		e.log.Warn().Err(err).Msg("cb getmove: bad board")
		return ResultUnknown, Move{}, err
	}
	g := engine.NewGame(pos)
	if hist != nil {
		if hp := hist.Position(); hp.V == v && samePosition(&hp, &pos) {
			g = hist
		} else {
			e.log.Info().Str("gamehist", histText).Str("board", FEN(&pos)).Msg("cb getmove: history is of another position, not used")
		}
	}
	e.p.SetGame(g)
	e.mu.Unlock()
	lim := Limits(maxtime, info, moreinfo, depth)
	e.log.Info().Str("fen", FEN(&pos)).Int("history", g.Ply()).Dur("move_time", lim.MoveTime).
		Dur("clock", lim.Time).Dur("inc", lim.Inc).Int("depth", lim.Depth).Msg("cb getmove")

	var mu sync.Mutex // the status callback is called from the job and here
	report := func(info search.Info) {
		s := StatusText(&pos, info)
		mu.Lock()
		status(s)
		mu.Unlock()
	}
	job := e.p.Go(context.Background(), player.Think, lim, report)
	if playnow != nil {
		tick := time.NewTicker(5 * time.Millisecond)
	poll:
		for {
			select {
			case <-job.Done():
				break poll
			case <-tick.C:
				if playnow() {
					job.Stop()
					break poll
				}
			}
		}
		tick.Stop()
	}
	c := job.Wait()
	mu.Lock()
	defer mu.Unlock()
	switch c.Source {
	case search.NoMove:
		status("damka: no legal move in this position")
		return ResultLoss, Move{}, fmt.Errorf("no legal move in %s", FEN(&pos))
	case search.FromBook:
		status("damka: book move " + pos.FormatMove(c.Move, engine.FormatFull))
	default:
		status(StatusText(&pos, search.Info{Depth: c.Depth, Score: c.Score, Nodes: c.Nodes, Time: c.Time, PV: c.PV}))
	}
	if c.Problem != "" {
		e.log.Error().Str("problem", c.Problem).Msg("cb getmove: bad search result")
	}
	cm := ToMove(&pos, c.Move)
	after := pos.Play(c.Move)
	*b = FromPosition(&after)
	ret := ResultUnknown
	switch {
	case c.Source == search.FromSearch && c.Score > search.EGDBWinBound:
		ret = ResultWin // a mate, or a win of the endgame tables
	case c.Source == search.FromSearch && c.Score < -search.EGDBWinBound:
		ret = ResultLoss
	}
	g.Play(c.Move) // the game after the move: did it end by the rules?
	switch r, _ := g.Result(); r {
	case engine.Draw:
		ret = ResultDraw
	case engine.WhiteWins, engine.BlackWins:
		ret = ResultWin // the opponent has no move left
	}
	g.Undo()
	return ret, cm, nil
}

// StatusText is the status line shown while damka thinks: depth, score in
// men, nodes, time and the PV in the variant's notation, e.g.
// "depth 12  score 0.35  nodes 81234  time 0.51s  pv 11-15 23-19 8-11".
func StatusText(root *engine.Position, info search.Info) string {
	s := fmt.Sprintf("depth %d  score %s  nodes %d  time %.2fs", info.Depth, search.FormatScore(info.Score), info.Nodes, info.Time.Seconds())
	if pv := search.FormatPV(root, info.PV, engine.FormatFull); pv != "" {
		s += "  pv " + pv
	}
	if len(s) >= ReplySize {
		s = s[:ReplySize-1]
	}
	return s
}

// IsLegal is islegal: whether the piece on square from (1..32) of board b
// with color to move has a legal move ending on square to, and that move
// as a CBmove. When several captures share from and to (islegal cannot
// tell them apart; CheckerBoard uses "get movelist" for them), the first is
// returned. A bad board is not legal.
func (e *Engine) IsLegal(b *Board, color, from, to int) (Move, bool) {
	pos, err := ToPosition(e.Variant(), b, color)
	if err != nil {
		return Move{}, false
	}
	var list engine.MoveList
	pos.Generate(&list)
	for _, m := range list.Slice() {
		path := pos.Path(m)
		if len(path) >= 2 && int(path[0]) == from && int(path[len(path)-1]) == to {
			return ToMove(&pos, m), true
		}
	}
	return Move{}, false
}
