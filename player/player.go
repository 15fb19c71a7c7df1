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
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/search"
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

// options returns the searcher options of the current settings.
func (p *Player) options() search.Options {
	return search.Options{Threads: p.threads, HashMiB: p.hashMiB, Eval: p.evalW, EGDB: p.probedTables()}
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
		picked := new(atomic.Bool)
		s = levelSearcher{inner: p.searcher, lv: lv, rng: p.levelRng, shown: p.multiPV, picked: picked}
		report = shownReports(report, p.multiPV, picked)
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
