// params.go: the engine parameters a Hub GUI sees (param lines) and sets
// (set-param), before or after init. They are the player's settings
// (player.Settings), under the same names, types, ranges and defaults.

package hub

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/hubwire"
)

// paramLine is the param line announcing st with its current value.
func paramLine(st player.Setting, value string) hubwire.Line {
	l := hubwire.NewLine("param").With("name", st.Name).With("value", value).With("type", st.Kind.String())
	switch st.Kind {
	case player.Int:
		l = l.With("min", strconv.Itoa(st.Min)).With("max", strconv.Itoa(st.Max))
	case player.Enum:
		l = l.With("values", strings.Join(st.Values, " "))
	}
	return l
}

// setParam handles "set-param name=N value=V". A bad name or value
// changes nothing; unknown arguments are ignored. Each problem is reported
// in one error line.
func (s *session) setParam(l hubwire.Line) {
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
	if _, known := player.Lookup(name); !known {
		msg = fmt.Sprintf(": unknown parameter '%s' (known: %s)", name, strings.Join(player.Names(), ", "))
		return
	}
	if err := s.p.Set(name, v); err != nil {
		var reset *player.ResetError
		if errors.As(err, &reset) {
			msg = fmt.Sprintf(" %s: %v (%s)", name, err, reset.Now)
		} else {
			kept, _ := s.p.Get(name)
			msg = fmt.Sprintf(" %s: %v (kept %s)", name, err, kept)
		}
		return
	}
	if name == player.SetVariant {
		s.autoVariant = false // the GUI chose it
	}
	got, _ := s.p.Get(name)
	s.log.Info().Str("param", name).Str("value", got).Msg("hub: parameter set")
}
