package search

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

func TestTableRoundTrip(t *testing.T) {
	tt := newTable(1)
	m := engine.Move{From: 33, To: 28}
	tt.store(0x1234_5678_9abc_def0, 7, -123, boundLower, m, 5)
	e, ok := tt.probe(0x1234_5678_9abc_def0)
	require.True(t, ok)
	assert.Equal(t, ttEntry{score: -123, depth: 7, bound: boundLower, hasMove: true, from: 33, to: 28, index: 5}, e)
	_, ok = tt.probe(0x1234_5678_9abc_def1)
	assert.False(t, ok)
	// Without a move the old best move is kept.
	tt.store(0x1234_5678_9abc_def0, 9, 50, boundUpper, engine.Move{}, -1)
	e, ok = tt.probe(0x1234_5678_9abc_def0)
	require.True(t, ok)
	assert.Equal(t, 9, e.depth)
	assert.Equal(t, 50, e.score)
	assert.True(t, e.hasMove)
	assert.Equal(t, uint8(28), e.to)
	tt.clear()
	_, ok = tt.probe(0x1234_5678_9abc_def0)
	assert.False(t, ok)
}

func TestMateScoresThroughTable(t *testing.T) {
	// A win in 5 plies found at ply 3 is a win in 8 plies from the root;
	// stored relative to the node it reads back right at any ply.
	s := Mate - 8
	stored := ttScore(s, 3)
	assert.Equal(t, Mate-5, stored)
	assert.Equal(t, Mate-7, ttValue(stored, 2))
	assert.Equal(t, -(Mate - 7), ttValue(ttScore(-(Mate-8), 3), 2))
	assert.Equal(t, 42, ttValue(ttScore(42, 9), 1))
}

func TestTableReplacement(t *testing.T) {
	tt := newTable(1)
	// Keys that share a bucket: same high bits of key*nBuckets.
	var keys []uint64
	target := tt.bucket(1 << 63)
	for k := uint64(1 << 63); len(keys) < ttWays+1; k++ {
		if tt.bucket(k) == target {
			keys = append(keys, k)
		}
	}
	for i, k := range keys[:ttWays] {
		tt.store(k, 10+i, i, boundExact, engine.Move{}, -1)
	}
	// The shallowest entry (depth 10, keys[0]) makes way.
	tt.store(keys[ttWays], 5, 99, boundExact, engine.Move{}, -1)
	_, ok := tt.probe(keys[0])
	assert.False(t, ok)
	for _, k := range keys[1:] {
		_, ok := tt.probe(k)
		assert.True(t, ok)
	}
	// Entries of an old search age: after many generations even a deep one
	// gives way.
	for i := 0; i < 10; i++ {
		tt.newSearch()
	}
	tt.store(keys[0], 1, 7, boundExact, engine.Move{}, -1)
	_, ok = tt.probe(keys[0])
	assert.True(t, ok)
}

func TestTableConcurrentAccess(t *testing.T) {
	// Writers store entries whose score is a function of the key; readers
	// must never see an entry that does not match its key (run with -race).
	tt := newTable(1)
	var wg sync.WaitGroup
	bad := make(chan uint64, 1)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			k := seed
			for i := 0; i < 20000; i++ {
				k = k*6364136223846793005 + 1442695040888963407
				key := k % 5000 * 0x9E3779B97F4A7C15
				if i%2 == 0 {
					tt.store(key, int(key%64), int(key%1000), boundExact, engine.Move{}, -1)
				} else if e, ok := tt.probe(key); ok && (e.score != int(key%1000) || e.depth != int(key%64)) {
					select {
					case bad <- key:
					default:
					}
				}
			}
		}(uint64(g + 1))
	}
	wg.Wait()
	close(bad)
	for k := range bad {
		t.Errorf("entry of key %x read back wrong", k)
	}
}
