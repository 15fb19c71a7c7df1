// values.go: setting values: reading, checking and applying them, and
// the search options they resolve to.

package player

import (
	"fmt"
	"slices"
	"strconv"
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
