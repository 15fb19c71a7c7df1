package bench

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/shlex"

	"damka/engine"
)

// FuzzOpenings: the opening parsers never panic, and every opening they
// accept is a position of the variant with legal moves.
func FuzzOpenings(f *testing.F) {
	f.Add(uint8(0), []byte("acf_no\tmoves\tdeck\tname\tfen\n1\t9-13 21-17 5-9\tcrossboard\t\tW:W17,22-32:B1-4,6-13\n"))
	f.Add(uint8(1), []byte(`{"all": {"a": "W:Wa1,c1:Bh8"}, "standard": ["a"]}`))
	f.Add(uint8(2), []byte("[GameType \"20\"]\n\n1. 32-28 18-23 *\n"))
	f.Add(uint8(3), []byte("W:W21-32:B1-12 ; start\nBbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\n"))
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
			ops, err = ParsePDNOpenings(bytes.NewReader(data), v)
		case 3:
			ops, err = ParseFENLines(bytes.NewReader(data), v)
		}
		if err != nil {
			return
		}
		if err := checkOpenings(ops); err != nil {
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

// FuzzMatchArgs: the parsers of match arguments never panic, and a
// time control they accept writes back to the same limits.
func FuzzMatchArgs(f *testing.F) {
	for _, s := range []string{"40/60+0.5", "10+0.1", "elo0=0,elo1=5,alpha=0.05,beta=0.05", "2/8", `name=A cmd="x y" option.threads=1 movetime=0.1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := ParseTC(s); err == nil {
			back, err := ParseTC(l.String())
			if err != nil {
				t.Fatalf("ParseTC(%q) = %v, its String %q does not parse: %v", s, l, l.String(), err)
			}
			d := math.Abs(float64(back.Base-l.Base)) + math.Abs(float64(back.Inc-l.Inc))
			if back.Moves != l.Moves || d > float64(time.Microsecond) {
				t.Fatalf("ParseTC(%q) = %v, round trip %v", s, l, back)
			}
		}
		if p, err := ParseSPRT(s); err == nil {
			lo, hi := p.Bounds()
			if !(lo < 0 && hi > 0) {
				t.Fatalf("ParseSPRT(%q): bounds %v %v", s, lo, hi)
			}
		}
		if i, n, err := ParseShard(s); err == nil && (i < 1 || i > n) {
			t.Fatalf("ParseShard(%q) = %d/%d", s, i, n)
		}
		_, _ = ParseEngineSpec(strings.Fields(s), shlex.Split)
	})
}
