// suite.go: a Hub engine searching the positions of a solve suite one at a
// time (damka solve --engine), restarted after a crash, a hang or an
// illegal move.

package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// DefaultSuiteMargin is how long past its move time an engine searching a
// suite position may take to answer before it is stopped (and killed when
// it does not answer stop within the stop grace).
const DefaultSuiteMargin = time.Second

// suiteStartTries is how many starts in a row may fail before a
// SuiteEngine gives up trying for the rest of the suite.
const suiteStartTries = 3

// SuiteConfig describes how a SuiteEngine searches.
type SuiteConfig struct {
	Variant engine.VariantID
	// Limits are each search's: exactly one of MoveTime, Depth and Nodes
	// (sent as the level line).
	Limits Limits
	// Margin is how long past Limits.MoveTime an answer may take before
	// the engine is stopped; 0: DefaultSuiteMargin.
	Margin time.Duration
	// HangTimeout bounds a search under Limits.Depth or Limits.Nodes; 0:
	// DefaultHangTimeout.
	HangTimeout time.Duration
	// StopGrace is how long the engine may take to answer stop before it
	// is killed; 0: hubclient.DefaultStopGrace.
	StopGrace time.Duration
	// HandshakeTimeout bounds the engine's start and handshake; 0:
	// DefaultStartTimeout.
	HandshakeTimeout time.Duration
	// EngineStderr receives the engine's standard error; nil discards it.
	EngineStderr io.Writer
	Log          zerolog.Logger
}

// SuiteInfo is one info line of a SuiteEngine's search, its fields read.
type SuiteInfo struct {
	// Time is the time the engine reported (time=), or else the time since
	// go was sent at which the line arrived.
	Time     time.Duration
	Depth    int // depth=; valid when HasDepth
	HasDepth bool
	Nodes    uint64 // nodes=; valid when HasNodes
	HasNodes bool
	Score    float64 // score= in men; valid when HasScore
	HasScore bool
	// Move is the first move of pv= (or move=), read as a move of the
	// searched position; valid when HasMove (false when the line had
	// none, or one that is not a legal move there).
	Move    engine.Move
	HasMove bool
}

// SuiteAnswer is the outcome of one SuiteEngine search.
type SuiteAnswer struct {
	Move    engine.Move // the engine's move (done move=), valid when HasMove
	HasMove bool        // the engine answered a legal move
	Text    string      // the move as the engine wrote it; "" when it gave none
	Infos   []SuiteInfo // its info lines, in order
	Time    time.Duration
	// Err says why there is no move: the engine could not be started, it
	// exited, hung, gave no move or an illegal one. The text names the
	// engine; the engine was killed, and the next Search starts it again.
	Err error
}

// SuiteEngine is one Hub engine (EngineSpec with proto hub) that searches
// positions one at a time: each search is new-game, pos, level, go think
// and the info lines up to done. An engine that fails a search is killed
// and started again for the next one. Its methods are for one goroutine.
type SuiteEngine struct {
	cfg       SuiteConfig
	p         *hubPlayer
	startErrs int   // start failures in a row
	startErr  error // the last one
}

// NewSuiteEngine returns the engine of spec searching under cfg; it starts
// at the first Search. It fails for a DXP engine (DXP has no search of a
// single position) and for limits other than one of a move time, a depth
// or a node count.
func NewSuiteEngine(spec EngineSpec, cfg SuiteConfig) (*SuiteEngine, error) {
	if spec.Proto == ProtoDXP {
		return nil, fmt.Errorf("engine %s: proto=dxp cannot search single positions: a suite needs a Hub engine", spec.Name)
	}
	if len(spec.Command) == 0 {
		return nil, fmt.Errorf("engine %s: no cmd=", spec.Name)
	}
	l := cfg.Limits
	if l.Clocked() || l.Validate() != nil {
		return nil, fmt.Errorf("engine %s: a suite search needs one of a move time, a depth and a node count (got %s)", spec.Name, l)
	}
	mc := &Config{
		Variant: cfg.Variant, StopGrace: cmp.Or(cfg.StopGrace, hubclient.DefaultStopGrace),
		HandshakeTimeout: cfg.HandshakeTimeout, EngineStderr: cfg.EngineStderr, Log: cfg.Log,
	}
	return &SuiteEngine{cfg: cfg, p: &hubPlayer{spec: spec, cfg: mc}}, nil
}

// Name is the engine's name (EngineSpec.Name).
func (s *SuiteEngine) Name() string { return s.p.spec.Name }

// deadline is how long a search may take before the engine is stopped.
func (s *SuiteEngine) deadline() time.Duration {
	if s.cfg.Limits.MoveTime > 0 {
		return s.cfg.Limits.MoveTime + cmp.Or(s.cfg.Margin, DefaultSuiteMargin)
	}
	return cmp.Or(s.cfg.HangTimeout, DefaultHangTimeout)
}

// Search has the engine search pos (a fresh position, no history) and
// returns its answer. Failures are in the answer's Err, never fatal: the
// engine is killed and started again by the next Search. After
// suiteStartTries failed starts in a row it is not tried again, and every
// later Search fails at once with the last start error. When ctx ends the
// search is stopped and the answer's Err is ctx's error.
func (s *SuiteEngine) Search(ctx context.Context, pos engine.Position) SuiteAnswer {
	var a SuiteAnswer
	name := s.Name()
	if s.startErrs >= suiteStartTries {
		a.Err = fmt.Errorf("engine %s not tried: it failed to start %d times in a row (last: %v)", name, s.startErrs, s.startErr)
		return a
	}
	if err := s.p.ensure(ctx); err != nil {
		s.startErrs++
		s.startErr = err
		a.Err = fmt.Errorf("engine %s could not be started: %w", name, err)
		return a
	}
	s.startErrs = 0
	c := s.p.c
	// fail kills the engine after a fault during stage and says what
	// happened.
	fail := func(stage string, err error) SuiteAnswer {
		if ctx.Err() != nil {
			s.p.abort()
		} else {
			s.p.kill()
		}
		switch {
		case ctx.Err() != nil:
			a.Err = ctx.Err()
		case errors.Is(err, hubclient.ErrEngineHung):
			a.Err = fmt.Errorf("engine %s hung %s: no answer within %s and the stop grace, killed", name, stage, s.deadline())
		case errors.Is(err, hubclient.ErrEngineExited):
			a.Err = fmt.Errorf("engine %s crashed %s: %w", name, stage, err)
		default:
			a.Err = fmt.Errorf("engine %s failed %s: %w", name, stage, err)
		}
		return a
	}
	if err := c.NewGame(); err != nil {
		return fail("at new-game", err)
	}
	sctx, cancel := context.WithTimeout(ctx, DefaultStartTimeout)
	err := c.SetPosition(sctx, pos.HubPosition(), nil)
	cancel()
	if err != nil {
		return fail("setting the position", err)
	}
	l := s.cfg.Limits
	if err := c.SetLevel(hubclient.Level{MoveTime: l.MoveTime, Depth: l.Depth, Nodes: l.Nodes}); err != nil {
		return fail("at level", err)
	}
	began := time.Now()
	d, err := c.Think(ctx, s.deadline(), func(in hubclient.Info) {
		if m, ok := in.Line.Get("multipv"); ok && m != "1" {
			return // only the best line's move counts
		}
		si := SuiteInfo{Time: time.Since(began), Depth: in.Depth, HasDepth: in.Has["depth"],
			Nodes: in.Nodes, HasNodes: in.Has["nodes"], Score: in.Score, HasScore: in.Has["score"]}
		if in.Has["time"] {
			si.Time = in.Time
		}
		first := ""
		if len(in.PV) > 0 {
			first = in.PV[0]
		} else if m, ok := in.Line.Get("move"); ok {
			first = m
		}
		if first != "" {
			if m, err := pos.ParseMove(first); err == nil {
				si.Move, si.HasMove = m, true
			}
		}
		a.Infos = append(a.Infos, si)
	})
	a.Time = time.Since(began)
	if err != nil {
		return fail("while searching", err)
	}
	a.Text = d.Move
	if d.Move == "" {
		s.p.kill()
		a.Err = fmt.Errorf("engine %s gave no move", name)
		if len(d.Errors) > 0 {
			a.Err = fmt.Errorf("%w (its errors: %s)", a.Err, strings.Join(d.Errors, "; "))
		}
		return a
	}
	m, err := pos.ParseMove(d.Move)
	if err != nil {
		s.p.kill()
		a.Err = fmt.Errorf("engine %s played an illegal move %q: %v", name, d.Move, err)
		return a
	}
	a.Move, a.HasMove = m, true
	return a
}

// Close quits the engine (politely, then killed after the stop grace).
func (s *SuiteEngine) Close() { s.p.close() }
