// settings.go: the one declared table of the engine's settings. Every
// front end maps onto it: Hub parameters (same names), command-line flags
// (--NAME), CheckerBoard's enginecommand (native keys and "set NAME
// VALUE"), DXP's command-line flags and the text mode's "set NAME VALUE".

package player

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/search"
)

// Kind is the type of a setting's value.
type Kind uint8

// The kinds of settings. Values travel as text (Hub lines, flags,
// CheckerBoard strings); a Kind says how the text is read.
const (
	// Bool: true or false (also on/off, yes/no, 1/0, any case).
	Bool Kind = iota
	// Int: a whole number in Min..Max.
	Int
	// Enum: one of Values (a variant also by its aliases).
	Enum
	// String: any text, such as a file or directory name.
	String
)

// String returns the Hub type name: bool, int, enum or string.
func (k Kind) String() string {
	switch k {
	case Bool:
		return "bool"
	case Int:
		return "int"
	case Enum:
		return "enum"
	}
	return "string"
}

// Setting declares one engine setting: its name, the type and range of its
// values, its default and a one-line description. Settings returns the
// table.
type Setting struct {
	// Name is the setting's name everywhere: the Hub parameter, the
	// command-line flag --Name, CheckerBoard's "set Name", the text
	// mode's "set Name".
	Name string
	Kind Kind
	// Min and Max bound an Int setting (inclusive); Unit names its unit
	// ("MiB", "ms", "centi-men"), empty when it has none.
	Min, Max int
	Unit     string
	// Values are an Enum setting's values, in the order shown.
	Values []string
	// Default is the value a new Player starts with, as text.
	Default string
	// Doc says in one line what the setting does.
	Doc string
	// Search is true for a setting of every search, not only of the
	// games damka plays: analysis and the tools that search take it
	// (SearchNames). The book's settings, ponder, multipv and strength
	// are the games' alone.
	Search bool
	// Scores is true for a setting that chooses what a search's scores
	// are made of, the evaluation weights and the endgame tables
	// (ScoreNames): a review records it with its scores.
	Scores bool
}

// Setting names, for front ends that read or set one by name.
const (
	SetVariant      = "variant"
	SetThreads      = "threads"
	SetHash         = "hash"
	SetBook         = "book"
	SetBookMargin   = "book-margin"
	SetBookFile     = "book-file"
	SetEvalFile     = "eval-file"
	SetEGDBPath     = "egdb-path"
	SetEGDBPieces   = "egdb-pieces"
	SetMoveOverhead = "move-overhead"
	SetPonder       = "ponder"
	SetMultiPV      = "multipv"
	SetStrength     = "strength"
)

// MaxMoveOverheadMs bounds move-overhead, in milliseconds.
const MaxMoveOverheadMs = int(search.MaxMoveOverhead / time.Millisecond)

// row is one entry of the table: a setting and how a Player reads and
// applies its value. Both functions run with p.mu held.
type row struct {
	Setting
	// get returns the value as text, what set takes back.
	get func(p *Player) string
	// set reads v and applies it; its error is Check's for a value out of
	// the setting's range (the setting keeps its value), or a
	// *ResetError when a file or directory cannot be read.
	set func(p *Player, v string) error
}

// table is the declared settings, in the order front ends list them.
var table = []row{
	{Setting: Setting{Name: SetVariant, Kind: Enum, Values: engine.VariantNames(), Default: engine.Russian.String(), Search: true,
		Doc: "the game played: russian, english (american checkers), brazilian or international (10x10)"},
		get: func(p *Player) string { return p.variant.String() },
		set: func(p *Player, v string) error {
			id, err := parseVariant(v)
			if err == nil {
				p.setVariant(id)
			}
			return err
		}},
	intRow(Setting{Name: SetThreads, Kind: Int, Min: 1, Max: search.MaxThreads, Default: strconv.Itoa(search.DefaultThreads), Search: true,
		Doc: "search threads (Lazy SMP)"}, func(p *Player) *int { return &p.threads }, (*Player).applyOptions),
	intRow(Setting{Name: SetHash, Kind: Int, Min: 1, Max: search.MaxHashMiB, Unit: "MiB", Default: strconv.Itoa(search.DefaultHashMiB), Search: true,
		Doc: "transposition table size"}, func(p *Player) *int { return &p.hashMiB }, (*Player).applyOptions),
	boolRow(Setting{Name: SetBook, Kind: Bool, Default: "true",
		Doc: "play from the opening book (never when analysing)"}, func(p *Player) *bool { return &p.useBook }),
	intRow(Setting{Name: SetBookMargin, Kind: Int, Min: 0, Max: search.MaxBookMargin, Unit: "centi-men", Default: strconv.Itoa(search.DefaultBookMargin),
		Doc: "book variety: book moves scoring within this of the best are candidates"}, func(p *Player) *int { return &p.bookMargin }, nil),
	{Setting: Setting{Name: SetBookFile, Kind: String, Default: "",
		Doc: "opening book file (damka book build) used in games of its variant; empty: the embedded books"},
		get: func(p *Player) string { return p.bookFile }, set: (*Player).setBookFile},
	boolRow(Setting{Name: SetPonder, Kind: Bool, Default: "false",
		Doc: "tells a GUI whether to let damka think on the opponent's time"}, func(p *Player) *bool { return &p.ponder }),
	intRow(Setting{Name: SetMoveOverhead, Kind: Int, Min: 0, Max: MaxMoveOverheadMs, Unit: "ms", Default: strconv.Itoa(int(search.DefaultMoveOverhead / time.Millisecond)), Search: true,
		Doc: "time kept back from every move time and clock for the GUI's round trip"}, func(p *Player) *int { return &p.overheadMs }, nil),
	{Setting: Setting{Name: SetEvalFile, Kind: String, Default: "", Search: true, Scores: true,
		Doc: "evaluation weights file (damka train) used in games of its variant; empty: the embedded weights"},
		get: func(p *Player) string { return p.evalFile }, set: (*Player).setEvalFile},
	{Setting: Setting{Name: SetEGDBPath, Kind: String, Default: "", Search: true, Scores: true,
		Doc: "endgame tables: empty for the embedded set, off for none, else a directory of tables over the embedded set"},
		get: func(p *Player) string { return p.egdbPath }, set: (*Player).setEGDBPath},
	intRow(Setting{Name: SetEGDBPieces, Kind: Int, Min: 0, Max: egdb.MaxPieces, Default: strconv.Itoa(egdb.MaxPieces), Search: true, Scores: true,
		Doc: "probe the endgame tables in positions of at most this many pieces (0: never)"}, func(p *Player) *int { return &p.egdbPieces }, (*Player).applyOptions),
	intRow(Setting{Name: SetMultiPV, Kind: Int, Min: 1, Max: search.MaxMultiPV, Default: "1",
		Doc: "analysis lines: the best N moves with their own scores and lines (at full strength damka plays line 1's move)"}, func(p *Player) *int { return &p.multiPV }, nil),
	intRow(Setting{Name: SetStrength, Kind: Int, Min: 1, Max: MaxStrength, Default: strconv.Itoa(MaxStrength),
		Doc: "playing strength: 1 (beginner) .. 10 (full strength); analysis is always at full strength"}, func(p *Player) *int { return &p.strength }, nil),
}

// intRow is the row of an Int setting held in the Player field that
// field returns; apply, if not nil, runs after every change (with p.mu
// held).
func intRow(s Setting, field func(p *Player) *int, apply func(p *Player)) row {
	return row{Setting: s,
		get: func(p *Player) string { return strconv.Itoa(*field(p)) },
		set: func(p *Player, v string) error {
			n, err := ParseInt(v, s.Min, s.Max)
			if err != nil {
				return err
			}
			*field(p) = n
			if apply != nil {
				apply(p)
			}
			return nil
		}}
}

// boolRow is the row of a Bool setting held in the Player field that
// field returns.
func boolRow(s Setting, field func(p *Player) *bool) row {
	return row{Setting: s,
		get: func(p *Player) string { return strconv.FormatBool(*field(p)) },
		set: func(p *Player, v string) error {
			b, err := ParseBool(v)
			if err == nil {
				*field(p) = b
			}
			return err
		}}
}

// lookupRow returns the row of the setting called name.
func lookupRow(name string) (row, bool) {
	for _, r := range table {
		if r.Name == name {
			return r, true
		}
	}
	return row{}, false
}

// SearchNames returns the names of the settings with Search set, in table
// order: the settings of analysis and of the tools that search.
func SearchNames() []string { return namesWhere(func(s Setting) bool { return s.Search }) }

// ScoreNames returns the names of the settings with Scores set, in table
// order: what a search's scores are made of.
func ScoreNames() []string { return namesWhere(func(s Setting) bool { return s.Scores }) }

// namesWhere returns the names of the settings that keep accepts, in
// table order.
func namesWhere(keep func(Setting) bool) []string {
	var out []string
	for _, r := range table {
		if keep(r.Setting) {
			out = append(out, r.Name)
		}
	}
	return out
}

// Settings returns the table of settings (a copy), in the order front ends
// list them.
func Settings() []Setting {
	out := make([]Setting, len(table))
	for i, r := range table {
		out[i] = r.Setting
		out[i].Values = slices.Clone(r.Values)
	}
	return out
}

// Lookup returns the setting called name (exactly; names are lower case).
func Lookup(name string) (Setting, bool) {
	r, ok := lookupRow(name)
	if !ok {
		return Setting{}, false
	}
	s := r.Setting
	s.Values = slices.Clone(s.Values)
	return s, true
}

// Names returns the settings' names in table order.
func Names() []string {
	out := make([]string, len(table))
	for i, r := range table {
		out[i] = r.Name
	}
	return out
}

// Range describes the values a setting takes, for help texts and errors:
// "1..256 MiB", "true or false", "russian, english, brazilian, international",
// "a path" (a file or directory name; empty for the default).
func (s Setting) Range() string {
	switch s.Kind {
	case Bool:
		return "true or false"
	case Int:
		r := fmt.Sprintf("%d..%d", s.Min, s.Max)
		if s.Unit != "" {
			r += " " + s.Unit
		}
		return r
	case Enum:
		return strings.Join(s.Values, ", ")
	}
	return "a path"
}

// ParseBool reads a Bool setting's value: true/false, on/off, yes/no, 1/0
// (any case). The error quotes v and says what is wanted.
func ParseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("value '%s' is not a bool (want true or false)", v)
}

// ParseInt reads an Int setting's value in lo..hi. The error quotes v and
// gives the range.
func ParseInt(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("value '%s' is not an integer (want %d..%d)", v, lo, hi)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("value %d out of range %d..%d", n, lo, hi)
	}
	return n, nil
}

// Check reads v as a value of s without applying it: nil when a Player
// would accept it (a file is only read by Set). Front ends use it to
// refuse a bad flag before anything starts.
func (s Setting) Check(v string) error {
	switch s.Kind {
	case Bool:
		_, err := ParseBool(v)
		return err
	case Int:
		_, err := ParseInt(v, s.Min, s.Max)
		return err
	case Enum:
		if s.Name == SetVariant {
			_, err := parseVariant(v)
			return err
		}
		if !slices.Contains(s.Values, v) {
			return fmt.Errorf("value '%s' is not one of %s", v, strings.Join(s.Values, ", "))
		}
	}
	return nil
}

// parseVariant reads a variant setting: a name or an alias of the rules
// table (engine.ParseVariant), the error listing both.
func parseVariant(v string) (engine.VariantID, error) {
	id, err := engine.ParseVariant(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("unknown variant '%s' (want %s; also accepted: %s)",
			v, strings.Join(engine.VariantNames(), ", "), engine.AliasText())
	}
	return id, nil
}

// MustLookup is Lookup for a name of the table (the Set* constants); it
// panics on any other name, a programming error.
func MustLookup(name string) Setting {
	s, ok := Lookup(name)
	if !ok {
		panic("player: no setting " + name)
	}
	return s
}
