package match

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// maxMergeFiles bounds the files of a FuzzMatchMerge input.
const maxMergeFiles = 4

// mergeWhere matches the game a MergeGames error names.
var mergeWhere = regexp.MustCompile(`^merge: game (\d+) \(line (\d+), Round "`)

// FuzzMatchMerge feeds arbitrary PDN files (the input split at NUL bytes,
// up to four) to the reading of `damka match merge`: ReadPDN of each file,
// then MergeGames of all their games, engine A given or not. A file that
// does not read fails at a *pdn.Error naming the game after those it
// returns; a merge error names a game by its number and line; merged
// statistics count every game once (results, terminations, faults); and
// the same games written back as PDN, or merged in the reverse order with
// the engine A found, give the same statistics.
func FuzzMatchMerge(f *testing.F) {
	for v := range engine.NumVariants {
		file := fuzzMatchFile(fuzzResumeConfig(v))
		recs := splitRecords(file)
		f.Add(file, "", uint8(v))
		f.Add(slices.Concat(recs[0], recs[3], []byte{0}, recs[2], recs[1]), "B", uint8(v)) // two shards
		f.Add(slices.Concat(recs[0], recs[0]), "", uint8(v))                               // a game twice
	}
	if gz, err := os.Open("../learn/sprt/english_r6_vs_set4.pdn.gz"); err == nil {
		zr, err := gzip.NewReader(gz)
		if err == nil {
			data, _ := io.ReadAll(io.LimitReader(zr, 8<<10))
			f.Add(data, "", uint8(engine.Russian))
		}
		gz.Close()
	}
	f.Add([]byte("[White \"A\"][Black \"B\"][Round \"1.1.1\"][Termination \"crash\"][PlyCount \"x\"] 1. c3-d4 0-1\x00[White \"B\"][Black \"A\"][Round \"1.1.2\"] *"), "A", uint8(engine.Russian))
	f.Fuzz(func(t *testing.T, data []byte, a string, vb uint8) {
		v := engine.VariantID(vb % uint8(engine.NumVariants))
		files := bytes.SplitN(data, []byte{0}, maxMergeFiles)
		var perFile [][]*pdn.Game
		var games []*pdn.Game
		for i, file := range files {
			gs, err := ReadPDN(bytes.NewReader(file), v)
			if err != nil {
				var pe *pdn.Error
				if !errors.As(err, &pe) || pe.Index != len(gs)+1 || !strings.HasPrefix(err.Error(), fmt.Sprintf("pdn: game %d", pe.Index)) {
					t.Fatalf("file %d: %d games, then %v", i+1, len(gs), err)
				}
				return // match merge refuses the file, naming it
			}
			perFile = append(perFile, gs)
			games = append(games, gs...)
		}
		ms, err := MergeGames(games, a)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "merge: ") {
				t.Fatalf("error %q", err)
			}
			if m := mergeWhere.FindStringSubmatch(err.Error()); m != nil {
				n, _ := strconv.Atoi(m[1])
				line, _ := strconv.Atoi(m[2])
				if n < 1 || n > len(games) || games[n-1].Line != line {
					t.Fatalf("error %q: not game %d of %d", err, n, len(games))
				}
			}
			return
		}
		checkMerge(t, ms, len(games))

		var back bytes.Buffer
		for _, g := range games {
			if err := pdn.Write(&back, g); err != nil {
				t.Fatalf("a merged game does not write back: %v", err)
			}
		}
		again, err := ReadPDN(&back, engine.Russian)
		if err != nil || len(again) != len(games) {
			t.Fatalf("written back: %d games of %d: %v", len(again), len(games), err)
		}
		ms2, err := MergeGames(again, a)
		if err != nil {
			t.Fatalf("the games written back do not merge: %v", err)
		}
		sameMerge(t, "written back", ms, ms2)

		var rev []*pdn.Game
		for i := len(perFile) - 1; i >= 0; i-- {
			rev = append(rev, perFile[i]...)
		}
		ms3, err := MergeGames(rev, ms.EngineA)
		if err != nil {
			t.Fatalf("the files in the reverse order do not merge: %v", err)
		}
		sameMerge(t, "files reversed", ms, ms3)
	})
}

// TestMergeRefusesOneEngineOnBothSides: a game whose White and Black are
// the same name (which Run never plays) is refused with an error naming
// it, where it used to count as engine A's win or loss against itself.
// (Found by FuzzMatchMerge's seed white_and_black_the_same.)
func TestMergeRefusesOneEngineOnBothSides(t *testing.T) {
	games, err := ReadPDN(strings.NewReader(
		"[White \"A\"][Black \"B\"][Round \"1.1.1\"] 1. c3-d4 1-0\n[White \"A\"][Black \"A\"][Round \"1.2.1\"] 1. c3-d4 0-1\n"), engine.Russian)
	require.NoError(t, err)
	require.Len(t, games, 2)
	_, err = MergeGames(games, "")
	assert.EqualError(t, err, `merge: game 2 (line 2, Round "1.2.1"): White and Black are both "A": not a game of a match between two engines`)
	_, err = MergeGames(games[1:], "A")
	assert.ErrorContains(t, err, `merge: game 1 (line 2, Round "1.2.1"): White and Black are both "A"`)
}

// checkMerge checks that ms counts each of n games once.
func checkMerge(t *testing.T, ms MergeSummary, n int) {
	t.Helper()
	s := ms.Stats
	pairs := 0
	for _, p := range s.Penta {
		pairs += p
	}
	faults := 0
	for _, m := range ms.Faults {
		for _, c := range m {
			faults += c
		}
	}
	terms := 0
	for _, c := range ms.Terminations {
		terms += c
	}
	if s.Games != n || s.Wins+s.Draws+s.Losses != n || 2*pairs > n || terms != n || faults > n || len(ms.Cut) > n ||
		ms.EngineA == "" || ms.EngineA == ms.EngineB {
		t.Fatalf("%d games merged as %+v, faults %v, terminations %v, %d cut", n, ms, ms.Faults, ms.Terminations, len(ms.Cut))
	}
}

// sameMerge checks that two merges of the same games agree.
func sameMerge(t *testing.T, what string, a, b MergeSummary) {
	t.Helper()
	if a.EngineA != b.EngineA || a.EngineB != b.EngineB || a.Stats.Games != b.Stats.Games || a.Stats.Wins != b.Stats.Wins ||
		a.Stats.Draws != b.Stats.Draws || a.Stats.Losses != b.Stats.Losses || a.Stats.Penta != b.Stats.Penta ||
		!maps.Equal(a.Terminations, b.Terminations) || !maps.Equal(a.Faults[0], b.Faults[0]) || !maps.Equal(a.Faults[1], b.Faults[1]) ||
		len(a.Cut) != len(b.Cut) {
		t.Fatalf("%s: %+v\nfirst: %+v", what, b, a)
	}
}

// TestMergeRefusesAGameWithoutAnEngine: a game whose White or Black tag is
// missing, empty or "?" (PDN's unknown, which Write puts for a missing
// tag) is refused, naming it; it used to count against an opponent named
// "" that became "?" once the games were written back. (Found by
// FuzzMatchMerge's seed black_tag_missing.)
func TestMergeRefusesAGameWithoutAnEngine(t *testing.T) {
	for _, tags := range []string{`[White "B"]`, `[White "B"][Black ""]`, `[White "?"][Black "B"]`} {
		games, err := ReadPDN(strings.NewReader(tags+"[Round \"1.1.1\"] 1. c3-d4 0-1\n"), engine.Russian)
		require.NoError(t, err)
		_, err = MergeGames(games, "B")
		assert.ErrorContains(t, err, `merge: game 1 (line 1, Round "1.1.1"): `, tags)
		assert.ErrorContains(t, err, `names no engine`, tags)
	}
}
