// db.go: a set of tables on disk or embedded, loaded lazily and shared by
// every search thread, and the probe.

package egdb

import (
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/damka-draughts/damka/engine"
)

// DB is a set of slice files: one directory, with the embedded set behind
// it for the slices the directory lacks. A slice's file is read (mapped
// where the system allows) and checked on its first probe, then shared by
// all goroutines; a missing or corrupt file is reported once (Errors, and
// the handler of SetErrorHandler) and its positions probe as unknown, so
// that a search plays on without it. The methods are safe for concurrent
// use.
type DB struct {
	dir    string
	withEm bool // the embedded set is behind dir
	slots  [engine.NumVariants][numCodes]slot
	pieces [engine.NumVariants]int

	mu      sync.Mutex
	errs    []error
	onError func(error)
}

// slot is one slice of a DB.
type slot struct {
	path     string // file in the DB's directory, or "" for the embedded file
	embedded string // name in the embedded set, or ""
	once     sync.Once
	t        atomic.Pointer[table]
	err      error // why the file could not be used (set by load, under once)
	release  func() error
}

// embeddedDir is the embedded set's directory.
const embeddedDir = "data"

var (
	defaultMu sync.Mutex
	defaultDB atomic.Pointer[DB]
)

// Default returns the DB Probe uses: the embedded set until SetDefault.
func Default() *DB {
	if db := defaultDB.Load(); db != nil {
		return db
	}
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if db := defaultDB.Load(); db != nil {
		return db
	}
	db, _ := Open("")
	defaultDB.Store(db)
	return db
}

// SetDefault makes db the DB of Probe.
func SetDefault(db *DB) { defaultDB.Store(db) }

// Probe probes the default DB (see DB.Probe).
func Probe(p *engine.Position) (v Value, dist int, ok bool) { return Default().Probe(p) }

// Open returns the DB of directory dir (every file named as FileName
// gives; other files are ignored) over the embedded set. dir "" is the
// embedded set alone. Files are not read here: each is checked on its
// first probe. The error is about dir itself (missing, not a directory);
// the DB returned with it is still the embedded set.
func Open(dir string) (*DB, error) { return open(dir, true) }

// Off is the value of a tables path (OpenPath) that names no tables.
const Off = "off"

// OpenPath opens the tables a path value names, as the engine's egdb-path
// setting and the tools' --egdb read it: nil and no error for Off, the
// embedded set (Default) for "", else Open(path) (a directory of tables
// over the embedded set) with onErr, if not nil, receiving each load
// error (SetErrorHandler). The error is Open's; the DB is then nil.
func OpenPath(path string, onErr func(error)) (*DB, error) {
	switch path {
	case Off:
		return nil, nil
	case "":
		return Default(), nil
	}
	db, err := Open(path)
	if err != nil {
		return nil, err
	}
	if onErr != nil {
		db.SetErrorHandler(onErr)
	}
	return db, nil
}

// OpenDir is Open without the embedded set: the tables of dir alone (the
// tools that check a directory use it).
func OpenDir(dir string) (*DB, error) { return open(dir, false) }

func open(dir string, withEmbedded bool) (*DB, error) {
	db := &DB{dir: dir, withEm: withEmbedded}
	ents, err := fs.ReadDir(embedded, embeddedDir)
	if err == nil && withEmbedded {
		for _, e := range ents {
			if v, m, ok := parseFileName(e.Name()); ok {
				db.slots[v][m.code()].embedded = e.Name()
			}
		}
	}
	var dirErr error
	if dir != "" {
		ents, err := os.ReadDir(dir)
		if err != nil {
			dirErr = fmt.Errorf("endgame tables: %w", err)
		}
		for _, e := range ents {
			if v, m, ok := parseFileName(e.Name()); ok && e.Type().IsRegular() {
				db.slots[v][m.code()].path = filepath.Join(dir, e.Name())
			}
		}
	}
	for _, v := range engine.AllVariants() {
		db.pieces[v] = 0
		for n := 2; n <= MaxPieces; n++ {
			complete := true
			for _, m := range Materials(v, n) {
				if m.Pieces() == n && !db.slots[v][m.code()].present() {
					complete = false
					break
				}
			}
			if !complete {
				break
			}
			db.pieces[v] = n
		}
	}
	return db, dirErr
}

// parseFileName reads "variant-dddd.egdb".
func parseFileName(name string) (engine.VariantID, Material, bool) {
	base, ok := strings.CutSuffix(name, ".egdb")
	if !ok {
		return 0, Material{}, false
	}
	i := strings.LastIndexByte(base, '-')
	if i < 0 {
		return 0, Material{}, false
	}
	v, err := engine.ParseVariant(base[:i])
	if err != nil || base[:i] != v.String() {
		return 0, Material{}, false
	}
	m, err := ParseMaterial(base[i+1:])
	if err != nil || m.WM+m.WK == 0 || m.BM+m.BK == 0 {
		return 0, Material{}, false
	}
	return v, m, true
}

func (s *slot) present() bool { return s.path != "" || s.embedded != "" }

// Pieces returns the largest n such that every slice of v with n pieces
// or fewer is in db (0: none, also for a nil db). Slices found present may still fail to
// load; their positions then probe as unknown.
func (db *DB) Pieces(v engine.VariantID) int {
	if db == nil || v >= engine.NumVariants {
		return 0
	}
	return db.pieces[v]
}

// Has reports whether db holds slice m of v (a file or the embedded
// set; it may still fail to load). False for a nil db.
func (db *DB) Has(v engine.VariantID, m Material) bool {
	if db == nil || v >= engine.NumVariants {
		return false
	}
	return db.slots[v][m.code()].present()
}

// Dir returns the directory db was opened on ("" for the embedded set).
func (db *DB) Dir() string { return db.dir }

// SetErrorHandler makes fn receive each load error as it happens (once a
// slice), for example to log it. Set it before probing.
func (db *DB) SetErrorHandler(fn func(error)) {
	db.mu.Lock()
	db.onError = fn
	db.mu.Unlock()
}

// Errors returns the load errors so far, each naming its file.
func (db *DB) Errors() []error {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]error(nil), db.errs...)
}

// Probe returns the value of p for its side to move, the distance in
// plies to the end of the game with best play (the winner's shortest, the
// loser's longest) or -1 when the tables of p's slice store no distances
// (slices with men), and ok: false when p has no table here (too many
// pieces, a slice missing or unloadable) or is no game position (a side
// without pieces to move against one without). A pending capture is
// resolved by searching the captures. After a slice's first probe has
// loaded it, Probe allocates nothing. A nil db has no tables.
func (db *DB) Probe(p *engine.Position) (v Value, dist int, ok bool) {
	if db == nil || p.V >= engine.NumVariants || bits.OnesCount64(p.Pieces[0]|p.Pieces[1]) > MaxPieces {
		return Draw, -1, false
	}
	v, d, known, ok := lookup(db, p)
	if !ok {
		return Draw, -1, false
	}
	if !known || v == Draw {
		d = -1
	}
	return v, d, true
}

// code implements source.
func (db *DB) code(v engine.VariantID, m Material, i uint64) (uint8, bool, bool) {
	s := &db.slots[v][m.code()]
	t := s.t.Load()
	if t == nil {
		if !s.present() {
			return 0, false, false
		}
		s.once.Do(func() { db.load(v, m, s) })
		if t = s.t.Load(); t == nil {
			return 0, false, false
		}
	}
	if i >= t.h.Positions {
		return 0, false, false
	}
	return t.code(i), t.dtm, true
}

// load reads and checks slot s (slice m of v).
func (db *DB) load(v engine.VariantID, m Material, s *slot) {
	var (
		b    []byte
		name string
		err  error
	)
	if s.path != "" {
		name = s.path
		b, s.release, err = mapFile(name)
	} else {
		name = "embedded " + s.embedded
		b, err = embedded.ReadFile(embeddedDir + "/" + s.embedded)
	}
	var t *table
	if err == nil {
		t, err = parseFile(name, b)
	}
	if err == nil && (t.h.Variant != v || t.h.Material != m) {
		err = corrupt(name, "holds slice %s of %s", t.h.Material, t.h.Variant)
	}
	if err != nil {
		if s.release != nil {
			s.release()
			s.release = nil
		}
		s.err = err
		db.report(fmt.Errorf("endgame table not used: %w", err))
		return
	}
	s.t.Store(t)
}

// sliceError loads slice m of v and returns why it cannot be used: its
// file is missing from db, or could not be read or is damaged (the error
// names the file and the fault); nil when it loads.
func (db *DB) sliceError(v engine.VariantID, m Material) error {
	s := &db.slots[v][m.code()]
	if !s.present() {
		return fmt.Errorf("slice %s of %s is not in %s", m, v, db.where())
	}
	if s.t.Load() != nil {
		return nil
	}
	s.once.Do(func() { db.load(v, m, s) })
	if s.t.Load() != nil {
		return nil
	}
	return s.err
}

// where names db's tables in messages: its directory, the embedded set,
// or both.
func (db *DB) where() string {
	switch {
	case db.dir == "":
		return "the embedded set"
	case db.withEm:
		return db.dir + " or the embedded set"
	}
	return db.dir
}

// report records a load error and passes it to the handler.
func (db *DB) report(err error) {
	db.mu.Lock()
	db.errs = append(db.errs, err)
	fn := db.onError
	db.mu.Unlock()
	if fn != nil {
		fn(err)
	}
}

// Close unmaps the files of db. No probe may run during or after it.
func (db *DB) Close() error {
	var errs []error
	for v := range db.slots {
		for i := range db.slots[v] {
			s := &db.slots[v][i]
			s.t.Store(nil)
			if s.release != nil {
				errs = append(errs, s.release())
				s.release = nil
			}
		}
	}
	return errors.Join(errs...)
}
