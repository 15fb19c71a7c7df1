package book_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
)

// TestCoverage checks the positions the embedded books must cover: every
// opening of the ACF three-move deck (crossboard and mailplay, barred
// ones left out: 156) in English, and every position of the 150-position
// Russian/Brazilian ballot set in Russian and in Brazilian, has a book move
// for the side to move.
func TestCoverage(t *testing.T) {
	cases := []struct {
		v    engine.VariantID
		file string
		n    int
	}{
		{engine.English, "acf_3move_ballots.tsv", 156},
		{engine.Russian, "pydraughts_ballots_150russian_and_brazilian.json", 150},
		{engine.Brazilian, "pydraughts_ballots_150russian_and_brazilian.json", 150},
	}
	for _, c := range cases {
		b, err := book.Default(c.v)
		require.NoError(t, err)
		seeds, err := book.ParseSeeds(readShared(t, c.file), c.v, c.file)
		require.NoError(t, err)
		require.Len(t, seeds, c.n)
		covered := 0
		for _, s := range seeds {
			m, ok := b.Pick(&s.Position, 0, nil)
			if assert.True(t, ok, "%s: %s (%s) has no book move", c.v, s.Name, s.Position.FEN()) {
				assert.Contains(t, legal(&s.Position), m)
				covered++
			}
		}
		t.Logf("%s: %d of %d positions of %s covered", c.v, covered, len(seeds), c.file)
	}
}
