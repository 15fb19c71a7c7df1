// engine.go: one CheckerBoard engine: its settings, the game history of
// "set gamehist", and getmove, enginecommand and islegal.

package cb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"damka/egdb"
	"damka/engine"
	"damka/search"
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

// bookMargins are the book margins (centi-men) of the book levels: how far
// below the best book move a candidate may score.
var bookMargins = [4]int{0, 40, search.DefaultBookMargin, 0}

// Searcher is the search engine an Engine drives; *search.Engine implements
// it. SetOptions is only called while no search runs.
type Searcher interface {
	search.Searcher
	SetOptions(search.Options)
}

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
	// "hashsize" (0: search.DefaultThreads, search.DefaultHashMiB).
	Threads, HashMiB int
	// BookSeed seeds the choice among book moves; 0 seeds from the clock.
	BookSeed uint64
	// NewSearcher makes the searcher at the first getmove; nil means
	// search.New.
	NewSearcher func(search.Options) Searcher
	// Log receives the commands and the searches (the zero Logger is
	// silent: a DLL has no standard error).
	Log zerolog.Logger
}

// Engine is one CheckerBoard engine. Its methods may be called from any
// goroutine; GetMove runs one search at a time, and commands sent while it
// searches take effect at the next search.
type Engine struct {
	cfg Config
	log zerolog.Logger

	searchMu sync.Mutex // held by GetMove for the whole search
	searcher Searcher

	mu       sync.Mutex // guards the fields below
	variant  engine.VariantID
	threads  int
	hashMiB  int
	book     int
	depth    int          // "set depth" (a damka extension for hosts): 0 none
	hist     *engine.Game // from the last "set gamehist", nil when none
	histText string
	rng      *rand.Rand

	// db is the endgame database of "dbpath" (nil: "off"), dbPath its
	// value ("" the embedded set), dbPieces the "max_dbpieces" limit.
	db       search.EGDB
	dbPath   string
	dbPieces int
}

// New returns an engine set up by cfg.
func New(cfg Config) *Engine {
	if cfg.Name == "" {
		cfg.Name = "damka"
	}
	e := &Engine{cfg: cfg, log: cfg.Log, variant: engine.English, threads: cfg.Threads, hashMiB: cfg.HashMiB, book: BookGood,
		db: egdb.Default(), dbPieces: egdb.MaxPieces}
	if cfg.HasVariant {
		e.variant = cfg.Variant
	}
	e.threads, e.hashMiB = search.FrontEndOptions(e.threads, e.hashMiB)
	seed := cfg.BookSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	e.rng = rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	return e
}

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
func (e *Engine) Variant() engine.VariantID {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.variant
}

// fit returns s if it fits a reply buffer with its NUL, and ok false
// otherwise.
func fit(s string) (string, bool) {
	if len(s) >= ReplySize {
		return fmt.Sprintf("reply too long (%d bytes, at most %d)", len(s), ReplySize-1), false
	}
	return s, true
}

// Command answers one enginecommand: the reply text and whether the
// command was handled (enginecommand's return value 1). Unknown commands,
// and the options damka does not have (book files, dbmbytes, enable_wld,
// mtcpath, allscores, solve), are not handled: the reply is empty. A bad value is
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
		return e.get(key, arg)
	case "set":
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

func (e *Engine) get(key, arg string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch key {
	case "protocolversion":
		return strconv.Itoa(ProtocolVersion), true
	case "gametype":
		return strconv.Itoa(GameType(e.variant)), true
	case "hashsize":
		return strconv.Itoa(e.hashMiB), true
	case "book":
		return strconv.Itoa(e.book), true
	case "searchthreads":
		return strconv.Itoa(e.threads), true
	case "depth":
		return strconv.Itoa(e.depth), true
	case "dbpath":
		return e.dbPath, true
	case "max_dbpieces":
		return strconv.Itoa(e.probedPieces()), true
	case "movelist":
		p, err := ParseFEN(e.variant, arg)
		if err != nil {
			return "get movelist: " + err.Error(), false
		}
		return MoveList(&p), true
	}
	return "", false
}

// setInt reads an option value in [lo, hi].
func setInt(name, arg string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return 0, fmt.Errorf("set %s: %q is not an integer (want %d..%d)", name, arg, lo, hi)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("set %s: %d out of range %d..%d", name, n, lo, hi)
	}
	return n, nil
}

func (e *Engine) set(key, arg string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	var n int
	switch key {
	case "gametype":
		if n, err = strconv.Atoi(arg); err != nil {
			return fmt.Sprintf("set gametype: %q is not a number", arg), false
		}
		v, err := Variant(n)
		if err != nil {
			return "set gametype: " + err.Error(), false
		}
		if v != e.variant {
			e.variant, e.hist = v, nil
		}
		return strconv.Itoa(n), true
	case "gamehist":
		g, err := ParseGameHist(e.variant, arg)
		if err != nil {
			e.hist = nil
			e.log.Warn().Err(err).Msg("cb: set gamehist refused")
			return err.Error(), false
		}
		e.hist, e.histText = g, arg
		return "", true
	case "hashsize":
		if n, err = setInt(key, arg, 1, search.MaxHashMiB); err == nil {
			e.hashMiB = n
		}
	case "book":
		if n, err = setInt(key, arg, BookNone, BookBest); err == nil {
			e.book = n
		}
	case "searchthreads":
		if n, err = setInt(key, arg, 1, search.MaxThreads); err == nil {
			e.threads = n
		}
	case "depth":
		if n, err = setInt(key, arg, 0, search.MaxDepth); err == nil {
			e.depth = n
		}
	case "dbpath":
		return e.setDBPath(arg)
	case "max_dbpieces":
		if n, err = setInt(key, arg, 0, egdb.MaxPieces); err == nil {
			e.dbPieces = n
			n = e.probedPieces()
		}
	default:
		return "", false
	}
	if err != nil {
		return err.Error(), false
	}
	return strconv.Itoa(n), true
}

// setDBPath opens the endgame tables of "set dbpath": "" the embedded set
// (the default), "off" none, else a directory's tables over the embedded
// set; the reply is the value. A directory that cannot be read is refused,
// the reply saying why, and the embedded set is used (as Hub's egdb-path
// does). Slice files are checked when a search first needs them; a
// corrupt one is logged, naming it, and the search goes on without it.
// The same value again changes nothing. e.mu is held.
func (e *Engine) setDBPath(dir string) (string, bool) {
	if dir == e.dbPath {
		return dir, true
	}
	switch dir {
	case "off":
		e.db, e.dbPath = nil, dir
		return dir, true
	case "":
		e.db, e.dbPath = egdb.Default(), ""
		return dir, true
	}
	db, err := egdb.Open(dir)
	if err != nil {
		e.db, e.dbPath = egdb.Default(), ""
		e.log.Warn().Err(err).Str("dbpath", dir).Msg("cb: set dbpath refused")
		return fmt.Sprintf("set dbpath %s: %v (playing with the embedded endgame tables)", dir, err), false
	}
	log := e.log
	db.SetErrorHandler(func(err error) { log.Error().Err(err).Msg("endgame table") })
	e.db, e.dbPath = db, dir
	return dir, true
}

// probedPieces returns the most pieces of a position the search probes
// in the endgame tables in the current variant: the pieces the tables
// hold completely, at most "max_dbpieces". e.mu is held.
func (e *Engine) probedPieces() int {
	if e.db == nil {
		return 0
	}
	return min(e.db.Pieces(e.variant), e.dbPieces)
}

// searchDB returns the search's endgame database: the tables of
// "dbpath", limited to "max_dbpieces" pieces. e.mu is held.
func (e *Engine) searchDB() search.EGDB {
	switch {
	case e.db == nil || e.dbPieces == 0:
		return nil
	case e.dbPieces >= egdb.MaxPieces:
		return e.db
	}
	return limitedDB{e.db, e.dbPieces}
}

// limitedDB is an endgame database probed up to max pieces ("set
// max_dbpieces"): the search probes only positions of Pieces or fewer.
type limitedDB struct {
	db  search.EGDB
	max int
}

// Probe implements search.EGDB.
func (l limitedDB) Probe(p *engine.Position) (egdb.Value, int, bool) { return l.db.Probe(p) }

// Pieces implements search.EGDB: at most max.
func (l limitedDB) Pieces(v engine.VariantID) int { return min(l.db.Pieces(v), l.max) }

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

	e.mu.Lock()
	v, hist, histText := e.variant, e.hist, e.histText
	opts := search.Options{Threads: e.threads, HashMiB: e.hashMiB, EGDB: e.searchDB()}
	bookLevel, depth, rng := e.book, e.depth, e.rng
	e.mu.Unlock()

	pos, err := ToPosition(v, b, color)
	if err != nil {
		status("damka: bad board: " + err.Error())
		e.log.Warn().Err(err).Msg("cb getmove: bad board")
		return ResultUnknown, Move{}, err
	}
	g := engine.NewGame(pos)
	if hist != nil {
		if hp := hist.Position(); samePosition(&hp, &pos) {
			g = hist
		} else {
			e.log.Info().Str("gamehist", histText).Str("board", FEN(&pos)).Msg("cb getmove: history is of another position, not used")
		}
	}
	lim := Limits(maxtime, info, moreinfo, depth)

	if e.searcher == nil {
		mk := e.cfg.NewSearcher
		if mk == nil {
			mk = func(o search.Options) Searcher { return search.New(o) }
		}
		e.searcher = mk(opts)
	} else {
		e.searcher.SetOptions(opts)
	}
	e.log.Info().Str("fen", FEN(&pos)).Int("history", g.Ply()).Dur("move_time", lim.MoveTime).
		Dur("clock", lim.Time).Dur("inc", lim.Inc).Int("depth", lim.Depth).Msg("cb getmove")

	var mu sync.Mutex // the status callback is called from the job and here
	report := func(info search.Info) {
		s := StatusText(&pos, info)
		mu.Lock()
		status(s)
		mu.Unlock()
	}
	job := search.Start(context.Background(), e.searcher, search.Request{
		Game:   g,
		Limits: lim,
		Book:   search.BookOptions{Use: bookLevel != BookNone, Margin: bookMargins[bookLevel], Rand: rng},
		Report: report,
	})
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
