// format.go: encoding and decoding of the book file format (see the package
// documentation for the layout).

package book

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"slices"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
)

// Format constants.
const (
	magic         = "DMKBOOK\x1a"
	formatVersion = 1
	headerSize    = 28
	moveSize      = 8
	maxMovesPer   = 255 // moves of one position (a byte)
	maxInfo       = math.MaxUint16

	flagBlack   = 1 << 0 // position record: Black to move
	flagPending = 1 << 1 // position record: to be analysed (checkpoint)

	fileCheckpoint = 1 << 0 // header flags: has pending records
)

// ErrFormat is wrapped by every error about malformed book data: truncated,
// corrupt (checksum), wrong magic or version, inconsistent records, an
// illegal move.
var ErrFormat = errors.New("malformed book")

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// geometry maps squares to internal bits and back, per variant.
type geometry struct {
	squares int
	width   int // bytes of a square mask
	bit     [51]uint8
	sq      [64]engine.Square
}

var geoms [engine.NumVariants]geometry

func init() {
	for _, v := range engine.AllVariants() {
		g := &geoms[v]
		g.squares = v.Rules().Squares
		g.width = (g.squares + 7) / 8
		for s := 1; s <= g.squares; s++ {
			b := uint8(bits.TrailingZeros64(engine.SquareBit(v, engine.Square(s))))
			g.bit[s] = b
			g.sq[b] = engine.Square(s)
		}
	}
}

// recordSize is R, the bytes of one position record of variant v.
func recordSize(v engine.VariantID) int { return 3*geoms[v].width + 3 }

// toMask converts an internal bitboard of v to a square mask (bit s-1 for
// square s).
func toMask(v engine.VariantID, bb uint64) uint64 {
	g := &geoms[v]
	var m uint64
	for ; bb != 0; bb &= bb - 1 {
		m |= 1 << (g.sq[bits.TrailingZeros64(bb)] - 1)
	}
	return m
}

// fromMask converts a square mask of v to an internal bitboard; ok is false
// when the mask has a bit beyond the last square.
func fromMask(v engine.VariantID, m uint64) (bb uint64, ok bool) {
	g := &geoms[v]
	if m>>g.squares != 0 {
		return 0, false
	}
	for ; m != 0; m &= m - 1 {
		bb |= 1 << g.bit[bits.TrailingZeros64(m)+1]
	}
	return bb, true
}

// sameEnds returns the moves of list going from 'from' to 'to' (internal
// bits) in the canonical order of move codes: by captured set, then flags.
func sameEnds(list *engine.MoveList, from, to uint8) []engine.Move {
	var ms []engine.Move
	for _, m := range list.Slice() {
		if m.From == from && m.To == to {
			ms = append(ms, m)
		}
	}
	slices.SortFunc(ms, func(a, b engine.Move) int {
		return cmp.Or(cmp.Compare(a.Captured, b.Captured), cmp.Compare(a.Flags, b.Flags))
	})
	return ms
}

// encodeMove returns the move code of m in the position whose legal moves
// are list.
func encodeMove(v engine.VariantID, list *engine.MoveList, m engine.Move) (uint16, bool) {
	ms := sameEnds(list, m.From, m.To)
	for alt, c := range ms {
		if c == m && alt < 16 {
			g := &geoms[v]
			return uint16(g.sq[m.From]) | uint16(g.sq[m.To])<<6 | uint16(alt)<<12, true
		}
	}
	return 0, false
}

// decodeMove re-finds the move of code in list.
func decodeMove(v engine.VariantID, list *engine.MoveList, code uint16) (engine.Move, bool) {
	g := &geoms[v]
	from, to, alt := int(code&63), int(code>>6&63), int(code>>12)
	if from < 1 || from > g.squares || to < 1 || to > g.squares {
		return engine.Move{}, false
	}
	ms := sameEnds(list, g.bit[from], g.bit[to])
	if alt >= len(ms) {
		return engine.Move{}, false
	}
	return ms[alt], true
}

// Encode returns the book file of variant v holding recs, with build text
// info. Records are written in key order whatever their order in recs;
// each record's moves are written in the given order. Errors: a record of
// another variant, a position listed twice, no moves or more than 255, an
// illegal move or one listed twice, a weight outside 1..65535, a score
// outside the int16 range, or info longer than 65535 bytes. Ply is capped
// at 255 and Games at 65535.
func Encode(v engine.VariantID, info string, recs []Record) ([]byte, error) {
	return encode(v, info, recs, nil)
}

// encode is Encode plus the pending positions of a build checkpoint.
func encode(v engine.VariantID, info string, recs []Record, pending []engine.Position) ([]byte, error) {
	if int(v) >= len(geoms) {
		return nil, fmt.Errorf("book: unknown variant %d", uint8(v))
	}
	if len(info) > maxInfo {
		return nil, fmt.Errorf("book: build text of %d bytes (at most %d)", len(info), maxInfo)
	}
	type rec struct {
		key   uint64
		bytes []byte
		moves []byte
	}
	w := geoms[v].width
	rs := make([]rec, 0, len(recs)+len(pending))
	var list engine.MoveList
	maxPly, nMoves := 0, 0
	encodePos := func(p *engine.Position, flags byte, ply, n int) []byte {
		b := make([]byte, 0, recordSize(v))
		for _, bb := range [3]uint64{p.Pieces[engine.White], p.Pieces[engine.Black], p.Kings} {
			var buf [8]byte
			binary.LittleEndian.PutUint64(buf[:], toMask(v, bb))
			b = append(b, buf[:w]...)
		}
		if p.Side == engine.Black {
			flags |= flagBlack
		}
		return append(b, flags, byte(min(ply, 255)), byte(n))
	}
	for i := range recs {
		r := &recs[i]
		p := r.Position
		if p.V != v {
			return nil, fmt.Errorf("book: record %d is a %s position in a %s book", i, p.V, v)
		}
		p.Key = p.ComputeKey()
		if len(r.Moves) == 0 || len(r.Moves) > maxMovesPer {
			return nil, fmt.Errorf("book: record %d (%s): %d moves (want 1..%d)", i, p.FEN(), len(r.Moves), maxMovesPer)
		}
		p.Generate(&list)
		mb := make([]byte, 0, moveSize*len(r.Moves))
		seen := map[uint16]bool{}
		for _, e := range r.Moves {
			code, ok := encodeMove(v, &list, e.Move)
			if !ok {
				return nil, fmt.Errorf("book: record %d (%s): move %s is not legal there", i, p.FEN(), p.FormatMove(e.Move, engine.FormatFull))
			}
			if seen[code] {
				return nil, fmt.Errorf("book: record %d (%s): move %s listed twice", i, p.FEN(), p.FormatMove(e.Move, engine.FormatFull))
			}
			seen[code] = true
			if e.Weight < 1 || e.Weight > math.MaxUint16 {
				return nil, fmt.Errorf("book: record %d (%s): weight %d outside 1..65535", i, p.FEN(), e.Weight)
			}
			if e.Score < math.MinInt16 || e.Score > math.MaxInt16 {
				return nil, fmt.Errorf("book: record %d (%s): score %d outside the int16 range", i, p.FEN(), e.Score)
			}
			mb = binary.LittleEndian.AppendUint16(mb, code)
			mb = binary.LittleEndian.AppendUint16(mb, uint16(e.Weight))
			mb = binary.LittleEndian.AppendUint16(mb, uint16(int16(e.Score)))
			mb = binary.LittleEndian.AppendUint16(mb, uint16(min(max(e.Games, 0), math.MaxUint16)))
		}
		ply := min(max(r.Ply, 0), 255)
		maxPly = max(maxPly, ply)
		nMoves += len(r.Moves)
		rs = append(rs, rec{p.Key, encodePos(&p, 0, ply, len(r.Moves)), mb})
	}
	for _, p := range pending {
		if p.V != v {
			return nil, fmt.Errorf("book: pending %s position in a %s book", p.V, v)
		}
		p.Key = p.ComputeKey()
		rs = append(rs, rec{p.Key, encodePos(&p, flagPending, 0, 0), nil})
	}
	slices.SortFunc(rs, func(a, b rec) int {
		return cmp.Or(cmp.Compare(a.key, b.key), bytes.Compare(a.bytes, b.bytes))
	})
	for i := 1; i < len(rs); i++ {
		if rs[i].key == rs[i-1].key && bytes.Equal(rs[i].bytes[:3*w], rs[i-1].bytes[:3*w]) &&
			(rs[i].bytes[3*w]&flagBlack) == (rs[i-1].bytes[3*w]&flagBlack) {
			return nil, errors.New("book: a position is listed twice")
		}
	}
	var hf byte
	if len(pending) > 0 {
		hf |= fileCheckpoint
	}
	out := make([]byte, 0, headerSize+len(info)+len(rs)*recordSize(v)+nMoves*moveSize)
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint16(out, formatVersion)
	out = append(out, byte(v), hf)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(rs)))
	out = binary.LittleEndian.AppendUint32(out, uint32(nMoves))
	out = binary.LittleEndian.AppendUint16(out, uint16(maxPly))
	out = binary.LittleEndian.AppendUint16(out, uint16(len(info)))
	out = binary.LittleEndian.AppendUint32(out, 0) // checksum, below
	out = append(out, info...)
	for _, r := range rs {
		out = append(out, r.bytes...)
	}
	for _, r := range rs {
		out = append(out, r.moves...)
	}
	binary.LittleEndian.PutUint32(out[24:], crc32.Checksum(out, crcTable))
	return out, nil
}

// formatErr returns an error wrapping ErrFormat.
func formatErr(format string, a ...any) error {
	return fmt.Errorf("book: %w: %s", ErrFormat, fmt.Sprintf(format, a...))
}

// Load decodes a book file. It checks everything: length, magic, version,
// variant, checksum, every position (pieces on the board, no square
// taken twice, kings among the pieces) and every move code (legal in its
// position). Errors wrap ErrFormat and say what was wrong and where; a
// caller that gets one plays on without a book.
func Load(data []byte) (*Book, error) {
	if len(data) < headerSize {
		return nil, formatErr("truncated: %d bytes, the header alone needs %d", len(data), headerSize)
	}
	if string(data[:8]) != magic {
		return nil, formatErr("not a damka book (magic %q, want %q)", data[:8], magic)
	}
	if ver := binary.LittleEndian.Uint16(data[8:]); ver != formatVersion {
		return nil, formatErr("format version %d (this build reads version %d)", ver, formatVersion)
	}
	v := engine.VariantID(data[10])
	if int(v) >= len(geoms) {
		return nil, formatErr("unknown variant %d in the header", data[10])
	}
	hflags := data[11]
	n := int64(binary.LittleEndian.Uint32(data[12:]))
	m := int64(binary.LittleEndian.Uint32(data[16:]))
	hdrPly := int(binary.LittleEndian.Uint16(data[20:]))
	infoLen := int64(binary.LittleEndian.Uint16(data[22:]))
	rsz := int64(recordSize(v))
	want := headerSize + infoLen + n*rsz + m*moveSize
	switch {
	case int64(len(data)) < want:
		return nil, formatErr("truncated: %d bytes, the header promises %d (%d positions, %d moves)", len(data), want, n, m)
	case int64(len(data)) > want:
		return nil, formatErr("%d bytes of trailing data after the %d the header promises", int64(len(data))-want, want)
	}
	sum := binary.LittleEndian.Uint32(data[24:])
	crc := crc32.Update(0, crcTable, data[:24])
	crc = crc32.Update(crc, crcTable, []byte{0, 0, 0, 0})
	crc = crc32.Update(crc, crcTable, data[28:])
	if crc != sum {
		return nil, formatErr("checksum mismatch (file has %08x, contents give %08x): the file is corrupt", sum, crc)
	}
	b := &Book{v: v, info: string(data[headerSize : headerSize+infoLen]), size: len(data)}
	w := geoms[v].width
	recs := data[headerSize+infoLen:]
	moves := recs[n*rsz:]
	b.first = append(b.first, 0)
	var list engine.MoveList
	var prevKey uint64
	var prevRec []byte
	var mi int64
	for i := int64(0); i < n; i++ {
		rb := recs[i*rsz : (i+1)*rsz]
		var masks [3]uint64
		for j := range masks {
			var buf [8]byte
			copy(buf[:], rb[j*w:(j+1)*w])
			bb, ok := fromMask(v, binary.LittleEndian.Uint64(buf[:]))
			if !ok {
				return nil, formatErr("position %d: a square beyond %d", i, geoms[v].squares)
			}
			masks[j] = bb
		}
		if masks[0]&masks[1] != 0 || masks[2]&^(masks[0]|masks[1]) != 0 {
			return nil, formatErr("position %d: a square holds two pieces or a king without a piece", i)
		}
		flags, ply, nm := rb[3*w], int(rb[3*w+1]), int64(rb[3*w+2])
		if flags&^(flagBlack|flagPending) != 0 {
			return nil, formatErr("position %d: unknown flags %#x", i, flags)
		}
		p := engine.Position{Pieces: [2]uint64{masks[0], masks[1]}, Kings: masks[2], V: v}
		if flags&flagBlack != 0 {
			p.Side = engine.Black
		}
		p.Key = p.ComputeKey()
		if i > 0 && (p.Key < prevKey || p.Key == prevKey && bytes.Compare(rb, prevRec) <= 0) {
			return nil, formatErr("position %d (%s): records out of key order", i, p.FEN())
		}
		if i > 0 && p.Key == prevKey && bytes.Equal(rb[:3*w], prevRec[:3*w]) && (rb[3*w]^prevRec[3*w])&flagBlack == 0 {
			return nil, formatErr("position %d (%s): listed twice", i, p.FEN())
		}
		prevKey, prevRec = p.Key, rb
		if flags&flagPending != 0 {
			if nm != 0 || hflags&fileCheckpoint == 0 {
				return nil, formatErr("position %d (%s): a pending position with moves or outside a checkpoint", i, p.FEN())
			}
			b.pending = append(b.pending, p)
			continue
		}
		if nm == 0 {
			return nil, formatErr("position %d (%s): no moves", i, p.FEN())
		}
		if mi+nm > m {
			return nil, formatErr("position %d (%s): moves beyond the %d the header promises", i, p.FEN(), m)
		}
		p.Generate(&list)
		for k := int64(0); k < nm; k++ {
			mb := moves[(mi+k)*moveSize:]
			code := binary.LittleEndian.Uint16(mb)
			mv, ok := decodeMove(v, &list, code)
			if !ok {
				return nil, formatErr("position %d (%s): move code %#04x (squares %d-%d) is not a legal move there",
					i, p.FEN(), code, code&63, code>>6&63)
			}
			for _, e := range b.entries[b.first[len(b.first)-1]:] {
				if e.Move == mv {
					return nil, formatErr("position %d (%s): move %s listed twice", i, p.FEN(), p.FormatMove(mv, engine.FormatFull))
				}
			}
			wt := int(binary.LittleEndian.Uint16(mb[2:]))
			if wt == 0 {
				return nil, formatErr("position %d (%s): move %s has weight 0", i, p.FEN(), p.FormatMove(mv, engine.FormatFull))
			}
			b.entries = append(b.entries, Entry{Move: mv, Weight: wt,
				Score: int(int16(binary.LittleEndian.Uint16(mb[4:]))), Games: int(binary.LittleEndian.Uint16(mb[6:]))})
		}
		mi += nm
		b.keys = append(b.keys, p.Key)
		b.pos = append(b.pos, p)
		b.ply = append(b.ply, uint8(ply))
		b.first = append(b.first, int32(len(b.entries)))
		b.maxPly = max(b.maxPly, ply)
	}
	if mi != m {
		return nil, formatErr("the positions hold %d moves, the header promises %d", mi, m)
	}
	if b.maxPly != hdrPly {
		return nil, formatErr("deepest ply %d, the header says %d", b.maxPly, hdrPly)
	}
	if (hflags&fileCheckpoint != 0) != (len(b.pending) > 0) || hflags&^fileCheckpoint != 0 {
		return nil, formatErr("header flags %#x do not match the records", hflags)
	}
	return b, nil
}

// LoadVariant is Load for a book that must be of variant v: a book of
// another variant is an error naming both.
func LoadVariant(data []byte, v engine.VariantID) (*Book, error) {
	b, err := Load(data)
	if err != nil {
		return nil, err
	}
	if b.v != v {
		return nil, fmt.Errorf("book: a %s book, not %s", b.v, v)
	}
	return b, nil
}

// ReadFile loads the book file at path, which must be of variant v. Errors
// name the file.
func ReadFile(path string, v engine.VariantID) (*Book, error) {
	b, err := ReadFileAny(path)
	if err != nil {
		return nil, err
	}
	if b.v != v {
		return nil, fmt.Errorf("%s: book: a %s book, not %s", path, b.v, v)
	}
	return b, nil
}

// MaxFileBytes bounds a book file that ReadFileAny reads (1 GiB): far
// more than a book of millions of positions, so that a wrong file is
// refused instead of read into memory.
const MaxFileBytes = 1 << 30

// ReadFileAny loads the book file at path, of whatever variant (the
// Book's Variant says which): the Hub parameter book-file, which the GUI
// may set before the variant. Errors name the file: a missing or
// unreadable file, one that is not a regular file (a device, a named
// pipe), one over MaxFileBytes, or any format fault of Load (ErrFormat).
func ReadFileAny(path string) (*Book, error) {
	data, err := fileread.Read(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	b, err := Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// MarshalBinary returns the book as a file: Load of the result gives an
// equal book (a checkpoint's pending positions included).
func (b *Book) MarshalBinary() ([]byte, error) {
	return encode(b.v, b.info, b.Records(), b.pending)
}
