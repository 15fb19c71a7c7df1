package match

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/shlex"
)

// FuzzMatchArgs: the parsers of match arguments never panic, and a
// time control they accept writes back to the same limits.
func FuzzMatchArgs(f *testing.F) {
	for _, s := range []string{"40/60+0.5", "10+0.1", "elo0=0,elo1=5,alpha=0.05,beta=0.05", "2/8", `name=A cmd="x y" option.threads=1 movetime=0.1`,
		"movenumber=40,movecount=8,score=0.1", "movecount=3,score=5", "elo0=0,elo1=2,model=normalized", "proto=dxp cmd=x port=27531 stdin=time"} {
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
		if d, err := ParseDrawRule(s); err == nil {
			if back, err := ParseDrawRule(d.String()); err != nil || back != d {
				t.Fatalf("ParseDrawRule(%q) = %v, round trip %v, %v", s, d, back, err)
			}
		}
		if r, err := ParseResignRule(s); err == nil {
			if back, err := ParseResignRule(r.String()); err != nil || back != r || r.Score <= 0 || r.MoveCount < 1 {
				t.Fatalf("ParseResignRule(%q) = %v, round trip %v, %v", s, r, back, err)
			}
		}
		if i, n, err := ParseShard(s); err == nil && (i < 1 || i > n) {
			t.Fatalf("ParseShard(%q) = %d/%d", s, i, n)
		}
		_, _ = ParseEngineSpec(strings.Fields(s), shlex.Split)
	})
}
