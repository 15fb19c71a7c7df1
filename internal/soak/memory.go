// memory.go: the memory run: one match with a process per engine
// throughout, the resident memory of both read from /proc after the
// warm-up and after the last game.

package soak

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

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
	options := []hubclient.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "1"}}
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
