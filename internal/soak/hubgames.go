// hubgames.go: the games played through the match runner: damka against
// damka over Hub at the Hub setups' time controls, and damka.dll through
// cbhub.exe under wine against damka.

package soak

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// DefaultCBMargin is Config.CBMargin's default. Measured on 100 English
// positions at 0.05 s a move (damka solve --engine, 2 loaded cores): the
// DLL under wine 8.0 through cbhub.exe answered in 0.062 s (median), 0.116
// s (95th percentile) and 0.283 s at most, of which getmove itself 0.042,
// 0.094 and 0.273 s; native damka hub 0.040, 0.045 and 0.074 s. Under
// wine Go's clock on Windows also lags QueryPerformanceCounter by up to
// 40 ms (the DLL times its search with the latter).
const DefaultCBMargin = time.Second

// hubSetup is one way of playing Hub games: the limits and the engines'
// settings.
type hubSetup struct {
	name    string
	limits  match.Limits
	options []hubclient.Setting
	ponder  bool // the runner has the engines ponder (match.Config.Ponder)
}

// hubSetups are the Hub games' time controls: a move time, a clock with an
// increment (two threads, pondering), and a clock so short
// that the engine must move in milliseconds.
var hubSetups = []hubSetup{
	{"movetime 20ms, 1 thread", match.Limits{MoveTime: 20 * time.Millisecond},
		[]hubclient.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "16"}}, false},
	{"clock 2s+30ms, 2 threads, pondering", match.Limits{Base: 2 * time.Second, Inc: 30 * time.Millisecond},
		[]hubclient.Setting{{Name: "threads", Value: "2"}, {Name: "hash", Value: "16"}}, true},
	{"clock 0.4s+5ms, 1 thread", match.Limits{Base: 400 * time.Millisecond, Inc: 5 * time.Millisecond},
		[]hubclient.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "8"}}, false},
}

// pairsOf splits games (rounded up to pairs) over n setups.
func pairsOf(games, n int) []int {
	pairs := (games + 1) / 2
	out := make([]int, n)
	for i := range pairs {
		out[i%n]++
	}
	return out
}

// matchRun is one match of the soak: its limits, opening pairs and PDN
// file, the runner's time margin (0: Config.TimeMargin), whether the
// engines ponder, and the progress callback (nil: none).
type matchRun struct {
	limits   match.Limits
	pairs    int
	pdnFile  string
	margin   time.Duration
	ponder   bool
	progress func(match.Progress)
}

// runMatch plays the match r between engines and adds its tally to l.
func (c *Config) runMatch(ctx context.Context, l *Line, v engine.VariantID, engines [2]match.EngineSpec, r matchRun) error {
	margin := r.margin
	if margin == 0 {
		margin = c.TimeMargin
	}
	ops, err := c.deck(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(r.pdnFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	var stderr lockedBuffer
	shard, _ := c.shardOf()
	chosen := pick(ops, r.pairs, shard)
	sum, err := match.Run(ctx, match.Config{
		Variant: v, Engines: engines, Openings: chosen, Limits: r.limits, TimeMargin: margin, Ponder: r.ponder,
		PDN: f, Progress: r.progress, EngineStderr: &stderr, Event: "damka soak",
	})
	if err != nil {
		return fmt.Errorf("%s match: %w", v, err)
	}
	l.Games += sum.Played
	if r.ponder {
		l.Ponders += sum.Ponders[0] + sum.Ponders[1]
		l.PonderHits += sum.PonderHits[0] + sum.PonderHits[1]
	}
	for _, fl := range sum.Faults {
		l.Illegal += fl[match.TermIllegal]
		l.Crashes += fl[match.TermCrash]
		l.Hangs += fl[match.TermHang]
		l.TimeLosses += fl[match.TermTime]
	}
	if bytes.Contains(stderr.Bytes(), []byte("panic")) {
		l.Crashes++
		l.Note = strings.TrimSpace(l.Note + " panic on an engine's stderr")
	}
	l.BadPDN += badPDN(r.pdnFile, v, sum.Played, false)
	return nil
}

// hubGames plays Games games of v through the match runner, damka against
// damka over Hub, over the Hub setups in turn.
func (c *Config) hubGames(ctx context.Context, v engine.VariantID) (Line, error) {
	l := Line{FrontEnd: "hub", Variant: v.String()}
	var notes []string
	for i, pairs := range pairsOf(c.Games, len(hubSetups)) {
		if pairs == 0 {
			continue
		}
		s := hubSetups[(i+int(v))%len(hubSetups)]
		engines := [2]match.EngineSpec{
			{Name: "damkaA", Command: []string{c.Damka, "hub"}, Options: s.options},
			{Name: "damkaB", Command: []string{c.Damka, "hub"}, Options: s.options},
		}
		before := l.Games
		err := c.runMatch(ctx, &l, v, engines, matchRun{limits: s.limits, pairs: pairs,
			pdnFile: c.file(fmt.Sprintf("hub-%s-%d", v, i)), ponder: s.ponder})
		if err != nil {
			return l, err
		}
		notes = append(notes, fmt.Sprintf("%d x %s", l.Games-before, s.name))
	}
	l.Note = strings.TrimSpace(strings.Join(notes, "; ") + " " + l.Note)
	return l, nil
}

// cbGames plays CBGames English games of damka.dll (cbhub.exe under wine)
// against the native damka through the match runner.
func (c *Config) cbGames(ctx context.Context) (Line, error) {
	margin := c.CBMargin
	if margin <= 0 {
		margin = DefaultCBMargin
	}
	l := Line{FrontEnd: "cb", Variant: engine.English.String(),
		Note: fmt.Sprintf("damka.dll via cbhub.exe under wine vs damka, movetime 50ms, margin %v", margin)}
	engines := [2]match.EngineSpec{
		{Name: "damka.dll", Command: []string{c.Wine, c.CBHub, c.CBDLL}},
		{Name: "damka", Command: []string{c.Damka, "hub"}, Options: []hubclient.Setting{{Name: "threads", Value: "1"}}},
	}
	err := c.runMatch(ctx, &l, engine.English, engines, matchRun{limits: match.Limits{MoveTime: 50 * time.Millisecond},
		pairs: (c.CBGames + 1) / 2, pdnFile: c.file("cb-english"), margin: margin})
	return l, err
}
