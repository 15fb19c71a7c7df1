// params.go: the engine parameters a Hub GUI sees (param lines) and sets
// (set-param), before or after init.

package hub

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"damka/book"
	"damka/egdb"
	"damka/engine"
	"damka/eval"
	"damka/search"
)

// param is one declared engine parameter.
type param struct {
	name     string
	typ      string   // bool, int, enum or string
	min, max int      // int
	values   []string // enum
	get      func(s *session) string
	set      func(s *session, v string) error
}

// line is the param line announcing p with its current value.
func (p *param) line(s *session) Line {
	l := NewLine("param").With("name", p.name).With("value", p.get(s)).With("type", p.typ)
	switch p.typ {
	case "int":
		l = l.With("min", strconv.Itoa(p.min)).With("max", strconv.Itoa(p.max))
	case "enum":
		l = l.With("values", strings.Join(p.values, " "))
	}
	return l
}

// parseBool reads a bool parameter value: true/false, and also on/off,
// yes/no, 1/0 (any case).
func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("value '%s' is not a bool (want true or false)", v)
}

// parseInt reads an int parameter value in [lo, hi].
func parseInt(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("value '%s' is not an integer (want %d..%d)", v, lo, hi)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("value %d out of range %d..%d", n, lo, hi)
	}
	return n, nil
}

func boolText(b bool) string { return strconv.FormatBool(b) }

// declareParams lists damka's parameters in the order the hub answer gives
// them.
func (s *session) declareParams() []param {
	return []param{
		{
			name: "variant", typ: "enum", values: engine.VariantNames(),
			get: func(s *session) string { return s.variant.String() },
			set: func(s *session, v string) error {
				// The names and aliases (Scan's "normal", pydraughts'
				// "standard") are the engine's rules table.
				id, err := engine.ParseVariant(v)
				if err != nil {
					return fmt.Errorf("unknown variant '%s' (want %s; also accepted: %s)",
						v, strings.Join(engine.VariantNames(), ", "), engine.AliasText())
				}
				s.autoVariant = false // the GUI chose it
				s.setVariant(id)      // a new board and a fresh table when it changes
				return nil
			},
		},
		{
			name: "threads", typ: "int", min: 1, max: search.MaxThreads,
			get: func(s *session) string { return strconv.Itoa(s.threads) },
			set: func(s *session, v string) error {
				n, err := parseInt(v, 1, search.MaxThreads)
				if err != nil {
					return err
				}
				s.threads = n
				if s.searcher != nil {
					s.searcher.SetOptions(s.options())
				}
				return nil
			},
		},
		{
			name: "hash", typ: "int", min: 1, max: search.MaxHashMiB,
			get: func(s *session) string { return strconv.Itoa(s.hashMiB) },
			set: func(s *session, v string) error {
				n, err := parseInt(v, 1, search.MaxHashMiB)
				if err != nil {
					return err
				}
				s.hashMiB = n
				if s.searcher != nil {
					s.searcher.SetOptions(s.options())
				}
				return nil
			},
		},
		{
			// The embedded opening book (book.Default) for go think and go
			// ponder; go analyze never uses it.
			name: "book", typ: "bool",
			get: func(s *session) string { return boolText(s.book) },
			set: func(s *session, v string) error {
				b, err := parseBool(v)
				if err == nil {
					s.book = b
				}
				return err
			},
		},
		{
			// Variety: the book chooses among moves scoring within this many
			// centi-men of its best, weighted by how often they were played
			// or kept.
			name: "book-margin", typ: "int", min: 0, max: search.MaxBookMargin,
			get: func(s *session) string { return strconv.Itoa(s.bookMargin) },
			set: func(s *session, v string) error {
				n, err := parseInt(v, 0, search.MaxBookMargin)
				if err == nil {
					s.bookMargin = n
				}
				return err
			},
		},
		{
			// An opening book file (book.ReadFileAny) used in games of its
			// variant; empty: the embedded books.
			name: "book-file", typ: "string",
			get: func(s *session) string { return s.bookFile },
			set: (*session).setBookFile,
		},
		{
			// Tells the GUI whether to send go ponder; damka accepts go
			// ponder either way.
			name: "ponder", typ: "bool",
			get: func(s *session) string { return boolText(s.ponder) },
			set: func(s *session, v string) error {
				b, err := parseBool(v)
				if err == nil {
					s.ponder = b
				}
				return err
			},
		},
		{
			// Milliseconds kept back from every move time and clock for
			// the round trip (search.Limits MoveOverhead).
			name: "move-overhead", typ: "int", min: 0, max: MaxMoveOverheadMs,
			get: func(s *session) string { return strconv.Itoa(s.moveOverheadMs) },
			set: func(s *session, v string) error {
				n, err := parseInt(v, 0, MaxMoveOverheadMs)
				if err == nil {
					s.moveOverheadMs = n
				}
				return err
			},
		},
		{
			// A weights file of the learned evaluation (eval.LoadWeights)
			// used in games of its variant; empty: the embedded weights.
			name: "eval-file", typ: "string",
			get: func(s *session) string { return s.evalFile },
			set: (*session).setEvalFile,
		},
		{
			// The endgame tables (package egdb): "" the embedded set,
			// "off" none, else a directory over the embedded set.
			name: "egdb-path", typ: "string",
			get: func(s *session) string { return s.egdbPath },
			set: (*session).setEGDBPath,
		},
	}
}

// setEGDBPath opens the endgame tables of the egdb-path parameter. A
// directory that cannot be read is an error after which the embedded set
// is used. Slice files are checked when the search first needs them; a
// corrupt one is logged, naming it, and the search goes on without it.
func (s *session) setEGDBPath(v string) error {
	db, err := openEGDB(v, s.log)
	if err != nil {
		s.egdbPath, s.egdb = "", egdb.Default()
		if s.searcher != nil {
			s.searcher.SetOptions(s.options())
		}
		return resetError{err, "playing with the embedded endgame tables"}
	}
	s.egdbPath, s.egdb = v, db
	if s.searcher != nil {
		s.searcher.SetOptions(s.options())
	}
	return nil
}

// openEGDB returns the endgame tables of an egdb-path value: nil for
// "off", the embedded set for "", else the directory's (over the
// embedded set), its load errors logged.
func openEGDB(path string, log zerolog.Logger) (search.EGDB, error) {
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
	db.SetErrorHandler(func(err error) { log.Error().Err(err).Msg("endgame table") })
	return db, nil
}

// setBookFile loads the book-file parameter's file. A file that does not
// load is an error after which the embedded books are used; a book of
// another variant than the session's is reported when a search starts
// (reportBook), as the GUI may set the variant after it.
func (s *session) setBookFile(v string) error {
	var b *book.Book
	if v != "" {
		var err error
		if b, err = book.ReadFileAny(v); err != nil {
			s.bookFile, s.bookB = "", nil
			return resetError{err, "playing with the embedded book"}
		}
	}
	s.bookFile, s.bookB = v, b
	return nil
}

// setEvalFile loads the eval-file parameter's file. A file that does not
// load is an error after which the embedded weights are used; a file of
// another variant than the session's is reported when a search starts
// (useEval), as the GUI may set the variant after it.
// The same file set again (GUIs that send every parameter before each
// search) changes nothing: the table is kept.
func (s *session) setEvalFile(v string) error {
	var w *eval.Weights
	if v != "" {
		var err error
		if w, err = eval.ReadWeightsFile(v); err != nil {
			s.evalFile = ""
			s.useWeights(nil)
			return resetError{err, "playing with the embedded weights"}
		}
	}
	s.evalFile = v
	s.useWeights(w)
	return nil
}

// useWeights makes w the session's weights (nil: the embedded ones). When
// they change, the searcher gets them and its table is cleared: scores of
// other weights are stale.
func (s *session) useWeights(w *eval.Weights) {
	if sameWeights(w, s.evalW) {
		return
	}
	s.evalW = w
	if s.searcher != nil {
		s.searcher.SetOptions(s.options())
		s.searcher.Clear()
	}
}

// sameWeights reports whether a and b are the same weights (nil: none).
func sameWeights(a, b *eval.Weights) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.V == b.V && a.Dense == b.Dense && a.Note == b.Note && slices.Equal(a.Pattern, b.Pattern)
}

// resetError is a set-param error after which the parameter is not kept
// but reset; now says what is in use instead.
type resetError struct {
	err error
	now string
}

func (e resetError) Error() string { return e.err.Error() }

// MaxMoveOverheadMs bounds move-overhead, in milliseconds.
const MaxMoveOverheadMs = int(search.MaxMoveOverhead / time.Millisecond)

// overheadMs is the move-overhead value of a Config.MoveOverhead.
func overheadMs(d time.Duration) int {
	switch {
	case d < 0:
		return 0
	case d == 0:
		d = search.DefaultMoveOverhead
	}
	return int(min(d, search.MaxMoveOverhead) / time.Millisecond)
}

// moveOverhead is the search.Limits MoveOverhead of move-overhead: 0 for
// the default, negative for none.
func (s *session) moveOverhead() time.Duration {
	switch d := time.Duration(s.moveOverheadMs) * time.Millisecond; d {
	case 0:
		return -1
	case search.DefaultMoveOverhead:
		return 0
	default:
		return d
	}
}

// setParam handles "set-param name=N value=V". A bad name or value
// changes nothing; unknown arguments are ignored. Each problem is reported
// in one error line.
func (s *session) setParam(l Line) {
	var unknown []string
	for _, a := range l.Args {
		if a.Name != "name" && a.Name != "value" {
			unknown = append(unknown, a.Name)
		}
	}
	var msg string
	defer func() {
		if len(unknown) > 0 {
			if msg == "" {
				msg = ":"
			} else {
				msg += ";"
			}
			msg += " unknown argument " + quoteList(unknown) + " ignored"
		}
		if msg != "" {
			s.errorf("set-param%s", msg)
		}
	}()
	name, ok := l.Get("name")
	if !ok || name == "" {
		msg = ": missing name="
		return
	}
	v, ok := l.Get("value")
	if !ok {
		msg = fmt.Sprintf(": missing value= for '%s'", name)
		return
	}
	for i := range s.params {
		p := &s.params[i]
		if p.name != name {
			continue
		}
		if err := p.set(s, v); err != nil {
			var reset resetError
			if errors.As(err, &reset) {
				msg = fmt.Sprintf(" %s: %v (%s)", name, err, reset.now)
			} else {
				msg = fmt.Sprintf(" %s: %v (kept %s)", name, err, p.get(s))
			}
			return
		}
		s.log.Info().Str("param", name).Str("value", p.get(s)).Msg("hub: parameter set")
		return
	}
	names := make([]string, len(s.params))
	for i := range s.params {
		names[i] = s.params[i].name
	}
	msg = fmt.Sprintf(": unknown parameter '%s' (known: %s)", name, strings.Join(names, ", "))
}
