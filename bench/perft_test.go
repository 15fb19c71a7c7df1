package bench

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/damka-draughts/damka/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunPerftLines(t *testing.T) {
	var out bytes.Buffer
	err := RunPerft(&out, PerftConfig{Position: engine.StartPosition(engine.Russian), Depth: 4, Divide: true, Threads: 2})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 7+1+4)
	assert.Equal(t, "a3-b4 237", lines[0]) // moves in Russian algebraic notation, sorted
	assert.Equal(t, "divide moves=7 total=1469", lines[7])
	re := regexp.MustCompile(`^depth=(\d) nodes=(\d+) time=\d+\.\d{3} mnps=\d+\.\d\d$`)
	want := []string{"7", "49", "302", "1469"}
	for i, l := range lines[8:] {
		m := re.FindStringSubmatch(l)
		require.NotNil(t, m, l)
		assert.Equal(t, want[i], m[2])
	}
}

func TestRunPerftBadDepth(t *testing.T) {
	var out bytes.Buffer
	assert.Error(t, RunPerft(&out, PerftConfig{Position: engine.StartPosition(engine.English), Depth: 0}))
	assert.Empty(t, out.String())
}
