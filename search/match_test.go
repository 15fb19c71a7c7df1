package search

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
)

// matchOpenings returns start positions for engine matches: the ACF
// three-move ballots in English, the Russian and Brazilian ballots, and
// random two-ply openings in international.
func matchOpenings(t testing.TB, v engine.VariantID, n int) []engine.Position {
	dir := testfiles.Must(t)
	var fens []string
	switch v {
	case engine.English:
		f, err := os.Open(filepath.Join(dir, "acf_3move_ballots.tsv"))
		require.NoError(t, err)
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Split(sc.Text(), "\t")
			if len(fs) == 5 && fs[2] == "crossboard" {
				fens = append(fens, fs[4])
			}
		}
	case engine.Russian, engine.Brazilian:
		name := "pydraughts_ballots_russian.json"
		if v == engine.Brazilian {
			name = "pydraughts_ballots_brazilian.json"
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		var m struct {
			All map[string]string `json:"all"`
		}
		require.NoError(t, json.Unmarshal(b, &m))
		for _, f := range m.All {
			fens = append(fens, f)
		}
		// Map order is random: sort for a fixed set.
		sortStrings(fens)
	}
	seed := uint64(9)
	if s, err := strconv.ParseUint(os.Getenv("DAMKA_MATCH_SEED"), 10, 64); err == nil {
		seed = s
	}
	rng := rand.New(rand.NewPCG(uint64(v), seed))
	var out []engine.Position
	var l engine.MoveList
	for len(out) < n {
		if len(fens) > 0 {
			p, err := engine.ParseFEN(v, fens[rng.IntN(len(fens))])
			require.NoError(t, err)
			out = append(out, p)
			continue
		}
		p := engine.StartPosition(v)
		for i := 0; i < 2; i++ {
			p.Generate(&l)
			p = p.Play(l.Moves[rng.IntN(l.N)])
		}
		out = append(out, p)
	}
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// playMatch plays every opening twice (colours swapped) between a and b at
// a fixed node count per move and returns a's points and the game count.
func playMatch(t testing.TB, a, b *Engine, openings []engine.Position, nodes uint64) (float64, int) {
	points, games := 0.0, 0
	for _, start := range openings {
		for swap := 0; swap < 2; swap++ {
			a.Clear()
			b.Clear()
			g := engine.NewGame(start)
			aSide := start.Side
			if swap == 1 {
				aSide = aSide.Opp()
			}
			res := engine.Draw
			for g.Ply() < 400 {
				if r, _ := g.Result(); r != engine.Ongoing {
					res = r
					break
				}
				e := b
				if g.Position().Side == aSide {
					e = a
				}
				r := e.SearchGame(context.Background(), g, Limits{Nodes: nodes}, nil)
				require.NoError(t, g.PlayChecked(r.Move))
			}
			games++
			switch {
			case res == engine.Draw:
				points += 0.5
			case (res == engine.WhiteWins) == (aSide == engine.White):
				points++
			}
		}
	}
	return points, games
}

// TestMatchFeature measures a search switch by a match at fixed nodes:
// DAMKA_MATCH=lmr go test -run TestMatchFeature -v ./search/
// DAMKA_MATCH_NODES (nodes per move, default 3000), DAMKA_MATCH_VARIANT
// (one variant by name) and DAMKA_MATCH_OPENINGS (openings per variant,
// each played with both colours) change the match.
func TestMatchFeature(t *testing.T) {
	feature := os.Getenv("DAMKA_MATCH")
	if feature == "" {
		t.Skip("set DAMKA_MATCH to a feature name to run an engine match")
	}
	nodes := uint64(3000)
	if n, err := strconv.ParseUint(os.Getenv("DAMKA_MATCH_NODES"), 10, 64); err == nil && n > 0 {
		nodes = n
	}
	only := os.Getenv("DAMKA_MATCH_VARIANT")
	for _, v := range engine.AllVariants() {
		if only != "" && v.String() != only {
			continue
		}
		a := New(Options{Threads: 1, HashMiB: 8})
		b := New(Options{Threads: 1, HashMiB: 8})
		switch feature {
		case "lmr":
			b.params.noLMR = true
		case "threat":
			a.params.threatExt = true
		case "futility":
			b.params.noFutility = true
		case "lmrmore":
			a.params.lmrMore = true
		case "singleext":
			b.params.noSingleExt = true
		case "probcut":
			b.params.noProbCut = true
		case "shots":
			a.params.shots = true
		case "iir":
			b.params.noIIR = true
		case "rfp":
			b.params.noRFP = true
		default:
			t.Fatalf("unknown feature %q", feature)
		}
		n := 40
		if v == engine.International {
			n = 15
		}
		if k, err := strconv.Atoi(os.Getenv("DAMKA_MATCH_OPENINGS")); err == nil && k > 0 {
			n = k
		}
		pts, games := playMatch(t, a, b, matchOpenings(t, v, n), nodes)
		frac := pts / float64(games)
		elo := -400 * math.Log10(1/math.Max(math.Min(frac, 0.999), 0.001)-1)
		t.Logf("%v: with %s %.1f/%d (%.1f%%, %+.0f Elo)", v, feature, pts, games, 100*frac, elo)
	}
}
