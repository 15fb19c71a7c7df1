package openings

import (
	"bytes"
	"testing"

	"github.com/damka-draughts/damka/engine"
)

// FuzzOpenings: the opening parsers never panic, and every opening they
// accept is a position of the variant with legal moves. Seeds are in
// testdata/fuzz/FuzzOpenings besides the ones added here.
func FuzzOpenings(f *testing.F) {
	f.Add(uint8(0), []byte("acf_no\tmoves\tdeck\tname\tfen\n1\t9-13 21-17 5-9\tcrossboard\t\tW:W17,22-32:B1-4,6-13\n"))
	f.Add(uint8(1), []byte(`{"all": {"a": "W:Wa1,c1:Bh8"}, "standard": ["a"]}`))
	f.Add(uint8(2), []byte("[GameType \"20\"]\n\n1. 32-28 18-23 *\n"))
	f.Add(uint8(3), []byte("W:W21-32:B1-12 ; start\nBbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\n"))
	f.Add(uint8(15), []byte("\xef\xbb\xbf; dxp comment\n# match comment\nW:W31-50:B1-20 ; named\n"))
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		v := engine.AllVariants()[int(kind/4)%4]
		var ops []Opening
		var err error
		switch kind % 4 {
		case 0:
			ops, err = ParseACFTSV(bytes.NewReader(data), engine.English)
			v = engine.English
		case 1:
			ops, err = ParseBallotJSON(data, v)
		case 2:
			ops, err = ParsePDN(bytes.NewReader(data), v)
		case 3:
			ops, err = Read(bytes.NewReader(data), ".txt", v)
		}
		if err != nil {
			return
		}
		if err := Check(ops); err != nil {
			return
		}
		for _, o := range ops {
			p := o.Position()
			if p.V != v {
				t.Fatalf("opening %q is %s, want %s", o.Name, p.V, v)
			}
			var list engine.MoveList
			if p.Generate(&list); list.N == 0 {
				t.Fatalf("opening %q accepted without a legal move", o.Name)
			}
		}
	})
}
