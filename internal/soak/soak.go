// Package soak plays many fast games through each of damka's front ends
// (Hub through the match runner, DXP between two processes, the text
// mode, CheckerBoard through cbhub.exe under wine where wine exists) and
// counts what went wrong: illegal moves, crashes, hangs, time losses,
// games whose PDN does not read back, and the memory growth of one engine
// process over many games. `make soak` runs it (its test, behind the
// DAMKA_SOAK variable); docs/development.md has the commands.
package soak

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/protocol/hub"
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
	Out      io.Writer // progress lines; nil: none
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

// Memory is the resident memory of the two engine processes of one match
// after its warm-up (MemWarmup games or a tenth of them, half of a short
// match) and after all of them.
type Memory struct {
	Games       int      // games of the match
	EarlyGames  int      // games played at the first sample
	LateGames   int      // games played at the last sample (Games, or one less)
	Early, Late [2]int64 // VmRSS in KiB, engines A and B
	// EarlyAnon and LateAnon are the anonymous part of Early and Late
	// (RssAnon: heap, stacks, the hash table), what a leak grows; the
	// rest is file pages, the binary's embedded tables and books as the
	// games reach more of them.
	EarlyAnon, LateAnon [2]int64
	Restarted           bool   // an engine's process changed between the samples
	Err                 string // why there are no figures
}

// Ratio returns the larger of the two engines' LateAnon/EarlyAnon.
func (m Memory) Ratio() float64 {
	r := 0.0
	for i := range m.EarlyAnon {
		if m.EarlyAnon[i] > 0 {
			r = max(r, float64(m.LateAnon[i])/float64(m.EarlyAnon[i]))
		}
	}
	return r
}

// MaxGrowth is the largest Memory.Ratio that is not a fault.
const MaxGrowth = 1.10

// MemWarmup is the number of games an engine process plays before its
// memory is a baseline for growth. Over its first games an engine's
// anonymous memory grows without leaking: the Go heap's free space grows
// to the collector's goal (about twice the 8 MiB live heap at 10 ms a
// move), and each endgame slice the games reach is loaded on its first
// probe (1.1 MB for all of Russian's). 10 ms Russian games, hash 1 MiB:
// RssAnon about 19.5 MB after 14 games, 22.1 MB after 68, 22.3 MB after
// 124, 22.7 to 23.1 MB after 600, while the live heap after a collection
// was 8.41 MB after 52 games and 8.48 MB after 604.
const MemWarmup = 100

// Judged reports whether the growth is judged: the early sample was
// taken after MemWarmup games. A shorter run reports its figures only.
func (m Memory) Judged() bool { return m.EarlyGames >= MemWarmup }

// Faults returns 1 when the memory grew past MaxGrowth after the warm-up,
// an engine was restarted or the figures could not be read, else 0.
func (m Memory) Faults() int {
	if m.Err != "" || m.Restarted || (m.Judged() && m.Ratio() > MaxGrowth) {
		return 1
	}
	return 0
}

// String returns the memory line.
func (m Memory) String() string {
	if m.Err != "" {
		return "soak memory: " + m.Err
	}
	bound := fmt.Sprintf("at most %.2f", MaxGrowth)
	if !m.Judged() {
		bound = fmt.Sprintf("not judged: the first sample is within the %d games of warm-up", MemWarmup)
	}
	return fmt.Sprintf("soak memory games=%d after %d: rss_kib=%d,%d anon_kib=%d,%d; after %d: rss_kib=%d,%d anon_kib=%d,%d; anon ratio=%.3f (%s) restarted=%v",
		m.Games, m.EarlyGames, m.Early[0], m.Early[1], m.EarlyAnon[0], m.EarlyAnon[1],
		m.LateGames, m.Late[0], m.Late[1], m.LateAnon[0], m.LateAnon[1], m.Ratio(), bound, m.Restarted)
}

// earlySample returns the number of games after which the memory run of
// games games takes its first sample: a tenth of them, at least MemWarmup
// (the measure of a full run: 1,000 games against 100), or half of them when
// they are fewer than twice MemWarmup (the figures of a short run, not
// judged).
func earlySample(games int) int {
	switch {
	case games >= 2*MemWarmup:
		return max(MemWarmup, games/10)
	default:
		return max(1, games/2)
	}
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
	options []hub.Setting
	ponder  bool // the runner has the engines ponder (match.Config.Ponder)
}

// hubSetups are the Hub games' time controls: a move time, a clock with an
// increment (two threads, pondering), and a clock so short
// that the engine must move in milliseconds.
var hubSetups = []hubSetup{
	{"movetime 20ms, 1 thread", match.Limits{MoveTime: 20 * time.Millisecond},
		[]hub.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "16"}}, false},
	{"clock 2s+30ms, 2 threads, pondering", match.Limits{Base: 2 * time.Second, Inc: 30 * time.Millisecond},
		[]hub.Setting{{Name: "threads", Value: "2"}, {Name: "hash", Value: "16"}}, true},
	{"clock 0.4s+5ms, 1 thread", match.Limits{Base: 400 * time.Millisecond, Inc: 5 * time.Millisecond},
		[]hub.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "8"}}, false},
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
	for _, v := range engine.AllVariants() {
		if cfg.Games > 0 {
			l, err := cfg.hubGames(ctx, v)
			if err != nil {
				return rep, err
			}
			rep.Lines = append(rep.Lines, l)
			cfg.say("%s", l)
		}
	}
	for _, v := range engine.AllVariants() {
		if cfg.DXPGames > 0 {
			l := cfg.dxpGames(ctx, v)
			rep.Lines = append(rep.Lines, l)
			cfg.say("%s", l)
		}
	}
	for _, v := range engine.AllVariants() {
		if cfg.TextGames > 0 {
			l := cfg.textGames(ctx, v)
			rep.Lines = append(rep.Lines, l)
			cfg.say("%s", l)
		}
	}
	switch {
	case cfg.CBGames == 0:
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
		{Name: "damka", Command: []string{c.Damka, "hub"}, Options: []hub.Setting{{Name: "threads", Value: "1"}}},
	}
	err := c.runMatch(ctx, &l, engine.English, engines, matchRun{limits: match.Limits{MoveTime: 50 * time.Millisecond},
		pairs: (c.CBGames + 1) / 2, pdnFile: c.file("cb-english"), margin: margin})
	return l, err
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

// dxpGameLine is a game line of damka dxp's standard output.
var dxpGameLine = regexp.MustCompile(`^game=\d+ .* outcome=(\S+) plies=\d+ reason="([^"]*)"$`)

// dxpGames plays DXPGames games of v between two damka dxp processes on
// loopback: a follower at a fixed move time and an initiator on a clock
// (its GAMEREQ's) at another move time, the initiator's deck the variant's.
func (c *Config) dxpGames(ctx context.Context, v engine.VariantID) Line {
	l := Line{FrontEnd: "dxp", Variant: v.String(), Note: "follower movetime 20ms, initiator movetime 40ms, 1-minute GAMEREQ clock"}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.DXPGames)*time.Minute+time.Minute)
	defer cancel()
	fpdn, ipdn := c.file("dxp-"+v.String()+"-follower"), c.file("dxp-"+v.String()+"-initiator")
	for _, f := range []string{fpdn, ipdn} {
		_ = os.Remove(f)
	}
	// The initiator's deck: this shard's openings, one per game pair.
	deck := c.file("dxp-" + v.String() + "-deck")
	if err := c.writeDeck(v, (c.DXPGames+1)/2, deck); err != nil {
		l.Crashes++
		l.Note = "writing the deck: " + err.Error()
		return l
	}
	follower := exec.CommandContext(ctx, c.Damka, "dxp", "--listen", "127.0.0.1:0", "--sessions", "1",
		"--variant", v.String(), "--movetime", "0.02", "--hash", "16", "--pdn", fpdn, "--log-level", "info")
	var fout bytes.Buffer
	follower.Stdout = &fout
	stderr, err := follower.StderrPipe()
	if err == nil {
		err = follower.Start()
	}
	if err != nil {
		l.Crashes++
		l.Note = "follower: " + err.Error()
		return l
	}
	addr := ""
	var ferr bytes.Buffer
	sc := bufio.NewScanner(stderr)
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	listening := regexp.MustCompile(`dxp listening.*addr=(\S+)`)
	for addr == "" && sc.Scan() {
		line := ansi.ReplaceAllString(sc.Text(), "")
		ferr.WriteString(line + "\n")
		if m := listening.FindStringSubmatch(line); m != nil {
			addr = m[1]
		}
	}
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&ferr, stderr); close(copied) }()
	if addr == "" {
		_ = follower.Process.Kill()
		<-copied
		_ = follower.Wait()
		l.Crashes++
		l.Note = "the follower did not listen: " + lastLine(ferr.String())
		return l
	}
	initiator := exec.CommandContext(ctx, c.Damka, "dxp", "--connect", addr, "--initiator", "--games", strconv.Itoa(c.DXPGames),
		"--time", "1", "--moves", "0", "--variant", v.String(), "--movetime", "0.04", "--hash", "16",
		"--openings", deck, "--pdn", ipdn)
	var iout, ierr bytes.Buffer
	initiator.Stdout, initiator.Stderr = &iout, &ierr
	ierrRun := initiator.Run()
	<-copied
	ferrRun := follower.Wait()
	if ctx.Err() != nil {
		l.Hangs++
		l.Note = "did not end within its time"
	}
	for who, e := range map[string]error{"initiator": ierrRun, "follower": ferrRun} {
		if e != nil && ctx.Err() == nil {
			l.Crashes++
			l.Note = fmt.Sprintf("%s: %v: %s", who, e, lastLine(ierr.String()+ferr.String()))
		}
	}
	if bytes.Contains(ierr.Bytes(), []byte("panic")) || bytes.Contains(ferr.Bytes(), []byte("panic")) {
		l.Crashes++
	}
	for _, line := range strings.Split(iout.String(), "\n") {
		m := dxpGameLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l.Games++
		reason := strings.ToLower(m[2])
		switch {
		case strings.Contains(reason, "illegal"):
			l.Illegal++
		case strings.Contains(reason, "timeout"):
			l.Hangs++
		case strings.Contains(reason, "time"):
			l.TimeLosses++
		case m[1] != "win" && m[1] != "draw" && m[1] != "loss":
			l.Unfinished++
		}
	}
	l.BadPDN += badPDN(ipdn, v, l.Games, true) + badPDN(fpdn, v, l.Games, true)
	return l
}

// textGames plays TextGames games of v in one scripted damka play session:
// damka moves for both sides ("go") until the game is over, then prints
// the game ("pdn"); the move time varies from game to game.
func (c *Config) textGames(ctx context.Context, v engine.VariantID) Line {
	l := Line{FrontEnd: "text", Variant: v.String(), Note: "damka play, go for both sides, level time 10/20/40ms"}
	var script strings.Builder
	fmt.Fprintf(&script, "variant %s\nthinking off\n", v)
	const maxGo = 500
	for i := range c.TextGames {
		fmt.Fprintf(&script, "new\nlevel time %s\n", []string{"0.01", "0.02", "0.04"}[i%3])
		for range maxGo {
			script.WriteString("go\n")
		}
		script.WriteString("pdn\n")
	}
	script.WriteString("quit\n")
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.TextGames)*3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Damka, "play", "--hash", "16")
	cmd.Stdin = strings.NewReader(script.String())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		l.Hangs++
		l.Note = "the session did not end within its time"
	case err != nil:
		l.Crashes++
		l.Note = fmt.Sprintf("%v: %s", err, lastLine(errb.String()))
	}
	if bytes.Contains(errb.Bytes(), []byte("panic")) {
		l.Crashes++
	}
	// Each pdn command prints one game: tags from [Event, then the moves
	// up to the next prompt.
	text := out.String()
	var games []string
	for {
		i := strings.Index(text, "[Event ")
		if i < 0 {
			break
		}
		text = text[i:]
		end := strings.Index(text, "> ")
		if end < 0 {
			end = len(text)
		}
		game := text[:end]
		if j := strings.LastIndexByte(game, '\n'); j >= 0 {
			game = game[:j+1]
		}
		games = append(games, game)
		text = text[end:]
	}
	file := c.file("text-" + v.String())
	_ = os.WriteFile(file, []byte(strings.Join(games, "\n")), 0o644)
	for _, g := range games {
		if strings.Contains(g, `[Result "*"]`) {
			l.Unfinished++
		} else {
			l.Games++
		}
	}
	l.BadPDN += badPDN(file, v, len(games), true) + max(c.TextGames-len(games), 0)
	if n := strings.Count(out.String(), "illegal"); n > 0 {
		l.Illegal += n
	}
	return l
}

// memory plays MemGames Russian games at a fast move time, tallied as
// any Hub match, and reads the resident memory of the two engine processes
// after the warm-up (earlySample) and after all of them (the runner keeps
// one process per engine from game to game unless one crashes or hangs).
func (c *Config) memory(ctx context.Context) (Line, Memory) {
	games := (c.MemGames + 1) / 2 * 2
	m := Memory{Games: games, EarlyGames: earlySample(games)}
	var early [2]int
	// The smallest table: it is all resident after the first game, so
	// that what grows later is the rest of the process.
	options := []hub.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "1"}}
	engines := [2]match.EngineSpec{
		{Name: "damkaA", Command: []string{c.Damka, "hub"}, Options: options},
		{Name: "damkaB", Command: []string{c.Damka, "hub"}, Options: options},
	}
	l := Line{FrontEnd: "mem", Variant: engine.Russian.String(), Note: "movetime 10ms, hash 1 MiB, one process per engine"}
	// The late sample is the last one with both engines running: the
	// runner may quit them before it reports the match's last game.
	progress := func(p match.Progress) {
		if m.Err != "" || p.Played < m.EarlyGames {
			return
		}
		pids, err := children(c.Damka)
		if err == nil && len(pids) != 2 {
			if p.Played > m.EarlyGames {
				return
			}
			err = fmt.Errorf("found %d engine processes, want 2", len(pids))
		}
		var rss, anon [2]int64
		for i, pid := range pids {
			if err == nil {
				rss[i], anon[i], err = vmRSS(pid)
			}
		}
		if err != nil {
			m.Err = "reading the engines' memory: " + err.Error()
			return
		}
		if p.Played == m.EarlyGames {
			early, m.Early, m.EarlyAnon = [2]int{pids[0], pids[1]}, rss, anon
		} else if early != [2]int{pids[0], pids[1]} {
			m.Restarted = true
		}
		m.LateGames, m.Late, m.LateAnon = p.Played, rss, anon
	}
	err := c.runMatch(ctx, &l, engine.Russian, engines, matchRun{limits: match.Limits{MoveTime: 10 * time.Millisecond},
		pairs: m.Games / 2, pdnFile: c.file("memory-russian"), progress: progress})
	switch {
	case err != nil:
		m.Err = err.Error()
	case m.Err == "" && (l.Games != m.Games || m.LateGames <= m.EarlyGames):
		m.Err = fmt.Sprintf("the match played %d games of %d; samples after %d and %d", l.Games, m.Games, m.EarlyGames, m.LateGames)
	}
	return l, m
}

// children returns the pids of this process's children running the
// program bin, lowest first.
func children(bin string) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	want, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return nil, err
	}
	self := os.Getpid()
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; split after ')'.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(self) {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == want {
			out = append(out, pid)
		}
	}
	return out, nil
}

// vmRSS returns the VmRSS and RssAnon lines of /proc/pid/status in KiB.
func vmRSS(pid int) (rss, anon int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	found := 0
	for _, line := range strings.Split(string(data), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || (name != "VmRSS" && name != "RssAnon") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/status: %s: %w", pid, name, err)
		}
		if name == "VmRSS" {
			rss = n
		} else {
			anon = n
		}
		found++
	}
	if found != 2 {
		return 0, 0, fmt.Errorf("/proc/%d/status: no VmRSS and RssAnon", pid)
	}
	return rss, anon, nil
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
