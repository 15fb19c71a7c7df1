// Package soak plays many fast games through each of damka's front ends
// (Hub through the match runner, DXP between two processes, the text
// mode, CheckerBoard through cbhub.exe under wine where wine exists) and
// counts what went wrong: illegal moves, crashes, hangs, time losses,
// games whose PDN does not read back, and the memory growth of one engine
// process over many games. `make soak` runs it (its test, behind the
// DAMKA_SOAK variable); docs/development.md has the commands.
package soak

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
)

// Config is what to play.
type Config struct {
	Damka     string // the damka binary
	Decks     string // the folder of the opening decks (openings/decks)
	Dir       string // where the PDN files go
	Games     int    // Hub games per variant (through the match runner)
	DXPGames  int    // DXP games per variant (two damka dxp processes)
	TextGames int    // text-mode games per variant (scripted damka play)
	MemGames  int    // games of the memory run (one process per engine throughout)
	CBGames   int    // English games of damka.dll through cbhub.exe under wine
	// Shard and Shards (1 <= Shard <= Shards; 0 and 0: 1 of 1) make this run
	// one of several that together play more games: shard i starts the
	// Hub, CheckerBoard and DXP games (i-1) * games further into the
	// variant's deck, and names its PDN files with -iofN.
	Shard, Shards int
	// TimeMargin is the match runner's time margin (scheduling latency
	// forgiven on a loaded machine); 0: match.DefaultTimeMargin.
	TimeMargin time.Duration
	// Wine, CBHub and CBDLL run damka.dll through cbhub.exe as a Hub
	// engine (English); any of them "" skips that front end.
	Wine, CBHub, CBDLL string
	// CBMargin is the time margin of the CheckerBoard games (0:
	// DefaultCBMargin): the DLL under wine answers later than a native
	// engine for wine's sake, not damka's.
	CBMargin time.Duration
	// Variants are the variants the Hub, DXP and text-mode games play,
	// and the CheckerBoard games only where English is among them; nil:
	// all four. The memory run (Russian) is not affected.
	Variants []engine.VariantID
	Out      io.Writer // progress lines; nil: none
}

// variants returns the variants this run plays (Variants, or all four).
func (c *Config) variants() []engine.VariantID {
	if len(c.Variants) == 0 {
		return engine.AllVariants()
	}
	return c.Variants
}

// Line is the tally of one front end in one variant.
type Line struct {
	FrontEnd, Variant string
	Games             int // games played to their end
	Illegal           int // illegal moves
	Crashes           int // engine processes that exited or failed
	Hangs             int // engines (or sessions) that stopped answering
	TimeLosses        int // games lost on time
	BadPDN            int // games missing from the PDN or not reading back
	Unfinished        int // games ended without a result (protocol errors)
	// Ponders and PonderHits are the ponder searches of the games played
	// with pondering and those whose expected reply came.
	Ponders, PonderHits int
	Note                string
}

// Faults returns the number of faults on l.
func (l Line) Faults() int {
	return l.Illegal + l.Crashes + l.Hangs + l.TimeLosses + l.BadPDN + l.Unfinished
}

// String returns the summary line.
func (l Line) String() string {
	s := fmt.Sprintf("soak %-5s %-13s games=%d illegal=%d crashes=%d hangs=%d time=%d badpdn=%d unfinished=%d",
		l.FrontEnd, l.Variant, l.Games, l.Illegal, l.Crashes, l.Hangs, l.TimeLosses, l.BadPDN, l.Unfinished)
	if l.Ponders > 0 {
		s += fmt.Sprintf(" ponder_hits=%d/%d", l.PonderHits, l.Ponders)
	}
	if l.Note != "" {
		s += "  (" + l.Note + ")"
	}
	return s
}

// Report is the outcome of a soak run.
type Report struct {
	Lines   []Line
	Memory  *Memory
	Skipped []string // front ends not run, and why
}

// Faults returns the number of faults of the whole run.
func (r Report) Faults() int {
	n := 0
	for _, l := range r.Lines {
		n += l.Faults()
	}
	if r.Memory != nil {
		n += r.Memory.Faults()
	}
	return n
}

// String returns every line of the report.
func (r Report) String() string {
	var b strings.Builder
	for _, l := range r.Lines {
		fmt.Fprintln(&b, l)
	}
	if r.Memory != nil {
		fmt.Fprintln(&b, r.Memory)
	}
	for _, s := range r.Skipped {
		fmt.Fprintln(&b, "soak skipped:", s)
	}
	fmt.Fprintf(&b, "soak faults=%d\n", r.Faults())
	return b.String()
}

// deck returns the opening deck of v.
func (c *Config) deck(v engine.VariantID) ([]match.Opening, error) {
	return openings.Load(filepath.Join(c.Decks, v.String()+"-3ply.pdn"), v)
}

// shardOf returns c's shard and shard count, 1 and 1 when unset.
func (c *Config) shardOf() (int, int) {
	if c.Shards < 1 {
		return 1, 1
	}
	return min(max(c.Shard, 1), c.Shards), c.Shards
}

// file returns the path in c.Dir of the PDN file name (name.pdn, or
// name-iofN.pdn in a shard of several).
func (c *Config) file(name string) string {
	if i, n := c.shardOf(); n > 1 {
		name += fmt.Sprintf("-%dof%d", i, n)
	}
	return filepath.Join(c.Dir, name+".pdn")
}

// pick returns n openings of ops for shard i: spread over the deck when
// one shard's n fit in it, else the deck in turn from shard i's start.
func pick(ops []match.Opening, n, shard int) []match.Opening {
	if len(ops) == 0 {
		return nil
	}
	chosen := make([]match.Opening, 0, n)
	for k := range n {
		if n <= len(ops) {
			chosen = append(chosen, ops[(k*len(ops)/n+shard-1)%len(ops)])
		} else {
			chosen = append(chosen, ops[((shard-1)*n+k)%len(ops)])
		}
	}
	return chosen
}

func (c *Config) say(format string, a ...any) {
	if c.Out != nil {
		fmt.Fprintf(c.Out, format+"\n", a...)
	}
}

// Run plays the soak of cfg and returns its report; the error is for what
// stopped it (a deck that does not load, ctx).
func Run(ctx context.Context, cfg Config) (Report, error) {
	var rep Report
	for _, v := range cfg.variants() {
		if cfg.Games > 0 {
			l, err := cfg.hubGames(ctx, v)
			if err != nil {
				return rep, err
			}
			rep.Lines = append(rep.Lines, l)
			cfg.say("%s", l)
		}
	}
	for _, v := range cfg.variants() {
		if cfg.DXPGames > 0 {
			l := cfg.dxpGames(ctx, v)
			rep.Lines = append(rep.Lines, l)
			cfg.say("%s", l)
		}
	}
	for _, v := range cfg.variants() {
		if cfg.TextGames > 0 {
			l := cfg.textGames(ctx, v)
			rep.Lines = append(rep.Lines, l)
			cfg.say("%s", l)
		}
	}
	switch {
	case cfg.CBGames == 0 || !slices.Contains(cfg.variants(), engine.English):
	case cfg.Wine == "" || cfg.CBHub == "" || cfg.CBDLL == "":
		rep.Skipped = append(rep.Skipped, "cb: CheckerBoard needs wine, bin/cbhub.exe, bin/damka.dll and the wine prefix bin/wine (make test-cb makes them; see docs/checkerboard.md)")
	default:
		l, err := cfg.cbGames(ctx)
		if err != nil {
			// The DLL's engine did not run at all: a crash of this
			// front end, and the rest of the soak goes on.
			l.Crashes++
			l.Note = strings.TrimSpace(l.Note + "; " + err.Error())
		}
		rep.Lines = append(rep.Lines, l)
		cfg.say("%s", l)
	}
	if cfg.MemGames > 0 {
		l, m := cfg.memory(ctx)
		rep.Lines = append(rep.Lines, l)
		rep.Memory = &m
		cfg.say("%s", l)
		cfg.say("%s", m)
	}
	return rep, ctx.Err()
}

// writeDeck writes to file, as a PDN deck, the n openings of v that
// this shard plays.
func (c *Config) writeDeck(v engine.VariantID, n int, file string) error {
	ops, err := c.deck(v)
	if err != nil {
		return err
	}
	shard, _ := c.shardOf()
	var b bytes.Buffer
	if err := openings.WritePDN(&b, v, "damka soak", pick(ops, n, shard)); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}

// badPDN returns how many of the want games of file are missing or do
// not read back (tags, moves legal in their positions, a result); with
// anyResult an unfinished game ("*") reads back too.
func badPDN(file string, v engine.VariantID, want int, anyResult bool) int {
	f, err := os.Open(file)
	if err != nil {
		return want
	}
	defer f.Close()
	r := pdn.NewReader(f, v)
	good := 0
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return max(want-good, 1)
		}
		if g.Game() != nil && (anyResult || g.Result != "*") {
			good++
		}
	}
	return max(want-good, 0)
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// Bytes returns what was written.
func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.b.Bytes()...)
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// parseVariants reads a comma-separated list of variant names (as
// engine.ParseVariant takes them, "russian,english") for
// Config.Variants; an unknown or repeated name is an error naming it.
func parseVariants(s string) ([]engine.VariantID, error) {
	var vs []engine.VariantID
	for _, name := range strings.Split(s, ",") {
		v, err := engine.ParseVariant(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("soak variants %q: %w", s, err)
		}
		if slices.Contains(vs, v) {
			return nil, fmt.Errorf("soak variants %q: %s given twice", s, v)
		}
		vs = append(vs, v)
	}
	return vs, nil
}
