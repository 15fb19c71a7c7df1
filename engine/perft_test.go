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

// TestPerftInternationalPositions checks the two international positions of
// rules.md section 4 (distinct moves), depth 1 upwards.
func TestPerftInternationalPositions(t *testing.T) {
	cases := []struct {
		fen  string
		want []uint64
	}{
		{"W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
			[]uint64{6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050}},
		{"W:W6,7,8,9,10:B41,42,43,44,45", []uint64{9, 81, 795, 7578, 86351, 936311}},
	}
	for _, c := range cases {
		p, err := ParseFEN(International, c.fen)
		require.NoError(t, err)
		for d, want := range c.want {
			assert.Equal(t, want, Perft(p, d+1, false), "%s depth %d", c.fen, d+1)
		}
	}
}

// TestPerftTableReuse checks that one table shared by runs at increasing
// depths, with threads, gives Perft's counts.
func TestPerftTableReuse(t *testing.T) {
	for _, v := range AllVariants() {
		p := StartPosition(v)
		for _, paths := range []bool{false, true} {
			tab := NewPerftTable(1)
			for d := 1; d <= 7; d++ {
				got := PerftWith(p, d, PerftOptions{Paths: paths, Threads: 2, Table: tab})
				assert.Equal(t, Perft(p, d, paths), got, "%s depth %d paths %v", v, d, paths)
			}
		}
	}
}
