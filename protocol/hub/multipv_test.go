package hub

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMultiPVInfoLines: with multipv=2 every completed iteration sends two
// info lines, tagged multipv=1 and multipv=2, the second not scoring above
// the first and starting with another move; with multipv=1 the info lines
// carry no tag.
func TestMultiPVInfoLines(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("set-param name=multipv value=2", "init")
	hs.expect("ready")
	hs.send("pos", "level depth=3", "go think")
	tagged := regexp.MustCompile(`^info multipv=(\d) depth=(\d+) score=(-?\d+\.\d\d) .* pv="(\S+)[^"]*"$`)
	for depth := 1; depth <= 3; depth++ {
		var first []string
		for k := 1; k <= 2; k++ {
			l, ok := hs.next(true)
			require.True(t, ok)
			m := tagged.FindStringSubmatch(l)
			require.NotNil(t, m, l)
			assert.Equal(t, fmt.Sprint(k), m[1], l)
			assert.Equal(t, fmt.Sprint(depth), m[2], l)
			if k == 1 {
				first = m
				continue
			}
			assert.NotEqual(t, first[4], m[4], "line 2 starts with another move than line 1")
			assert.LessOrEqual(t, parseMen(t, m[3]), parseMen(t, first[3]), l)
		}
	}
	hs.expect(`~done move=\S+ ponder=\S+`)
	assert.Equal(t, 2, hs.spy.last(t).limits.MultiPV)

	hs.send("set-param name=multipv value=1", "level depth=3", "go think")
	hs.expect(`~info depth=1 score=.*`)
	hs.expect(`~info depth=2 score=.*`)
	hs.expect(`~info depth=3 score=.*`)
	hs.expect(`~done move=\S+ ponder=\S+`)
	assert.Zero(t, hs.spy.last(t).limits.MultiPV)

	hs.send("set-param name=multipv value=33")
	hs.expect(`error message="set-param multipv: value 33 out of range 1..32 (kept 1)"`)
	hs.finish()
}

// parseMen reads a Hub score in men.
func parseMen(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	_, err := fmt.Sscan(s, &f)
	require.NoError(t, err, s)
	return f
}
