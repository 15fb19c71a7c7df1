// values.go: setting values: reading, checking and applying them, and
// the search options they resolve to.

package player

import (
	"fmt"
	"slices"
	"strings"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/search"
)

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

// set is Set with p.mu held: the row's set.
func (p *Player) set(name, value string) error {
	r, _ := lookupRow(name)
	return r.set(p, value)
}

// setBookFile sets book-file, reading the book it names.
func (p *Player) setBookFile(v string) error {
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
	return nil
}

// setEvalFile sets eval-file, reading the weights it names.
func (p *Player) setEvalFile(v string) error {
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
	return nil
}

// setEGDBPath sets egdb-path, opening the tables it names.
func (p *Player) setEGDBPath(v string) error {
	if v == p.egdbPath && (v == egdb.Off || p.tables != nil) {
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
	return nil
}

// openTables returns the endgame tables of an egdb-path value
// (egdb.OpenPath): nil for "off", their read errors logged.
func (p *Player) openTables(path string) (search.EGDB, error) {
	log := p.log
	db, err := egdb.OpenPath(path, func(err error) { log.Error().Err(err).Msg("endgame table") })
	if db == nil {
		return nil, err
	}
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

// applyOptions gives the searcher the current options when no search runs
// (else Go does it).
func (p *Player) applyOptions() {
	if p.idle() {
		p.searcher.SetOptions(p.options())
	}
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

// get is Get with p.mu held, for a known name: the row's get.
func (p *Player) get(name string) string {
	r, _ := lookupRow(name)
	return r.get(p)
}
