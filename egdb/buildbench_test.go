package egdb

import (
	"context"
	"testing"

	"github.com/damka-draughts/damka/engine"
)

// BenchmarkBuildEnglish4 builds the English slices up to 4 pieces
// (6.6 M positions) on one thread.
func BenchmarkBuildEnglish4(b *testing.B) {
	for b.Loop() {
		if _, err := Build(context.Background(), BuildOptions{Variant: engine.English, Pieces: 4, Dir: b.TempDir(), Threads: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
