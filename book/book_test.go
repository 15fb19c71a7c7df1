package book_test

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
)

// mustFEN parses a FEN of v or fails the test.
func mustFEN(t testing.TB, v engine.VariantID, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err, fen)
	return p
}

// legal returns the legal moves of p.
func legal(p *engine.Position) []engine.Move {
	var l engine.MoveList
	p.Generate(&l)
	return slices.Clone(l.Slice())
}

// sampleRecords returns positions of v reached by random play, each with all
// its legal moves as entries, plus the given extra positions (positions with
// two moves of the same origin and destination).
func sampleRecords(t testing.TB, v engine.VariantID, extra ...string) []book.Record {
	rng := rand.New(rand.NewPCG(uint64(v), 7))
	seen := map[engine.Position]bool{}
	var recs []book.Record
	add := func(p engine.Position) {
		ms := legal(&p)
		if len(ms) == 0 || seen[p] {
			return
		}
		seen[p] = true
		r := book.Record{Position: p, Ply: rng.IntN(40)}
		for _, m := range ms {
			r.Moves = append(r.Moves, book.Entry{Move: m, Weight: 1 + rng.IntN(65535),
				Score: rng.IntN(60001) - 30000, Games: rng.IntN(100)})
		}
		recs = append(recs, r)
	}
	for g := 0; g < 4; g++ {
		p := engine.StartPosition(v)
		for ply := 0; ply < 60; ply++ {
			add(p)
			ms := legal(&p)
			if len(ms) == 0 {
				break
			}
			p = p.Play(ms[rng.IntN(len(ms))])
		}
	}
	for _, f := range extra {
		add(mustFEN(t, v, f))
	}
	return recs
}

// sameEndsFENs are positions where two legal moves share origin and
// destination (different captured sets), found by random play.
var sameEndsFENs = map[engine.VariantID][]string{
	engine.Russian:       {"B:W17,19,22,24,25,26,27,28,29,31:B1,2,3,4,5,6,9,10,15,16"},
	engine.English:       {"W:W27,29,32:B1,3,6,7,12,14,15,K23,28"},
	engine.Brazilian:     {"W:WK1:B3,4,6,7,8,K17,18,23"},
	engine.International: {"W:WK7,30,33,34,36,37,38,40,44,45,46,47,48,49,50:B3,4,5,6,10,12,13,15,19,20,22"},
}

func TestRoundTrip(t *testing.T) {
	for _, v := range engine.AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			recs := sampleRecords(t, v, sameEndsFENs[v]...)
			require.Greater(t, len(recs), 100)
			data, err := book.Encode(v, "command: test\nsettings: none", recs)
			require.NoError(t, err)
			b, err := book.Load(data)
			require.NoError(t, err)
			assert.Equal(t, v, b.Variant())
			assert.Equal(t, "command: test\nsettings: none", b.BuildInfo())
			st := b.Stats()
			assert.Equal(t, len(recs), st.Positions)
			assert.Equal(t, len(data), st.Bytes)
			moves, maxPly := 0, 0
			for _, r := range recs {
				moves += len(r.Moves)
				maxPly = max(maxPly, r.Ply)
				got := b.Probe(&r.Position)
				assert.Equal(t, r.Moves, got, r.Position.FEN())
			}
			assert.Equal(t, moves, st.Moves)
			assert.Equal(t, maxPly, st.MaxPly)
			// Records come back in key order, equal to what went in.
			all := b.Records()
			require.Len(t, all, len(recs))
			for i := 1; i < len(all); i++ {
				assert.LessOrEqual(t, all[i-1].Position.Key, all[i].Position.Key)
			}
			// Encoding is canonical: the order of the input does not matter.
			rev := slices.Clone(recs)
			slices.Reverse(rev)
			data2, err := book.Encode(v, "command: test\nsettings: none", rev)
			require.NoError(t, err)
			assert.Equal(t, data, data2)
			again, err := b.MarshalBinary()
			require.NoError(t, err)
			assert.Equal(t, data, again)
		})
	}
}

func TestSameEndsMovesKeepTheirIdentity(t *testing.T) {
	for v, fens := range sameEndsFENs {
		p := mustFEN(t, v, fens[0])
		ms := legal(&p)
		var pair []engine.Move
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				if ms[i].From == ms[j].From && ms[i].To == ms[j].To {
					pair = []engine.Move{ms[i], ms[j]}
				}
			}
		}
		require.Len(t, pair, 2, "%s has no two moves with the same ends", fens[0])
		for _, m := range pair {
			data, err := book.Encode(v, "", []book.Record{{Position: p, Moves: []book.Entry{{Move: m, Weight: 1}}}})
			require.NoError(t, err)
			b, err := book.Load(data)
			require.NoError(t, err)
			es := b.Probe(&p)
			require.Len(t, es, 1)
			assert.Equal(t, m, es[0].Move, "%s: %s", v, p.FormatMove(m, engine.FormatFull))
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	p := engine.StartPosition(engine.English)
	ms := legal(&p)
	other := engine.StartPosition(engine.Russian)
	illegal := legal(&other)[0]
	cases := map[string][]book.Record{
		"no moves":     {{Position: p}},
		"illegal":      {{Position: p, Moves: []book.Entry{{Move: illegal, Weight: 1}}}},
		"twice":        {{Position: p, Moves: []book.Entry{{Move: ms[0], Weight: 1}, {Move: ms[0], Weight: 2}}}},
		"weight 0":     {{Position: p, Moves: []book.Entry{{Move: ms[0]}}}},
		"weight 65536": {{Position: p, Moves: []book.Entry{{Move: ms[0], Weight: 65536}}}},
		"score":        {{Position: p, Moves: []book.Entry{{Move: ms[0], Weight: 1, Score: 40000}}}},
		"variant":      {{Position: other, Moves: []book.Entry{{Move: illegal, Weight: 1}}}},
		"position twice": {{Position: p, Moves: []book.Entry{{Move: ms[0], Weight: 1}}},
			{Position: p, Moves: []book.Entry{{Move: ms[1], Weight: 1}}}},
	}
	for name, recs := range cases {
		_, err := book.Encode(engine.English, "", recs)
		assert.Error(t, err, name)
	}
}

// smallBook returns a valid English book file of a few positions.
func smallBook(t testing.TB) []byte {
	t.Helper()
	recs := sampleRecords(t, engine.English)[:5]
	data, err := book.Encode(engine.English, "command: small", recs)
	require.NoError(t, err)
	return data
}

// resum rewrites the checksum of a hand-edited book file.
func resum(data []byte) []byte {
	d := slices.Clone(data)
	binary.LittleEndian.PutUint32(d[24:], 0)
	binary.LittleEndian.PutUint32(d[24:], crc32.Checksum(d, crc32.MakeTable(crc32.Castagnoli)))
	return d
}

func TestCorruptBooks(t *testing.T) {
	data := smallBook(t)
	_, err := book.Load(data)
	require.NoError(t, err)

	// Every truncation is an error, and so is every single flipped bit.
	for n := 0; n < len(data); n++ {
		_, err := book.Load(data[:n])
		require.Error(t, err, "truncated to %d", n)
		assert.ErrorIs(t, err, book.ErrFormat)
	}
	for i := 0; i < len(data); i++ {
		for bit := 0; bit < 8; bit += 3 {
			d := slices.Clone(data)
			d[i] ^= 1 << bit
			_, err := book.Load(d)
			require.Error(t, err, "byte %d bit %d", i, bit)
			assert.ErrorIs(t, err, book.ErrFormat)
		}
	}

	check := func(name string, d []byte, want string) {
		t.Helper()
		_, err := book.Load(d)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, book.ErrFormat, name)
		assert.Contains(t, err.Error(), want, name)
	}
	check("empty", nil, "truncated")
	check("short", data[:len(data)-3], "truncated")
	check("trailing", append(slices.Clone(data), 0), "trailing")
	check("magic", append([]byte("NOTABOOK"), data[8:]...), "not a damka book")
	flip := slices.Clone(data)
	flip[len(flip)-1] ^= 0x40
	check("checksum", flip, "checksum")
	ver := slices.Clone(data)
	ver[8] = 9
	check("version", resum(ver), "version 9")
	vari := slices.Clone(data)
	vari[10] = 7
	check("variant", resum(vari), "unknown variant 7")
	// A move code that is no legal move, with a valid checksum.
	bad := slices.Clone(data)
	m := int(binary.LittleEndian.Uint32(bad[16:]))
	first := len(bad) - 8*m
	binary.LittleEndian.PutUint16(bad[first:], 1|2<<6) // square 1 to square 2: never legal
	check("illegal move", resum(bad), "not a legal move")
	// A square holding a white and a black piece.
	two := slices.Clone(data)
	rec := 28 + int(binary.LittleEndian.Uint16(two[22:]))
	copy(two[rec+4:rec+8], two[rec:rec+4])
	check("two pieces", resum(two), "two pieces")
	// A square beyond the board (10x10 masks have 56 bits for 50 squares).
	p := engine.StartPosition(engine.International)
	intl, err := book.Encode(engine.International, "", []book.Record{{Position: p, Moves: []book.Entry{{Move: legal(&p)[0], Weight: 1}}}})
	require.NoError(t, err)
	intl[28+6] |= 0x80 // White's mask, bit 55
	check("off the board", resum(intl), "beyond 50")

	_, err = book.LoadVariant(data, engine.Russian)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a english book, not russian")

	path := filepath.Join(t.TempDir(), "bad.book")
	require.NoError(t, os.WriteFile(path, data[:40], 0o644))
	_, err = book.ReadFile(path, engine.English)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	_, err = book.ReadFile(filepath.Join(t.TempDir(), "none.book"), engine.English)
	assert.ErrorIs(t, err, os.ErrNotExist)

	// A sound file: ReadFileAny takes it whatever its variant, ReadFile
	// only for its own, naming the file otherwise.
	good := filepath.Join(t.TempDir(), "good.book")
	require.NoError(t, os.WriteFile(good, data, 0o644))
	b, err := book.ReadFileAny(good)
	require.NoError(t, err)
	assert.Equal(t, engine.English, b.Variant())
	_, err = book.ReadFile(good, engine.Russian)
	require.Error(t, err)
	assert.Contains(t, err.Error(), good)
	assert.Contains(t, err.Error(), "a english book, not russian")
	_, err = book.ReadFileAny(path)
	assert.ErrorIs(t, err, book.ErrFormat)
}

func TestNoBookPlaysOn(t *testing.T) {
	// A caller whose book failed to load holds a nil *Book: probing it
	// finds nothing and Pick says so, without panicking.
	var b *book.Book
	b, err := book.Load([]byte("garbage"))
	require.Error(t, err)
	p := engine.StartPosition(engine.Russian)
	assert.Nil(t, b.Probe(&p))
	_, ok := b.Pick(&p, 10, nil)
	assert.False(t, ok)
	assert.False(t, b.Contains(&p))
}

func TestProbeMisses(t *testing.T) {
	recs := sampleRecords(t, engine.English)
	data, err := book.Encode(engine.English, "", recs[:10])
	require.NoError(t, err)
	b, err := book.Load(data)
	require.NoError(t, err)
	// A position not in the book.
	for _, r := range recs[10:] {
		assert.Nil(t, b.Probe(&r.Position))
	}
	// The same squares in another variant.
	p := recs[0].Position
	p.V = engine.Russian
	p.Key = p.ComputeKey()
	assert.Nil(t, b.Probe(&p))
	// A key collision: another position carrying the key of a book
	// position finds nothing (the whole position is compared).
	q := recs[10].Position
	q.Key = recs[0].Position.Key
	assert.Nil(t, b.Probe(&q))
	_, ok := b.Pick(&q, 100, nil)
	assert.False(t, ok)
	// The side to move counts.
	s := recs[0].Position
	s.Side = s.Side.Opp()
	s.Key = s.ComputeKey()
	assert.Nil(t, b.Probe(&s))
}

func TestPick(t *testing.T) {
	p := engine.StartPosition(engine.International)
	ms := legal(&p)
	es := []book.Entry{
		{Move: ms[0], Weight: 300, Score: 20},
		{Move: ms[1], Weight: 100, Score: 15},
		{Move: ms[2], Weight: 1000, Score: 5},
	}
	data, err := book.Encode(engine.International, "", []book.Record{{Position: p, Moves: es}})
	require.NoError(t, err)
	b, err := book.Load(data)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	count := func(margin int) map[engine.Move]int {
		c := map[engine.Move]int{}
		for i := 0; i < 8000; i++ {
			m, ok := b.Pick(&p, margin, rng)
			require.True(t, ok)
			c[m]++
		}
		return c
	}
	c := count(0)
	assert.Equal(t, map[engine.Move]int{ms[0]: 8000}, c)
	c = count(-5)
	assert.Equal(t, map[engine.Move]int{ms[0]: 8000}, c)
	c = count(5) // 20 and 15: odds 3 to 1
	assert.Zero(t, c[ms[2]])
	assert.InDelta(t, 6000, c[ms[0]], 250)
	assert.InDelta(t, 2000, c[ms[1]], 250)
	c = count(15) // all three: 300, 100, 1000 of 1400
	assert.InDelta(t, 8000*1000/1400, c[ms[2]], 300)
	assert.InDelta(t, 8000*300/1400, c[ms[0]], 250)
	_, ok := b.Pick(&p, 10, nil) // the global source
	assert.True(t, ok)

	allocs := testing.AllocsPerRun(100, func() { b.Pick(&p, 15, rng) })
	assert.Zero(t, allocs, "Pick allocates")
}

func TestDefaultBooks(t *testing.T) {
	for _, v := range engine.AllVariants() {
		b, err := book.Default(v)
		require.NoError(t, err, v)
		b2, _ := book.Default(v)
		assert.Same(t, b, b2, "loaded once")
		st := b.Stats()
		assert.Equal(t, v, st.Variant)
		assert.Greater(t, st.Positions, 100, v)
		assert.Less(t, st.Bytes, 2<<20, "%s book too big", v)
		assert.Contains(t, st.BuildInfo, "command: damka book build")
		assert.Contains(t, st.BuildInfo, "--variant "+v.String())
		start := engine.StartPosition(v)
		m, ok := b.Pick(&start, 10, nil)
		require.True(t, ok, "%s: no book move at the start", v)
		assert.Contains(t, legal(&start), m)
	}
}

// TestEmbeddedBooksLegal walks every record of every embedded book: each
// stored position is found by Probe and each of its moves is legal there
// (the position is stored whole, so this checks every entry).
func TestEmbeddedBooksLegal(t *testing.T) {
	for _, v := range engine.AllVariants() {
		b, err := book.Default(v)
		require.NoError(t, err)
		recs := b.Records()
		require.Len(t, recs, b.Stats().Positions)
		moves := 0
		for _, r := range recs {
			p := r.Position
			require.Equal(t, v, p.V)
			require.Equal(t, p.ComputeKey(), p.Key)
			ms := legal(&p)
			require.NotEmpty(t, r.Moves, p.FEN())
			for _, e := range r.Moves {
				require.Contains(t, ms, e.Move, "%s: %s", p.FEN(), p.FormatMove(e.Move, engine.FormatFull))
				require.GreaterOrEqual(t, e.Weight, 1)
				moves++
			}
			require.Equal(t, r.Moves, b.Probe(&p))
			require.LessOrEqual(t, r.Ply, b.Stats().MaxPly)
		}
		assert.Equal(t, b.Stats().Moves, moves)
		data, err := b.MarshalBinary()
		require.NoError(t, err)
		assert.Len(t, data, b.Stats().Bytes, "%s book re-encodes to its own size", v)
	}
}

func TestDefaultUnknownVariant(t *testing.T) {
	_, err := book.Default(engine.VariantID(9))
	assert.ErrorIs(t, err, book.ErrNoBook)
}

func BenchmarkProbe(b *testing.B) {
	bk, err := book.Default(engine.English)
	require.NoError(b, err)
	p := engine.StartPosition(engine.English)
	b.ReportAllocs()
	for b.Loop() {
		bk.Probe(&p)
	}
}

func BenchmarkPickMiss(b *testing.B) {
	bk, err := book.Default(engine.English)
	require.NoError(b, err)
	p := mustFEN(b, engine.English, "W:W27,29,32:B1,3,6,7,12,14,15,K23,28")
	b.ReportAllocs()
	for b.Loop() {
		bk.Pick(&p, 10, nil)
	}
}
