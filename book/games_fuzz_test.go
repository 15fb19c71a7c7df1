package book

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// FuzzBookGames feeds arbitrary PDN to GameStats.ReadReport, the reader of
// `damka book build --games`. Every game of the input is accounted for
// (Games, Skipped, Bad and the good count agree with a plain PDN read, and
// every bad game is reported with a *pdn.Error naming it); the moves
// counted are the games' first plies, no more (a bound on the table), each
// legal in its position with at most two half-points a game; and the games
// written back as PDN read into the same statistics.
func FuzzBookGames(f *testing.F) {
	for _, s := range []string{
		"[Event \"a\"]\n[Result \"1-0\"]\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 1-0\n\n[Event \"b\"]\n1. c3-d4 f6-g5 2. g3-h4 *\n",
		"[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 1/2-1/2\n[GameType \"21\"] 1. 11-15 23-19 2. 9-14 0-1\n",
		"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 2-0\n",
		"[GameType \"26\"] 1. c3-d4 b6-a5 2. d4-c5 d6:b4 3. a3:c5 1-0",
		"[FEN \"W:Wc3,e3:Bf6\"]\n1. c3-d4 f6-g5 2. d4-c5 *\n1. c3-d4 h6-g5 x9-x9 1-0\n",
		"[Event \"x] 1. c3-d4 *\n[Event \"y\"] e3-f4Redoverstepped. 1-0 ; c\n{unterminated",
	} {
		f.Add([]byte(s), uint8(engine.Russian), uint8(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, vb, plies uint8) {
		v := engine.VariantID(vb % uint8(engine.NumVariants))
		maxPly := int(plies % 40) // 0: every ply
		s := NewGameStats(v, maxPly)
		var bads []error
		good, err := s.ReadReport(bytes.NewReader(data), "fuzz.pdn", func(err error) { bads = append(bads, err) })
		if err != nil {
			t.Fatalf("a read error from memory: %v", err)
		}

		// The same input through a plain PDN reader.
		var games []*pdn.Game // of variant v
		var wantGood, wantBad, wantSkipped, wantErrs, wantPlies int
		r := pdn.NewReader(bytes.NewReader(data), v)
		for {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				wantErrs++
			}
			switch {
			case g == nil:
			case g.Variant != v:
				wantSkipped++
			default:
				games = append(games, g)
				n := len(g.Moves)
				if maxPly > 0 {
					n = min(n, maxPly)
				}
				wantPlies += n
				if err != nil {
					wantBad++
				} else if len(g.Moves) > 0 {
					wantGood++
				}
			}
		}
		if s.Games != len(games) || s.Skipped != wantSkipped || s.Bad != wantBad || good != wantGood || len(bads) != wantErrs {
			t.Fatalf("games %d skipped %d bad %d good %d errors %d; the PDN reader: %d, %d, %d, %d, %d",
				s.Games, s.Skipped, s.Bad, good, len(bads), len(games), wantSkipped, wantBad, wantGood, wantErrs)
		}
		for _, e := range bads {
			var pe *pdn.Error
			if !errors.As(e, &pe) || pe.Index < 1 || !strings.HasPrefix(e.Error(), "pdn: game ") {
				t.Fatalf("bad game reported as %v", e)
			}
		}
		counted := 0
		for k, st := range s.moves {
			counted += st.N
			if st.N < 1 || st.HalfPoints < 0 || st.HalfPoints > 2*st.N || k.pos.V != v {
				t.Fatalf("%s %v: %+v", k.pos.FEN(), k.m, st)
			}
			var l engine.MoveList
			k.pos.Generate(&l)
			if !slices.Contains(l.Slice(), k.m) {
				t.Fatalf("%s: move %v counted, not legal there", k.pos.FEN(), k.m)
			}
		}
		if counted != wantPlies {
			t.Fatalf("%d moves counted, the games' first plies are %d", counted, wantPlies)
		}

		// Written back.
		var out bytes.Buffer
		for _, g := range games {
			if err := pdn.Write(&out, g); err != nil {
				t.Fatalf("a game read does not write back: %v", err)
			}
		}
		s2 := NewGameStats(v, maxPly)
		good2, err := s2.ReadReport(bytes.NewReader(out.Bytes()), "back.pdn", nil)
		if err != nil || s2.Bad != 0 || s2.Skipped != 0 || s2.Games != s.Games || s2.Unscored != s.Unscored ||
			good2 < good || s2.digest() != s.digest() {
			t.Fatalf("written back: games %d bad %d skipped %d unscored %d good %d (%v); first read %d games, %d unscored, %d good\n%s",
				s2.Games, s2.Bad, s2.Skipped, s2.Unscored, good2, err, s.Games, s.Unscored, good, out.String())
		}
	})
}
