// limits.go: the search limits of a match (a clock, a time per move,
// a depth or a node count) and the engine descriptions.

package match

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/protocol/hubclient"
)

// Limits is what each engine may spend on a move. Exactly one kind is set:
// a clock (Base, with Moves and Inc), MoveTime, Depth or Nodes.
type Limits struct {
	Moves    int           // moves per time control period; 0: the whole game (sudden death)
	Base     time.Duration // clock time per period
	Inc      time.Duration // added after each move (Fischer)
	MoveTime time.Duration // time per move
	Depth    int           // search depth in plies
	Nodes    uint64        // nodes per move
}

// ParseTC reads a time control "[moves/]base[+inc]" with times in seconds
// (real numbers): "40/60+0.5" is 60 s for each 40 moves plus 0.5 s a move,
// "10+0.1" is 10 s for the game plus 0.1 s a move, "5" is 5 s sudden death.
func ParseTC(s string) (Limits, error) {
	var l Limits
	t := strings.TrimSpace(s)
	if a, b, ok := strings.Cut(t, "/"); ok {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			return l, fmt.Errorf("time control %q: moves %q: want a positive integer", s, a)
		}
		l.Moves, t = n, b
	}
	base, inc, hasInc := strings.Cut(t, "+")
	var err error
	if l.Base, err = parseSeconds(base); err != nil {
		return l, fmt.Errorf("time control %q: base: %w", s, err)
	}
	if hasInc {
		if l.Inc, err = parseSeconds(inc); err != nil {
			return l, fmt.Errorf("time control %q: increment: %w", s, err)
		}
	}
	if l.Base <= 0 && l.Inc <= 0 {
		return l, fmt.Errorf("time control %q: no time at all", s)
	}
	return l, nil
}

// parseSeconds reads a non-negative number of seconds.
func parseSeconds(s string) (time.Duration, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	if err != nil || x < 0 || x > 1e6 {
		return 0, fmt.Errorf("%s seconds out of range 0..1000000", strings.TrimSpace(s))
	}
	return time.Duration(x * float64(time.Second)), nil
}

// ParseMoveTime reads seconds per move ("0.1").
func ParseMoveTime(s string) (time.Duration, error) {
	d, err := parseSeconds(s)
	if err == nil && d <= 0 {
		err = fmt.Errorf("%s seconds out of range: want more than 0", strings.TrimSpace(s))
	}
	return d, err
}

// Validate reports an error unless exactly one kind of limit is set.
func (l Limits) Validate() error {
	n := 0
	if l.Base > 0 || l.Inc > 0 {
		n++
	}
	if l.MoveTime > 0 {
		n++
	}
	if l.Depth > 0 {
		n++
	}
	if l.Nodes > 0 {
		n++
	}
	switch {
	case n == 0:
		return errors.New("no search limit: give one of --tc, --movetime, --depth, --nodes")
	case n > 1:
		return errors.New("give only one of --tc, --movetime, --depth, --nodes")
	}
	return nil
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool { return l == Limits{} }

// Clocked reports whether the limits are a clock.
func (l Limits) Clocked() bool { return l.Base > 0 || l.Inc > 0 }

// String writes the limits as the PDN TimeControl tag value: "40/60+0.5",
// "10+0.1", "movetime=0.1", "depth=6", "nodes=10000".
func (l Limits) String() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	switch {
	case l.Clocked():
		s := secs(l.Base)
		if l.Moves > 0 {
			s = strconv.Itoa(l.Moves) + "/" + s
		}
		if l.Inc > 0 {
			s += "+" + secs(l.Inc)
		}
		return s
	case l.MoveTime > 0:
		return "movetime=" + secs(l.MoveTime)
	case l.Depth > 0:
		return "depth=" + strconv.Itoa(l.Depth)
	case l.Nodes > 0:
		return "nodes=" + strconv.FormatUint(l.Nodes, 10)
	}
	return "-"
}

// The protocols of EngineSpec.Proto.
const (
	ProtoHub = "hub" // the engine reads Hub on its standard input (the default)
	ProtoDXP = "dxp" // the engine listens for DXP on TCP; the runner connects as initiator
)

// EngineSpec describes one engine of a match.
type EngineSpec struct {
	Name    string              // PDN player name; the two engines' names differ
	Proto   string              // ProtoHub ("" too) or ProtoDXP
	Command []string            // program and arguments; "{port}" in an argument is replaced by the DXP port
	Dir     string              // working directory; "" is the runner's
	Options []hubclient.Setting // set-param values sent in the handshake, in order (Hub only)
	// DXP only: Host is the address of an engine already listening
	// ("host:port"; no Command then); Port is the port the engine the
	// runner starts listens on (worker i of a match with several uses
	// Port+i; 0: DefaultDXPPort, or a free port when the command has
	// "{port}"); Stdin is written to the started engine's standard input,
	// one line per ';'-separated part (console commands: Moby Dam's
	// "time 200"), which then stays open until the engine is closed.
	Host  string
	Port  int
	Stdin string
	// Limits, when set, replace the match's limits for this engine (e.g.
	// 0.1 s a move against 0.05 s a move).
	Limits Limits
	// Ponder, when set, replaces the match's Config.Ponder for this
	// engine (Hub only: DXP has no pondering).
	Ponder *bool
}

// ParseEngineSpec reads an engine description from its key=value words:
// name=NAME, proto=hub|dxp, cmd=COMMAND (a command line split as a shell
// does, quotes and backslashes included), dir=DIR, option.P=V for each Hub
// parameter P to set (e.g. option.threads=1 option.hash=64), for DXP
// engines port=N, host=ADDR (an engine already listening, instead of cmd=)
// and stdin=TEXT (see EngineSpec; any of them implies proto=dxp), and
// limits of its own that replace the match's: tc=[moves/]base[+inc],
// movetime=S, depth=N or nodes=N, and ponder=true|false, which replaces
// the match's --ponder (Hub only). A missing name is taken from the
// program's base name (or the host). Each key may be given once, and one
// limit at most.
func ParseEngineSpec(words []string, split func(string) ([]string, error)) (EngineSpec, error) {
	var e EngineSpec
	seen := map[string]string{} // key (the limit keys share one) -> its word
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return e, fmt.Errorf("engine: %q is not key=value (keys name, proto, cmd, dir, host, port, stdin, option.NAME, tc, movetime, depth, nodes, ponder)", w)
		}
		slot := k
		switch k {
		case "tc", "movetime", "depth", "nodes":
			slot = "limit"
		}
		if prev, dup := seen[slot]; dup {
			return e, fmt.Errorf("engine: %q after %q: give each key once (and one of tc, movetime, depth, nodes)", w, prev)
		}
		seen[slot] = w
		switch {
		case k == "name":
			e.Name = v
		case k == "cmd":
			argv, err := split(v)
			if err != nil {
				return e, fmt.Errorf("engine: cmd %q: %w", v, err)
			}
			if len(argv) == 0 {
				return e, fmt.Errorf("engine: cmd %q is empty", v)
			}
			e.Command = argv
		case k == "dir":
			e.Dir = v
		case k == "proto":
			if v != ProtoHub && v != ProtoDXP {
				return e, fmt.Errorf("engine: proto=%q: want hub or dxp", v)
			}
			e.Proto = v
		case k == "host":
			if v == "" {
				return e, errors.New("engine: host= is empty: want HOST:PORT")
			}
			e.Host = v
		case k == "port":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 65535 {
				return e, fmt.Errorf("engine: port=%q: want 1..65535", v)
			}
			e.Port = n
		case k == "stdin":
			e.Stdin = v
		case k == "ponder":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return e, fmt.Errorf("engine: ponder=%q: want true or false", v)
			}
			e.Ponder = &b
		case k == "tc":
			l, err := ParseTC(v)
			if err != nil {
				return e, fmt.Errorf("engine: %w", err)
			}
			e.Limits = l
		case k == "movetime":
			d, err := ParseMoveTime(v)
			if err != nil {
				return e, fmt.Errorf("engine: movetime %w", err)
			}
			e.Limits = Limits{MoveTime: d}
		case k == "depth" || k == "nodes":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil || n == 0 || (k == "depth" && n > 1000) {
				return e, fmt.Errorf("engine: %s=%q: want a positive integer", k, v)
			}
			if k == "depth" {
				e.Limits = Limits{Depth: int(n)}
			} else {
				e.Limits = Limits{Nodes: n}
			}
		case strings.HasPrefix(k, "option.") && len(k) > len("option."):
			e.Options = append(e.Options, hubclient.Setting{Name: k[len("option."):], Value: v})
		default:
			return e, fmt.Errorf("engine: unknown key %q in %q (keys name, proto, cmd, dir, host, port, stdin, option.NAME, tc, movetime, depth, nodes, ponder)", k, w)
		}
	}
	if e.Host != "" || e.Port != 0 || e.Stdin != "" {
		if e.Proto == ProtoHub {
			return e, errors.New("engine: host=, port= and stdin= are for proto=dxp")
		}
		e.Proto = ProtoDXP
	}
	switch {
	case e.Proto == ProtoDXP && len(e.Options) > 0:
		return e, fmt.Errorf("engine: option.%s: DXP has no parameters (set them in the engine's own files or stdin=)", e.Options[0].Name)
	case e.Proto == ProtoDXP && e.Ponder != nil && *e.Ponder:
		return e, errors.New("engine: ponder=true: DXP has no pondering (a Hub engine only)")
	case e.Host != "" && len(e.Command) > 0:
		return e, errors.New("engine: give cmd= (the runner starts the engine) or host= (it is listening), not both")
	case e.Host != "":
		if e.Name == "" {
			e.Name = e.Host
		}
		return e, nil
	case len(e.Command) == 0:
		return e, errors.New("engine: no cmd= given")
	}
	if e.Name == "" {
		p := e.Command[0]
		if i := strings.LastIndexAny(p, `/\`); i >= 0 {
			p = p[i+1:]
		}
		e.Name = p
	}
	return e, nil
}
