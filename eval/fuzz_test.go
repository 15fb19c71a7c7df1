package eval

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/damka-draughts/damka/engine"
)

// FuzzParseWeights feeds arbitrary bytes to ParseWeights, as they are and
// with the checksum made right (so that the size and note checks are
// reached), for the variant the header names: it must never panic, and
// weights it accepts must re-encode to the same bytes (a feature set 1
// file to one of set 2, which reads back to the same weights). Seeds: the
// embedded weights of every variant, and testdata/fuzz/FuzzParseWeights
// (a header alone, a cut file, a feature set 1 header).
func FuzzParseWeights(f *testing.F) {
	for v := range engine.NumVariants {
		data, err := embedded.ReadFile("weights/" + v.String() + ".dkw")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parseChecked(t, data)
		if len(data) >= 28 {
			fixed := slices.Clone(data)
			binary.LittleEndian.PutUint32(fixed[len(fixed)-4:], crc32.ChecksumIEEE(fixed[:len(fixed)-4]))
			parseChecked(t, fixed)
		}
	})
}

// parseChecked parses data as weights of the variant its header names and,
// when they are accepted, checks that they re-encode.
func parseChecked(t *testing.T, data []byte) {
	v := engine.Russian
	if len(data) > 10 && engine.VariantID(data[10]) < engine.NumVariants {
		v = engine.VariantID(data[10])
	}
	w, err := ParseWeights(data, v)
	if err != nil {
		return
	}
	if w.V != v {
		t.Fatalf("weights of %v accepted for %v", w.V, v)
	}
	again, err := w.MarshalBinary()
	if err != nil {
		t.Fatalf("accepted weights do not re-encode: %v", err)
	}
	if data[11] != 1 && binary.LittleEndian.Uint16(data[12:]) == NumDense && string(again) != string(data) {
		t.Fatalf("accepted weights re-encode differently")
	}
	back, err := ParseWeights(again, v)
	if err != nil {
		t.Fatalf("re-encoded weights do not parse: %v", err)
	}
	if back.Set != w.Set || back.Note != w.Note || back.Dense != w.Dense || !slices.Equal(back.Pattern, w.Pattern) {
		t.Fatalf("re-encoded weights read back differently")
	}
}
