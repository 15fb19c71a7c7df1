// Package player is damka as one player of one game: the engine's settings
// (the declared table of settings.go), the resources they name (each
// variant's evaluation weights, opening book and endgame tables, resolved
// once when a setting changes) and the game being played. It is the only
// thing the front ends drive: Hub, CheckerBoard, DXP, the text mode and
// the command line map their own commands onto Set, NewGame, SetGame, Go,
// Stop and PonderHit.
//
// It sits between the search and the front ends: it imports search, eval,
// book and egdb, and knows nothing of any protocol. docs/settings.md lists
// the settings and how each front end spells them.
package player

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"damka/book"
	"damka/egdb"
	"damka/engine"
	"damka/eval"
	"damka/search"
)

// Searcher is the search engine a Player drives; *search.Engine implements
// it. Jobs are started with search.Start, one at a time; Clear and
// SetOptions are only called while no job runs.
type Searcher interface {
	search.Searcher
	Clear()
	SetOptions(search.Options)
}

// Config sets up a Player. The zero value is usable: every setting at its
// table default, the book's choices seeded from the clock, no logging.
type Config struct {
	// BookSeed seeds the choice among book moves; 0 seeds from the clock,
	// so that games vary.
	BookSeed uint64
	// NewSearcher makes the searcher on first use (Init or the first Go);
	// nil means search.New.
	NewSearcher func(search.Options) Searcher
	// Notice, if not nil, is told in one sentence when a setting cannot be
	// used as set in the current game: a weights or book file of another
	// variant (the embedded ones are used). Go calls it, from Go's
	// goroutine, once for each change of what is in use.
	Notice func(msg string)
	// Log receives setting changes and the resources in use at info
	// level, endgame table read errors at error level. The zero Logger is
	// silent.
	Log zerolog.Logger
}

// Mode is what Go searches for.
type Mode uint8

// The modes of Go.
const (
	// Think chooses a move to play: the book first, then the search under
	// the limits.
	Think Mode = iota
	// Ponder searches the position on the opponent's time until
	// PonderHit (then under the limits, counted from the hit) or Stop.
	Ponder
	// Analyse searches until Stop, never from the book: it does not
	// return before Stop even when it has reached its depth or node limit
	// (the Hub's go analyze).
	Analyse
)

// String returns think, ponder or analyse.
func (m Mode) String() string {
	switch m {
	case Ponder:
		return "ponder"
	case Analyse:
		return "analyse"
	}
	return "think"
}

// ResetError is the error of a Set that could not load the file or
// directory it names: the setting was reset to its default (Now says what
// is used instead), not kept at its old value.
type ResetError struct {
	Err error
	// Now says what the player uses instead, e.g. "playing with the
	// embedded book".
	Now string
}

// Error returns the load error's text.
func (e *ResetError) Error() string { return e.Err.Error() }

// Unwrap returns the load error.
func (e *ResetError) Unwrap() error { return e.Err }

// ErrUnknownSetting is the error (wrapped) of Set and Get for a name that
// is not in the table; the message lists the known names.
var ErrUnknownSetting = errors.New("unknown setting")

// Player is one engine playing one game: its settings, the resources they
// name and the game. Its methods may be called from any goroutine; Stop
// and PonderHit never wait for anything.
type Player struct {
	cfg Config
	log zerolog.Logger

	mu sync.Mutex // guards everything below; never held while a search runs

	variant    engine.VariantID
	threads    int
	hashMiB    int
	useBook    bool
	bookMargin int
	ponder     bool
	overheadMs int
	egdbPieces int
	multiPV    int
	strength   int

	// bookFile is book-file ("" the embedded books), bookB its book (of
	// any variant; nil for none).
	bookFile string
	bookB    *book.Book
	// evalFile is eval-file ("" the embedded weights), evalW its weights
	// (of any variant; nil for none).
	evalFile string
	evalW    *eval.Weights
	// egdbPath is egdb-path, tables its tables (nil for "off").
	egdbPath string
	tables   search.EGDB

	rng *rand.Rand
	// levelRng draws the move among the lines below full strength.
	levelRng *rand.Rand
	searcher Searcher // nil until Init or the first Go
	game     *engine.Game
	// shown is what the last Go reported in use (notices are sent when
	// it changes).
	shown inUse

	job atomic.Pointer[search.Job] // the last job started (maybe done)
}

// inUse is what a Go reported in use: the variant and the weights and
// book files then set.
type inUse struct {
	v     engine.VariantID
	evalW *eval.Weights
	bookB *book.Book
}

// New returns a player with every setting at its table default and the
// start position of the default variant. Nothing is allocated for the
// search until Init or the first Go.
func New(cfg Config) *Player {
	p := &Player{cfg: cfg, log: cfg.Log}
	seed := cfg.BookSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	p.rng = rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	p.levelRng = rand.New(rand.NewPCG(seed^0xD1B54A32D192ED03, seed))
	for _, s := range table {
		if err := p.set(s.Name, s.Default); err != nil {
			panic("player: default of " + s.Name + ": " + err.Error()) // the table is wrong
		}
	}
	p.game = engine.NewGame(engine.StartPosition(p.variant))
	p.shown = inUse{v: engine.VariantID(255)}
	return p
}

// Set sets the setting called name to value (text, as Setting.Kind reads
// it) and applies it: a new table size or thread count reaches the searcher
// at once when no search runs (else at the next Go); a new variant starts
// a new game; a weights file, book file or table directory is read now.
// Errors name the setting and the value: ErrUnknownSetting (wrapped) for
// a name not in the table, a plain error when the value is refused (the
// setting keeps its value), *ResetError when a file or directory cannot
// be read (the setting is reset to its default). The same value again
// changes nothing (GUIs send every setting before each game).
func (p *Player) Set(name, value string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := Lookup(name); !ok {
		return fmt.Errorf("%w '%s' (known: %s)", ErrUnknownSetting, name, strings.Join(Names(), ", "))
	}
	if err := p.set(name, value); err != nil {
		return err
	}
	p.log.Info().Str("setting", name).Str("value", p.get(name)).Msg("player: setting")
	return nil
}

// set is Set with p.mu held.
func (p *Player) set(name, value string) error {
	s, _ := Lookup(name)
	if s.Kind == String {
		return p.setString(name, value)
	}
	if err := s.Check(value); err != nil {
		return err
	}
	switch name {
	case SetVariant:
		id, _ := parseVariant(value)
		p.setVariant(id)
	case SetThreads:
		p.threads, _ = ParseInt(value, s.Min, s.Max)
		p.applyOptions()
	case SetHash:
		p.hashMiB, _ = ParseInt(value, s.Min, s.Max)
		p.applyOptions()
	case SetBook:
		p.useBook, _ = ParseBool(value)
	case SetBookMargin:
		p.bookMargin, _ = ParseInt(value, s.Min, s.Max)
	case SetEGDBPieces:
		p.egdbPieces, _ = ParseInt(value, s.Min, s.Max)
		p.applyOptions()
	case SetMoveOverhead:
		p.overheadMs, _ = ParseInt(value, s.Min, s.Max)
	case SetPonder:
		p.ponder, _ = ParseBool(value)
	case SetMultiPV:
		p.multiPV, _ = ParseInt(value, s.Min, s.Max)
	case SetStrength:
		p.strength, _ = ParseInt(value, s.Min, s.Max)
	}
	return nil
}

// setString sets a file or directory setting, reading what it names.
func (p *Player) setString(name, v string) error {
	switch name {
	case SetBookFile:
		if v == p.bookFile && (v == "" || p.bookB != nil) {
			return nil
		}
		var b *book.Book
		if v != "" {
			var err error
			if b, err = book.ReadFileAny(v); err != nil {
				p.bookFile, p.bookB = "", nil
				return &ResetError{err, "playing with the embedded book"}
			}
		}
		p.bookFile, p.bookB = v, b
	case SetEvalFile:
		if v == p.evalFile && (v == "" || p.evalW != nil) {
			return nil
		}
		var w *eval.Weights
		if v != "" {
			var err error
			if w, err = eval.ReadWeightsFile(v); err != nil {
				p.evalFile = ""
				p.useWeights(nil)
				return &ResetError{err, "playing with the embedded weights"}
			}
		}
		p.evalFile = v
		p.useWeights(w)
	case SetEGDBPath:
		if v == p.egdbPath && (v == "off" || p.tables != nil) {
			return nil
		}
		db, err := p.openTables(v)
		if err != nil {
			p.egdbPath, p.tables = "", egdb.Default()
			p.applyOptions()
			return &ResetError{err, "playing with the embedded endgame tables"}
		}
		p.egdbPath, p.tables = v, db
		p.applyOptions()
	}
	return nil
}

// openTables returns the endgame tables of an egdb-path value: nil for
// "off", the embedded set for "", else the directory's tables over the
// embedded set, their read errors logged.
func (p *Player) openTables(path string) (search.EGDB, error) {
	switch path {
	case "off":
		return nil, nil
	case "":
		return egdb.Default(), nil
	}
	db, err := egdb.Open(path)
	if err != nil {
		return nil, err
	}
	log := p.log
	db.SetErrorHandler(func(err error) { log.Error().Err(err).Msg("endgame table") })
	return db, nil
}

// useWeights makes w the weights (nil: the embedded ones). When they
// change, the searcher gets them and its table is cleared: scores of
// other weights are stale.
func (p *Player) useWeights(w *eval.Weights) {
	if sameWeights(w, p.evalW) {
		return
	}
	p.evalW = w
	if p.idle() {
		p.searcher.SetOptions(p.options())
		p.searcher.Clear()
	}
}

// sameWeights reports whether a and b are the same weights (nil: none).
func sameWeights(a, b *eval.Weights) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.V == b.V && a.Dense == b.Dense && a.Note == b.Note && slices.Equal(a.Pattern, b.Pattern)
}

// setVariant makes id the variant: a new game from its start position and
// a fresh table when it changes.
func (p *Player) setVariant(id engine.VariantID) {
	if id == p.variant && p.game != nil {
		return
	}
	p.variant = id
	p.game = engine.NewGame(engine.StartPosition(id))
	if p.idle() {
		p.searcher.Clear()
	}
}

// idle reports whether there is a searcher and no job running on it.
func (p *Player) idle() bool {
	if p.searcher == nil {
		return false
	}
	j := p.job.Load()
	if j == nil {
		return true
	}
	select {
	case <-j.Done():
		return true
	default:
		return false
	}
}

// applyOptions gives the searcher the current options when no search runs
// (else Go does it).
func (p *Player) applyOptions() {
	if p.idle() {
		p.searcher.SetOptions(p.options())
	}
}

// options returns the searcher options of the current settings.
func (p *Player) options() search.Options {
	return search.Options{Threads: p.threads, HashMiB: p.hashMiB, Eval: p.evalW, EGDB: p.probedTables()}
}

// probedTables is the search's endgame database: egdb-path's tables,
// probed up to egdb-pieces pieces.
func (p *Player) probedTables() search.EGDB {
	switch {
	case p.tables == nil || p.egdbPieces == 0:
		return nil
	case p.egdbPieces >= egdb.MaxPieces:
		return p.tables
	}
	return limitedTables{p.tables, p.egdbPieces}
}

// limitedTables is an endgame database probed up to max pieces: the
// search probes only positions of Pieces or fewer.
type limitedTables struct {
	db  search.EGDB
	max int
}

// Probe implements search.EGDB.
func (l limitedTables) Probe(p *engine.Position) (egdb.Value, int, bool) { return l.db.Probe(p) }

// Pieces implements search.EGDB: at most max.
func (l limitedTables) Pieces(v engine.VariantID) int { return min(l.db.Pieces(v), l.max) }

// Get returns a setting's value as text (what Set would take back), or an
// error wrapping ErrUnknownSetting.
func (p *Player) Get(name string) (string, error) {
	if _, ok := Lookup(name); !ok {
		return "", fmt.Errorf("%w '%s' (known: %s)", ErrUnknownSetting, name, strings.Join(Names(), ", "))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.get(name), nil
}

// get is Get with p.mu held, for a known name.
func (p *Player) get(name string) string {
	switch name {
	case SetVariant:
		return p.variant.String()
	case SetThreads:
		return strconv.Itoa(p.threads)
	case SetHash:
		return strconv.Itoa(p.hashMiB)
	case SetBook:
		return strconv.FormatBool(p.useBook)
	case SetBookMargin:
		return strconv.Itoa(p.bookMargin)
	case SetBookFile:
		return p.bookFile
	case SetEvalFile:
		return p.evalFile
	case SetEGDBPath:
		return p.egdbPath
	case SetEGDBPieces:
		return strconv.Itoa(p.egdbPieces)
	case SetMoveOverhead:
		return strconv.Itoa(p.overheadMs)
	case SetPonder:
		return strconv.FormatBool(p.ponder)
	case SetMultiPV:
		return strconv.Itoa(p.multiPV)
	case SetStrength:
		return strconv.Itoa(p.strength)
	}
	return ""
}

// Variant returns the variant setting.
func (p *Player) Variant() engine.VariantID {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.variant
}

// SetVariant is Set("variant", ...) with a variant of the rules table.
func (p *Player) SetVariant(id engine.VariantID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setVariant(id)
}

// EGDBPieces returns the most pieces of a position the search probes in
// the endgame tables in the current variant: what the tables hold
// completely, at most egdb-pieces; 0 without tables.
func (p *Player) EGDBPieces() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if db := p.probedTables(); db != nil {
		return db.Pieces(p.variant)
	}
	return 0
}

// Options returns the search options the settings resolve to: threads,
// table size, the eval-file weights (nil: embedded) and the endgame
// tables (nil: none), for tools that run their own searches.
func (p *Player) Options() search.Options {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.options()
}

// Init makes the searcher now (its table allocated) rather than at the
// first Go, as a GUI's "init" asks, and applies the settings to it.
func (p *Player) Init() {
	p.waitJob()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ensureSearcher()
}

// ensureSearcher makes the searcher on first use, else gives it the
// current options; p.mu is held and no job runs.
func (p *Player) ensureSearcher() {
	if p.searcher == nil {
		mk := p.cfg.NewSearcher
		if mk == nil {
			mk = func(o search.Options) Searcher { return search.New(o) }
		}
		p.searcher = mk(p.options())
		p.log.Info().Int("threads", p.threads).Int("hash_mib", p.hashMiB).Msg("player: searcher ready")
		return
	}
	p.searcher.SetOptions(p.options())
}

// NewGame starts a new game of the current variant from its start
// position and forgets what the search learned (a running search is
// stopped first).
func (p *Player) NewGame() {
	p.Stop()
	p.waitJob()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.game = engine.NewGame(engine.StartPosition(p.variant))
	if p.searcher != nil {
		p.searcher.Clear()
	}
}

// SetGame makes g the game played (a position and the moves that led to
// it): the player owns it from now on, and the caller changes it only
// through Game while no search runs. A game of another variant than the
// setting's changes the variant setting to it.
func (p *Player) SetGame(g *engine.Game) {
	p.waitJob()
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := g.Position().V; v != p.variant {
		p.setVariant(v)
	}
	p.game = g
}

// Game returns the game played. Do not change it while a search runs.
func (p *Player) Game() *engine.Game {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.game
}

// Go starts a search of the game's current position in the given mode and
// returns its job at once: Think probes the book first (when the book
// setting is on), Ponder and Analyse set the limits' Ponder and Infinite.
// The limits' MoveOverhead is the move-overhead setting; a multipv setting
// above 1 is their MultiPV, in every mode (the move played is line 1's).
// Below full strength (the strength setting) Think and Ponder search under
// the level's node budget and lines and play the move the level draws
// among them (strength.go); reports show the multipv setting's lines only.
// report, if not nil, gets the search's progress (search.Request.Report). A job still
// running is stopped and waited for first. The job is also the one Stop
// and PonderHit reach.
func (p *Player) Go(ctx context.Context, mode Mode, limits search.Limits, report func(search.Info)) *search.Job {
	p.Stop()
	p.waitJob()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reportInUse()
	p.ensureSearcher()
	switch mode {
	case Ponder:
		limits.Ponder = true
	case Analyse:
		limits.Infinite = true
	}
	limits.MoveOverhead = p.moveOverhead()
	if p.multiPV > 1 {
		limits.MultiPV = p.multiPV
	}
	var s search.Searcher = p.searcher
	if lv, ok := levelOf(p.strength); ok && mode != Analyse {
		limits = lv.limits(limits)
		s = levelSearcher{inner: p.searcher, lv: lv, rng: p.levelRng, shown: p.multiPV}
		report = shownReports(report, p.multiPV)
	}
	j := search.Start(ctx, s, search.Request{
		Game:   p.game,
		Limits: limits,
		Book:   search.BookOptions{Use: p.useBook && mode != Analyse, Book: p.gameBook(), Margin: p.bookMargin, Rand: p.rng},
		Report: report,
	})
	p.job.Store(j)
	return j
}

// Stop ends the running search, if any, as soon as possible; its job's
// choice is the best move so far.
func (p *Player) Stop() {
	if j := p.job.Load(); j != nil {
		j.Stop()
	}
}

// PonderHit tells a pondering search that the expected move was played:
// it goes on under its limits, counted from now.
func (p *Player) PonderHit() {
	if j := p.job.Load(); j != nil {
		j.PonderHit()
	}
}

// waitJob waits for the last job to end.
func (p *Player) waitJob() {
	if j := p.job.Load(); j != nil {
		<-j.Done()
	}
}

// MultiPV returns the multipv setting: the number of lines Go searches
// (search.Limits.MultiPV; 1 is a single line).
func (p *Player) MultiPV() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.multiPV
}

// MoveOverhead returns the search.Limits MoveOverhead of the
// move-overhead setting (Go sets it itself): 0 for the default, negative
// for none, else the time.
func (p *Player) MoveOverhead() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.moveOverhead()
}

// moveOverhead is MoveOverhead with p.mu held.
func (p *Player) moveOverhead() time.Duration {
	switch d := time.Duration(p.overheadMs) * time.Millisecond; d {
	case 0:
		return -1
	case search.DefaultMoveOverhead:
		return 0
	default:
		return d
	}
}

// gameBook is the book of Think and Ponder: the book-file book when it is
// of the game's variant, else nil (the embedded book).
func (p *Player) gameBook() *book.Book {
	if p.bookB != nil && p.bookB.Variant() == p.variant {
		return p.bookB
	}
	return nil
}

// reportInUse logs the weights and book the game's variant uses when that
// changes, and sends a notice when a file set is of another variant.
func (p *Player) reportInUse() {
	now := inUse{v: p.variant, evalW: p.evalW, bookB: p.bookB}
	if now == p.shown {
		return
	}
	p.shown = now
	use, evalFrom := eval.Default(p.variant), "embedded"
	if p.evalW != nil && p.evalW.V == p.variant {
		use, evalFrom = p.evalW, p.evalFile
	}
	bookFrom := "embedded"
	if p.gameBook() != nil {
		bookFrom = p.bookFile
	}
	p.log.Info().Str("variant", p.variant.String()).Str("eval", evalFrom).Str("weights", use.Title()).
		Str("book", bookFrom).Msg("player: in use")
	for _, m := range p.mismatches() {
		p.notice(m.Error() + ": " + p.variant.String() + " plays with the embedded " + m.embedded)
	}
}

// Mismatch is a file setting that does not fit the variant setting: a
// weights or book file of another variant. The file stays set (a GUI may
// set the variant after it) and the embedded one is used meanwhile.
type Mismatch struct {
	Setting string           // eval-file or book-file
	File    string           // the setting's value
	Holds   engine.VariantID // the file's variant
	Variant engine.VariantID // the variant setting
	// embedded names what is used instead: "weights" or "book".
	embedded string
}

// Error says what does not fit, e.g. "eval-file w.dkw holds english
// weights, not russian".
func (m Mismatch) Error() string {
	if m.Setting == SetBookFile {
		return fmt.Sprintf("book-file %s is a %v book, not %v", m.File, m.Holds, m.Variant)
	}
	return fmt.Sprintf("eval-file %s holds %v weights, not %v", m.File, m.Holds, m.Variant)
}

// Mismatches returns the file settings of another variant than the
// variant setting (none when all fit). Command lines refuse them as bad
// input; a GUI session is told at Go (Config.Notice).
func (p *Player) Mismatches() []Mismatch {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mismatches()
}

// mismatches is Mismatches with p.mu held.
func (p *Player) mismatches() []Mismatch {
	var out []Mismatch
	if p.evalW != nil && p.evalW.V != p.variant {
		out = append(out, Mismatch{SetEvalFile, p.evalFile, p.evalW.V, p.variant, "weights"})
	}
	if p.bookB != nil && p.bookB.Variant() != p.variant {
		out = append(out, Mismatch{SetBookFile, p.bookFile, p.bookB.Variant(), p.variant, "book"})
	}
	return out
}

// SetNotice replaces Config.Notice: f (nil for none) is told from now on
// when a setting cannot be used as set in the current game. A front end
// given a ready player (made from the command line) sets it to its own
// way of telling the user.
func (p *Player) SetNotice(f func(msg string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.Notice = f
}

// notice passes msg to Config.Notice and the log.
func (p *Player) notice(msg string) {
	p.log.Warn().Msg(msg)
	if p.cfg.Notice != nil {
		p.cfg.Notice(msg)
	}
}
