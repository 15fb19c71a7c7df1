package engine

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shortPerftLeaves is the largest table entry the -short run checks.
const shortPerftLeaves = 2_000_000

type perftRow struct {
	variant        VariantID
	depth          int
	keep, distinct uint64
}

func loadPerftTable(t *testing.T) []perftRow {
	t.Helper()
	f, err := os.Open("testdata/perft.txt")
	require.NoError(t, err)
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		require.Len(t, fs, 4, line)
		v, err := ParseVariant(fs[0])
		require.NoError(t, err)
		d, err := strconv.Atoi(fs[1])
		require.NoError(t, err)
		k, err := strconv.ParseUint(fs[2], 10, 64)
		require.NoError(t, err)
		n, err := strconv.ParseUint(fs[3], 10, 64)
		require.NoError(t, err)
		rows = append(rows, perftRow{v, d, k, n})
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, rows)
	return rows
}

// TestPerftStart checks both perft columns of rules.md section 4 for every
// variant; entries above shortPerftLeaves run only without -short.
func TestPerftStart(t *testing.T) {
	for _, r := range loadPerftTable(t) {
		if testing.Short() && r.keep > shortPerftLeaves {
			continue
		}
		p := StartPosition(r.variant)
		assert.Equal(t, r.keep, Perft(p, r.depth, true), "%s perft(%d) keep duplicates", r.variant, r.depth)
		assert.Equal(t, r.distinct, Perft(p, r.depth, false), "%s perft(%d) distinct", r.variant, r.depth)
	}
}
