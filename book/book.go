// Package book is damka's opening book: a compact binary file of positions,
// each with its book moves (weight and score), probed by Zobrist key at the
// root of a search, embedded in the binary for every variant (Default) and
// grown by the engine's own analysis (Build).
//
// # File format (version 1)
//
// All integers are little-endian. A book file is a header, the position
// records and the move records, with nothing after them:
//
//	offset size  field
//	0      8     magic "DMKBOOK\x1a"
//	8      2     format version (1)
//	10     1     variant (engine.VariantID: 0 Russian, 1 English, 2 Brazilian, 3 international)
//	11     1     flags (bit 0: a build checkpoint that holds pending positions)
//	12     4     N, number of position records
//	16     4     M, number of move records
//	20     2     deepest ply of any position (see Record.Ply)
//	22     2     L, length of the build text
//	24     4     CRC-32C (Castagnoli) of the whole file with these 4 bytes zeroed
//	28     L     build text, UTF-8: how the book was built ("command: ...", "settings: ...")
//	28+L   N*R   position records, R = 3*W+3 bytes (W = 4 on 8x8, 7 on 10x10)
//	...    M*8   move records, the moves of each position in position order
//
// A position record is three square masks of W bytes each (bit s-1 stands
// for square s in the variant's numbering): White's pieces, Black's pieces
// and the kings; then a flags byte (bit 0: Black to move, bit 1: pending, a
// checkpoint's position still to be analysed, which has no moves), the ply
// (capped at 255) and the number of moves. Records are sorted by Zobrist key
// (engine.Position.Key), then by their bytes; the key is not stored but
// recomputed on loading, so a book survives a change of the Zobrist tables.
//
// A move record is a 16-bit move code, the weight (uint16, at least 1), the
// score (int16, centi-men from the side to move) and the number of seeding
// games that played the move (uint16, saturating). The move code is
// from | to<<6 | alt<<12: origin and destination squares (1..50) and the
// move's rank (0..15) among the legal moves with the same origin and
// destination ordered by captured set, then flags. The code is re-found in
// the legal move list on loading; a code that matches no legal move is an
// error, so every move a Book returns is legal in its position.
//
// Storing the whole position makes a probe exact: a position whose key
// collides with a book position but differs from it finds nothing.
package book

import (
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/damka-draughts/damka/engine"
)

// Entry is one book move of a position.
type Entry struct {
	Move   engine.Move // a legal move of the probed position
	Weight int         // relative preference, 1..65535: Pick's odds among moves within the margin
	Score  int         // centi-men from the side to move (the search's scale: a man is 100)
	Games  int         // times the move was played in the games that seeded the build (0: analysis only)
}

// Record is one position of a book with its moves, for Encode and Records.
type Record struct {
	Position engine.Position
	// Ply is the position's distance in plies from the nearest root of the
	// build (the start position at ply 0, or a seed position at its own
	// ply, e.g. 3 for a three-move ballot).
	Ply   int
	Moves []Entry // best first: by score, then weight, descending
}

// Book is a loaded opening book of one variant. It is read-only after
// loading and safe for concurrent use.
type Book struct {
	v       engine.VariantID
	info    string
	size    int               // bytes of the file it was loaded from
	keys    []uint64          // sorted Zobrist keys, one per position
	pos     []engine.Position // positions, parallel to keys
	ply     []uint8           // plies, parallel to keys
	first   []int32           // index of each position's first entry; len(keys)+1 values
	entries []Entry           // all moves, in position order
	maxPly  int               // deepest ply
	pending []engine.Position // positions still to analyse (checkpoints only)
}

// Variant returns the variant of the book's positions.
func (b *Book) Variant() engine.VariantID { return b.v }

// BuildInfo returns the book's build text: the command line and settings
// that built it, as recorded in the header.
func (b *Book) BuildInfo() string { return b.info }

// Probe returns the book moves of p, best first (by score, then weight), or
// nil when p (compared in full, not only by key) is not in the book, is of
// another variant, or b is nil. The slice is a fresh copy.
func (b *Book) Probe(p *engine.Position) []Entry {
	i := b.find(p)
	if i < 0 {
		return nil
	}
	return slices.Clone(b.entries[b.first[i]:b.first[i+1]])
}

// find returns the index of p in the book or -1.
func (b *Book) find(p *engine.Position) int {
	if b == nil || p.V != b.v {
		return -1
	}
	i, _ := slices.BinarySearch(b.keys, p.Key)
	for ; i < len(b.keys) && b.keys[i] == p.Key; i++ {
		q := &b.pos[i]
		if q.Pieces == p.Pieces && q.Kings == p.Kings && q.Side == p.Side {
			return i
		}
	}
	return -1
}

// Contains reports whether p has book moves.
func (b *Book) Contains(p *engine.Position) bool { return b.find(p) >= 0 }

// Pick chooses a book move of p: among the moves whose score is within
// margin centi-men of the best stored score, one at random with odds
// proportional to Weight. A negative margin counts as 0 (only the
// best-scoring moves). rng supplies the randomness; nil uses the
// math/rand/v2 global source. ok is false when p has no book move.
func (b *Book) Pick(p *engine.Position, margin int, rng *rand.Rand) (m engine.Move, ok bool) {
	i := b.find(p)
	if i < 0 {
		return engine.Move{}, false
	}
	es := b.entries[b.first[i]:b.first[i+1]]
	if len(es) == 0 {
		return engine.Move{}, false
	}
	margin = max(margin, 0)
	best := es[0].Score
	for _, e := range es {
		best = max(best, e.Score)
	}
	total := 0
	for _, e := range es {
		if e.Score >= best-margin {
			total += e.Weight
		}
	}
	var r int
	if rng != nil {
		r = rng.IntN(total)
	} else {
		r = rand.IntN(total)
	}
	for _, e := range es {
		if e.Score < best-margin {
			continue
		}
		if r < e.Weight {
			return e.Move, true
		}
		r -= e.Weight
	}
	return es[0].Move, true // not reached: weights sum to total
}

// Stats sums up a book.
type Stats struct {
	Variant   engine.VariantID
	Positions int    // positions with book moves
	Moves     int    // book moves in all
	MaxPly    int    // deepest position, in plies from its build root (see Record.Ply)
	Bytes     int    // size of the book file
	BuildInfo string // how it was built (the header's build text)
}

// Stats returns the book's figures.
func (b *Book) Stats() Stats {
	return Stats{Variant: b.v, Positions: len(b.keys), Moves: len(b.entries), MaxPly: b.maxPly,
		Bytes: b.size, BuildInfo: b.info}
}

// Records returns every position of the book with its moves, in key order
// (fresh copies): for walking a whole book, e.g. to check it.
func (b *Book) Records() []Record {
	rs := make([]Record, len(b.keys))
	for i := range rs {
		rs[i] = Record{Position: b.pos[i], Ply: int(b.ply[i]),
			Moves: slices.Clone(b.entries[b.first[i]:b.first[i+1]])}
	}
	return rs
}

// Pending returns the positions a build checkpoint still has to analyse
// (nil for a finished book).
func (b *Book) Pending() []engine.Position { return slices.Clone(b.pending) }

//go:embed data/*.book
var embedded embed.FS

var defaults [engine.NumVariants]struct {
	once sync.Once
	b    *Book
	err  error
}

// ErrNoBook is wrapped by Default's error when the binary embeds no book
// for the variant.
var ErrNoBook = errors.New("no embedded book")

// Default returns the book embedded in the binary for v (book/data/<variant
// name>.book), loaded on first use and shared afterwards. The error wraps
// ErrNoBook when there is none, or says why the embedded file is unusable;
// callers then play without a book.
func Default(v engine.VariantID) (*Book, error) {
	if int(v) >= len(defaults) {
		return nil, fmt.Errorf("book: unknown variant %d: %w", uint8(v), ErrNoBook)
	}
	d := &defaults[v]
	d.once.Do(func() {
		name := "data/" + v.String() + ".book"
		data, err := embedded.ReadFile(name)
		if err != nil {
			d.err = fmt.Errorf("book: %s: %w", v, ErrNoBook)
			return
		}
		d.b, d.err = LoadVariant(data, v)
		if d.err != nil {
			d.err = fmt.Errorf("embedded %s: %w", name, d.err)
		}
	})
	return d.b, d.err
}
