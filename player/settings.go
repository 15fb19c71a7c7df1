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

// table is the declared settings, in the order front ends list them.
var table = []Setting{
	{Name: SetVariant, Kind: Enum, Values: engine.VariantNames(), Default: engine.Russian.String(),
		Doc: "the game played: russian, english (american checkers), brazilian or international (10x10)"},
	{Name: SetThreads, Kind: Int, Min: 1, Max: search.MaxThreads, Default: strconv.Itoa(search.DefaultThreads),
		Doc: "search threads (Lazy SMP)"},
	{Name: SetHash, Kind: Int, Min: 1, Max: search.MaxHashMiB, Unit: "MiB", Default: strconv.Itoa(search.DefaultHashMiB),
		Doc: "transposition table size"},
	{Name: SetBook, Kind: Bool, Default: "true",
		Doc: "play from the opening book (never when analysing)"},
	{Name: SetBookMargin, Kind: Int, Min: 0, Max: search.MaxBookMargin, Unit: "centi-men", Default: strconv.Itoa(search.DefaultBookMargin),
		Doc: "book variety: book moves scoring within this of the best are candidates"},
	{Name: SetBookFile, Kind: String, Default: "",
		Doc: "opening book file (damka book build) used in games of its variant; empty: the embedded books"},
	{Name: SetPonder, Kind: Bool, Default: "false",
		Doc: "tells a GUI whether to let damka think on the opponent's time"},
	{Name: SetMoveOverhead, Kind: Int, Min: 0, Max: MaxMoveOverheadMs, Unit: "ms", Default: strconv.Itoa(int(search.DefaultMoveOverhead / time.Millisecond)),
		Doc: "time kept back from every move time and clock for the GUI's round trip"},
	{Name: SetEvalFile, Kind: String, Default: "",
		Doc: "evaluation weights file (damka train) used in games of its variant; empty: the embedded weights"},
	{Name: SetEGDBPath, Kind: String, Default: "",
		Doc: "endgame tables: empty for the embedded set, off for none, else a directory of tables over the embedded set"},
	{Name: SetEGDBPieces, Kind: Int, Min: 0, Max: egdb.MaxPieces, Default: strconv.Itoa(egdb.MaxPieces),
		Doc: "probe the endgame tables in positions of at most this many pieces (0: never)"},
	{Name: SetMultiPV, Kind: Int, Min: 1, Max: search.MaxMultiPV, Default: "1",
		Doc: "analysis lines: the best N moves with their own scores and lines (at full strength damka plays line 1's move)"},
	{Name: SetStrength, Kind: Int, Min: 1, Max: MaxStrength, Default: strconv.Itoa(MaxStrength),
		Doc: "playing strength: 1 (beginner) .. 10 (full strength); analysis is always at full strength"},
}

// Settings returns the table of settings (a copy), in the order front ends
// list them.
func Settings() []Setting {
	out := slices.Clone(table)
	for i := range out {
		out[i].Values = slices.Clone(out[i].Values)
	}
	return out
}

// Lookup returns the setting called name (exactly; names are lower case).
func Lookup(name string) (Setting, bool) {
	for _, s := range table {
		if s.Name == name {
			s.Values = slices.Clone(s.Values)
			return s, true
		}
	}
	return Setting{}, false
}

// Names returns the settings' names in table order.
func Names() []string {
	out := make([]string, len(table))
	for i, s := range table {
		out[i] = s.Name
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
