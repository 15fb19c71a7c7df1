// resume.go: continuing an interrupted match from its PDN file: the games
// already played are checked against the schedule, a torn last record is
// cut off, and Run skips the games found and counts them in its statistics.

package match

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// SeedTag is the PDN tag in which Run records Config.Seed, so that a
// resumed match can tell a file of another schedule.
const SeedTag = "Seed"

// Resumed is what ResumeFile found in the PDN file of an interrupted match.
type Resumed struct {
	// Games are the complete games of the file, in file order, to be
	// passed as Config.Played.
	Games []*pdn.Game
	// Torn describes the half-written last game that was cut off the
	// file ("" when the file ended with a complete game).
	Torn string
	// Size is the file's size after the cut: the end of its last complete
	// game.
	Size int64
}

// ResumeFile reads the PDN file name that an interrupted run of cfg's match
// wrote, for Run to continue it (Config.Played). Every complete game must be
// one of cfg's schedule (see Config.Played): otherwise ResumeFile fails with
// an error naming the file and the game, and leaves the file as it is. A
// half-written last game (a record the run was writing when it stopped) is
// cut off the file, which then ends with the last complete game, and
// described in Resumed.Torn. A file that does not exist or is empty holds no
// games: the match starts from its beginning.
func ResumeFile(name string, cfg Config) (Resumed, error) {
	var res Resumed
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("match: resume: %w", err)
	}
	chunks := splitRecords(data)
	end := 0
	for i, c := range chunks {
		g, complete := parseRecord(c, cfg.Variant)
		if !complete {
			if i < len(chunks)-1 {
				return res, fmt.Errorf("match: resume %s: game %d (line %d) is incomplete and not the last one: the file is not one match's PDN as damka match writes it",
					name, i+1, lineOf(data, end))
			}
			if n := gamesIn(c, cfg.Variant); n > 1 {
				// A record cut off by an interrupted run is part of one
				// game: cutting this one off would lose finished games.
				return Resumed{}, fmt.Errorf("match: resume %s: game %d (line %d) is the first of %d games with no blank line between them (the end of a record): the file is not one match's PDN as damka match writes it, and is left as it is",
					name, i+1, lineOf(data, end), n)
			}
			res.Torn = fmt.Sprintf("%s: game %d (line %d%s) is incomplete (%d bytes): dropped, to be played again",
				name, i+1, lineOf(data, end), roundOf(g), len(c))
			break
		}
		g.Line = lineOf(data, end)
		res.Games = append(res.Games, g)
		end += len(c)
	}
	if _, err := checkPlayed(&cfg, res.Games); err != nil {
		return Resumed{}, fmt.Errorf("match: resume %s: %w", name, err)
	}
	res.Size = int64(end)
	if end < len(data) {
		if err := os.Truncate(name, res.Size); err != nil {
			return Resumed{}, fmt.Errorf("match: resume: cutting off the torn last game: %w", err)
		}
	}
	return res, nil
}

// splitRecords splits a match PDN file into its game records: each starts
// at the file's start or at a tag line after a blank line, as pdn.Write
// writes games one after another.
func splitRecords(data []byte) [][]byte {
	var out [][]byte
	start := 0
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("\n\n["))
		if j < 0 {
			break
		}
		cut := i + j + 2
		out = append(out, data[start:cut])
		start, i = cut, cut
	}
	if start < len(data) {
		out = append(out, data[start:])
	}
	return out
}

// parseRecord reads one game record; complete is false unless it is one
// whole game as Run writes it: a finished result, as many plies as its
// PlyCount tag says, and the blank line that ends the record.
func parseRecord(c []byte, v engine.VariantID) (g *pdn.Game, complete bool) {
	pr := pdn.NewReader(bytes.NewReader(c), v)
	g, err := pr.Next()
	if err != nil || g == nil {
		return g, false
	}
	if _, err := pr.Next(); !errors.Is(err, io.EOF) {
		return g, false
	}
	if r, err := engine.ParseResult(g.Variant, g.Result); err != nil || r == engine.Ongoing {
		return g, false
	}
	if n, err := strconv.Atoi(g.Tag("PlyCount")); err != nil || n != len(g.Moves) {
		return g, false
	}
	return g, bytes.HasSuffix(c, []byte("\n\n"))
}

// gamesIn counts the games, whole or not, that a PDN reader finds in the
// record c.
func gamesIn(c []byte, v engine.VariantID) int {
	pr := pdn.NewReader(bytes.NewReader(c), v)
	n := 0
	for {
		g, err := pr.Next()
		if g == nil && err != nil {
			return n
		}
		n++
	}
}

// lineOf returns the 1-based line at byte offset off of data.
func lineOf(data []byte, off int) int { return 1 + bytes.Count(data[:off], []byte("\n")) }

// roundOf names the Round tag of a (partial) game, if it has one.
func roundOf(g *pdn.Game) string {
	if g == nil || g.Tag("Round") == "" {
		return ""
	}
	return fmt.Sprintf(", Round %q", g.Tag("Round"))
}

// scheduleJobs returns the games of cfg's (shard's) schedule in order.
func scheduleJobs(cfg *Config) []GameJob {
	pairs := Schedule(cfg.Openings, max(cfg.Rounds, 1), cfg.Seed)
	if cfg.Shards > 1 {
		pairs = Shard(pairs, cfg.Shard, cfg.Shards)
	}
	jobs := make([]GameJob, 0, 2*len(pairs))
	for _, p := range pairs {
		jobs = append(jobs, GameJob{PairJob: p, Game: 1}, GameJob{PairJob: p, Game: 2})
	}
	return jobs
}

// playedGame is a game of Config.Played mapped to its place in the schedule.
type playedGame struct {
	job     GameJob
	g       *pdn.Game
	score   float64 // A's
	loser   int     // the engine that lost by a fault, or -1
	termTag string
}

// checkPlayed maps each game of played to its game of cfg's schedule. It
// fails, naming the game, on a game of another variant, engines, seed,
// openings or time control, or not in the (shard's) schedule, on an
// unfinished game and on a game found twice.
func checkPlayed(cfg *Config, played []*pdn.Game) ([]playedGame, error) {
	byRound := map[string]GameJob{}
	for _, j := range scheduleJobs(cfg) {
		byRound[j.RoundTag()] = j
	}
	seen := map[string]bool{}
	out := make([]playedGame, 0, len(played))
	for i, g := range played {
		round := g.Tag("Round")
		where := fmt.Sprintf("game %d (line %d, Round %q)", i+1, g.Line, round)
		if g.Variant != cfg.Variant {
			return nil, fmt.Errorf("%s: a %s game, this match is %s", where, g.Variant, cfg.Variant)
		}
		if s := g.Tag(SeedTag); s != "" && s != strconv.FormatUint(cfg.Seed, 10) {
			return nil, fmt.Errorf("%s: played with --seed %s, this match has seed %d (a different schedule)", where, s, cfg.Seed)
		}
		j, ok := byRound[round]
		if !ok {
			return nil, fmt.Errorf("%s: not a game of this match's schedule (%d openings x %d rounds%s)",
				where, len(cfg.Openings), max(cfg.Rounds, 1), shardText(cfg))
		}
		if op := g.Tag("Opening"); op != j.Opening.Name {
			return nil, fmt.Errorf("%s: opening %q, this match's schedule (seed %d) plays %q there: a different seed or openings file",
				where, op, cfg.Seed, j.Opening.Name)
		}
		a, b := cfg.Engines[0].Name, cfg.Engines[1].Name
		wantW, wantB := a, b
		if !j.AWhite() {
			wantW, wantB = b, a
		}
		if w, bl := g.Tag("White"), g.Tag("Black"); w != wantW || bl != wantB {
			return nil, fmt.Errorf("%s: White %q and Black %q, this match's game is %q (White) against %q (Black): different engines",
				where, w, bl, wantW, wantB)
		}
		wl, bl := cfg.EngineLimits(0), cfg.EngineLimits(1)
		if !j.AWhite() {
			wl, bl = bl, wl
		}
		if !sameTimeControls(g, wl, bl) {
			return nil, fmt.Errorf("%s: the file's game has %s, this match's game has %s (different limits)",
				where, gameTimeControls(g), matchTimeControls(wl, bl))
		}
		res, err := engine.ParseResult(g.Variant, g.Result)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if res == engine.Ongoing {
			return nil, fmt.Errorf("%s: unfinished game (result *)", where)
		}
		if seen[round] {
			return nil, fmt.Errorf("%s: the game appears twice", where)
		}
		seen[round] = true
		p := playedGame{job: j, g: g, loser: -1, termTag: g.Tag("Termination")}
		switch {
		case res == engine.Draw:
			p.score = 0.5
		case (res == engine.WhiteWins) == j.AWhite():
			p.score = 1
		}
		if isFault(p.termTag) && res != engine.Draw {
			p.loser = 0
			if p.score == 1 {
				p.loser = 1
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// sameTimeControls reports whether g's time control tags are those that
// Run writes for a game in which White has limits wl and Black bl: the
// TimeControl tag when they are the same, WhiteTimeControl and
// BlackTimeControl otherwise.
func sameTimeControls(g *pdn.Game, wl, bl Limits) bool {
	if wl == bl {
		return g.Tag("TimeControl") == wl.String()
	}
	return g.Tag("WhiteTimeControl") == wl.String() && g.Tag("BlackTimeControl") == bl.String()
}

// gameTimeControls names the time control tags of g as the file has them:
// `TimeControl "movetime=0.05"`, `WhiteTimeControl "movetime=0.1" and
// BlackTimeControl "movetime=0.05"`, or "no time control tag".
func gameTimeControls(g *pdn.Game) string {
	var parts []string
	for _, t := range []string{"TimeControl", "WhiteTimeControl", "BlackTimeControl"} {
		if v := g.Tag(t); v != "" {
			parts = append(parts, fmt.Sprintf("%s %q", t, v))
		}
	}
	if len(parts) == 0 {
		return "no time control tag"
	}
	return strings.Join(parts, " and ")
}

// matchTimeControls names the time controls of a game of this match in
// which White has limits wl and Black bl, as gameTimeControls names a
// game's.
func matchTimeControls(wl, bl Limits) string {
	if wl == bl {
		return fmt.Sprintf("TimeControl %q", wl.String())
	}
	return fmt.Sprintf("WhiteTimeControl %q and BlackTimeControl %q", wl.String(), bl.String())
}

// shardText names cfg's shard, "" for the whole schedule.
func shardText(cfg *Config) string {
	if cfg.Shards > 1 {
		return fmt.Sprintf(", shard %d/%d", cfg.Shard, cfg.Shards)
	}
	return ""
}

// syncer is a PDN writer that can be flushed to disk (an *os.File).
type syncer interface{ Sync() error }

// truncater is a PDN file that can be cut back to a size.
type truncater interface {
	Stat() (os.FileInfo, error)
	Truncate(size int64) error
}

// namer is a PDN writer with a name (an *os.File).
type namer interface{ Name() string }

// writeGame writes one game record to w with a single Write and, for a
// regular file, syncs it to disk before returning, so that an interrupted match
// leaves its file complete up to its last record. When the write fails, a
// file is cut back to its size before it, so that the games written so far
// stay intact; the error names the file.
func writeGame(w io.Writer, g *pdn.Game) error {
	var buf bytes.Buffer
	if err := pdn.Write(&buf, g); err != nil {
		return fmt.Errorf("match: writing PDN: %w", err)
	}
	where := "PDN"
	if n, ok := w.(namer); ok {
		where = "PDN file " + n.Name()
	}
	size := int64(-1)
	if t, ok := w.(truncater); ok {
		if st, err := t.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	_, err := w.Write(buf.Bytes())
	if s, ok := w.(syncer); ok && err == nil && size >= 0 {
		err = s.Sync()
	}
	if err != nil {
		if size >= 0 {
			if terr := w.(truncater).Truncate(size); terr != nil {
				err = errors.Join(err, fmt.Errorf("cutting the torn game off: %w", terr))
			}
		}
		return fmt.Errorf("match: writing %s: %w", where, err)
	}
	return nil
}
