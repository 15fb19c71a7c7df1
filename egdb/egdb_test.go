package egdb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// probeFEN probes fen of v in db and fails the test when there is no value.
func probeFEN(t *testing.T, db *DB, v engine.VariantID, fen string) (Value, int) {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err, fen)
	val, d, ok := db.Probe(&p)
	require.True(t, ok, "no table value for %s", fen)
	return val, d
}

// sliceValues counts the values of every stored position of slice m.
func sliceValues(t *testing.T, db *DB, v engine.VariantID, m Material) map[Value]int {
	t.Helper()
	g, _ := geomOf(v)
	s := newSlice(m, g)
	n := map[Value]int{}
	for i := uint64(0); i < s.size; i++ {
		p, ok := s.position(i, v)
		if !ok || p.HasCapture() {
			continue
		}
		val, _, ok := db.Probe(&p)
		require.True(t, ok)
		n[val]++
	}
	return n
}

func TestEnglishKingEndings(t *testing.T) {
	db := Default()
	require.Equal(t, 5, db.Pieces(engine.English), "the embedded set has the English 5-piece slices")
	require.Equal(t, 4, db.Pieces(engine.Russian))
	require.Equal(t, 4, db.Pieces(engine.Brazilian))
	require.Equal(t, 4, db.Pieces(engine.International))
	// Three kings against two win (by exchanges), whoever is to move.
	v, d := probeFEN(t, db, engine.English, "W:WK29,K30,K31:BK1,K3")
	assert.Equal(t, Win, v)
	assert.Equal(t, 55, d)
	v, d = probeFEN(t, db, engine.English, "B:WK29,K30,K31:BK1,K3")
	assert.Equal(t, Loss, v)
	assert.Equal(t, 54, d)
	// Two kings against one win, whoever is to move.
	v, d = probeFEN(t, db, engine.English, "W:WK29,K30:BK4")
	assert.Equal(t, Win, v)
	assert.Equal(t, 1, d%2, "a win is an odd number of plies")
	v, d = probeFEN(t, db, engine.English, "B:WK29,K30:BK4")
	assert.Equal(t, Loss, v)
	assert.Equal(t, 0, d%2)
	// ... in all but a few tactical positions (a king lost at once).
	n := sliceValues(t, db, engine.English, Material{WK: 2, BK: 1})
	assert.Greater(t, n[Win], 99*(n[Win]+n[Draw]+n[Loss])/100, "2 kings against 1: %v", n)
	assert.Zero(t, n[Loss])
	// One king against one: a draw when the defender holds the double
	// corner, and in most positions; a king caught in a single corner
	// with the opposition against it is lost.
	v, _ = probeFEN(t, db, engine.English, "W:WK29:BK1")
	assert.Equal(t, Draw, v)
	v, _ = probeFEN(t, db, engine.English, "B:WK18:BK5")
	assert.Equal(t, Draw, v)
	n = sliceValues(t, db, engine.English, Material{WK: 1, BK: 1})
	assert.Greater(t, n[Draw], 2*(n[Win]+n[Loss]), "1 king against 1: %v", n)
	v, d = probeFEN(t, db, engine.English, "B:WK29:BK1")
	assert.Equal(t, Win, v, "the king in the single corner 29 is caught")
	assert.Equal(t, 11, d)
}

// longDiagonal returns the bits of the long diagonal (a1 to h8 or j10).
func longDiagonal(v engine.VariantID) uint64 {
	var d uint64
	n := v.Rules().BoardSize
	for r := range n {
		d |= engine.SquareBit(v, engine.SquareFromRowCol(v, r, n-1-r))
	}
	return d
}

// threeKingsCounts counts the values of 3 kings against 1, by side to move
// and by who holds the long diagonal, over src.
func threeKingsCounts(t *testing.T, src source, v engine.VariantID) (map[string]int, int) {
	t.Helper()
	d := longDiagonal(v)
	g, _ := geomOf(v)
	s := newSlice(Material{WK: 3, BK: 1}, g)
	n := map[string]int{}
	longest := 0
	for i := uint64(0); i < s.size; i++ {
		p, _ := s.position(i, v)
		for _, side := range []engine.Color{engine.White, engine.Black} {
			p.Side = side
			if p.HasCapture() {
				continue
			}
			val, dist, _, ok := lookup(src, &p)
			require.True(t, ok)
			if val == Win {
				longest = max(longest, dist)
			}
			who := "none"
			switch {
			case p.Pieces[engine.Black]&d != 0 && p.Pieces[engine.White]&d == 0:
				who = "lone"
			case p.Pieces[engine.White]&d != 0 && p.Pieces[engine.Black]&d == 0:
				who = "three"
			}
			n[fmt.Sprintf("%s to move, diagonal %s: %s", side, who, val)]++
		}
	}
	return n, longest
}

func TestRussianThreeKingsAgainstOne(t *testing.T) {
	db := Default()
	// The lone king on the long diagonal a1-h8 holds the draw.
	for _, fen := range []string{"W:WKc1,Ke1,Kg1:BKh8", "B:WKc1,Ke1,Kg1:BKh8", "B:WKb8,Kd8,Kf8:BKa1"} {
		v, _ := probeFEN(t, db, engine.Russian, fen)
		assert.Equal(t, Draw, v, fen)
	}
	// Off it, three kings win within the 15-move rule (30 plies).
	for _, fen := range []string{"W:WKc1,Ke1,Kg1:BKd8", "W:WKa1,Kb2,Kc3:BKh2"} {
		v, d := probeFEN(t, db, engine.Russian, fen)
		assert.Equal(t, Win, v, fen)
		assert.LessOrEqual(t, d, 2*engine.RussianThreeKingsMoves, fen)
	}
	n, longest := threeKingsCounts(t, db, engine.Russian)
	// The lone king to move on the diagonal: a draw in every position.
	assert.Zero(t, n["B to move, diagonal lone: loss"], "%v", n)
	assert.NotZero(t, n["B to move, diagonal lone: draw"])
	// The three kings holding the diagonal, to move: a win (but for a
	// few positions where the lone king reaches it at once).
	assert.Greater(t, n["W to move, diagonal three: win"], 50*n["W to move, diagonal three: draw"], "%v", n)
	// Every win is within the 15-move rule: Petrov's triangle.
	assert.LessOrEqual(t, longest, 2*engine.RussianThreeKingsMoves)
}

func TestInternationalThreeKingsAgainstOne(t *testing.T) {
	db := Default()
	// Long diagonal: 46-41-37-32-28-23-19-14-10-5. The lone king on it
	// holds the draw.
	for _, fen := range []string{"W:WK1,K2,K3:BK46", "B:WK1,K2,K3:BK46", "W:WK47,K48,K49:BK5", "B:WK11,K25,K36:BK28"} {
		v, _ := probeFEN(t, db, engine.International, fen)
		assert.Equal(t, Draw, v, fen)
	}
	// Off it and caught in the corner, it is lost, whoever is to move.
	v, d := probeFEN(t, db, engine.International, "W:WK6,K7,K8:BK50")
	assert.Equal(t, Win, v)
	assert.Equal(t, 3, d)
	v, d = probeFEN(t, db, engine.International, "B:WK6,K7,K8:BK50")
	assert.Equal(t, Loss, v)
	assert.Equal(t, 6, d)
	n, longest := threeKingsCounts(t, db, engine.International)
	assert.Zero(t, n["B to move, diagonal lone: loss"], "%v", n)
	assert.NotZero(t, n["B to move, diagonal lone: draw"])
	assert.NotZero(t, n["W to move, diagonal three: win"])
	t.Logf("international 3 kings against 1: %v, longest win %d plies", n, longest)
}

func TestIndexRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range []engine.VariantID{engine.English, engine.International} {
		g, _ := geomOf(v)
		for _, m := range Materials(v, 5) {
			s := newSlice(m, g)
			for range 200 {
				i := r.Uint64N(s.size)
				p, ok := s.position(i, v)
				if !ok {
					continue
				}
				assert.Equal(t, m, MaterialOf(&p))
				assert.Equal(t, i, s.index(&p), "%s %s index %d", v, m, i)
				f := g.flip(&p)
				ff := g.flip(&f)
				assert.Equal(t, p, ff, "flip twice")
			}
		}
	}
}

func TestBuildDeterministic(t *testing.T) {
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for k, th := range []int{1, 3} {
		_, err := Build(context.Background(), BuildOptions{Variant: engine.Russian, Pieces: 3, Dir: dirs[k], Threads: th})
		require.NoError(t, err)
	}
	for _, m := range Materials(engine.Russian, 3) {
		a, err := os.ReadFile(filepath.Join(dirs[0], FileName(engine.Russian, m)))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dirs[1], FileName(engine.Russian, m)))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "slice %s differs between 1 and 3 threads", m)
	}
}

func TestBuildResumes(t *testing.T) {
	dir := t.TempDir()
	_, err := Build(context.Background(), BuildOptions{Variant: engine.English, Pieces: 3, Dir: dir})
	require.NoError(t, err)
	// A damaged slice is rebuilt, the sound ones are kept.
	name := filepath.Join(dir, FileName(engine.English, Material{WK: 2, BK: 1}))
	require.NoError(t, os.WriteFile(name, []byte("junk"), 0o644))
	var logged []string
	stats, err := Build(context.Background(), BuildOptions{Variant: engine.English, Pieces: 3, Dir: dir,
		Logf: func(f string, a ...any) { logged = append(logged, f) }})
	require.NoError(t, err)
	built := map[Material]bool{}
	for _, s := range stats {
		built[s.Material] = s.Built
	}
	assert.True(t, built[Material{WK: 2, BK: 1}])
	assert.True(t, built[Material{WK: 1, BK: 2}], "the pair is solved together")
	assert.False(t, built[Material{WK: 1, BK: 1}])
	assert.NotEmpty(t, logged)
}

func TestShardsAreDisjointAndCover(t *testing.T) {
	ms := Materials(engine.Russian, 4)
	owner := map[Material]int{}
	for s := range 3 {
		need := shardSet(ms, 4, s, 3)
		for _, m := range shardOwn(ms, 4, s, 3) {
			_, dup := owner[m]
			assert.False(t, dup, "slice %s in two shards", m)
			owner[m] = s
			assert.True(t, need[m] && need[m.Flip()])
		}
		for _, m := range ms {
			if m.Pieces() < 4 {
				assert.True(t, need[m], "shard %d lacks %s", s, m)
			}
		}
	}
	for _, m := range ms {
		if m.Pieces() == 4 {
			_, ok1 := owner[m]
			_, ok2 := owner[m.Flip()]
			assert.True(t, ok1 || ok2, "slice %s in no shard", m)
		}
	}
}

// writeSmall builds the English 2-piece slices into a fresh directory.
func writeSmall(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	_, err := Build(context.Background(), BuildOptions{Variant: engine.English, Pieces: 2, Dir: dir})
	require.NoError(t, err)
	return dir
}

func TestCorruptFiles(t *testing.T) {
	m := Material{WK: 1, BK: 1}
	fen := "W:WK29:BK1"
	p, err := engine.ParseFEN(engine.English, fen)
	require.NoError(t, err)
	cases := map[string]func([]byte) []byte{
		"checksum":  func(b []byte) []byte { b[len(b)/2] ^= 0x55; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-7] },
		"bad magic": func(b []byte) []byte { b[0] = 'X'; return b },
		"shorter":   func(b []byte) []byte { return b[:20] },
		"version":   func(b []byte) []byte { b[8] = 9; return b },
	}
	for what, damage := range cases {
		t.Run(what, func(t *testing.T) {
			dir := writeSmall(t)
			name := filepath.Join(dir, FileName(engine.English, m))
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(name, damage(b), 0o644))
			db, err := Open(dir)
			require.NoError(t, err)
			var handled []error
			db.SetErrorHandler(func(e error) { handled = append(handled, e) })
			_, _, ok := db.Probe(&p)
			assert.False(t, ok, "a corrupt slice gives no value")
			_, _, ok = db.Probe(&p)
			assert.False(t, ok)
			errs := db.Errors()
			require.Len(t, errs, 1, "reported once")
			assert.Contains(t, errs[0].Error(), name)
			assert.Contains(t, errs[0].Error(), what)
			assert.Len(t, handled, 1)
			// The other slices still work.
			q, err := engine.ParseFEN(engine.English, "W:W29:BK1")
			require.NoError(t, err)
			_, _, ok = db.Probe(&q)
			assert.True(t, ok)
			require.NoError(t, db.Close())
		})
	}
}

func TestNilDB(t *testing.T) {
	var db *DB
	p := engine.StartPosition(engine.English)
	_, _, ok := db.Probe(&p)
	assert.False(t, ok)
	assert.Zero(t, db.Pieces(engine.English))
}

func TestMissingFilesAndDir(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "nowhere"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nowhere")
	require.NotNil(t, db, "the embedded set still works")
	v, _ := probeFEN(t, db, engine.English, "W:WK29,K30:BK4")
	assert.Equal(t, Win, v)
	// More pieces than any table: no value, no error.
	p := engine.StartPosition(engine.English)
	_, _, ok := db.Probe(&p)
	assert.False(t, ok)
	assert.Empty(t, db.Errors())
	// A directory with only the 2-piece slices: 3 pieces probe as unknown
	// there unless embedded; Pieces says what is complete.
	dir := writeSmall(t)
	db, err = Open(dir)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, db.Pieces(engine.English), 4)
	assert.Equal(t, 4, db.Pieces(engine.International))
}

func TestProbeAllocatesNothing(t *testing.T) {
	db := Default()
	var ps []engine.Position
	for _, c := range []struct {
		v   engine.VariantID
		fen string
	}{
		{engine.English, "W:WK29,K30:BK4"},
		{engine.English, "B:W18,K30:BK22,K4"}, // Black must capture
		{engine.Russian, "W:Wc3,Kc1:Bf6,Kh8"},
		{engine.Brazilian, "B:Wc3,e3:Bd4,Kh8"},
		{engine.International, "W:W32,K1:BK46"},
	} {
		p, err := engine.ParseFEN(c.v, c.fen)
		require.NoError(t, err, c.fen)
		_, _, ok := db.Probe(&p) // loads the slices
		require.True(t, ok, c.fen)
		ps = append(ps, p)
	}
	allocs := testing.AllocsPerRun(200, func() {
		for i := range ps {
			db.Probe(&ps[i])
		}
	})
	assert.Zero(t, allocs)
}

func TestEmbeddedConsistent(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies the whole embedded set (TestBuildVerifySmall checks the 3-piece slices)")
	}
	db := Default()
	for _, v := range engine.AllVariants() {
		require.GreaterOrEqual(t, db.Pieces(v), 3, "%s", v)
		for _, m := range Materials(v, db.Pieces(v)) {
			n, _, bad, err := verifySlice(context.Background(), db, v, m, 2, 5)
			require.NoError(t, err)
			assert.Empty(t, bad, "%s %s", v, m)
			assert.NotZero(t, n)
		}
	}
	assert.Empty(t, db.Errors())
}

func TestFileRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g, _ := geomOf(engine.English)
	for _, m := range []Material{{WM: 1, BK: 2}, {WK: 2, BK: 1}} {
		s := newSlice(m, g)
		codes := make([]byte, s.size)
		for i := range codes {
			switch {
			case r.IntN(10) == 0:
				codes[i] = codeDontCare
			case m.KingsOnly():
				codes[i] = []byte{1, 3, 2, codeDTMDraw}[min(i/3000, 3)]
			default:
				codes[i] = uint8(r.IntN(3))
			}
		}
		b, h, err := encodeFile(engine.English, m, codes)
		require.NoError(t, err)
		tb, err := parseFile("x", b)
		require.NoError(t, err)
		assert.Equal(t, h, tb.h)
		all := tb.decodeAll()
		require.Len(t, all, len(codes))
		for i, c := range codes {
			if c != codeDontCare {
				require.Equal(t, c, tb.code(uint64(i)), "index %d", i)
				require.Equal(t, c, all[i])
			}
		}
	}
}

func FuzzParseFile(f *testing.F) {
	g, _ := geomOf(engine.English)
	for _, m := range []Material{{WK: 1, BK: 1}, {WM: 1, BK: 1}} {
		codes := make([]byte, newSlice(m, g).size)
		for i := range codes {
			codes[i] = uint8(i / 50 % 3)
		}
		b, _, err := encodeFile(engine.English, m, codes)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(b []byte) {
			tb, err := parseFile("fuzz", b)
			if err != nil {
				require.ErrorIs(t, err, errCorrupt)
				return
			}
			all := tb.decodeAll()
			require.Len(t, all, int(tb.h.Positions))
			for i := uint64(0); i < tb.h.Positions; i += 7 {
				require.Equal(t, all[i], tb.code(i))
			}
		}
		check(b)
		// With the checksum made right, the fields behind it are reached.
		if len(b) >= 4 {
			c := append([]byte(nil), b...)
			binary.LittleEndian.PutUint32(c[len(c)-4:], crc32.Checksum(c[:len(c)-4], castagnoli))
			check(c)
		}
	})
}

// TestEmbeddedRebuilds: the embedded English and international files are
// what the build commands of docs/egdb.md make, byte for byte.
func TestEmbeddedRebuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English 5-piece and international 4-piece sets (one to three minutes)")
	}
	for _, set := range []struct {
		v      engine.VariantID
		pieces int
	}{{engine.English, 5}, {engine.International, 4}} {
		dir := t.TempDir()
		_, err := Build(context.Background(), BuildOptions{Variant: set.v, Pieces: set.pieces, Dir: dir, Threads: 2})
		require.NoError(t, err)
		for _, m := range Materials(set.v, set.pieces) {
			name := FileName(set.v, m)
			want, err := embedded.ReadFile(embeddedDir + "/" + name)
			require.NoError(t, err)
			got, err := os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(want, got), name)
		}
	}
}

// TestConcurrentFirstProbes: goroutines that probe a fresh DB at once
// load each slice once and all get the same values (run with -race).
func TestConcurrentFirstProbes(t *testing.T) {
	dir := t.TempDir()
	_, err := Build(context.Background(), BuildOptions{Variant: engine.English, Pieces: 3, Dir: dir})
	require.NoError(t, err)
	db, err := OpenDir(dir)
	require.NoError(t, err)
	g, _ := geomOf(engine.English)
	var ps []engine.Position
	for _, m := range Materials(engine.English, 3) {
		s := newSlice(m, g)
		for i := uint64(0); i < s.size; i += 97 {
			if p, ok := s.position(i, engine.English); ok {
				ps = append(ps, p)
			}
		}
	}
	results := make([][]Value, 4)
	done := make(chan int)
	for k := range results {
		go func() {
			for i := range ps {
				v, _, ok := db.Probe(&ps[(i+k*len(ps)/4)%len(ps)])
				if !ok {
					v = 99
				}
				results[k] = append(results[k], v)
			}
			done <- k
		}()
	}
	for range results {
		<-done
	}
	for k := 1; k < len(results); k++ {
		for i := range ps {
			require.Equal(t, results[0][i], results[k][(i-k*len(ps)/4+len(ps))%len(ps)])
		}
	}
	assert.NotContains(t, results[0], Value(99))
	assert.Empty(t, db.Errors())
}

// TestDecided checks when a table value is the game's under the draw
// rules: draws always, distances within the plies left, win/draw/loss
// values with at least TrustPlies left.
func TestDecided(t *testing.T) {
	cases := []struct {
		v          Value
		dist, left int
		want       bool
	}{
		{Draw, -1, 0, true},
		{Draw, -1, 1 << 20, true},
		{Win, 9, 10, true},
		{Win, 10, 10, false},
		{Loss, 31, 30, false},
		{Loss, 3, engine.RuleHorizon, true},
		{Win, -1, TrustPlies, true},
		{Win, -1, TrustPlies - 1, false},
		{Loss, -1, engine.RuleHorizon, true},
		{Loss, -1, 0, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Decided(c.v, c.dist, c.left), "%v dist %d left %d", c.v, c.dist, c.left)
	}
}

// TestVerifyOnly: Verify with slices named checks those alone, in
// dependency order, and refuses one the set lacks.
func TestVerifyOnly(t *testing.T) {
	db := Default()
	var got []Material
	err := db.Verify(context.Background(), engine.English, 2, 5, []Material{{WK: 2, BK: 1}, {WM: 1, BK: 1}}, func(r VerifyResult) {
		got = append(got, r.Material)
		assert.Empty(t, r.Mismatches)
		assert.NotZero(t, r.Checked)
	})
	require.NoError(t, err)
	assert.Equal(t, []Material{{WM: 1, BK: 1}, {WK: 2, BK: 1}}, got)
	assert.True(t, db.Has(engine.English, Material{WK: 2, BK: 1}))
	assert.True(t, db.Has(engine.English, Material{WK: 3, BK: 2}))
	assert.False(t, db.Has(engine.English, Material{WK: 3, BK: 3}))
	err = db.Verify(context.Background(), engine.English, 1, 5, []Material{{WK: 3, BK: 3}}, func(VerifyResult) { t.Error("called") })
	assert.ErrorContains(t, err, "slice 0303 of english is not in the database")
}

// TestVerifyDamagedFile: Verify over a set with a damaged file (a flipped
// byte, a truncated file, a bad header) names that file and what is wrong
// with it, both for its own slice and for the slices whose moves lead into
// it, instead of calling the slice not available; the slices that do not
// need it are still checked.
func TestVerifyDamagedFile(t *testing.T) {
	_, built := buildMem(t, engine.English, 3)
	bad := Material{WM: 1, BK: 1} // 1001: reached by captures and moves from 0110, 1101, ...
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"flipped byte", func(b []byte) []byte { b[len(b)/2] ^= 0x55; return b }, "checksum"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-30] }, "header says"},
		{"bad header", func(b []byte) []byte { b[3] = 'X'; return b }, "bad magic"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			ents, err := os.ReadDir(built)
			require.NoError(t, err)
			for _, e := range ents {
				b, err := os.ReadFile(filepath.Join(built, e.Name()))
				require.NoError(t, err)
				if e.Name() == FileName(engine.English, bad) {
					b = c.damage(b)
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
			}
			file := filepath.Join(dir, FileName(engine.English, bad))
			db, err := OpenDir(dir)
			require.NoError(t, err)
			defer db.Close()
			var checked, failed []Material
			err = db.Verify(context.Background(), engine.English, 2, 5, nil, func(r VerifyResult) {
				if r.Err == nil {
					checked = append(checked, r.Material)
					assert.Zero(t, r.Wrong, "%s", r.Material)
					return
				}
				failed = append(failed, r.Material)
				assert.Equal(t, bad, r.Cause, "%s", r.Material)
				assert.ErrorContains(t, r.Err, file+": corrupt endgame table: ", "%s", r.Material)
				assert.ErrorContains(t, r.Err, c.want, "%s", r.Material)
				assert.NotContains(t, r.Err.Error(), "not available", "%s", r.Material)
				if r.Material != bad {
					assert.ErrorContains(t, r.Err, fmt.Sprintf("slice %s of english not checked: its moves lead to slice 1001, which cannot be used: ", r.Material))
				}
			})
			require.NoError(t, err)
			assert.Contains(t, failed, bad)
			assert.Contains(t, failed, bad.Flip(), "the flipped slice's quiet moves lead into it")
			assert.Contains(t, checked, Material{WK: 2, BK: 1}, "a slice that does not need it is checked")
			assert.Len(t, append(checked, failed...), len(Materials(engine.English, 3)))
		})
	}
}
