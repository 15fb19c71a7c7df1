// settings.go: the player's settings in the text mode: settings lists
// them, set NAME VALUE changes one.

package text

import (
	"errors"
	"fmt"
	"strings"

	"github.com/damka-draughts/damka/player"
)

// settings lists the player's settings, in the table's order: each one's
// name, value and range on one line, its description under it.
func (tm *textMode) settings() {
	all := player.Settings()
	width := 0
	for _, st := range all {
		width = max(width, len(st.Name))
	}
	var b strings.Builder
	b.WriteString("settings (set NAME VALUE changes one):\n")
	for _, st := range all {
		v, err := tm.p.Get(st.Name)
		if err != nil {
			v = err.Error()
		}
		fmt.Fprintf(&b, "  %-*s  %s  (%s)\n  %-*s  %s\n", width, st.Name, showValue(v), st.Range(), width, "", st.Doc)
	}
	tm.printf("%s", b.String())
}

// showValue writes a setting's value for settings and set: "" for the
// empty text.
func showValue(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// set sets one of the player's settings from "NAME VALUE": the value is
// the rest of the line (a file name may hold spaces; "" is the empty
// text). A refused value keeps the old one; a file that does not load
// resets the setting to its default. A new variant starts a new game.
func (tm *textMode) set(arg string) {
	name, value, _ := strings.Cut(arg, " ")
	name = strings.ToLower(name)
	value = strings.TrimSpace(value)
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		value = value[1 : len(value)-1]
	}
	if name == "" {
		tm.printf("want set NAME VALUE (settings lists the settings, their values and ranges)\n")
		return
	}
	old, err := tm.p.Get(name)
	if err != nil {
		tm.printf("%v\n", err)
		return
	}
	if err := tm.p.Set(name, value); err != nil {
		var reset *player.ResetError
		if errors.As(err, &reset) {
			tm.printf("set %s %s: %v; %s is back at its default (%s)\n", name, showValue(value), err, name, reset.Now)
			return
		}
		tm.printf("set %s %s: %v; %s stays %s\n", name, showValue(value), err, name, showValue(old))
		return
	}
	now, _ := tm.p.Get(name)
	tm.printf("ok, %s %s\n", name, showValue(now))
	if tm.game() != tm.shown {
		tm.restart()
		tm.printf("new game of %s\n", tm.variant())
		tm.draw()
	}
}
