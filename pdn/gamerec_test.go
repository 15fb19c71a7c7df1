package pdn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damka-draughts/damka/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomGameRecord plays uniformly random legal moves from start until the
// rules end the game or maxPlies is reached, with random scores (a third
// of them NoScore). The result is the rules' one, or a random recorded one
// when the cap stops the game.
func randomGameRecord(rng *rand.Rand, start engine.Position, index uint32, maxPlies int) *Record {
	rec := &Record{Index: index, Start: start}
	g := engine.NewGame(start)
	var l engine.MoveList
	for g.Ply() < maxPlies {
		if r, why := g.Result(); r != engine.Ongoing {
			rec.Result, rec.Reason = r, why
			return rec
		}
		p := g.Position()
		p.Generate(&l)
		m := l.Moves[rng.IntN(l.N)]
		g.Play(m)
		rec.Moves = append(rec.Moves, m)
		sc := NoScore
		switch rng.IntN(3) {
		case 0:
			sc = int16(rng.IntN(65535) - 32767)
		case 1:
			sc = int16(rng.IntN(401) - 200)
		}
		rec.Scores = append(rec.Scores, sc)
	}
	rec.Result = engine.Result(rng.IntN(int(engine.Draw) + 1))
	rec.Reason = engine.Reason(rng.IntN(int(engine.NumReasons)))
	return rec
}

// writeGameFile writes recs to a game file of v and returns its bytes and
// the offset at which each record ends.
func writeGameFile(t testing.TB, v engine.VariantID, note string, recs []*Record) ([]byte, []int64) {
	t.Helper()
	var buf bytes.Buffer
	gw, err := NewRecordWriter(&buf, v, note)
	require.NoError(t, err)
	require.NoError(t, gw.Flush())
	var ends []int64
	for _, r := range recs {
		require.NoError(t, gw.Write(r))
		require.NoError(t, gw.Flush())
		ends = append(ends, int64(buf.Len()))
	}
	return buf.Bytes(), ends
}

// readGameFile reads every record of data; it fails the test on any error.
func readGameFile(t testing.TB, data []byte) (*RecordReader, []*Record) {
	t.Helper()
	gr, err := NewRecordReader(bytes.NewReader(data))
	require.NoError(t, err)
	var recs []*Record
	for {
		r, err := gr.Next()
		if err == io.EOF {
			return gr, recs
		}
		require.NoError(t, err)
		recs = append(recs, r)
	}
}

// assertSameRecord compares two records field by field (the start
// positions by placement, side and key).
func assertSameRecord(t *testing.T, want, got *Record) bool {
	t.Helper()
	ok := assert.Equal(t, want.Index, got.Index) &&
		assertSamePosition(t, want.Start, got.Start, fmt.Sprintf("game %d start", want.Index)) &&
		assert.Equal(t, want.Start.Key, got.Start.Key, "game %d start key", want.Index) &&
		assert.Equal(t, append([]engine.Move{}, want.Moves...), got.Moves, "game %d moves", want.Index) &&
		assert.Equal(t, append([]int16{}, want.Scores...), got.Scores, "game %d scores", want.Index) &&
		assert.Equal(t, want.Result, got.Result, "game %d result", want.Index) &&
		assert.Equal(t, want.Reason, got.Reason, "game %d reason", want.Index)
	return ok
}

func TestGameRecordRoundTrip(t *testing.T) {
	for _, v := range engine.AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(16, uint64(v)))
			var recs []*Record
			for i := range 12 {
				start := engine.StartPosition(v)
				if i%3 == 2 { // random placements: kings and long captures
					start = randomPosition(rng, v, 4+rng.IntN(v.Rules().Squares/2))
				}
				recs = append(recs, randomGameRecord(rng, start, uint32(i), 40+rng.IntN(300)))
			}
			recs = append(recs, &Record{Index: 99, Start: engine.StartPosition(v), Result: engine.Ongoing, Reason: engine.ReasonNone})
			note := "damka selfplay --variant " + v.String() + " --seed 7 — ünïcode"
			data, _ := writeGameFile(t, v, note, recs)
			gr, got := readGameFile(t, data)
			assert.Equal(t, v, gr.Variant())
			assert.Equal(t, note, gr.Note())
			assert.Equal(t, int64(len(data)), gr.Offset())
			require.Len(t, got, len(recs))
			scores := map[int16]bool{}
			for i := range recs {
				if !assertSameRecord(t, recs[i], got[i]) {
					return
				}
				for _, s := range got[i].Scores {
					scores[s] = true
				}
			}
			assert.True(t, scores[NoScore], "no NoScore ply in the test games")
		})
	}
}

// TestGameRecordSameEndpoints checks that moves with the same origin and
// destination but different captured sets (the alt byte) each come back
// as themselves.
func TestGameRecordSameEndpoints(t *testing.T) {
	for _, v := range engine.AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(61, uint64(v)))
			var recs []*Record
			maxAlt := 0
			var l engine.MoveList
			for i := 0; i < 20000 && len(recs) < 60; i++ {
				p := randomPosition(rng, v, 6+rng.IntN(v.Rules().Squares/2))
				p.Generate(&l)
				type ends struct{ from, to uint8 }
				group := map[ends][]engine.Move{}
				for _, m := range l.Slice() {
					group[ends{m.From, m.To}] = append(group[ends{m.From, m.To}], m)
				}
				for _, ms := range group {
					if len(ms) < 2 {
						continue
					}
					// The alts of a group are 0..n-1, each once.
					alts := map[uint8]bool{}
					for _, m := range ms {
						a := moveAlt(&p, &l, m)
						assert.Less(t, int(a), len(ms))
						alts[a] = true
					}
					assert.Len(t, alts, len(ms), "alts of %d moves in %s", len(ms), p.FEN())
					maxAlt = max(maxAlt, len(ms)-1)
					for _, m := range ms {
						recs = append(recs, &Record{Index: uint32(len(recs)), Start: p, Moves: []engine.Move{m},
							Scores: []int16{int16(len(recs))}, Result: engine.Draw, Reason: engine.Adjudication})
					}
				}
			}
			require.NotEmpty(t, recs, "no position with two captures between the same squares")
			t.Logf("%d moves sharing origin and destination, alt up to %d", len(recs), maxAlt)
			data, _ := writeGameFile(t, v, "", recs)
			_, got := readGameFile(t, data)
			require.Len(t, got, len(recs))
			for i := range recs {
				if !assertSameRecord(t, recs[i], got[i]) {
					return
				}
			}
			assert.Positive(t, maxAlt)
		})
	}
}

// TestGameRecordKnownAlt checks the alt byte on a position where a
// flying king has two captures between the same squares.
func TestGameRecordKnownAlt(t *testing.T) {
	// The first random international placement with such a pair; the
	// test pins the alt bytes of both moves.
	rng := rand.New(rand.NewPCG(3, 3))
	var l engine.MoveList
	for range 50000 {
		p := randomPosition(rng, engine.International, 12)
		p.Generate(&l)
		for i, a := range l.Slice() {
			for _, b := range l.Slice()[i+1:] {
				if a.From != b.From || a.To != b.To {
					continue
				}
				lo, hi := a, b
				if engine.SquareSet(p.V, b.Captured) < engine.SquareSet(p.V, a.Captured) {
					lo, hi = b, a
				}
				recs := []*Record{
					{Start: p, Moves: []engine.Move{lo}, Scores: []int16{1}, Result: engine.Draw},
					{Index: 1, Start: p, Moves: []engine.Move{hi}, Scores: []int16{2}, Result: engine.Draw},
				}
				data, ends := writeGameFile(t, engine.International, "", recs)
				// The alt byte: the ply's third byte, after the 33-byte
				// body head and the 4-byte size.
				first := ends[0] - int64(4+33+5+4)
				assert.Equal(t, byte(0), data[first+4+33+2], "alt of the lower captured set")
				assert.Equal(t, byte(1), data[ends[1]-int64(4+5)+2], "alt of the higher captured set")
				_, got := readGameFile(t, data)
				require.Len(t, got, 2)
				assert.Equal(t, lo, got[0].Moves[0])
				assert.Equal(t, hi, got[1].Moves[0])
				return
			}
		}
	}
	t.Fatal("no international position with two captures between the same squares")
}

func TestGameRecordTruncated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var recs []*Record
	for i := range 4 {
		recs = append(recs, randomGameRecord(rng, engine.StartPosition(engine.Russian), uint32(i), 30))
	}
	data, ends := writeGameFile(t, engine.Russian, "note", recs)
	header := int64(16 + len("note"))
	starts := append([]int64{header}, ends[:len(ends)-1]...)
	for k := range recs {
		// Every cut inside record k: its size field, its body, its CRC.
		for cut := starts[k] + 1; cut < ends[k]; cut++ {
			gr, err := NewRecordReader(bytes.NewReader(data[:cut]))
			require.NoError(t, err)
			for range k {
				_, err := gr.Next()
				require.NoError(t, err)
			}
			_, err = gr.Next()
			require.ErrorIs(t, err, ErrTruncatedRecord, "cut at %d", cut)
			assert.Contains(t, err.Error(), fmt.Sprintf("record at byte %d", starts[k]))
			assert.Equal(t, starts[k], gr.Offset(), "offset after a cut at %d", cut)
		}
		// A cut at the record's end is a clean end of file.
		gr, err := NewRecordReader(bytes.NewReader(data[:ends[k]]))
		require.NoError(t, err)
		for range k + 1 {
			_, err := gr.Next()
			require.NoError(t, err)
		}
		_, err = gr.Next()
		assert.Equal(t, io.EOF, err)
		assert.Equal(t, ends[k], gr.Offset())
	}
	// A cut inside the header.
	for cut := range int(header) {
		_, err := NewRecordReader(bytes.NewReader(data[:cut]))
		require.Error(t, err, "header cut at %d", cut)
		assert.Contains(t, err.Error(), "game file", "header cut at %d", cut)
	}
}

// TestGameRecordReadError checks that a failing reader is not taken for
// a file that ends inside a record.
func TestGameRecordReadError(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	data, ends := writeGameFile(t, engine.English, "", []*Record{randomGameRecord(rng, engine.StartPosition(engine.English), 0, 10)})
	for _, cut := range []int64{ends[0] - 30, 16 + 2, 16} {
		gr, err := NewRecordReader(&failingReader{data: data[:cut], err: errors.New("disk on fire")})
		require.NoError(t, err)
		_, err = gr.Next()
		require.Error(t, err)
		assert.NotErrorIs(t, err, ErrTruncatedRecord, "cut at %d", cut)
		assert.ErrorContains(t, err, "record at byte 16: disk on fire")
	}
}

func TestGameRecordFlippedBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var recs []*Record
	for i := range 3 {
		recs = append(recs, randomGameRecord(rng, engine.StartPosition(engine.Brazilian), uint32(i), 20))
	}
	data, ends := writeGameFile(t, engine.Brazilian, "", recs)
	at := ends[0] // the second record
	for i := at; i < ends[1]; i++ {
		for bit := range 8 {
			bad := bytes.Clone(data)
			bad[i] ^= 1 << bit
			gr, err := NewRecordReader(bytes.NewReader(bad))
			require.NoError(t, err)
			_, err = gr.Next()
			require.NoError(t, err)
			_, err = gr.Next()
			require.Error(t, err, "bit %d of byte %d", bit, i)
			assert.Contains(t, err.Error(), fmt.Sprintf("record at byte %d", at), "bit %d of byte %d", bit, i)
			if i >= at+4 { // past the size field: only the checksum can tell
				assert.Contains(t, err.Error(), "checksum mismatch", "bit %d of byte %d", bit, i)
			}
			assert.Equal(t, at, gr.Offset())
		}
	}
}

func TestGameFileHeaderErrors(t *testing.T) {
	good, _ := writeGameFile(t, engine.English, "hi", nil)
	cases := []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, `not a damka game file (magic "XMKGAMES"`},
		{"version", func(b []byte) []byte { b[8] = 2; return b }, "game file version 2, want 1"},
		{"variant", func(b []byte) []byte { b[10] = 9; return b }, "game file variant 9 unknown"},
		{"note length", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[12:], 1<<30); return b }, "note of 1073741824 bytes"},
		{"note cut", func(b []byte) []byte { return b[:17] }, "game file note: truncated game file header after 1 of its 2 bytes"},
		{"note not UTF-8", func(b []byte) []byte { b[16] = 0xFF; return b }, "note is not UTF-8"},
		{"empty", func(b []byte) []byte { return nil }, "game file header: truncated game file header after 0 bytes"},
		{"header cut", func(b []byte) []byte { return b[:11] }, "game file header: truncated game file header after 11 bytes"},
		{"short other file", func(b []byte) []byte { return []byte("DMKX") }, "game file header: unexpected EOF"},
		{"pdn", func(b []byte) []byte { return []byte(`[Event "x"]` + "\n1. 22-17 *\n") }, "not a damka game file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewRecordReader(bytes.NewReader(c.edit(bytes.Clone(good))))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	gr, err := NewRecordReader(bytes.NewReader(good))
	require.NoError(t, err)
	assert.Equal(t, engine.English, gr.Variant())
	_, err = gr.Next()
	assert.Equal(t, io.EOF, err)
}

// TestGameRecordBadRecords checks records whose checksum is right but
// whose contents are not: the reader names the fault.
func TestGameRecordBadRecords(t *testing.T) {
	v := engine.Russian
	start := engine.StartPosition(v)
	m := mustMove(t, start, "c3-d4")
	rec := &Record{Start: start, Moves: []engine.Move{m}, Scores: []int16{5}, Result: engine.Draw, Reason: engine.Repetition}
	data, _ := writeGameFile(t, v, "", []*Record{rec})
	const at = 16
	reseal := func(b []byte) []byte {
		n := binary.LittleEndian.Uint32(b[at:])
		body := b[at+4 : at+4+int(n)-4]
		binary.LittleEndian.PutUint32(b[at+4+int(n)-4:], crc32.ChecksumIEEE(body))
		return b
	}
	cases := []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"side", func(b []byte) []byte { b[at+4+28] = 2; return reseal(b) }, "start position: side to move 2"},
		{"both colours", func(b []byte) []byte { b[at+4+4] |= 1; return reseal(b) }, "start position: square 1 is both white and black"},
		{"square off board", func(b []byte) []byte { b[at+4+11] = 0x80; return reseal(b) }, "square set has squares above 32"},
		{"result", func(b []byte) []byte { b[at+4+29] = 4; return reseal(b) }, "result 4 reason 3 out of range"},
		{"reason", func(b []byte) []byte { b[at+4+30] = byte(engine.NumReasons); return reseal(b) }, "out of range"},
		{"plies", func(b []byte) []byte { b[at+4+31] = 2; return reseal(b) }, "2 plies in 38 bytes"},
		{"illegal move", func(b []byte) []byte { b[at+4+33+1] = 1; return reseal(b) }, "ply 1: no legal move 22-1 (alt 0)"},
		{"alt", func(b []byte) []byte { b[at+4+33+2] = 1; return reseal(b) }, "ply 1: no legal move 22-18 (alt 1)"},
		{"size small", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[at:], 3); return b }, "size 3 out of range"},
		{"size huge", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[at:], 1<<31); return b }, "size 2147483648 out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gr, err := NewRecordReader(bytes.NewReader(c.edit(bytes.Clone(data))))
			require.NoError(t, err)
			_, err = gr.Next()
			require.Error(t, err)
			assert.Contains(t, err.Error(), "record at byte 16: ")
			assert.Contains(t, err.Error(), c.want)
			assert.False(t, errors.Is(err, ErrTruncatedRecord))
		})
	}
}

func TestGameWriterRefuses(t *testing.T) {
	var buf bytes.Buffer
	gw, err := NewRecordWriter(&buf, engine.International, "")
	require.NoError(t, err)
	start := engine.StartPosition(engine.International)
	m := mustMove(t, start, "32-28")
	err = gw.Write(&Record{Index: 3, Start: engine.StartPosition(engine.Brazilian)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "game 3 is brazilian, the file is international")
	err = gw.Write(&Record{Index: 4, Start: start, Moves: []engine.Move{m}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "game 4: 1 moves and 0 scores")
	err = gw.Write(&Record{Index: 5, Start: start, Moves: []engine.Move{m, m}, Scores: []int16{0, 0}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "game 5 ply 2: illegal move in B:")
	require.NoError(t, gw.Flush())
	assert.Equal(t, 16, buf.Len(), "a refused record writes nothing")
}

// FuzzGameReader reads arbitrary bytes as a game file: it never panics,
// and every record it returns writes back to the same bytes.
func FuzzGameReader(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range engine.AllVariants() {
		rec := randomGameRecord(rng, engine.StartPosition(v), 0, 12)
		data, _ := writeGameFile(f, v, v.String(), []*Record{rec})
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkGameFileBytes(t, data)
		// The same bytes with every record's checksum made right, so that
		// the fuzzer reaches the positions and moves behind it.
		checkGameFileBytes(t, resealGameFile(data))
	})
}

// resealGameFile returns a copy of data with the CRC of every whole record
// after the header recomputed.
func resealGameFile(data []byte) []byte {
	b := bytes.Clone(data)
	if len(b) < 16 {
		return b
	}
	at := 16 + int64(binary.LittleEndian.Uint32(b[12:]))
	for at+4 <= int64(len(b)) {
		n := int64(binary.LittleEndian.Uint32(b[at:]))
		if n < 4 || at+4+n > int64(len(b)) {
			break
		}
		end := at + 4 + n
		binary.LittleEndian.PutUint32(b[end-4:], crc32.ChecksumIEEE(b[at+4:end-4]))
		at = end
	}
	return b
}

// checkGameFileBytes reads data as a game file: errors name the record,
// and every record read writes back to the bytes it was read from.
func checkGameFileBytes(t *testing.T, data []byte) {
	gr, err := NewRecordReader(bytes.NewReader(data))
	if err != nil {
		return
	}
	var buf bytes.Buffer
	gw := AppendRecordWriter(&buf, gr.Variant())
	at := gr.Offset()
	for range 1000 {
		rec, err := gr.Next()
		if err != nil {
			if err != io.EOF && !strings.HasPrefix(err.Error(), fmt.Sprintf("record at byte %d: ", at)) {
				t.Fatalf("error %q does not name the record at byte %d", err, at)
			}
			break
		}
		if err := gw.Write(rec); err != nil {
			t.Fatalf("record at byte %d read but not written: %v", at, err)
		}
		if err := gw.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data[at:gr.Offset()]) {
			t.Fatalf("record at byte %d writes back as other bytes", at)
		}
		buf.Reset()
		at = gr.Offset()
	}
}
