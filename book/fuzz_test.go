package book_test

import (
	"testing"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
)

// FuzzLoad feeds arbitrary bytes to Load, as they are and with the
// checksum made right (so that the record checks are reached): it must
// never panic, and a book it accepts must re-encode to the same bytes and
// hold only legal moves. Seeds: testdata/fuzz/FuzzLoad (valid books of each
// variant, a checkpoint, cut and damaged ones).
func FuzzLoad(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		loadChecked(t, data)
		if len(data) >= 28 {
			loadChecked(t, resum(data))
		}
	})
}

// loadChecked loads data and, when it is accepted, checks the book.
func loadChecked(t *testing.T, data []byte) {
	b, err := book.Load(data)
	if err != nil {
		return
	}
	again, err := b.MarshalBinary()
	if err != nil {
		t.Fatalf("accepted book does not re-encode: %v", err)
	}
	if string(again) != string(data) {
		t.Fatalf("accepted book re-encodes differently")
	}
	for _, r := range b.Records() {
		var l engine.MoveList
		r.Position.Generate(&l)
		for _, e := range r.Moves {
			found := false
			for _, m := range l.Slice() {
				found = found || m == e.Move
			}
			if !found {
				t.Fatalf("%s: illegal book move", r.Position.FEN())
			}
		}
	}
}

// FuzzParseSeeds feeds arbitrary text to ParseSeeds: no panic, and every
// seed it returns is a position of the variant with its key set.
func FuzzParseSeeds(f *testing.F) {
	f.Add([]byte("W:W21-32:B1-12 3\n"))
	f.Add([]byte("id\tmoves\tdeck\tfen\n1\t9-13 21-17\tcrossboard\tB:W21-32:B1-12\n"))
	f.Add([]byte(`{"all": {"1-I cd4": "B:Wa1,c3:Bh8"}, "standard": ["1-I cd4"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		seeds, err := book.ParseSeeds(data, engine.Russian, "fuzz")
		if err != nil {
			return
		}
		for _, s := range seeds {
			if s.Position.V != engine.Russian || s.Position.Key != s.Position.ComputeKey() || s.Ply < 0 {
				t.Fatalf("bad seed %+v", s)
			}
		}
	})
}
