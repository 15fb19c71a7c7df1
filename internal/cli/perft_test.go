package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPerftOnly checks that --only prints the line of --depth alone, with
// the same count as the full run, also with --divide.
func TestPerftOnly(t *testing.T) {
	out, errs, code := runCLI("perft", "--variant", "english", "--depth", "6", "--only")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 1)
	assert.True(t, strings.HasPrefix(lines[0], "depth=6 nodes=36768 time="), lines[0])

	out, errs, code = runCLI("perft", "--variant", "international", "--depth", "3", "--only", "--divide")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "divide moves=9 total=658\n")
	assert.Contains(t, out, "depth=3 nodes=658 ")
	assert.NotContains(t, out, "depth=2 ")
}
