// toolsettings.go: the player's settings as flags of the tool commands
// (perft, moves, book, selfplay, label, train, egdb, bench, match,
// openings, pdn). A tool flag of a setting is declared from the setting's
// table row: its name, its range in the help and the messages, and its
// parser; the tool gives its default when it differs and says what it does
// with the value. A tool's own knobs (games at once, the hash of each
// game, perft's table) are its own flags, described as such.

package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/player"
)

// toolSetting is a tool command's flag of one player setting.
type toolSetting struct {
	// flag is the flag's name: the setting's, or its older name for the
	// settings that have one (--egdb).
	flag string
	v    *settingValue
	cmd  *cobra.Command
}

// addToolSetting declares the flag of setting name (a player.Set*
// constant) on cmd: def is its default, use what the tool does with it
// (the table's description when ""); the help adds the table's range
// (but to the variant's description, which names the variants).
func addToolSetting(cmd *cobra.Command, name, def, use string) *toolSetting {
	st := player.MustLookup(name)
	flag := name
	if alias, ok := settingAliases[name]; ok {
		flag = alias
	}
	usage := fmt.Sprintf("%s (%s)", use, settingRange(st))
	switch {
	case use == "" && st.Kind == player.Enum:
		usage = st.Doc // it names the values
	case use == "":
		usage = fmt.Sprintf("%s (%s)", st.Doc, settingRange(st))
	}
	t := &toolSetting{flag: flag, v: &settingValue{st: st, v: def}, cmd: cmd}
	cmd.Flags().Var(t.v, flag, usage)
	return t
}

// addSetting is addToolSetting with the table's default.
func addSetting(cmd *cobra.Command, name, use string) *toolSetting {
	return addToolSetting(cmd, name, player.MustLookup(name).Default, use)
}

// value returns the flag's text.
func (t *toolSetting) value() string { return t.v.v }

// changed reports whether the user gave the flag.
func (t *toolSetting) changed() bool { return t.cmd.Flags().Changed(t.flag) }

// int reads an Int setting's flag: bad input "--threads 300 out of range
// 1..256" when it is not a whole number in the table's range.
func (t *toolSetting) int() (int, error) {
	n, err := player.ParseInt(t.v.v, t.v.st.Min, t.v.st.Max)
	if err != nil {
		return 0, badInput("--%s %s", t.flag, flagValueError(t.v.st, t.v.v, err))
	}
	return n, nil
}

// variant reads --variant: a variant's name or alias, else bad input.
func (t *toolSetting) variant() (engine.VariantID, error) { return parseVariantFlag(t.v.v) }

// tables opens the endgame tables of an egdb-path flag (egdb.OpenPath):
// nil for "off", the embedded set for "", else the directory's tables
// over it, their load errors logged. A directory that cannot be read is
// bad input naming the flag.
func (t *toolSetting) tables() (*egdb.DB, error) {
	db, err := egdb.OpenPath(t.v.v, func(err error) { logger.Error().Err(err).Msg("endgame table") })
	if err != nil {
		return nil, badInput("--%s %s: %v", t.flag, t.v.v, err)
	}
	return db, nil
}

// weights reads an eval-file flag's weights for variant v (loadEvalFile):
// nil without the flag, bad input for a file that does not load or holds
// another variant.
func (t *toolSetting) weights(v engine.VariantID) (*eval.Weights, error) {
	return loadEvalFile(t.v.v, v)
}

// anyWeights reads an eval-file flag's weights whatever their variant
// (readEvalFile): nil without the flag.
func (t *toolSetting) anyWeights() (*eval.Weights, error) { return readEvalFile(t.v.v) }
