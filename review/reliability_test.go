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
// against a search checkPlies deeper: for each depth of
// DAMKA_REVIEW_RELIABILITY (e.g. "8,10"), the first DAMKA_REVIEW_GAMES
// (default 40) master games of the Russian and English files of testdata
// (DAMKA_REVIEW_VARIANT: one of them) are reviewed at that depth, without
// and with the deeper stages of a move about to be marked
// (DAMKA_REVIEW_VERIFY_ONLY: only with; DAMKA_REVIEW_STAGES: how many),
// and every "??" and "?" is graded again from searches checkPlies deeper
// than the deepest search that graded that move (the last stage it went
// through). A "??" is false when the deeper grade is below "?" (an
// inaccuracy or nothing), over-graded when it is "?". It prints the table
// of docs/review.md ("Reliable marks"), with the time and the nodes of the
// review alone and the time with the checks; DAMKA_REVIEW_VERBOSE lists
// every checked mark; DAMKA_REVIEW_NO_CHECK measures the review's cost
// alone (no mark is checked). Without DAMKA_REVIEW_RELIABILITY it is skipped: it
// takes many minutes.
func TestMarkReliability(t *testing.T) {
	depths := os.Getenv("DAMKA_REVIEW_RELIABILITY")
	if depths == "" {
		t.Skip("DAMKA_REVIEW_RELIABILITY=8,10 measures the marks' reliability (minutes)")
	}
	games := 40
	if n, err := strconv.Atoi(os.Getenv("DAMKA_REVIEW_GAMES")); err == nil && n > 0 {
		games = n
	}
	// The check searches checkPlies deeper than the deepest search that
	// graded the move.
	const checkPlies = 6
	fmt.Printf("| variant | depth | deeper stages | games | moves | ?? | false ?? | over-graded ?? | ? | false ? | review time | with the checks | review nodes |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
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
				if n, err := strconv.Atoi(os.Getenv("DAMKA_REVIEW_STAGES")); err == nil && n > 0 {
					cfg.VerifyStages = n
				}
				r := New(cfg)
				stages := r.verifyStages()
				// deep[k]: the check of a move that k stages graded.
				deep := make([]*Reviewer, len(stages)+1)
				for k := range deep {
					deepest := d
					if k > 0 {
						deepest = stages[k-1].Depth
					}
					deep[k] = New(Config{Options: cfg.Options, Limits: search.Limits{Depth: deepest + checkPlies}})
				}
				model := Model(fc.v)
				var moves, blunders, falseB, overB, mistakes, falseM int
				start := time.Now()
				var reviewTime time.Duration
				for i, g := range gs {
					t0 := time.Now()
					rv, err := r.Review(context.Background(), i+1, g, nil)
					reviewTime += time.Since(t0)
					require.NoError(t, err)
					pos := g.Start
					for j, mv := range rv.Moves {
						if !mv.Book {
							moves++
						}
						if mv.Mark >= Mistake && os.Getenv("DAMKA_REVIEW_NO_CHECK") == "" {
							dr := deep[mv.Verified]
							dr.e.Clear()
							bs, br, err := dr.search(context.Background(), gameAt(g, j), dr.cfg.Limits)
							require.NoError(t, err)
							as, _, err := dr.search(context.Background(), gameAt(g, j+1), dr.cfg.Limits)
							require.NoError(t, err)
							check := Move{Mover: mv.Mover}
							grade(&check, g.Moves[j], model, menOf(&pos), br, bs, as)
							if os.Getenv("DAMKA_REVIEW_VERBOSE") != "" {
								fmt.Printf("  game %d ply %d %s: review %s %.2f->%.2f (%d,%d men %d stages %d) deep %d %s %.2f->%.2f (%d,%d)\n", i+1, j+1,
									pos.FormatMove(g.Moves[j], engine.FormatFull), mv.Mark.Glyph(), mv.Chance, mv.Played, mv.BestScore, mv.Score, menOf(&pos), mv.Verified,
									dr.cfg.Limits.Depth, check.Mark.Glyph(), check.Chance, check.Played, check.BestScore, check.Score)
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
				if len(stages) > 0 {
					var ds []string
					for _, l := range stages {
						ds = append(ds, strconv.Itoa(l.Depth))
					}
					second = "depth " + strings.Join(ds, ", ")
				}
				fmt.Printf("| %s | %d | %s | %d | %d | %d | %d | %d | %d | %d | %.0f s | %.0f s | %.1f M |\n", fc.v, d, second, len(gs), moves,
					blunders, falseB, overB, mistakes, falseM, reviewTime.Seconds(), time.Since(start).Seconds(), float64(r.nodes)/1e6)
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
