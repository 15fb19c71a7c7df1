//go:build suitegen

// suitegen_test.go builds the solve suites in testdata/ (run on demand:
// go test -tags suitegen -run TestGenerateSuites -timeout 0 ./bench/).
// It walks the positions of the real games in the module root's
// testdata/draughts (and, for international, where those files hold no
// games, and to widen the Russian and Brazilian sets, of engine self-play
// games), keeps those where
// a quiet sacrifice wins at least a man and a half by a deep search, checks
// that no other move comes close, and writes EPD-like lines
// `FEN ; bm MOVE ; id NAME ; acd DEPTH ; c0 "..."`.

package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

type suiteSource struct {
	name string
	pos  engine.Position
}

func gamePositions(t *testing.T, file string, v engine.VariantID, as engine.VariantID) []suiteSource {
	f, err := os.Open(filepath.Join("..", "testdata", "draughts", file))
	require.NoError(t, err)
	defer f.Close()
	r := pdn.NewReader(f, v)
	var out []suiteSource
	base := strings.TrimSuffix(file, filepath.Ext(file))
	for gi := 1; ; gi++ {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if g == nil {
			continue
		}
		p := g.Start
		for i, m := range g.Moves {
			if i >= 8 {
				q := p
				q.V = as
				out = append(out, suiteSource{fmt.Sprintf("%s-g%d-p%d", base, gi, i), q})
			}
			p = p.Play(m)
		}
	}
	return out
}

func selfPlayPositions(v engine.VariantID, games int, seed uint64) []suiteSource {
	rng := rand.New(rand.NewPCG(seed, 11))
	e := search.New(search.Options{Threads: 1, HashMiB: 16})
	var out []suiteSource
	var l engine.MoveList
	for gi := 0; gi < games; gi++ {
		p := engine.StartPosition(v)
		var keys []uint64
		for ply := 0; ply < 160; ply++ {
			p.Generate(&l)
			if l.N == 0 {
				break
			}
			var m engine.Move
			if ply < 6 || rng.IntN(6) == 0 {
				m = l.Moves[rng.IntN(l.N)]
			} else {
				r := e.Search(context.Background(), p, keys, search.Limits{Nodes: 4000}, nil)
				m = r.Move
			}
			if ply >= 8 {
				out = append(out, suiteSource{fmt.Sprintf("selfplay-%s-s%d-g%d-p%d", v, seed, gi, ply), p})
			}
			keys = append(keys, p.Key)
			p = p.Play(m)
		}
	}
	return out
}

// constructedPositions places a few men (and now and then a king) at
// random, with Black's men in its half and White's men advanced, for the
// targeted searches of rare winning ideas (positions named constructed-*).
func constructedPositions(v engine.VariantID, n int, seed uint64) []suiteSource {
	rng := rand.New(rand.NewPCG(seed, 13))
	r := v.Rules()
	var out []suiteSource
	for len(out) < n {
		p := engine.Position{V: v, Side: engine.Color(rng.IntN(2))}
		for c := engine.White; c <= engine.Black; c++ {
			men := 3 + rng.IntN(5)
			for i := 0; i < men; i++ {
				sq := engine.Square(1 + rng.IntN(r.Squares))
				row, _ := engine.SquareRowCol(v, sq)
				if (c == engine.White && row == 0) || (c == engine.Black && row == r.BoardSize-1) || p.PieceAt(sq) != engine.NoPiece {
					continue
				}
				pc := engine.WhiteMan
				if c == engine.Black {
					pc = engine.BlackMan
				}
				p.SetPiece(sq, pc)
			}
			if rng.IntN(4) == 0 {
				sq := engine.Square(1 + rng.IntN(r.Squares))
				if p.PieceAt(sq) == engine.NoPiece {
					pc := engine.WhiteKing
					if c == engine.Black {
						pc = engine.BlackKing
					}
					p.SetPiece(sq, pc)
				}
			}
		}
		if p.Pieces[0] == 0 || p.Pieces[1] == 0 {
			continue
		}
		out = append(out, suiteSource{fmt.Sprintf("constructed-%s-s%d-%d", v, seed, len(out)), p})
	}
	return out
}

// suiteKing is the king value, in centi-men, that the suites were
// generated with (the hand-set evaluation's, before the learned one).
var suiteKing = [engine.NumVariants]int{engine.Russian: 260, engine.English: 140, engine.Brazilian: 260, engine.International: 300}

func material(p *engine.Position) int {
	wm, wk := p.Count(p.Side)
	om, ok := p.Count(p.Side.Opp())
	return (wm-om)*100 + (wk-ok)*suiteKing[p.V]
}

// crownsMidCapture reports whether the capture m crowns a man that ends
// its move off the crowning row (Russian: crowned mid-capture).
func crownsMidCapture(p *engine.Position, m engine.Move) bool {
	if m.Captured == 0 || !m.Crowns() {
		return false
	}
	path := p.Path(m)
	last := path[len(path)-1]
	row, _ := engine.SquareRowCol(p.V, last)
	return (p.Side == engine.White && row != 0) || (p.Side == engine.Black && row != p.V.Rules().BoardSize-1)
}

// majorityMatters reports whether, in an 8x8 majority-rule position, the
// free choice of Russian rules would allow a shorter capture.
func majorityMatters(p *engine.Position) bool {
	if !p.V.Rules().MajorityRule || !p.HasCapture() {
		return false
	}
	q := *p
	if q.V == engine.International {
		return majorityMatters10x10(p)
	}
	q.V = engine.Russian
	var l engine.MoveList
	q.GenerateCaptures(&l)
	lo, hi := 99, 0
	for _, m := range l.Slice() {
		lo = min(lo, int(m.NCapt))
		hi = max(hi, int(m.NCapt))
	}
	return hi > lo
}

// majorityMatters10x10 reports whether the longest captures (the only legal
// ones) take two pieces or more while some other man could take one: the
// majority rule forbids that shorter capture.
func majorityMatters10x10(p *engine.Position) bool {
	var l engine.MoveList
	p.GenerateCaptures(&l)
	if l.N == 0 || l.Moves[0].NCapt < 2 {
		return false
	}
	v := p.V
	for sq := engine.Square(1); sq <= 50; sq++ {
		b := engine.SquareBit(v, sq)
		if p.Pieces[p.Side]&b == 0 || p.Kings&b != 0 {
			continue
		}
		inList := false
		for _, m := range l.Slice() {
			inList = inList || uint64(1)<<m.From == b
		}
		if inList {
			continue
		}
		row, col := engine.SquareRowCol(v, sq)
		for _, d := range [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
			over := engine.SquareFromRowCol(v, row+d[0], col+d[1])
			to := engine.SquareFromRowCol(v, row+2*d[0], col+2*d[1])
			if over == 0 || to == 0 {
				continue
			}
			if p.Pieces[p.Side.Opp()]&engine.SquareBit(v, over) != 0 && p.Occupied()&engine.SquareBit(v, to) == 0 {
				return true
			}
		}
	}
	return false
}

type suiteLine struct {
	line  string
	found int
}

func TestGenerateSuites(t *testing.T) {
	which := os.Getenv("SUITE") // a job name: russian, english, ..., russian-crown, brazilian-majority
	type job struct {
		v       engine.VariantID
		file    string
		sources func() []suiteSource
		pre     int
		deep    int
		want    int
		// pred, when set, must hold for the shallow search's PV (the
		// targeted runs that look for a rule in the winning line); the
		// lines found are then added to the existing file.
		pred func(p engine.Position, pv []engine.Move) bool
		name string
	}
	hasCrownMid := func(p engine.Position, pv []engine.Move) bool {
		for i, m := range pv {
			if i%2 == 0 && crownsMidCapture(&p, m) {
				return true
			}
			p = p.Play(m)
		}
		return false
	}
	hasMajority := func(p engine.Position, pv []engine.Move) bool {
		for i, m := range pv {
			if i%2 == 1 && majorityMatters(&p) {
				return true
			}
			p = p.Play(m)
		}
		return false
	}
	jobs := []job{
		{engine.Russian, "solve_russian.epd", func() []suiteSource {
			s := gamePositions(t, "russian_ussr_championship_X.pdn", engine.Russian, engine.Russian)
			return append(s, selfPlayPositions(engine.Russian, 30, 1)...)
		}, 9, 15, 30, nil, ""},
		{engine.English, "solve_english.epd", func() []suiteSource {
			s := gamePositions(t, "english_OCA_2.0_sample43.pdn", engine.English, engine.English)
			s = append(s, gamePositions(t, "english_inferno_gayp.pdn", engine.English, engine.English)...)
			return append(s, gamePositions(t, "english_tinsley_checkerboard.pdn", engine.English, engine.English)...)
		}, 9, 17, 30, nil, ""},
		{engine.Brazilian, "solve_brazilian.epd", func() []suiteSource {
			s := gamePositions(t, "russian_ussr_championship_X.pdn", engine.Russian, engine.Brazilian)
			return append(s, selfPlayPositions(engine.Brazilian, 20, 2)...)
		}, 9, 15, 12, nil, ""},
		{engine.International, "solve_international.epd", func() []suiteSource {
			return selfPlayPositions(engine.International, 40, 3)
		}, 7, 11, 12, nil, ""},
		{engine.Russian, "solve_russian.epd", func() []suiteSource {
			s := gamePositions(t, "russian_ussr_championship_X.pdn", engine.Russian, engine.Russian)
			return append(s, selfPlayPositions(engine.Russian, 150, 5)...)
		}, 9, 15, 6, hasCrownMid, "russian-crown"},
		{engine.Brazilian, "solve_brazilian.epd", func() []suiteSource {
			s := gamePositions(t, "russian_ussr_championship_X.pdn", engine.Russian, engine.Brazilian)
			return append(s, selfPlayPositions(engine.Brazilian, 150, 6)...)
		}, 9, 15, 6, hasMajority, "brazilian-majority"},
		{engine.International, "solve_international.epd", func() []suiteSource {
			return selfPlayPositions(engine.International, 120, 7)
		}, 7, 11, 4, hasMajority, "international-majority"},
		{engine.Russian, "solve_russian.epd", func() []suiteSource {
			return constructedPositions(engine.Russian, 40000, 21)
		}, 9, 15, 5, hasCrownMid, "russian-crown-constructed"},
		{engine.International, "solve_international.epd", func() []suiteSource {
			return constructedPositions(engine.International, 20000, 22)
		}, 7, 11, 4, hasMajority, "international-majority-constructed"},
		{engine.English, "solve_english.epd", func() []suiteSource {
			return selfPlayPositions(engine.English, 80, 23)
		}, 9, 17, 6, func(engine.Position, []engine.Move) bool { return true }, "english-selfplay"},
	}
	for _, j := range jobs {
		if j.name == "" {
			j.name = j.v.String()
		}
		if which != j.name {
			continue
		}
		src := j.sources()
		// SUITE_START=<id> resumes an interrupted run at that source
		// position (the lines found before are kept, as with pred).
		resume := false
		if from := os.Getenv("SUITE_START"); from != "" {
			for i := range src {
				if src[i].name == from {
					src = src[i:]
					resume = true
					break
				}
			}
		}
		t.Logf("%v: %d positions", j.v, len(src))
		e := search.New(search.Options{Threads: 2, HashMiB: 64})
		var lines []suiteLine
		seen := map[uint64]bool{}
		var l engine.MoveList
		for _, s := range src {
			if len(lines) >= j.want {
				break
			}
			p := s.pos
			if seen[p.Key] || p.HasCapture() {
				continue
			}
			seen[p.Key] = true
			p.Generate(&l)
			if l.N < 2 {
				continue
			}
			m0 := material(&p)
			r := e.Search(context.Background(), p, nil, search.Limits{Depth: j.pre}, nil)
			q := p.Play(r.Move)
			if r.Move.IsCapture() || !q.HasCapture() || r.Score-m0 < 150 || r.Score < 100 || r.Score > search.MateBound {
				continue
			}
			if j.pred != nil && !j.pred(p, r.PV) {
				continue
			}
			// Deep verification, with the depth at which the move is found.
			e.Clear()
			var byDepth []engine.Move
			r = e.Search(context.Background(), p, nil, search.Limits{Depth: j.deep, Nodes: 30_000_000}, func(i search.Info) {
				byDepth = append(byDepth, i.PV[0])
			})
			q = p.Play(r.Move)
			if r.Move.IsCapture() || !q.HasCapture() || r.Score-m0 < 150 || r.Score < 100 {
				continue
			}
			found := len(byDepth)
			for found > 0 && byDepth[found-1] == r.Move {
				found--
			}
			found++
			// Every other move must be clearly worse.
			second := -(search.Mate + 1)
			for _, m := range l.Slice() {
				if m == r.Move {
					continue
				}
				c := p.Play(m)
				cr := e.Search(context.Background(), c, []uint64{p.Key}, search.Limits{Depth: j.deep - 1, Nodes: 10_000_000}, nil)
				second = max(second, -cr.Score)
				if second > r.Score-120 {
					break
				}
			}
			if second > r.Score-120 {
				continue
			}
			if j.pred != nil && !j.pred(p, r.PV) {
				continue
			}
			var tags []string
			c := p
			for i, m := range r.PV {
				if i%2 == 0 && crownsMidCapture(&c, m) {
					tags = append(tags, "crown-mid-capture")
				}
				if i%2 == 1 && majorityMatters(&c) {
					tags = append(tags, "majority")
				}
				c = c.Play(m)
			}
			tags = uniq(tags)
			pv := make([]string, 0, len(r.PV))
			c = p
			for _, m := range r.PV {
				pv = append(pv, c.FormatMove(m, engine.FormatFull))
				c = c.Play(m)
			}
			line := fmt.Sprintf("%s ; bm %s ; id %s ; acd %d ; c0 \"score %d (material %d), second best %d, found at depth %d%s; pv %s\"",
				p.FEN(), p.FormatMove(r.Move, engine.FormatFull), s.name, r.Depth, r.Score, m0, second, found,
				tagText(tags), strings.Join(pv, " "))
			t.Log(line)
			lines = append(lines, suiteLine{line, found})
		}
		path := filepath.Join("testdata", j.file)
		if j.pred != nil || resume {
			// Targeted or resumed run: keep the file's lines and add the new ones.
			old, err := os.ReadFile(path)
			require.NoError(t, err)
			for _, ln := range strings.Split(string(old), "\n") {
				if ln == "" || strings.HasPrefix(ln, "#") {
					continue
				}
				dup := false
				for _, x := range lines {
					dup = dup || strings.SplitN(x.line, " ;", 2)[0] == strings.SplitN(ln, " ;", 2)[0]
				}
				if !dup {
					lines = append(lines, suiteLine{ln, foundDepth(ln)})
				}
			}
		}
		sort.SliceStable(lines, func(a, b int) bool { return lines[a].found < lines[b].found })
		var b strings.Builder
		fmt.Fprintf(&b, "# damka solve suite, %s: shots (a quiet sacrifice that wins material), verified by a\n", j.v)
		fmt.Fprintf(&b, "# deep search (acd) in which every other move scores at least 1.2 men less.\n")
		fmt.Fprintf(&b, "# Generated by search/suitegen_test.go from the positions named in id.\n")
		fmt.Fprintf(&b, "# Format: FEN ; bm MOVE (full path, variant notation) ; id NAME ; acd DEPTH ; c0 \"COMMENT\"\n")
		for _, ln := range lines {
			b.WriteString(ln.line)
			b.WriteByte('\n')
		}
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
}

func uniq(s []string) []string {
	var out []string
	for _, x := range s {
		dup := false
		for _, y := range out {
			dup = dup || x == y
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}

func tagText(tags []string) string {
	if len(tags) == 0 {
		return ""
	}
	return ", " + strings.Join(tags, ", ")
}
