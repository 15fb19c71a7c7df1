package review

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// TestMarkReliability measures how often the marks of a review hold up
// against a search CheckPlies deeper: for each depth of
// DAMKA_REVIEW_RELIABILITY (e.g. "8,10"), the first DAMKA_REVIEW_GAMES
// (default 40) master games of the Russian and English files of testdata
// are reviewed at that depth, with and without the second search of a
// move about to be marked, and every "??" and "?" is graded again from
// searches checkPlies deeper than the deepest search that graded it. A "??" is false when the
// deeper grade is below "?" (an inaccuracy or nothing), over-graded when
// it is "?". It prints the table of docs/review.md ("Reliable marks").
// Without the variable it is skipped: it takes many minutes.
func TestMarkReliability(t *testing.T) {
	depths := os.Getenv("DAMKA_REVIEW_RELIABILITY")
	if depths == "" {
		t.Skip("DAMKA_REVIEW_RELIABILITY=8,10 measures the marks' reliability (minutes)")
	}
	games := 40
	if n, err := strconv.Atoi(os.Getenv("DAMKA_REVIEW_GAMES")); err == nil && n > 0 {
		games = n
	}
	// The check searches CheckPlies deeper than the deepest search that
	// graded the move (the second search, where there is one).
	const checkPlies = 6
	fmt.Printf("| variant | depth | second search | games | moves | ?? | false ?? | over-graded ?? | ? | false ? | time |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, fc := range []struct {
		name string
		v    engine.VariantID
	}{
		{"russian_ussr_championship_X.pdn", engine.Russian},
		{"english_tinsley_checkerboard.pdn", engine.English},
	} {
		if only := os.Getenv("DAMKA_REVIEW_VARIANT"); only != "" && only != fc.v.String() {
			continue
		}
		gs := firstGames(t, fc.name, fc.v, games)
		bk, _ := book.Default(fc.v)
		for _, ds := range strings.Split(depths, ",") {
			d, err := strconv.Atoi(strings.TrimSpace(ds))
			require.NoError(t, err)
			for _, verify := range []bool{false, true} {
				if !verify && os.Getenv("DAMKA_REVIEW_VERIFY_ONLY") != "" {
					continue
				}
				cfg := Config{Options: search.Options{Threads: 1, HashMiB: 64}, Limits: search.Limits{Depth: d}}
				cfg.Books[fc.v] = bk
				if verify {
					cfg.Verify = VerifyLimits(cfg.Limits)
					if n, err := strconv.Atoi(os.Getenv("DAMKA_REVIEW_VERIFY_PLIES")); err == nil && n > 0 {
						cfg.Verify.Depth = d + n // another depth for the second search
					}
				}
				r := New(cfg)
				deepest := d
				if verify {
					deepest = cfg.Verify.Depth
				}
				deep := New(Config{Options: cfg.Options, Limits: search.Limits{Depth: deepest + checkPlies}})
				model := Model(fc.v)
				var moves, blunders, falseB, overB, mistakes, falseM int
				start := time.Now()
				for i, g := range gs {
					rv, err := r.Review(context.Background(), i+1, g, nil)
					require.NoError(t, err)
					pos := g.Start
					for j, mv := range rv.Moves {
						if !mv.Book {
							moves++
						}
						if mv.Mark >= Mistake {
							deep.e.Clear()
							bs, br, err := deep.search(context.Background(), gameAt(g, j), deep.cfg.Limits)
							require.NoError(t, err)
							as, _, err := deep.search(context.Background(), gameAt(g, j+1), deep.cfg.Limits)
							require.NoError(t, err)
							check := Move{Mover: mv.Mover}
							grade(&check, g.Moves[j], model, menOf(&pos), br, bs, as)
							if os.Getenv("DAMKA_REVIEW_VERBOSE") != "" {
								fmt.Printf("  game %d ply %d %s: review %s %.2f->%.2f (%d,%d men %d) deep %s %.2f->%.2f (%d,%d)\n", i+1, j+1,
									pos.FormatMove(g.Moves[j], engine.FormatFull), mv.Mark.Glyph(), mv.Chance, mv.Played, mv.BestScore, mv.Score, menOf(&pos),
									check.Mark.Glyph(), check.Chance, check.Played, check.BestScore, check.Score)
							}
							if mv.Mark == Blunder {
								blunders++
								switch {
								case check.Mark < Mistake:
									falseB++
								case check.Mark == Mistake:
									overB++
								}
							} else {
								mistakes++
								if check.Mark < Inaccuracy {
									falseM++
								}
							}
						}
						pos = pos.Play(g.Moves[j])
					}
				}
				second := "none"
				if verify {
					second = fmt.Sprintf("depth %d", cfg.Verify.Depth)
				}
				fmt.Printf("| %s | %d | %s | %d | %d | %d | %d | %d | %d | %d | %.0f s |\n", fc.v, d, second, len(gs), moves,
					blunders, falseB, overB, mistakes, falseM, time.Since(start).Seconds())
			}
		}
	}
}

// firstGames returns the first n games of a data file that read without a
// fault.
func firstGames(t *testing.T, name string, v engine.VariantID, n int) []*pdn.Game {
	t.Helper()
	f, err := os.Open(testfiles.Path(t, name))
	require.NoError(t, err)
	defer f.Close()
	r := pdn.NewReader(bufio.NewReader(f), v)
	var gs []*pdn.Game
	for len(gs) < n {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			gs = append(gs, g)
		}
	}
	return gs
}
