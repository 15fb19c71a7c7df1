package match

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// fuzzResumeConfig is the match whose PDN files FuzzResumeRecords feeds to
// ResumeFile: engines A and B at depth 1, two openings of variant v (its
// start position and the position after its first legal move), seed 0.
func fuzzResumeConfig(v engine.VariantID) Config {
	start := engine.StartPosition(v)
	var l engine.MoveList
	start.Generate(&l)
	ops := []Opening{{Name: "start", Start: start}, {Name: "first move", Start: start, Moves: []engine.Move{l.Moves[0]}}}
	return Config{
		Variant: v, Openings: ops, Limits: Limits{Depth: 1},
		Engines: [2]EngineSpec{{Name: "A", Command: []string{"a"}}, {Name: "B", Command: []string{"b"}}},
	}
}

// fuzzMatchRecord is the PDN record that Run writes for game j of cfg's
// schedule, plies moves long (each the first legal move, fewer when the
// game ends), ending result (a PDN result token).
func fuzzMatchRecord(cfg Config, j GameJob, plies int, result string) []byte {
	g := pdn.NewGame(cfg.Variant, j.Opening.Start)
	for _, m := range j.Opening.Moves {
		g.AppendMove(m)
	}
	for range plies {
		p := g.Position()
		var l engine.MoveList
		p.Generate(&l)
		if l.N == 0 {
			break
		}
		g.AppendMove(l.Moves[0])
	}
	g.Result = result
	white, black := cfg.Engines[0].Name, cfg.Engines[1].Name
	if !j.AWhite() {
		white, black = black, white
	}
	for _, t := range [][2]string{
		{"Event", "damka match"}, {"Site", "?"}, {"Date", "2026.01.02"}, {"Round", j.RoundTag()},
		{"White", white}, {"Black", black}, {"GameType", fmt.Sprint(cfg.Variant.Rules().GameType)},
		{"Opening", j.Opening.Name}, {SeedTag, fmt.Sprint(cfg.Seed)}, {"Termination", TermNormal},
		{"TerminationDetail", "fuzz"}, {"PlyCount", fmt.Sprint(len(g.Moves))}, {"TimeControl", cfg.Limits.String()},
	} {
		g.SetTag(t[0], t[1])
	}
	var b bytes.Buffer
	if err := pdn.Write(&b, g); err != nil {
		panic(err) // every move is legal
	}
	return b.Bytes()
}

// fuzzMatchFile is a match PDN file of cfg's whole schedule as Run writes
// it, game i with 2i+3 plies.
func fuzzMatchFile(cfg Config) []byte {
	var out []byte
	results := []string{"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1"}
	for i, j := range scheduleJobs(&cfg) {
		res := results[i%3]
		if cfg.Variant == engine.International {
			res = results[3+i%3]
		}
		out = append(out, fuzzMatchRecord(cfg, j, 2*i+3, res)...)
	}
	return out
}

// FuzzResumeRecords feeds arbitrary PDN files to ResumeFile (damka match
// --resume) and to its record splitter. The splitter loses no byte (its
// records join back to the file); a file ResumeFile refuses is left as it
// was and the error names the file and a game; a file it accepts is cut
// only when it names a torn last game, to the end of its complete games,
// and what it cuts off holds at most one game (a record half written, never
// complete games); the games it keeps, written back as Run writes them,
// resume to the same games with nothing cut.
func FuzzResumeRecords(f *testing.F) {
	for v := range engine.NumVariants {
		file := fuzzMatchFile(fuzzResumeConfig(v))
		recs := splitRecords(file)
		f.Add(file, uint8(v))
		f.Add(file[:len(file)-len(recs[len(recs)-1])/2], uint8(v))                      // torn last record
		f.Add(slices.Concat(recs[1], recs[0], recs[3]), uint8(v))                       // another order, a pair cut
		f.Add(slices.Concat(recs[0], recs[0]), uint8(v))                                // a game twice
		f.Add(slices.Concat(recs[0][:len(recs[0])-2], []byte("\n"), recs[1]), uint8(v)) // no blank line between two games
	}
	f.Add([]byte("[Event \"damka match\"]\n[Site"), uint8(engine.Russian))
	f.Add([]byte("\n\n[\n\n[[\n\n\n["), uint8(engine.Russian))
	f.Fuzz(func(t *testing.T, data []byte, vb uint8) {
		v := engine.VariantID(vb % uint8(engine.NumVariants))
		cfg := fuzzResumeConfig(v)

		recs := splitRecords(data)
		if !bytes.Equal(bytes.Join(recs, nil), data) {
			t.Fatalf("splitRecords loses bytes: %q", recs)
		}
		for i, r := range recs {
			if len(r) == 0 || (i > 0 && (r[0] != '[' || !bytes.HasSuffix(recs[i-1], []byte("\n\n")))) {
				t.Fatalf("record %d of %d: %q does not start after a blank line with a tag", i+1, len(recs), r)
			}
		}

		name := filepath.Join(t.TempDir(), "m.pdn")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := ResumeFile(name, cfg)
		after, rerr := os.ReadFile(name)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			if !bytes.Equal(after, data) {
				t.Fatalf("ResumeFile refused the file (%v) and changed it", err)
			}
			if !strings.HasPrefix(err.Error(), "match: resume "+name+": game ") {
				t.Fatalf("error does not name the file and the game: %v", err)
			}
			return
		}
		if res.Size > int64(len(data)) || !bytes.Equal(after, data[:res.Size]) {
			t.Fatalf("file cut to %d of %d bytes, Size %d", len(after), len(data), res.Size)
		}
		if (res.Torn == "") != (res.Size == int64(len(data))) {
			t.Fatalf("Torn %q but %d of %d bytes kept", res.Torn, res.Size, len(data))
		}
		if res.Torn != "" && !strings.HasPrefix(res.Torn, name+": game ") {
			t.Fatalf("Torn %q does not name the file and the game", res.Torn)
		}
		if n := countGames(data[res.Size:], v); n > 1 {
			t.Fatalf("the cut-off tail (%s) holds %d games: complete games are lost\n%q", res.Torn, n, data[res.Size:])
		}

		var back bytes.Buffer
		for _, g := range res.Games {
			if err := writeGame(&back, g); err != nil {
				t.Fatalf("a resumed game does not write back: %v", err)
			}
		}
		name2 := filepath.Join(t.TempDir(), "back.pdn")
		if err := os.WriteFile(name2, back.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		res2, err := ResumeFile(name2, cfg)
		if err != nil {
			t.Fatalf("the resumed games written back do not resume: %v\n%s", err, back.String())
		}
		if res2.Torn != "" || res2.Size != int64(back.Len()) || len(res2.Games) != len(res.Games) {
			t.Fatalf("written back: %d games, torn %q, size %d of %d; first read %d games",
				len(res2.Games), res2.Torn, res2.Size, back.Len(), len(res.Games))
		}
		for i, g := range res.Games {
			h := res2.Games[i]
			if !slices.Equal(g.Moves, h.Moves) || g.Result != h.Result || g.Start.Pieces != h.Start.Pieces || g.Start.Kings != h.Start.Kings || g.Start.Side != h.Start.Side ||
				g.Tag("Round") != h.Tag("Round") || g.Tag("Opening") != h.Tag("Opening") || g.Tag("Termination") != h.Tag("Termination") {
				t.Fatalf("game %d differs after a write back", i+1)
			}
		}
	})
}

// TestResumeRefusesGamesInOneRecord: a last record that holds more than
// one game (games joined without the blank line between them, as by a
// hand edit) is no record cut off by an interrupted run: ResumeFile
// refuses the file, naming it, the game and its line, and leaves it as it
// was, where it used to cut the finished games off as a torn record.
// (Found by FuzzResumeRecords' seed two_games_in_the_last_record.)
func TestResumeRefusesGamesInOneRecord(t *testing.T) {
	cfg := fuzzResumeConfig(engine.Russian)
	recs := splitRecords(fuzzMatchFile(cfg))
	require.Len(t, recs, 4)
	name := filepath.Join(t.TempDir(), "m.pdn")
	data := slices.Concat(recs[0], recs[1], recs[2][:len(recs[2])-1], recs[3])
	require.NoError(t, os.WriteFile(name, data, 0o644))
	_, err := ResumeFile(name, cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "match: resume "+name+": game 3 (line ")
	assert.Contains(t, err.Error(), "is the first of 2 games with no blank line between them")
	after, rerr := os.ReadFile(name)
	require.NoError(t, rerr)
	assert.Equal(t, data, after, "a refused file is left as it was")

	// A record cut off inside its one game is still cut off.
	data = slices.Concat(recs[0], recs[1], recs[2][:len(recs[2])/2])
	require.NoError(t, os.WriteFile(name, data, 0o644))
	r, err := ResumeFile(name, cfg)
	require.NoError(t, err)
	assert.Len(t, r.Games, 2)
	assert.Contains(t, r.Torn, name+": game 3 (line ")
}

// countGames counts the games (whole or not) a PDN reader finds in data.
func countGames(data []byte, v engine.VariantID) int {
	r := pdn.NewReader(bytes.NewReader(data), v)
	n := 0
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) || (err != nil && g == nil) {
			return n
		}
		n++
	}
}
