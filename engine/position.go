// position.go: the Position value type, moves, copy-make and Zobrist keys.

package engine

import (
	"math/bits"
)

// Position is a draughts position as a small value: one bitboard of pieces
// per colour and one of kings, in the padded internal layout of geom.go, the
// side to move, the variant and an incrementally updated Zobrist key.
// Playing a move returns the next position (copy-make); there is no undo.
type Position struct {
	Pieces [2]uint64 // all pieces of White and of Black, internal bits
	Kings  uint64    // kings of either colour
	Key    uint64    // Zobrist key of pieces and side to move
	Side   Color     // side to move
	V      VariantID // variant whose rules apply
}

// MoveFlags are the flag bits of a Move.
type MoveFlags uint8

const (
	// FlagCrown marks a move after which the moving man is a king. (A
	// capture needs no flag: its Captured set is not empty.)
	FlagCrown MoveFlags = 1 << iota
)

// Move is one legal move: origin and destination as internal bit indexes,
// the set of captured pieces as an internal bitboard, and flags. Origin and
// destination may be equal (a king's capture that returns to its square).
// Two moves are the same move when all fields are equal (rules.md section 3).
type Move struct {
	Captured uint64    // internal bits of the captured pieces
	From     uint8     // internal bit of the origin
	To       uint8     // internal bit of the destination
	Flags    MoveFlags // FlagCrown
	NCapt    uint8     // number of pieces captured
}

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.Captured != 0 }

// Crowns reports whether m makes the moving man a king.
func (m Move) Crowns() bool { return m.Flags&FlagCrown != 0 }

// MaxMoves bounds a MoveList. No position reachable in play comes near it; a
// generator that fills the list stops and sets MoveList.Overflow.
const MaxMoves = 512

// MoveList is a caller-owned, fixed-size list of moves. Generation writes
// into it without allocating.
type MoveList struct {
	N        int  // number of moves in Moves
	Overflow bool // true if moves were dropped because the list was full
	Moves    [MaxMoves]Move
}

// Slice returns the generated moves (a view into l; no copy).
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Zobrist tables, by colour and internal bit.
var (
	zobMan   [2][64]uint64
	zobKing  [2][64]uint64
	zobBlack uint64 // xor-ed in when Black is to move
)

func init() {
	// splitmix64 with a fixed seed: keys are the same in every build.
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for c := 0; c < 2; c++ {
		for b := 0; b < 64; b++ {
			zobMan[c][b] = next()
			zobKing[c][b] = next()
		}
	}
	zobBlack = next()
}

// ComputeKey returns the Zobrist key of p computed from scratch. Play keeps
// p.Key equal to this incrementally.
func (p *Position) ComputeKey() uint64 {
	var k uint64
	for c := 0; c < 2; c++ {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			if p.Kings&(1<<i) != 0 {
				k ^= zobKing[c][i]
			} else {
				k ^= zobMan[c][i]
			}
		}
	}
	if p.Side == Black {
		k ^= zobBlack
	}
	return k
}

// StartPosition returns the initial position of v: Black on the first
// BoardInfo.Men squares (12 on 8x8, 20 on 10x10), White on the last as
// many, and the variant's first mover.
func StartPosition(v VariantID) Position {
	r := v.Rules()
	var p Position
	p.V = v
	for s := 1; s <= r.Board.Info().Men; s++ {
		p.Pieces[Black] |= SquareBit(v, Square(s))
		p.Pieces[White] |= SquareBit(v, Square(r.Squares+1-s))
	}
	p.Side = r.FirstToMove
	p.Key = p.ComputeKey()
	return p
}

// Occupied returns the bitboard of all pieces.
func (p *Position) Occupied() uint64 { return p.Pieces[0] | p.Pieces[1] }

// Empty returns the bitboard of empty playable squares.
func (p *Position) Empty() uint64 { return boardMask(p.V) &^ (p.Pieces[0] | p.Pieces[1]) }

// Piece kinds as seen by PieceAt.
type Piece uint8

// Piece values returned by PieceAt.
const (
	NoPiece Piece = iota
	WhiteMan
	BlackMan
	WhiteKing
	BlackKing
)

// PieceAt returns the piece on square sq (NoPiece when empty or out of range).
func (p *Position) PieceAt(sq Square) Piece {
	b := SquareBit(p.V, sq)
	switch {
	case b == 0:
		return NoPiece
	case p.Pieces[White]&b != 0:
		if p.Kings&b != 0 {
			return WhiteKing
		}
		return WhiteMan
	case p.Pieces[Black]&b != 0:
		if p.Kings&b != 0 {
			return BlackKing
		}
		return BlackMan
	}
	return NoPiece
}

// SetPiece puts piece pc on square sq (NoPiece clears it) and updates the key.
// Squares out of range are ignored.
func (p *Position) SetPiece(sq Square, pc Piece) {
	b := SquareBit(p.V, sq)
	if b == 0 {
		return
	}
	p.Pieces[White] &^= b
	p.Pieces[Black] &^= b
	p.Kings &^= b
	switch pc {
	case WhiteMan:
		p.Pieces[White] |= b
	case BlackMan:
		p.Pieces[Black] |= b
	case WhiteKing:
		p.Pieces[White] |= b
		p.Kings |= b
	case BlackKing:
		p.Pieces[Black] |= b
		p.Kings |= b
	}
	p.Key = p.ComputeKey()
}

// Count returns the number of men and kings of colour c.
func (p *Position) Count(c Color) (men, kings int) {
	k := bits.OnesCount64(p.Pieces[c] & p.Kings)
	return bits.OnesCount64(p.Pieces[c]) - k, k
}

// Play returns the position after m, which must be legal in p (as produced
// by Generate). It does not allocate.
func (p Position) Play(m Move) Position {
	p.apply(m)
	return p
}

// PlayInto writes the position after m into dst (which may be p itself):
// the copy-make step of search and perft without an extra copy.
func (p *Position) PlayInto(dst *Position, m Move) {
	if dst != p {
		*dst = *p
	}
	dst.apply(m)
}

// KeyAfter returns the Zobrist key of the position after m (the Key that
// Play(m) would give) without playing it: the search uses it to start
// loading a child's transposition table entry early. m must be a legal
// move of p. It does not allocate.
func (p *Position) KeyAfter(m Move) uint64 {
	us := p.Side & 1
	them := us ^ 1
	f, t := m.From&63, m.To&63
	key := p.Key ^ zobBlack
	switch {
	case p.Kings&(uint64(1)<<f) != 0:
		key ^= zobKing[us][f] ^ zobKing[us][t]
	case m.Flags&FlagCrown != 0:
		key ^= zobMan[us][f] ^ zobKing[us][t]
	default:
		key ^= zobMan[us][f] ^ zobMan[us][t]
	}
	if c := m.Captured; c != 0 {
		for b := c & p.Kings; b != 0; b &= b - 1 {
			key ^= zobKing[them][bits.TrailingZeros64(b)&63]
		}
		for b := c &^ p.Kings; b != 0; b &= b - 1 {
			key ^= zobMan[them][bits.TrailingZeros64(b)&63]
		}
	}
	return key
}

// applyBoard plays m on p in place without updating the Zobrist key:
// perft uses it for the positions it only counts the moves of.
func (p *Position) applyBoard(m Move) {
	us := p.Side & 1
	them := us ^ 1
	from := uint64(1) << (m.From & 63)
	to := uint64(1) << (m.To & 63)
	if p.Kings&from != 0 {
		p.Kings ^= from ^ to
	} else if m.Flags&FlagCrown != 0 {
		p.Kings |= to
	}
	p.Pieces[us] ^= from ^ to
	p.Pieces[them] &^= m.Captured
	p.Kings &^= m.Captured
	p.Side = them
}

// apply plays m on p in place.
func (p *Position) apply(m Move) {
	key := p.KeyAfter(m)
	us := p.Side & 1
	them := us ^ 1
	from := uint64(1) << (m.From & 63)
	to := uint64(1) << (m.To & 63)
	switch {
	case p.Kings&from != 0:
		p.Kings ^= from ^ to // from == to leaves the king where it is
	case m.Flags&FlagCrown != 0:
		p.Kings |= to
	}
	p.Pieces[us] ^= from ^ to
	p.Pieces[them] &^= m.Captured
	p.Kings &^= m.Captured
	p.Key = key
	p.Side = them
}
