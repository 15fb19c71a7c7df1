package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/internal/testfiles"
)

// assertSamePosition asserts that q equals p in pieces, kings, side, variant and
// key, and that both keys are the computed ones.
func assertSamePosition(t *testing.T, p, q Position, msg string) bool {
	t.Helper()
	return assert.Equal(t, p.Pieces, q.Pieces, "pieces: %s", msg) &&
		assert.Equal(t, p.Kings, q.Kings, "kings: %s", msg) &&
		assert.Equal(t, p.Side, q.Side, "side: %s", msg) &&
		assert.Equal(t, p.V, q.V, "variant: %s", msg) &&
		assert.Equal(t, p.ComputeKey(), q.Key, "key: %s", msg) &&
		assert.Equal(t, p.Key, q.Key, "key: %s", msg)
}

func TestFENStart(t *testing.T) {
	cases := []struct {
		v   VariantID
		fen string
	}{
		{Russian, "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
		{English, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
		{International, "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:" +
			"B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"},
	}
	for _, c := range cases {
		p := StartPosition(c.v)
		assert.Equal(t, c.fen, p.FEN())
		q, err := ParseFEN(c.v, c.fen)
		require.NoError(t, err)
		assertSamePosition(t, p, q, c.fen)
	}
	p := StartPosition(Russian)
	assert.Equal(t, "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6",
		p.FENStyle(Algebraic))
	assert.Equal(t, p.FEN(), p.FENStyle(Numeric))
	i := StartPosition(International)
	assert.Equal(t, "W"+strings.Repeat("b", 20)+strings.Repeat("e", 10)+strings.Repeat("w", 20), i.HubPosition())
}

// TestParseFENAccepts reads the PDN FEN variants real files use; each must
// give the position of the canonical FEN.
func TestParseFENAccepts(t *testing.T) {
	startRU, startIN := StartPosition(Russian), StartPosition(International)
	cases := []struct {
		v         VariantID
		in, canon string
	}{
		{English, "W:W21,22,K30:B1,2,3", "W:W21,22,K30:B1,2,3"},
		{English, "W:B3,1,2:WK30,22,21", "W:W21,22,K30:B1,2,3"},       // colour and square order free
		{English, "W:W21,22,K30:B1,2,3.", "W:W21,22,K30:B1,2,3"},      // trailing dot
		{English, "W:WK27,K23:BK28,12.", "W:WK23,K27:B12,K28"},        // Gould's problems
		{English, "W:W21,22,K30:B1,2,3:H0:F1", "W:W21,22,K30:B1,2,3"}, // extra fields
		{English, `"W:W21, 22, K30 : B1,2,3"`, "W:W21,22,K30:B1,2,3"}, // quotes and spaces
		{English, "  B:W21:B1  ", "B:W21:B1"},
		{English, "w:W21:B1", "W:W21:B1"},
		{English, "W:W:B1,2", "W:W:B1,2"}, // empty side
		{English, "W:B1,2", "W:W:B1,2"},   // absent side
		{English, "B:W21", "B:W21:B"},
		{English, "W", "W:W:B"},
		{English, "W:W21,,22,:B1", "W:W21,22:B1"},
		{English, "W:W21-24,K30:B1-3", "W:W21,22,23,24,K30:B1,2,3"}, // ranges
		{English, "W:WK29-32:B1", "W:WK29,K30,K31,K32:B1"},
		{English, "W:W5-5:B1", "W:W5:B1"},
		{English, "W:W09,013:B01", "W:W9,13:B1"},
		{International, "W:W31-50:B1-20", startIN.FEN()},
		{Russian, "W:Wa1,c1,Kd8:Bb8", "W:WK2,29,30:B1"},   // algebraic
		{Russian, "W:Wa1,c1,kd8:Bb8", "W:WK2,29,30:B1"},   // lower-case k
		{Russian, "W:Wa1,30:Bb8", "W:W29,30:B1"},          // mixed
		{International, "W:Wa1,Kj10:Bb10", "W:WK5,46:B1"}, // two-digit ranks
		{Russian, "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.", startRU.FEN()},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.v, c.in)
		if !assert.NoError(t, err, c.in) {
			continue
		}
		assert.Equal(t, c.canon, p.FEN(), c.in)
		q, err := ParseFEN(c.v, c.canon)
		require.NoError(t, err, c.canon)
		assertSamePosition(t, q, p, c.in)
	}
}

// TestParseFENErrors: each error names the field and what was wrong.
func TestParseFENErrors(t *testing.T) {
	cases := []struct {
		v    VariantID
		in   string
		want []string
	}{
		{English, "", []string{"empty"}},
		{English, ` " . " `, []string{"empty"}},
		{English, "X:W21:B1", []string{`side to move "X"`, "want W or B"}},
		{English, "W21,22:B1", []string{`side to move "W21,22"`}},
		{English, ":W21:B1", []string{`side to move ""`}},
		{English, "W:W33:B1", []string{"white field", `"W33"`, `square "33"`, "out of range 1..32"}},
		{English, "W:W21:B0", []string{"black field", `"B0"`, `square "0"`, "out of range"}},
		{International, "W:W51:B1", []string{"white field", `"51"`, "1..50"}},
		{Russian, "W:Wa2:Bb8", []string{"white field", `"a2"`, "light square"}},
		{Russian, "W:Wa1:Bi8", []string{"black field", `"i8"`, "off the 8x8 board"}},
		{English, "W:W21,21:B1", []string{"white field", "square 21 listed twice", "already white"}},
		{English, "W:W21:B1,21", []string{"black field", "square 21 listed twice", "already white"}},
		{English, "W:W21-24:B1:W23", []string{"white field", "square 23 listed twice"}},
		{English, "W:W21:B1-3,K2", []string{"square 2 listed twice", "already black"}},
		{English, "W:W3:B10", []string{"white man on 3", "white's crowning row", "K3"}},
		{English, "W:W21:B29", []string{"black man on 29", "black's crowning row"}},
		{International, "W:W31:B46", []string{"black man on 46", "crowning row"}},
		{Russian, "W:Wd8:Bb6", []string{"white man on d8", "crowning row", "write Kd8"}},
		{English, "W:W24-21:B1", []string{"white field", `range "24-21" runs backwards`}},
		{English, "W:Wa1-c1:B1", []string{"white field", `range "a1-c1"`, "numeric"}},
		{English, "W:W21-:B1", []string{"white field", `range "21-"`}},
		{English, "W:W21-40:B1", []string{"white field", `"40"`, "out of range"}},
		{English, "W:WK:B1", []string{"white field", "king marker K without a square"}},
		{English, "W:W21,x:B1", []string{"white field", `square "x"`}},
		{English, "W:21,22:B1", []string{`field "21,22"`, "want a colour W or B"}},
		{English, "W:K21:B1", []string{`field "K21"`, "want a colour W or B"}},
	}
	for _, c := range cases {
		_, err := ParseFEN(c.v, c.in)
		if !assert.Error(t, err, c.in) {
			continue
		}
		assert.Contains(t, err.Error(), "FEN", c.in)
		for _, w := range c.want {
			assert.Contains(t, err.Error(), w, c.in)
		}
	}
	_, err := ParseFEN(VariantID(9), "W:W1:B2")
	assert.ErrorContains(t, err, "unknown variant")
}

func TestHubPosition(t *testing.T) {
	p, err := ParseFEN(English, "B:W21,K30:B1,K9")
	require.NoError(t, err)
	s := p.HubPosition()
	assert.Equal(t, "Bb"+strings.Repeat("e", 7)+"B"+strings.Repeat("e", 11)+"w"+strings.Repeat("e", 8)+"Wee", s)
	q, err := ParseHubPosition(English, " "+s+"\r\n")
	require.NoError(t, err)
	assertSamePosition(t, p, q, s)

	cases := []struct {
		v    VariantID
		in   string
		want []string
	}{
		{Russian, "W" + strings.Repeat("e", 31), []string{"length 32", "want 33 for russian"}},
		{Russian, "W" + strings.Repeat("e", 50), []string{"length 51", "want 33"}},
		{International, "W" + strings.Repeat("e", 32), []string{"length 33", "want 51 for international"}},
		{Russian, "", []string{"length 0"}},
		{Russian, "w" + strings.Repeat("e", 32), []string{"character 0", "'w'", "W or B"}},
		{Russian, "W" + strings.Repeat("e", 4) + "x" + strings.Repeat("e", 27), []string{"character 5", "square 5", "'x'"}},
		{Russian, "W" + strings.Repeat("e", 31) + "b", []string{"character 32", "black man on square 32", "crowning row"}},
		{Russian, "Bw" + strings.Repeat("e", 31), []string{"character 1", "white man on square 1"}},
		{International, "W" + strings.Repeat("e", 49) + "b", []string{"character 50", "black man"}},
	}
	for _, c := range cases {
		_, err := ParseHubPosition(c.v, c.in)
		if !assert.Error(t, err, c.in) {
			continue
		}
		assert.Contains(t, err.Error(), "hub position", c.in)
		for _, w := range c.want {
			assert.Contains(t, err.Error(), w, c.in)
		}
	}
	// Kings on the crowning rows are fine.
	_, err = ParseHubPosition(Russian, "WW"+strings.Repeat("e", 30)+"B")
	assert.NoError(t, err)
}

// TestPositionRoundTrips: FEN (both styles) and Hub strings of every test
// position read back to the same position.
func TestPositionRoundTrips(t *testing.T) {
	for _, v := range AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			ps := notationPositions(t, v)
			kings := 0
			for _, p := range ps {
				if p.Kings != 0 {
					kings++
				}
				for _, s := range []string{p.FEN(), p.FENStyle(Algebraic)} {
					q, err := ParseFEN(v, s)
					if !assert.NoError(t, err, s) || !assertSamePosition(t, p, q, s) {
						return
					}
				}
				s := p.HubPosition()
				q, err := ParseHubPosition(v, s)
				if !assert.NoError(t, err, s) || !assertSamePosition(t, p, q, s) {
					return
				}
			}
			assert.Greater(t, kings, 50, "the test positions must include kings")
			t.Logf("%d positions, %d with kings", len(ps), kings)
		})
	}
}

// knownBadProblemFENs are FENs of the problem sets (testdata/draughts) that describe an
// impossible position, with the error they must give. Gould's problem #88
// has a white man on square 3, White's crowning row (probably K3).
var knownBadProblemFENs = map[string]string{
	"B:WK23,12,3:BK15,K11.": "white man on 3 stands on white's crowning row",
}

// TestFENProblemSets parses every FEN of the two English problem
// collections in testdata/draughts; the known bad ones must be rejected with
// their error.
func TestFENProblemSets(t *testing.T) {
	dir := testfiles.Must(t)
	tag := regexp.MustCompile(`\[FEN\s+"([^"]*)"\]`)
	bad := 0
	for _, name := range []string{"english_goulds_problems_fen.pdn", "english_boland_border_classics_fen.pdn"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		ms := tag.FindAllStringSubmatch(string(data), -1)
		require.NotEmpty(t, ms, name)
		for _, m := range ms {
			p, err := ParseFEN(English, m[1])
			if want, ok := knownBadProblemFENs[m[1]]; ok {
				bad++
				assert.ErrorContains(t, err, want, m[1])
				continue
			}
			if !assert.NoError(t, err, "%s: %s", name, m[1]) {
				continue
			}
			w, wk := p.Count(White)
			b, bk := p.Count(Black)
			assert.Positive(t, w+wk+b+bk, m[1])
			q, err := ParseFEN(English, p.FEN())
			require.NoError(t, err)
			assertSamePosition(t, p, q, m[1])
		}
		t.Logf("%s: %d FENs", name, len(ms))
	}
	assert.Equal(t, len(knownBadProblemFENs), bad, "every known bad FEN was seen")
}

func FuzzParseFEN(f *testing.F) {
	f.Add(uint8(0), "W:W21,22,K30:B1,2,3")
	f.Fuzz(func(t *testing.T, variant uint8, s string) {
		v := VariantID(variant % uint8(numVariants))
		p, err := ParseFEN(v, s)
		if err != nil {
			if !strings.Contains(err.Error(), "FEN") {
				t.Fatalf("%q: error without context: %v", s, err)
			}
			return
		}
		if p.Key != p.ComputeKey() {
			t.Fatalf("%q: key not computed", s)
		}
		for _, out := range []string{p.FEN(), p.FENStyle(Algebraic)} {
			q, err := ParseFEN(v, out)
			if err != nil {
				t.Fatalf("%q: written as %q, which does not read back: %v", s, out, err)
			}
			if q != p {
				t.Fatalf("%q: written as %q, which reads back as %q", s, out, q.FEN())
			}
		}
		q, err := ParseHubPosition(v, p.HubPosition())
		if err != nil || q != p {
			t.Fatalf("%q: hub string %q does not read back: %v", s, p.HubPosition(), err)
		}
	})
}
