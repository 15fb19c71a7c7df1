// handshake.go: the commands outside a search: the handshake (hub,
// set-param, init), ping, new-game and the position.

package hubclient

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/hubwire"
)

// Identity is the engine's id line.
type Identity struct {
	Name, Version, Author, Country string
}

// Param is one parameter the engine declared (a param line).
type Param struct {
	Name, Value, Type string
	Min, Max          string   // int and real
	Values            []string // enum
}

// Setting is a parameter value for Handshake. With IfDeclared it is sent
// only to an engine that declared the parameter (a feature the engine may
// lack, such as ponder) and left out for the others.
type Setting struct {
	Name, Value string
	IfDeclared  bool
}

// Hello sends hub and reads the id line and the parameters up to wait. An
// answer without an id line before wait fails with ErrNotHub2 (the lines
// received are named in the error).
func (c *Client) Hello(ctx context.Context) (Identity, []Param, error) {
	if c.searching {
		return Identity{}, nil, ErrSearching
	}
	if err := c.send(hubwire.NewLine("hub")); err != nil {
		return Identity{}, nil, err
	}
	var id Identity
	var params []Param
	hasID := false
	var other []string // lines that are neither id nor param, for the error
	_, err := c.waitFor(ctx, "wait", func(r recvLine) {
		if r.err != nil {
			other = append(other, r.text)
			return
		}
		get := func(n string) string { v, _ := r.line.Get(n); return v }
		switch r.line.Command {
		default:
			other = append(other, r.text)
		case "id":
			hasID = true
			id = Identity{Name: get("name"), Version: get("version"), Author: get("author"), Country: get("country")}
		case "param":
			p := Param{Name: get("name"), Value: get("value"), Type: get("type"), Min: get("min"), Max: get("max")}
			if v, ok := r.line.Get("values"); ok {
				p.Values = strings.Fields(v)
			}
			params = append(params, p)
		}
	})
	if err == nil && !hasID {
		got := "nothing"
		if len(other) > 0 {
			got = fmt.Sprintf("%q", other[:min(len(other), 4)])
		}
		err = fmt.Errorf("%w: no `id` line before `wait` in its answer to `hub` (got %s): an older Hub dialect (Scan 2.0's `scan hub`?)", ErrNotHub2, got)
	}
	return id, params, err
}

// declared returns the parameter named name among params, if any.
func declared(params []Param, name string) (Param, bool) {
	for _, p := range params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// SetParam sends set-param name=... value=....
func (c *Client) SetParam(name, value string) error {
	if c.searching {
		return ErrSearching
	}
	return c.send(hubwire.NewLine("set-param").With("name", name).With("value", value))
}

// Init sends init and waits for ready.
func (c *Client) Init(ctx context.Context) error {
	if c.searching {
		return ErrSearching
	}
	if err := c.send(hubwire.NewLine("init")); err != nil {
		return err
	}
	_, err := c.waitFor(ctx, "ready", nil)
	return err
}

// Handshake runs the start-up: hub (id, params, wait), one set-param per
// setting, init (ready). It fails when the engine answered any of it with
// an error line, e.g. an unknown parameter or a value out of range.
//
// It fails with ErrNotHub2, before sending any set-param, when the engine
// is not a Hub 2 engine (see Hello) or when a variant setting other than
// international names a parameter the engine never declared (or a value
// its enum lacks): such an engine would play international draughts
// whatever it was told. A variant=international setting for an engine
// that declared no variant parameter (Hub 2 without the 8x8 extension
// plays international) is not sent.
func (c *Client) Handshake(ctx context.Context, settings ...Setting) (Identity, []Param, error) {
	c.TakeErrors()
	id, params, err := c.Hello(ctx)
	if err != nil {
		return id, params, err
	}
	var send []Setting
	for _, s := range settings {
		if _, ok := declared(params, s.Name); s.IfDeclared && !ok {
			continue
		}
		if s.Name != "variant" {
			send = append(send, s)
			continue
		}
		p, ok := declared(params, "variant")
		intl := s.Value == engine.International.String()
		switch {
		case !ok && intl:
			continue // Hub 2's own variant
		case !ok:
			return id, params, fmt.Errorf("%w: %s declared no `variant` parameter, so it cannot be set to play %s", ErrNotHub2, orName(id.Name), s.Value)
		case len(p.Values) > 0 && !slices.Contains(p.Values, s.Value) && !(s.Value == "english" && slices.Contains(p.Values, "american")):
			if intl {
				continue // e.g. Scan 3's variant "normal"
			}
			return id, params, fmt.Errorf("%w: %s's `variant` parameter has no value %s (values %q)", ErrNotHub2, orName(id.Name), s.Value, p.Values)
		}
		send = append(send, s)
	}
	for _, s := range send {
		if err := c.SetParam(s.Name, s.Value); err != nil {
			return id, params, err
		}
	}
	if err := c.Init(ctx); err != nil {
		return id, params, err
	}
	if errs := c.TakeErrors(); len(errs) > 0 {
		return id, params, fmt.Errorf("hub client: the engine refused the handshake: %s", strings.Join(errs, "; "))
	}
	return id, params, nil
}

// orName returns "the engine NAME", or "the engine" without a name.
func orName(name string) string {
	if name == "" {
		return "the engine"
	}
	return "the engine " + strconv.Quote(name)
}

// Ping sends ping and waits for pong: every line sent before it has been
// handled.
func (c *Client) Ping(ctx context.Context) error {
	if c.searching {
		return ErrSearching
	}
	if err := c.send(hubwire.NewLine("ping")); err != nil {
		return err
	}
	_, err := c.waitFor(ctx, "pong", nil)
	return err
}

// NewGame sends new-game.
func (c *Client) NewGame() error {
	if c.searching {
		return ErrSearching
	}
	return c.send(hubwire.NewLine("new-game"))
}

// SetPosition sends pos with the position (a Hub position string; "" for
// the start position) and the moves played from it, then pings the engine
// and fails when it answered the pos with an error line.
func (c *Client) SetPosition(ctx context.Context, pos string, moves []string) error {
	if c.searching {
		return ErrSearching
	}
	c.TakeErrors()
	l := hubwire.NewLine("pos")
	if pos == "" {
		l = l.WithFlag("start")
	} else {
		l = l.With("pos", pos)
	}
	if len(moves) > 0 {
		l = l.With("moves", strings.Join(moves, " "))
	}
	if err := c.send(l); err != nil {
		return err
	}
	if err := c.Ping(ctx); err != nil {
		return err
	}
	if errs := c.TakeErrors(); len(errs) > 0 {
		return fmt.Errorf("hub client: the engine refused the position: %s", strings.Join(errs, "; "))
	}
	return nil
}

// SetGame sends the start position of g and all its moves in full Hub form.
func (c *Client) SetGame(ctx context.Context, g *engine.Game) error {
	start := g.Start()
	moves := make([]string, g.Ply())
	for i, m := range g.Moves() {
		p := g.PositionAt(i)
		moves[i] = p.FormatMove(m, engine.FormatHub)
	}
	return c.SetPosition(ctx, start.HubPosition(), moves)
}
