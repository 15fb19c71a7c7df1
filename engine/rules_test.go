package engine

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specRulePosition is one rule position of docs/rules.md "Rule positions".
type specRulePosition struct {
	name    string
	v       VariantID
	fen     string
	moves   [][]string // each legal move, with every spelling of its full path the spec gives
	paths   []string   // every capture path (GeneratePaths), when the spec lists them
	npaths  int        // number of capture paths, when the spec gives it
	comment string
}

var specRulePositions = []specRulePosition{
	{name: "russian crown mid-capture", v: Russian, fen: "W:Wh6:Bg7,c5,d2",
		moves:   [][]string{{"h6:f8:b4:e1"}},
		comment: "promotes on f8 mid-capture, continues as a king, must land on b4"},
	{name: "russian landing restriction", v: Russian, fen: "W:WKd2:Bf6,c5,e5,e3",
		moves: [][]string{{"d2:f4:d6:a3"}, {"d2:f4:d6:b4"}, {"d2:g5:e7:a3"}, {"d2:g5:e7:b4"}}},
	{name: "russian duplicate paths", v: Russian, fen: "W:WKd2:Bc5,e5,c3,e3",
		moves: [][]string{{"d2:b4:d6:f4:c1"}, {"d2:b4:d6:f4:d2", "d2:f4:d6:b4:d2"}, {"d2:f4:d6:b4:e1"}},
		paths: []string{"d2:b4:d6:f4:c1", "d2:b4:d6:f4:d2", "d2:f4:d6:b4:d2", "d2:f4:d6:b4:e1"}, npaths: 4,
		comment: "4 paths, 3 distinct moves"},
	{name: "russian man captures backwards", v: Russian, fen: "W:Wc3:Bd2",
		moves: [][]string{{"c3:e1"}}},
	{name: "russian captured piece blocks", v: Russian, fen: "W:WKc3:Bb4,d2",
		moves:   [][]string{{"c3:a5"}, {"c3:e1"}},
		comment: "the captured b4 still blocks the way back"},
	{name: "english crowning ends the move", v: English, fen: "B:W26,27:B22",
		moves: [][]string{{"22x31"}}},
	{name: "english king moves one square", v: English, fen: "W:WK18:B4",
		moves: [][]string{{"18-14"}, {"18-15"}, {"18-22"}, {"18-23"}}},
	{name: "english men do not capture backwards", v: English, fen: "W:W22:B26",
		moves: [][]string{{"22-17"}, {"22-18"}}},
	{name: "english duplicate king paths", v: English, fen: "W:WK26:B23,15,14,22",
		moves: [][]string{{"26x17x10x19x26", "26x19x10x17x26"}},
		paths: []string{"26x17x10x19x26", "26x19x10x17x26"}, npaths: 2,
		comment: "two paths, one distinct move"},
}

// TestRulePositions checks the exact legal move list of every rule position
// of rules.md section 5, the capture paths where the spec gives them, and
// that FormatFull text of each move reads back to it.
func TestRulePositions(t *testing.T) {
	for _, rp := range specRulePositions {
		t.Run(rp.name, func(t *testing.T) {
			p, err := ParseFEN(rp.v, rp.fen)
			require.NoError(t, err)
			var list MoveList
			p.Generate(&list)
			require.Len(t, list.Slice(), len(rp.moves), "legal moves of %s (%s)", rp.fen, rp.comment)
			var got []string
			for _, m := range list.Slice() {
				got = append(got, p.FormatMove(m, FormatFull))
			}
			// Each expected move is matched by exactly one generated move,
			// whatever spelling of its path FormatFull chose.
			used := make([]bool, len(got))
			for _, spellings := range rp.moves {
				found := -1
				for i, g := range got {
					for _, s := range spellings {
						if g == s && !used[i] {
							found = i
						}
					}
				}
				if assert.GreaterOrEqual(t, found, 0, "move %v missing from %v", spellings, got) {
					used[found] = true
				}
				// Every spelling reads back to the same move.
				var first Move
				for i, s := range spellings {
					m, err := p.ParseMove(s)
					if !assert.NoError(t, err, s) {
						continue
					}
					if i == 0 {
						first = m
					} else {
						assert.Equal(t, first, m, "%s and %s are one move", spellings[0], s)
					}
				}
			}
			if rp.npaths > 0 {
				var pl MoveList
				p.GeneratePaths(&pl)
				assert.Equal(t, rp.npaths, pl.N, "GeneratePaths count")
				var paths []string
				for _, cp := range p.capturePaths() {
					paths = append(paths, joinSquares(rp.v, cp.squares))
				}
				assert.ElementsMatch(t, rp.paths, paths, "capture paths")
			}
		})
	}
}

// joinSquares writes squares in v's own style joined by its capture
// separator.
func joinSquares(v VariantID, sqs []Square) string {
	style := v.Rules().Notation
	sep := "x"
	if style == Algebraic {
		sep = ":"
	}
	s := ""
	for i, sq := range sqs {
		if i > 0 {
			s += sep
		}
		s += SquareName(v, sq, style)
	}
	return s
}

// moveOrder orders moves for set comparisons.
func moveOrder(a, b Move) bool {
	if a.From != b.From {
		return a.From < b.From
	}
	if a.To != b.To {
		return a.To < b.To
	}
	if a.Captured != b.Captured {
		return a.Captured < b.Captured
	}
	return a.Flags < b.Flags
}

// checkPathsAgainstGenerator compares notation.go's path enumerator, which
// follows the rules on rows and columns, with the bitboard generator: the
// same capture paths as GeneratePaths (as a multiset of moves), the same
// distinct moves as Generate, and a well-formed Path for every move. It
// returns false after the first mismatch.
func checkPathsAgainstGenerator(t *testing.T, p *Position) bool {
	t.Helper()
	var gen, genPaths MoveList
	p.Generate(&gen)
	p.GeneratePaths(&genPaths)
	fen := p.FEN()
	if !p.HasCapture() {
		return assert.Empty(t, p.capturePaths(), "paths of a position without capture: %s", fen)
	}
	cps := p.capturePaths()
	var fromPaths []Move
	for i := range cps {
		fromPaths = append(fromPaths, cps[i].move(p.V))
	}
	want := append([]Move(nil), genPaths.Slice()...)
	sort.Slice(want, func(i, j int) bool { return moveOrder(want[i], want[j]) })
	sort.Slice(fromPaths, func(i, j int) bool { return moveOrder(fromPaths[i], fromPaths[j]) })
	if !assert.Equal(t, want, fromPaths, "capture paths of %s: GeneratePaths vs path enumerator", fen) {
		return false
	}
	distinct := fromPaths[:0:0]
	for i, m := range fromPaths {
		if i == 0 || m != fromPaths[i-1] {
			distinct = append(distinct, m)
		}
	}
	g := append([]Move(nil), gen.Slice()...)
	sort.Slice(g, func(i, j int) bool { return moveOrder(g[i], g[j]) })
	if !assert.Equal(t, distinct, g, "distinct captures of %s: Generate vs path enumerator", fen) {
		return false
	}
	for _, m := range gen.Slice() {
		path := p.Path(m)
		if !assert.Len(t, path, int(m.NCapt)+1, "path of a %d-piece capture in %s", m.NCapt, fen) {
			return false
		}
		if !assert.Equal(t, squareAt(p.V, m.From), path[0]) || !assert.Equal(t, squareAt(p.V, m.To), path[len(path)-1]) {
			return false
		}
		for i := 1; i < len(path); i++ {
			r0, c0 := SquareRowCol(p.V, path[i-1])
			r1, c1 := SquareRowCol(p.V, path[i])
			dr, dc := r1-r0, c1-c0
			if !assert.True(t, dr != 0 && (dr == dc || dr == -dc), "path step %d-%d is not diagonal in %s", path[i-1], path[i], fen) {
				return false
			}
		}
	}
	return true
}

// TestPathsMatchGenerator runs checkPathsAgainstGenerator on the rule
// positions and on every test position of every variant (perft(4) trees
// and random games).
func TestPathsMatchGenerator(t *testing.T) {
	for _, rp := range specRulePositions {
		p, err := ParseFEN(rp.v, rp.fen)
		require.NoError(t, err)
		checkPathsAgainstGenerator(t, &p)
	}
	for _, v := range AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			ps := notationPositions(t, v)
			captures := 0
			for i := range ps {
				if ps[i].HasCapture() {
					captures++
				}
				if !checkPathsAgainstGenerator(t, &ps[i]) {
					return
				}
			}
			assert.Greater(t, captures, 100, "the test positions must include captures")
		})
	}
}

// notationRandomPlacement puts n random pieces (men and kings of both
// colours, a third of them kings) on v's board; a man drawn on its own
// crowning row becomes a king.
func notationRandomPlacement(rng *rand.Rand, v VariantID, n int) Position {
	p := Position{V: v, Side: Color(rng.IntN(2))}
	for i := 0; i < n; i++ {
		sq := Square(1 + rng.IntN(v.Rules().Squares))
		c := Color(rng.IntN(2))
		king := rng.IntN(3) == 0
		b := SquareBit(v, sq)
		if p.Occupied()&b != 0 {
			continue
		}
		if b&promoMask(v, c) != 0 {
			king = true
		}
		p.Pieces[c] |= b
		if king {
			p.Kings |= b
		}
	}
	p.Key = p.ComputeKey()
	return p
}

// TestRandomPlacements checks the path enumerator against the generator,
// and FEN, Hub and move round trips, on random placements rich in kings and
// long captures.
func TestRandomPlacements(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 600
	}
	for _, v := range AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(v)))
			multi := 0
			for i := 0; i < n; i++ {
				p := notationRandomPlacement(rng, v, 6+rng.IntN(v.Rules().Squares/2))
				if !checkPathsAgainstGenerator(t, &p) || !checkMoveRoundTrips(t, &p) {
					return
				}
				q, err := ParseFEN(v, p.FEN())
				if !assert.NoError(t, err) || !assertSamePosition(t, p, q, p.FEN()) {
					return
				}
				q, err = ParseHubPosition(v, p.HubPosition())
				if !assert.NoError(t, err) || !assertSamePosition(t, p, q, p.HubPosition()) {
					return
				}
				var l MoveList
				p.Generate(&l)
				for _, m := range l.Slice() {
					if m.NCapt >= 3 {
						multi++
						break
					}
				}
			}
			assert.Greater(t, multi, n/100, "placements with a capture of three or more pieces")
			t.Logf("%d placements, %d with a capture of 3+ pieces", n, multi)
		})
	}
}
