// settings.go: the player's settings as command-line flags. Each setting
// of player.Settings is a flag --NAME with the table's default, range and
// description; the commands that play (hub, the text mode, dxp, analyse,
// solve) register the settings they use and make their player from them,
// so a setting added to the table appears on every command at once.

package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/damka-draughts/damka/player"
)

// settingAliases are older flag names of settings, still accepted (hidden
// from --help): --egdb is egdb-path.
var settingAliases = map[string]string{player.SetEGDBPath: "egdb"}

// settingValue is the pflag.Value of one setting's flag: it keeps the text
// given; newPlayer checks it against the table (so that the error names
// the flag, the value and the range in damka's words).
type settingValue struct {
	st player.Setting
	v  string
}

func (f *settingValue) String() string     { return f.v }
func (f *settingValue) Set(v string) error { f.v = v; return nil }

// Type is the value's type in --help: true|false, int or string.
func (f *settingValue) Type() string {
	switch f.st.Kind {
	case player.Bool:
		return "true|false" // a value is required: --book false
	case player.Int:
		return "int"
	}
	return "string"
}

// settingFlags are the setting flags of one command.
type settingFlags struct {
	values map[string]*settingValue
	names  []string // in table order
}

// registerSettings adds a flag --NAME for each named setting (every
// setting when names is empty) to cmd, with the table's default. The help
// text is the table's description, range and Hub parameter name.
func registerSettings(cmd *cobra.Command, names ...string) *settingFlags {
	sf := &settingFlags{values: map[string]*settingValue{}}
	fl := cmd.Flags()
	for _, st := range player.Settings() {
		if len(names) > 0 && !slices.Contains(names, st.Name) {
			continue
		}
		v := &settingValue{st: st, v: st.Default}
		usage := fmt.Sprintf("%s (%s; Hub parameter %s)", st.Doc, settingRange(st), st.Name)
		fl.Var(v, st.Name, usage)
		if alias, ok := settingAliases[st.Name]; ok {
			fl.Var(v, alias, "same as --"+st.Name)
			_ = fl.MarkHidden(alias)
		}
		sf.values[st.Name] = v
		sf.names = append(sf.names, st.Name)
	}
	return sf
}

// settingFlagList lists the flags of the settings, in table order but for
// except, for help texts: "--threads, --hash, ..., --egdb-path (or
// --egdb), ...".
func settingFlagList(except ...string) string {
	var flags []string
	for _, name := range player.Names() {
		if slices.Contains(except, name) {
			continue
		}
		f := "--" + name
		if alias, ok := settingAliases[name]; ok {
			f += " (or --" + alias + ")"
		}
		flags = append(flags, f)
	}
	return strings.Join(flags, ", ")
}

// wrapText breaks text into lines of at most width characters at spaces
// (a longer word stays whole on its line).
func wrapText(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// settingRange is a setting's range for --help.
func settingRange(st player.Setting) string {
	switch st.Kind {
	case player.Int:
		return st.Range()
	case player.Enum:
		return "one of " + st.Range()
	case player.Bool:
		return "true or false"
	}
	return "a path"
}

// given returns the name the user gave the setting's flag under (the
// alias when that was used) and whether it was given at all.
func (sf *settingFlags) given(fs *pflag.FlagSet, name string) (string, bool) {
	if alias, ok := settingAliases[name]; ok && fs.Changed(alias) {
		return alias, true
	}
	return name, fs.Changed(name)
}

// changed reports whether the user gave setting name's flag.
func (sf *settingFlags) changed(cmd *cobra.Command, name string) bool {
	_, ok := sf.given(cmd.Flags(), name)
	return ok
}

// value returns the text of setting name's flag (its default when not
// given).
func (sf *settingFlags) value(name string) string { return sf.values[name].v }

// newPlayer makes the command's player: every setting flag the user gave
// is set on it, in table order (cfg.Log is the command's logger). A value out of its range, a file that does
// not load or a weights or book file of another variant than --variant is
// bad input (exit status 2) naming the flag and what was wrong.
func (sf *settingFlags) newPlayer(cmd *cobra.Command, cfg player.Config) (*player.Player, error) {
	p := player.New(cfg)
	fs := cmd.Flags()
	for _, name := range sf.names {
		flag, ok := sf.given(fs, name)
		if !ok {
			continue
		}
		v := sf.values[name]
		if err := v.st.Check(v.v); err != nil {
			return nil, badInput("--%s %s", flag, flagValueError(v.st, v.v, err))
		}
		if err := p.Set(name, v.v); err != nil {
			var reset *player.ResetError
			if errors.As(err, &reset) {
				err = reset.Err
			}
			if strings.Contains(err.Error(), v.v) {
				return nil, badInput("--%s: %v", flag, err) // the error names the file
			}
			return nil, badInput("--%s %s: %v", flag, v.v, err)
		}
	}
	for _, m := range p.Mismatches() {
		return nil, badInput("--%s %s: give a %v %s or --variant %v", m.Setting, mismatchText(m), m.Variant, fileKind(m), m.Holds)
	}
	return p, nil
}

// flagValueError says in words why v is not a value of st: "300: out of
// range 1..256", "'x': not a whole number (want 1..256 MiB)".
func flagValueError(st player.Setting, v string, err error) string {
	if st.Kind != player.Int {
		return fmt.Sprintf("%q: %v", v, err)
	}
	if _, aerr := strconv.Atoi(v); aerr != nil {
		return fmt.Sprintf("%q: not a whole number (want %s)", v, st.Range())
	}
	return fmt.Sprintf("%s out of range %s", v, st.Range())
}

// mismatchText is a Mismatch without its setting name: "w.dkw holds
// english weights, not russian".
func mismatchText(m player.Mismatch) string {
	s := m.Error()
	return s[len(m.Setting)+1:]
}

// fileKind names what a mismatched setting holds: "weights file" or
// "book".
func fileKind(m player.Mismatch) string {
	if m.Setting == player.SetBookFile {
		return "book"
	}
	return "weights file"
}
