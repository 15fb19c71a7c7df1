package eval

import (
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

// randomWeights returns weights of v with every weight drawn from the
// whole int16 range.
func randomWeights(v engine.VariantID, seed uint64) *Weights {
	rng := rand.New(rand.NewPCG(seed, 11))
	w := NewWeights(v)
	r16 := func() int16 { return int16(rng.Uint32()) }
	for i := range w.Dense {
		w.Dense[i] = [2]int16{r16(), r16()}
	}
	// Pattern weights within +-8191: their White-minus-Black combination
	// (Prepare) fits 16 bits, so Evaluate is exact.
	p14 := func() int16 { return int16(rng.IntN(16383) - 8191) }
	for i := range w.Pattern {
		w.Pattern[i] = [2]int16{p14(), p14()}
	}
	w.Note = "damka train --variant " + v.String() + " --data x.dkg\nsecond line"
	w.Prepare()
	return w
}

// fileOf returns w in the file format.
func fileOf(t *testing.T, w *Weights) []byte {
	t.Helper()
	b, err := w.MarshalBinary()
	require.NoError(t, err)
	return b
}

// resum writes a correct checksum over a changed file, so that the check
// before the checksum is the one that fails.
func resum(b []byte) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[len(c)-4:], crc32.ChecksumIEEE(c[:len(c)-4]))
	return c
}

func TestWeightsRoundTrip(t *testing.T) {
	for _, v := range engine.AllVariants() {
		w := randomWeights(v, uint64(v)+3)
		b := fileOf(t, w)
		got, err := ParseWeights(b, v)
		require.NoError(t, err, v.String())
		assert.Equal(t, w, got, v.String())

		path := filepath.Join(t.TempDir(), v.String()+".dkw")
		require.NoError(t, w.Save(path))
		got, err = LoadWeights(path, v)
		require.NoError(t, err)
		assert.Equal(t, w, got)
		got, err = ReadWeightsFile(path)
		require.NoError(t, err)
		assert.Equal(t, w, got)
		assert.Equal(t, "damka train --variant "+v.String()+" --data x.dkg", got.Title())
	}
	// The embedded files read back as they are written; a feature-set-1
	// file reads with the set-2 dense features at 0 and is written as set 2
	// with the same weights (kings still out of the patterns).
	for _, v := range engine.AllVariants() {
		data, err := embedded.ReadFile("weights/" + v.String() + ".dkw")
		require.NoError(t, err)
		if data[11] != 1 {
			assert.Equal(t, data[11], Default(v).Set, v.String())
			if binary.LittleEndian.Uint16(data[12:]) == NumDense {
				assert.Equal(t, data, fileOf(t, Default(v)), v.String())
				continue
			}
			// A file without the first-king feature: it reads as 0 and
			// the file is written with it.
			assert.Equal(t, [2]int16{}, Default(v).Dense[DenseKingFirst], v.String())
			again, err := ParseWeights(fileOf(t, Default(v)), v)
			require.NoError(t, err, v.String())
			assert.Equal(t, Default(v), again, v.String())
			continue
		}
		assert.EqualValues(t, 2, Default(v).Set, v.String())
		for k := NumDenseV1; k < NumDense; k++ {
			assert.Equal(t, [2]int16{}, Default(v).Dense[k], v.String())
		}
		again, err := ParseWeights(fileOf(t, Default(v)), v)
		require.NoError(t, err, v.String())
		assert.Equal(t, Default(v), again, v.String())
	}
	assert.Equal(t, "(no note)", (&Weights{}).Title())
	assert.Equal(t, "a", (&Weights{Note: " a \nb"}).Title())
}

func TestWeightsTruncatedOrPadded(t *testing.T) {
	b := fileOf(t, randomWeights(engine.Russian, 1))
	cuts := []int{0, 1, 7, 8, 11, 23, 24, 25, 60, len(b) / 2, len(b) - 5, len(b) - 4, len(b) - 1}
	for _, n := range cuts {
		_, err := ParseWeights(b[:n], engine.Russian)
		require.Error(t, err, "cut to %d bytes", n)
		if n >= 24 {
			assert.Contains(t, err.Error(), "truncated or padded", "cut to %d bytes", n)
			assert.Contains(t, err.Error(), fmt.Sprintf("of %d bytes, want %d", n, len(b)))
		} else {
			assert.Contains(t, err.Error(), "too short", "cut to %d bytes", n)
		}
	}
	for _, extra := range [][]byte{{0}, []byte("padding"), make([]byte, 4096)} {
		_, err := ParseWeights(append(append([]byte(nil), b...), extra...), engine.Russian)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "truncated or padded")
	}
	// A note length that does not fit the file.
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[20:], 1<<31)
	_, err := ParseWeights(resum(c), engine.Russian)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "truncated or padded")
}

func TestWeightsHeaderErrors(t *testing.T) {
	b := fileOf(t, randomWeights(engine.English, 2))
	change := func(at int, val byte) []byte {
		c := append([]byte(nil), b...)
		c[at] = val
		return resum(c)
	}
	for _, c := range []struct {
		name string
		data []byte
		want engine.VariantID
		msg  string
	}{
		{"magic", change(0, 'X'), engine.English, `not a damka weights file (magic "XMKEVAL1", want "DMKEVAL1")`},
		{"magic of another format", resum(append([]byte("DMKGAME1"), b[8:]...)), engine.English, "not a damka weights file"},
		{"version", change(8, 2), engine.English, "weights file version 2, want 1"},
		{"variant", b, engine.Russian, "weights file is for english, not russian"},
		{"variant", b, engine.International, "weights file is for english, not international"},
		{"unknown variant", change(10, 9), engine.English, "weights file variant 9 unknown"},
		{"feature set", change(11, FeatureSet+1), engine.English, "feature set 5, this damka reads 1 to 4"},
		{"feature set 0", change(11, 0), engine.English, "feature set 0, this damka reads 1 to 4"},
		{"dense count", change(12, NumDense+1), engine.English, "(feature set 4) has 18 dense features, 22 regions of 6561: want 17, 22, 6561"},
		{"set 3 with set 4's regions", change(11, 3), engine.English, "(feature set 3) has 17 dense features, 22 regions of 6561: want 17, 15, 6561"},
		{"set 2 with another dense count", resum(append(append([]byte(nil), change(11, 2)[:12]...), append([]byte{NumDense + 1}, b[13:]...)...)), engine.English, "(feature set 2) has 18 dense features"},
		{"set 1 with set 2's dense count", change(11, 1), engine.English, "(feature set 1) has 17 dense features, 22 regions of 6561: want 12, 15, 6561"},
		{"regions", change(14, 15), engine.English, "17 dense features, 15 regions of 6561: want 17, 22"},
		{"pattern size", change(16, 0), engine.English, "regions of 6400"},
	} {
		_, err := ParseWeights(c.data, c.want)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.msg, c.name)
	}
	// 10x10 weights are refused by an 8x8 variant and the other way round.
	intl := fileOf(t, randomWeights(engine.International, 3))
	_, err := ParseWeights(intl, engine.Brazilian)
	assert.EqualError(t, err, "weights file is for international, not brazilian")

	// A note that is not UTF-8.
	w := randomWeights(engine.Russian, 4)
	w.Note = "bad \xff note"
	_, err = ParseWeights(fileOf(t, w), engine.Russian)
	assert.EqualError(t, err, "weights file note is not UTF-8")

	// Weights with the wrong number of pattern entries are not written.
	w.Pattern = w.Pattern[:10]
	_, err = w.MarshalBinary()
	assert.ErrorContains(t, err, "10 pattern entries, want 144342 for russian in feature set 4")
	assert.Error(t, w.Save(filepath.Join(t.TempDir(), "x.dkw")))
}

// TestWeightsFlippedBits: any one bit flipped anywhere in a file (header,
// note, weights or checksum) is refused; in the weights the checksum says
// the file is damaged.
func TestWeightsFlippedBits(t *testing.T) {
	for _, v := range []engine.VariantID{engine.Russian, engine.International} {
		b := fileOf(t, randomWeights(v, 5))
		head := 24 + len(randomWeights(v, 5).Note)
		rng := rand.New(rand.NewPCG(uint64(v), 1))
		var at []int
		for i := range head + 8 { // every byte of the header and the note, and the first weights
			at = append(at, i)
		}
		for i := len(b) - 8; i < len(b); i++ { // the last weights and the checksum
			at = append(at, i)
		}
		for range 300 {
			at = append(at, rng.IntN(len(b)))
		}
		c := append([]byte(nil), b...)
		for _, i := range at {
			for bit := range 8 {
				c[i] ^= 1 << bit
				_, err := ParseWeights(c, v)
				require.Error(t, err, "%v: bit %d of byte %d flipped", v, bit, i)
				if i >= head {
					assert.EqualError(t, err, "weights file checksum mismatch: the file is damaged", "byte %d", i)
				}
				c[i] ^= 1 << bit
			}
		}
		_, err := ParseWeights(c, v)
		require.NoError(t, err, "the file put back")
	}
}

func TestLoadWeightsErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.dkw")
	_, err := LoadWeights(missing, engine.Russian)
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = ReadWeightsFile(missing)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), missing)

	b := fileOf(t, randomWeights(engine.Russian, 6))
	bad := filepath.Join(dir, "bad.dkw")
	b[len(b)/2] ^= 4
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	_, err = LoadWeights(bad, engine.Russian)
	assert.EqualError(t, err, "eval file "+bad+": weights file checksum mismatch: the file is damaged")
	_, err = ReadWeightsFile(bad)
	assert.EqualError(t, err, "eval file "+bad+": weights file checksum mismatch: the file is damaged")

	good := filepath.Join(dir, "english.dkw")
	require.NoError(t, randomWeights(engine.English, 7).Save(good))
	_, err = LoadWeights(good, engine.Russian)
	assert.EqualError(t, err, "eval file "+good+": weights file is for english, not russian")
	w, err := ReadWeightsFile(good)
	require.NoError(t, err)
	assert.Equal(t, engine.English, w.V)

	for _, junk := range [][]byte{nil, []byte("hello"), make([]byte, 100)} {
		require.NoError(t, os.WriteFile(bad, junk, 0o644))
		_, err = ReadWeightsFile(bad)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "eval file "+bad+": ")
	}
	// A device or a huge file is not read whole.
	_, err = ReadWeightsFile("/dev/zero")
	assert.EqualError(t, err, "eval file: /dev/zero is a character device, not a regular file")
	require.NoError(t, os.WriteFile(bad, make([]byte, maxWeightsFile+1), 0o644))
	_, err = LoadWeights(bad, engine.Russian)
	assert.EqualError(t, err, "eval file: "+bad+": 4194305 bytes, more than the 4194304 a file of its kind can hold")
	// A directory is not a file.
	_, err = LoadWeights(dir, engine.Russian)
	assert.ErrorContains(t, err, dir)
}

// recompute is the learned score of p from its features, computed the
// plain way: the dense counts times their weights, White's pattern weights
// minus Black's, blended by the men left, in centi-men, divided by the
// endgame scale or the drawish-material divisor of the side ahead
// (Features.Divisor), from the side to move's view. ok is false for a
// score the endgame rules make (Scale 0).
func recompute(w *Weights, p *engine.Position) (score int, ok bool) {
	var f Features
	extractFeatures(p, &f, w.Set)
	if f.Scale == 0 {
		return 0, false
	}
	var mg, eg int
	for k := range NumDense {
		mg += int(f.Dense[k]) * int(w.Dense[k][0])
		eg += int(f.Dense[k]) * int(w.Dense[k][1])
	}
	for r := range f.Regions {
		white := w.Pattern[r*PatternSize+int(f.White[r])]
		black := w.Pattern[r*PatternSize+int(f.Black[r])]
		mg += int(white[0]) - int(black[0])
		eg += int(white[1]) - int(black[1])
	}
	full := 2 * f.Men
	total := (mg*f.MenLeft + eg*(full-f.MenLeft)) / full / 16
	score = total / f.Divisor(float64(total))
	if p.Side == engine.Black {
		score = -score
	}
	return score, true
}

func TestEvaluateMatchesFeatures(t *testing.T) {
	for _, v := range engine.AllVariants() {
		ps := randomPositions(v, 30, uint64(v)+40)
		for seed := range uint64(3) {
			w := randomWeights(v, seed)
			if seed == 0 {
				w = Default(v)
			}
			checked, scaled, drawish := 0, 0, 0
			for i := range ps {
				want, ok := recompute(w, &ps[i])
				if !ok {
					continue
				}
				checked++
				var f Features
				ExtractFeatures(&ps[i], &f)
				if f.Scale == 2 {
					scaled++
				}
				if f.Drawish != [2]int{1, 1} {
					drawish++
				}
				require.Equal(t, want, w.Evaluate(&ps[i]), "%v weights %d: %s", v, seed, ps[i].FEN())
				if seed == 0 {
					require.Equal(t, want, Evaluate(&ps[i]), "%v: %s", v, ps[i].FEN())
				}
			}
			assert.Greater(t, checked, 1000, v.String())
			if v.Rules().FlyingKings {
				assert.Positive(t, scaled, "%v: no position with the endgame scale 2", v)
			}
			if v == engine.International {
				assert.Positive(t, drawish, "%v: no position with a drawish divisor", v)
			}
		}
	}
}

func TestFeaturesAndEvaluateDoNotAllocate(t *testing.T) {
	for _, v := range engine.AllVariants() {
		ps := randomPositions(v, 2, 9)
		w := randomWeights(v, 9)
		var f Features
		allocs := testing.AllocsPerRun(10, func() {
			for i := range ps {
				ExtractFeatures(&ps[i], &f)
				w.Evaluate(&ps[i])
				Evaluate(&ps[i])
			}
		})
		assert.Zero(t, allocs, v.String())
	}
}

// TestSetThreeKingsInPatterns: feature set 3 reads kings into the patterns
// as pieces of their colour, sets 1 and 2 as empty squares. The same
// weights evaluated as set 2 and as set 3 agree on every position without
// kings and differ on positions with them; the features follow the set.
func TestSetThreeKingsInPatterns(t *testing.T) {
	for _, v := range engine.AllVariants() {
		w3 := randomWeights(v, 5)
		require.EqualValues(t, FeatureSet, w3.Set)
		w2 := *w3
		w2.Set = 2
		same, differ, kings := 0, 0, 0
		for _, p := range randomPositions(v, 40, uint64(v)+70) {
			var f2, f3 Features
			extractFeatures(&p, &f2, 2)
			extractFeatures(&p, &f3, 3)
			if p.Kings == 0 {
				require.Equal(t, f2, f3, p.FEN())
				require.Equal(t, w2.Evaluate(&p), w3.Evaluate(&p), p.FEN())
				same++
				continue
			}
			kings++
			if f2.White != f3.White && w2.Evaluate(&p) != w3.Evaluate(&p) {
				differ++
			}
		}
		assert.Greater(t, same, 100, v.String())
		assert.Greater(t, differ, kings/2, "%v: %d of %d positions with kings", v, differ, kings)
	}
	// A king of each colour on 1 and 32: the region of squares 1,2,5,6,9,10,13,14
	// (region 0) reads the king on 1 as White's piece in set 3, empty in set 2.
	p := mustFEN(t, engine.English, "W:W22,K1:B11,K32")
	var f Features
	extractFeatures(&p, &f, 2)
	idx2 := f.White[0]
	ExtractFeatures(&p, &f)
	assert.Equal(t, idx2+1, f.White[0], "square 1 (digit 1): empty in set 2, White's piece in set 3")
	// Weights are written with their own set; a set this damka does not
	// evaluate is refused rather than written under another number.
	// Sets 2 and 3 have no row bands.
	w := randomWeights(engine.English, 6)
	w.Set = 2
	_, err := w.MarshalBinary()
	assert.EqualError(t, err, "weights: 144342 pattern entries, want 98415 for english in feature set 2")
	w.Pattern = w.Pattern[:15*PatternSize]
	got, err := ParseWeights(fileOf(t, w), engine.English)
	require.NoError(t, err)
	assert.EqualValues(t, 2, got.Set)
	w.Set = 1
	_, err = w.MarshalBinary()
	assert.EqualError(t, err, "weights: feature set 1, want 2 to 4")
}

// TestSetFourRowBands: feature set 4 adds row bands after the 4x4
// regions (7 on 8x8 after 15, 18 on 10x10 after 28), each band read from
// its viewer's side; set 3 weights still load and evaluate without them.
func TestSetFourRowBands(t *testing.T) {
	assert.Equal(t, 22, Regions(engine.English))
	assert.Equal(t, 15, regionsOf(engine.English, 3))
	assert.Equal(t, 46, Regions(engine.International))
	assert.Equal(t, 28, regionsOf(engine.International, 3))

	// The start position, from either side's view (square 1 of a view is
	// on the far side): bands 0 and 1 hold only the opponent's men (digit
	// 2 on all 8 squares: 6560), band 2 the opponent's third row on its
	// low 4 squares (2*40), band 3 nothing, band 4 the viewer's third row
	// on its high 4 (81*40), bands 5 and 6 only the viewer's men (3280).
	p := mustFEN(t, engine.English, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
	var f Features
	ExtractFeatures(&p, &f)
	require.Equal(t, 22, f.Regions)
	for _, idx := range [][MaxRegions]uint16{f.White, f.Black} {
		assert.Equal(t, []uint16{6560, 6560, 80, 0, 3240, 3280, 3280}, idx[15:22])
	}
	extractFeatures(&p, &f, 3)
	assert.Equal(t, 15, f.Regions)
	// On 10x10 the bands of rows r and r+1 come in pairs, the left 4
	// squares of each row (j = 0) and the right 4 (j = 1); the start
	// position reads the same in both.
	pi := engine.StartPosition(engine.International)
	ExtractFeatures(&pi, &f)
	require.Equal(t, 46, f.Regions)
	for _, idx := range [][MaxRegions]uint16{f.White, f.Black} {
		assert.Equal(t, []uint16{6560, 6560, 6560, 6560, 6560, 6560, 80, 80, 0, 0, 3240, 3240, 3280, 3280, 3280, 3280, 3280, 3280}, idx[28:46])
	}
	// White men on 41 and 46, the first squares of rows 8 and 9: White's
	// left band of those rows reads them as its digits 0 and 4; its right
	// band (squares 2 to 5 of each row) sees neither.
	pi = mustFEN(t, engine.International, "W:W41,46:B5")
	ExtractFeatures(&pi, &f)
	assert.EqualValues(t, 1+81, f.White[28+16], "left band of rows 8 and 9")
	assert.EqualValues(t, 0, f.White[28+17], "right band of rows 8 and 9")

	// A band weight changes the score of positions whose band reads its
	// index, from both sides: White's band 6 (its two back rows) full of
	// its men scores the weight for White, Black's the same for Black, so
	// the start position is level.
	w := NewWeights(engine.English)
	base := w.Evaluate(&p)
	w.Pattern[(15+6)*PatternSize+3280] = [2]int16{16 * 50, 16 * 50}
	w.Prepare()
	assert.Equal(t, base, w.Evaluate(&p))
	q := mustFEN(t, engine.English, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,13")
	q2 := mustFEN(t, engine.English, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,13")
	w0 := NewWeights(engine.English)
	// q keeps Black's back rows full (the band weight counts for Black and
	// White alike: level); q2 empties square 8: only White's band 6 scores.
	assert.Equal(t, w0.Evaluate(&q), w.Evaluate(&q))
	assert.Equal(t, w0.Evaluate(&q2)+50, w.Evaluate(&q2))

	// Set 3 weights (15 regions) read back and score without bands.
	w3 := randomWeights(engine.English, 8)
	w3.Set = 3
	w3.Pattern = w3.Pattern[:15*PatternSize]
	w3.Prepare()
	got, err := ParseWeights(fileOf(t, w3), engine.English)
	require.NoError(t, err)
	assert.EqualValues(t, 3, got.Set)
	for _, p := range randomPositions(engine.English, 5, 3) {
		want, ok := recompute(w3, &p)
		if ok {
			require.Equal(t, want, got.Evaluate(&p), p.FEN())
		}
	}
}

// referenceEvaluate is Evaluate computed the plain way, from the trainer's
// features and the table of dense counts, also in the endings of kings
// only (kingsEnding on the dense counts' mobility).
func referenceEvaluate(w *Weights, p *engine.Position) int {
	if score, ok := recompute(w, p); ok {
		return score
	}
	g := geomOf(p.V)
	var s [2]side
	var d [2][NumDense]int
	denseCounts(p, g, &s, &d)
	total := kingsEnding(w, g, &s, d[0][DenseKingMob]-d[1][DenseKingMob])
	if p.Side == engine.Black {
		return -total
	}
	return total
}

// TestEvaluateMatchesReference: Evaluate (one pass, no patterns without
// men) equals the plain computation on every position of random games,
// the endings of kings only among them, with the embedded and with random
// weights.
func TestEvaluateMatchesReference(t *testing.T) {
	for _, v := range engine.AllVariants() {
		ps := randomPositions(v, 30, uint64(v)+70)
		// Every position again with all its pieces crowned: endings of
		// kings only of every size.
		for i := range len(ps) {
			q := ps[i]
			q.Kings = q.Pieces[0] | q.Pieces[1]
			ps = append(ps, q)
		}
		for seed := range uint64(3) {
			w := randomWeights(v, seed)
			if seed == 0 {
				w = Default(v)
			}
			for i := range ps {
				require.Equal(t, referenceEvaluate(w, &ps[i]), w.Evaluate(&ps[i]), "%v weights %d: %s", v, seed, ps[i].FEN())
			}
		}
	}
}

// TestDrawishDivisors: the drawish-material divisors of 10x10 positions
// (White ahead, Black ahead), and none on 8x8.
func TestDrawishDivisors(t *testing.T) {
	for _, c := range []struct {
		v    engine.VariantID
		fen  string
		want [2]int
	}{
		{engine.International, "W:W20,35,40:BK16", [2]int{8, 1}},                  // 3 men against a king
		{engine.International, "W:W20,35,40,41:BK16", [2]int{1, 1}},               // 4 pieces: no rule
		{engine.International, "B:WK3,20:B30,K45,44", [2]int{8, 8}},               // 2 and 3 pieces, kings on both sides
		{engine.International, "W:WK3,20,25,31:BK45,30,36,37,38", [2]int{2, 2}},   // one king each, 3 men against 4
		{engine.International, "W:WK3,20,25,31,32:BK45,30,36,37", [2]int{2, 2}},   // one king each, 4 men against 3
		{engine.International, "W:WK3,K4,20,25,31:BK45,30,36,37", [2]int{1, 1}},   // two kings against one
		{engine.International, "W:W20,25,31,32,33:B30,36,37,38,39", [2]int{1, 1}}, // no kings
		{engine.Russian, "W:Wc3,e3,g3:Bkh8", [2]int{1, 1}},                        // 8x8
	} {
		p, err := engine.ParsePosition(c.v, c.fen)
		require.NoError(t, err, c.fen)
		var f Features
		ExtractFeatures(&p, &f)
		assert.Equal(t, c.want, f.Drawish, c.fen)
	}
	f := Features{Scale: 2, Drawish: [2]int{8, 1}}
	assert.Equal(t, 8, f.Divisor(5))
	assert.Equal(t, 2, f.Divisor(-5))
	assert.Equal(t, 2, f.Divisor(0))
}

// TestWeightsWithoutFirstKing: a file of feature sets 2 to 4 written
// before the first-king dense feature (16 dense features) reads with that
// weight at 0 and the others as written; a file with one dense feature
// fewer still is refused.
func TestWeightsWithoutFirstKing(t *testing.T) {
	for _, set := range []uint8{2, 3, 4} {
		w := randomWeights(engine.International, uint64(set))
		w.Set = set
		w.Pattern = w.Pattern[:regionsOf(engine.International, set)*PatternSize]
		b := fileOf(t, w)
		// Drop the last dense entry: the file as a damka before it wrote it.
		le := binary.LittleEndian
		at := 24 + int(le.Uint32(b[20:])) + 4*numDenseV2
		old := append(append([]byte(nil), b[:at]...), b[at+4:]...)
		le.PutUint16(old[12:], numDenseV2)
		old = resum(old)
		got, err := ParseWeights(old, engine.International)
		require.NoError(t, err, "set %d", set)
		assert.Equal(t, [2]int16{}, got.Dense[DenseKingFirst], "set %d", set)
		assert.Equal(t, w.Dense[:numDenseV2], got.Dense[:numDenseV2], "set %d", set)
		assert.Equal(t, w.Pattern, got.Pattern, "set %d", set)
		// One dense entry fewer again is refused.
		short := append(append([]byte(nil), old[:at-4]...), old[at:]...)
		le.PutUint16(short[12:], numDenseV2-1)
		_, err = ParseWeights(resum(short), engine.International)
		require.Error(t, err, "set %d", set)
	}
}

// TestFirstKingFeature: the first-king count is 1 for a side with kings,
// whatever their number, and the evaluation adds its weight once.
func TestFirstKingFeature(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want int16
	}{
		{"W:W31,32,33,K1:B18,19,20", 1},
		{"W:W31,32,33,K1,K2,K3:B18,19,20", 1},
		{"W:W31,32,33,K1,K2:B18,19,K45", 0},
		{"W:W31,32,33:B18,19,20,K45,K46", -1},
		{"W:W31,32,33:B18,19,20", 0},
	} {
		p, err := engine.ParseFEN(engine.International, c.fen)
		require.NoError(t, err, c.fen)
		var f Features
		ExtractFeatures(&p, &f)
		assert.Equal(t, c.want, f.Dense[DenseKingFirst], c.fen)
		// The weight moves the score by itself times the count.
		w := NewWeights(engine.International)
		base := w.Evaluate(&p)
		w.Dense[DenseKingFirst] = [2]int16{100 << WeightShift, 100 << WeightShift}
		w.Prepare()
		assert.Equal(t, base+100*int(c.want), w.Evaluate(&p), c.fen)
	}
}
