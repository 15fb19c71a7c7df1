package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/damka-draughts/damka/engine"
)

// FuzzSolveSuite feeds arbitrary text to ReadSuite (damka solve's suite
// files). An error names the line that failed, and that line alone fails
// the same way; every entry read is on its own line, in order, at most one
// a line, with only legal best moves; and an entry written back as a suite
// line (its position's FEN, bm in the variant's notation, id, acd, c0)
// reads back the same.
func FuzzSolveSuite(f *testing.F) {
	for v := range engine.NumVariants {
		data, err := os.ReadFile(fmt.Sprintf("testdata/solve_%s.epd", v))
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		f.Add([]byte(strings.Join(lines[:min(len(lines), 8)], "")), uint8(v))
	}
	for _, s := range []string{
		"W:W21-32:B1-12 ; bm c3-d4 e3-f4 ; id \"x;y\" ; acd 3 ; c0 \"a \"quoted\" text\"\n",
		"\r\n# comment\n   \nB:W18:B14 ; bm 14x23 ; foo bar ; ; acd -1\n",
		"W:W31:B19;bm 31-26;id\n",
		"B:WK3,K13:BK25 ; c0 \"no bm\"",
	} {
		f.Add([]byte(s), uint8(engine.Russian))
	}
	f.Fuzz(func(t *testing.T, data []byte, vb uint8) {
		v := engine.VariantID(vb % uint8(engine.NumVariants))
		entries, err := ReadSuite(bytes.NewReader(data), v)

		var lines []string // the input lines as ReadSuite scans them
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		if err != nil {
			if sc.Err() != nil {
				if !strings.HasPrefix(err.Error(), "suite: ") {
					t.Fatalf("read error %v, want suite: %v", err, sc.Err())
				}
				return
			}
			n, rest, ok := strings.Cut(strings.TrimPrefix(err.Error(), "suite line "), ": ")
			line, aerr := strconv.Atoi(n)
			if !ok || aerr != nil || line < 1 || line > len(lines) {
				t.Fatalf("error %q does not name a line of the %d", err, len(lines))
			}
			if _, lerr := parseSuiteLine(strings.TrimSpace(lines[line-1]), v); lerr == nil || lerr.Error() != rest {
				t.Fatalf("error %q: line %d alone gives %v", err, line, lerr)
			}
			if len(entries) > 0 && entries[len(entries)-1].Line >= line {
				t.Fatalf("entries read past the bad line %d", line)
			}
		}
		last := 0
		for _, e := range entries {
			if e.Line <= last || e.Line > len(lines) {
				t.Fatalf("entry on line %d after line %d, of %d lines", e.Line, last, len(lines))
			}
			last = e.Line
			if len(e.Best) == 0 {
				t.Fatalf("line %d: an entry without bm", e.Line)
			}
			var l engine.MoveList
			e.Position.Generate(&l)
			for _, m := range e.Best {
				if !slices.Contains(l.Slice(), m) {
					t.Fatalf("line %d: bm %v is not legal in %s", e.Line, m, e.Position.FEN())
				}
			}
			// Written back.
			fields := []string{e.Position.FEN()}
			var bm []string
			for _, m := range e.Best {
				bm = append(bm, e.Position.FormatMove(m, engine.FormatFull))
			}
			fields = append(fields, "bm "+strings.Join(bm, " "), "acd "+strconv.Itoa(e.Depth))
			text := !strings.ContainsAny(e.ID+e.Comment, ";\r\n")
			if text {
				fields = append(fields, `id "`+e.ID+`"`, `c0 "`+e.Comment+`"`)
			}
			line := strings.Join(fields, " ; ")
			back, err := ReadSuite(strings.NewReader(line), v)
			if err != nil || len(back) != 1 {
				t.Fatalf("line %d written back as %q: %v", e.Line, line, err)
			}
			b := back[0]
			if b.Position.Pieces != e.Position.Pieces || b.Position.Kings != e.Position.Kings || b.Position.Side != e.Position.Side ||
				!slices.Equal(b.Best, e.Best) || b.Depth != e.Depth || (text && (b.ID != e.ID || b.Comment != e.Comment)) {
				t.Fatalf("line %d written back as %q reads %+v, first %+v", e.Line, line, b, e)
			}
		}
	})
}
