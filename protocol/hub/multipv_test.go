package hub

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/search"
)

// TestMultiPVInfoLines: with multipv=2 every completed iteration sends two
// info lines, tagged multipv=2 and then multipv=1 (the best line last, for
// clients that read the last info line as the main line), line 2 not
// scoring above line 1 and starting with another move; with multipv=1 the
// info lines carry no tag.
func TestMultiPVInfoLines(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("set-param name=multipv value=2", "init")
	hs.expect("ready")
	hs.send("pos", "level depth=3", "go think")
	tagged := regexp.MustCompile(`^info multipv=(\d) depth=(\d+) score=(-?\d+\.\d\d) .* pv="(\S+)[^"]*"$`)
	for depth := 1; depth <= 3; depth++ {
		var second []string
		for k := 2; k >= 1; k-- {
			l, ok := hs.next(true)
			require.True(t, ok)
			m := tagged.FindStringSubmatch(l)
			require.NotNil(t, m, l)
			assert.Equal(t, fmt.Sprint(k), m[1], l)
			assert.Equal(t, fmt.Sprint(depth), m[2], l)
			if k == 2 {
				second = m
				continue
			}
			assert.NotEqual(t, second[4], m[4], "line 2 starts with another move than line 1")
			assert.LessOrEqual(t, parseMen(t, second[3]), parseMen(t, m[3]), l)
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

// TestMultiPVLastInfoIsMainLine: with multipv=3 the last info line before
// done is line 1 and shows the move played, at a depth limit and when a
// node limit stops the search inside an iteration; below full strength,
// where the level searches more lines than it shows, every depth still
// sends its three lines, best last.
func TestMultiPVLastInfoIsMainLine(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("set-param name=multipv value=3", "init")
	hs.expect("ready")
	tag := regexp.MustCompile(`^info multipv=(\d) depth=(\d+) `)
	for _, level := range []string{"level depth=4", "level nodes=3000", "level nodes=7000"} {
		infos, done := hs.goAndCollect("new-game", "pos", level, "go think")
		require.NotEmpty(t, infos, level)
		last := infos[len(infos)-1]
		m := tag.FindStringSubmatch(last)
		require.NotNil(t, m, last)
		assert.Equal(t, "1", m[1], "%s: the last info line is line 1: %s", level, last)
		move := strings.Fields(strings.TrimPrefix(done, "done move="))[0]
		pv := infoPV.FindStringSubmatch(last)
		require.NotNil(t, pv, last)
		assert.Equal(t, move, pv[1], "%s: the last info line shows the move played", level)
	}

	hs.send("set-param name=strength value=5")
	infos, _ := hs.goAndCollect("new-game", "pos", "level depth=3", "go think")
	var tags []string
	for _, l := range infos {
		m := tag.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		tags = append(tags, m[2]+"."+m[1])
	}
	require.GreaterOrEqual(t, len(tags), 9, "%v", tags)
	assert.Equal(t, []string{"1.3", "1.2", "1.1", "2.3", "2.2", "2.1", "3.3", "3.2", "3.1"}, tags[:9])
	hs.finish()
}

// TestLineOrder: a multi-PV iteration's lines go out when its last line
// has come, best last; a single line goes out at once, after any lines
// held; a new iteration that starts before the last one ended sends the
// lines held first.
func TestLineOrder(t *testing.T) {
	var got []string
	send := func(i search.Info) { got = append(got, fmt.Sprintf("%d.%d", i.Depth, i.MultiPV)) }
	var o lineOrder
	o.add(search.Info{Depth: 1, MultiPV: 1, Lines: 2}, true, send)
	assert.Empty(t, got)
	o.add(search.Info{Depth: 1, MultiPV: 2, Lines: 2}, true, send)
	assert.Equal(t, []string{"1.2", "1.1"}, got)
	got = nil
	o.add(search.Info{Depth: 2, MultiPV: 1, Lines: 3}, true, send)
	o.add(search.Info{Depth: 2, MultiPV: 2, Lines: 3}, true, send)
	o.add(search.Info{Depth: 3, MultiPV: 1, Lines: 3}, true, send)
	assert.Equal(t, []string{"2.2", "2.1"}, got)
	o.add(search.Info{Depth: 3, MultiPV: 1, Lines: 1}, true, send)
	assert.Equal(t, []string{"2.2", "2.1", "3.1", "3.1"}, got)
	got = nil
	o.add(search.Info{Depth: 4, MultiPV: 1, Lines: 2}, true, send)
	o.flush(send)
	assert.Equal(t, []string{"4.1"}, got)
	got = nil
	o.add(search.Info{Depth: 5, MultiPV: 1, Lines: 1}, false, send)
	assert.Equal(t, []string{"5.1"}, got)
}
