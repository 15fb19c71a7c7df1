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
		k, n := parseCount(t, fs[2]), parseCount(t, fs[3])
		rows = append(rows, perftRow{v, d, k, n})
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, rows)
	return rows
}

// parseCount reads a table count; "-" (no published figure) is 0.
func parseCount(t *testing.T, s string) uint64 {
	t.Helper()
	if s == "-" {
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err)
	return n
}

// TestPerftStart checks both perft columns of rules.md section 4 for every
// variant; entries above shortPerftLeaves run only without -short.
func TestPerftStart(t *testing.T) {
	for _, r := range loadPerftTable(t) {
		size := max(r.keep, r.distinct)
		if testing.Short() && size > shortPerftLeaves {
			continue
		}
		p := StartPosition(r.variant)
		count := func(paths bool) uint64 {
			if size > 50_000_000 { // deep rows: hash table and both cores
				return PerftWith(p, r.depth, PerftOptions{Paths: paths, Threads: 2, HashMiB: 256})
			}
			return Perft(p, r.depth, paths)
		}
		if r.keep != 0 {
			assert.Equal(t, r.keep, count(true), "%s perft(%d) keep duplicates", r.variant, r.depth)
		}
		if r.distinct != 0 {
			assert.Equal(t, r.distinct, count(false), "%s perft(%d) distinct", r.variant, r.depth)
		}
	}
}

// TestPerftWithAgrees checks that the threaded and hashed walks give Perft's
// figures, in both columns, for every variant.
func TestPerftWithAgrees(t *testing.T) {
	for _, v := range AllVariants() {
		p := StartPosition(v)
		for _, paths := range []bool{false, true} {
			want := Perft(p, 7, paths)
			assert.Equal(t, want, PerftWith(p, 7, PerftOptions{Paths: paths, Threads: 3}), "%s threads", v)
			assert.Equal(t, want, PerftWith(p, 7, PerftOptions{Paths: paths, Threads: 1, HashMiB: 1}), "%s hash", v)
			assert.Equal(t, want, PerftWith(p, 7, PerftOptions{Paths: paths, Threads: 2, HashMiB: 1}), "%s hash+threads", v)
		}
	}
}

// TestPerftEdges covers depth 0 and the divide sum.
func TestPerftEdges(t *testing.T) {
	p := StartPosition(Russian)
	assert.Equal(t, uint64(1), Perft(p, 0, false))
	assert.Equal(t, uint64(1), PerftWith(p, 0, PerftOptions{}))
	var sum uint64
	div := PerftDivide(p, 5, false)
	assert.Len(t, div, 7)
	for _, d := range div {
		sum += d.Nodes
	}
	assert.Equal(t, Perft(p, 5, false), sum)
}
