// file.go: the slice file format (see the package comment for the layout):
// encoding, checking and the block decoder of a probe.

package egdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/damka-draughts/damka/engine"
)

// File format constants.
const (
	fileMagic   = "DMKEGDB\x00"
	fileVersion = 1
	headerSize  = 80
	// Positions per block: one probe decodes at most one block. Distance
	// slices have shorter runs and smaller blocks.
	blockSizeWLD = 1024
	blockSizeDTM = 256
	maxBlockSize = 1 << 20
)

// castagnoli is the CRC-32C table of the file trailer.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header is the decoded header of a slice file.
type Header struct {
	Variant   engine.VariantID
	Material  Material // of the positions stored, White to move
	DTM       bool     // entries are distances (plies to the end), not only win/draw/loss
	Positions uint64   // index range of the slice, 0..Positions-1
	BlockSize uint32   // positions per block
	Blocks    uint32   // number of blocks, ceil(Positions/BlockSize)
	DataLen   uint64   // bytes of run-length data
	// Counts over the stored entries (DontCare: a capture pending or an
	// invalid index; those are not stored and take any value).
	Wins, Draws, Losses, DontCare uint64
}

// FileName returns the name of the file of slice m of variant v:
// "english-0201.egdb".
func FileName(v engine.VariantID, m Material) string {
	return fmt.Sprintf("%s-%s.egdb", v, m)
}

// encodeFile writes the file of slice m of v from its codes (one per index;
// codeDontCare where nothing is stored).
func encodeFile(v engine.VariantID, m Material, codes []byte) ([]byte, Header, error) {
	dtm := m.KingsOnly()
	h := Header{Variant: v, Material: m, DTM: dtm, Positions: uint64(len(codes)), BlockSize: blockSizeWLD}
	if dtm {
		h.BlockSize = blockSizeDTM
	}
	h.Blocks = uint32((h.Positions + uint64(h.BlockSize) - 1) / uint64(h.BlockSize))
	index := make([]uint32, 0, h.Blocks+1)
	var data, rle []byte
	for b := uint64(0); b < uint64(h.Blocks); b++ {
		lo := b * uint64(h.BlockSize)
		hi := min(lo+uint64(h.BlockSize), h.Positions)
		blk := codes[lo:hi]
		rle = rle[:0]
		cur := uint8(codeDontCare)
		for _, c := range blk {
			if c != codeDontCare {
				cur = c
				break
			}
		}
		if cur == codeDontCare {
			cur = encodeCode(Draw, 0, dtm)
		}
		run := uint64(0)
		for _, c := range blk {
			switch c {
			case codeDontCare:
				h.DontCare++
			default:
				val, _ := decodeCode(c, dtm)
				switch val {
				case Win:
					h.Wins++
				case Loss:
					h.Losses++
				default:
					h.Draws++
				}
			}
			if c == codeDontCare || c == cur {
				run++
				continue
			}
			rle = append(rle, cur)
			rle = binary.AppendUvarint(rle, run-1)
			cur, run = c, 1
		}
		rle = append(rle, cur)
		rle = binary.AppendUvarint(rle, run-1)
		off := uint32(len(data))
		if packed := (len(blk) + 4) / 5; !dtm && packed < len(rle) {
			off |= blockPacked
			data = appendPacked(data, blk)
		} else {
			data = append(data, rle...)
		}
		index = append(index, off)
		if len(data) >= blockPacked {
			return nil, h, fmt.Errorf("slice %s of %s: data over 2 GiB", m, v)
		}
	}
	index = append(index, uint32(len(data)))
	h.DataLen = uint64(len(data))

	out := make([]byte, headerSize, headerSize+4*len(index)+len(data)+4)
	copy(out, fileMagic)
	binary.LittleEndian.PutUint16(out[8:], fileVersion)
	out[10] = uint8(v)
	if dtm {
		out[11] = 1
	}
	out[12], out[13], out[14], out[15] = m.WM, m.WK, m.BM, m.BK
	binary.LittleEndian.PutUint64(out[16:], h.Positions)
	binary.LittleEndian.PutUint32(out[24:], h.BlockSize)
	binary.LittleEndian.PutUint32(out[28:], h.Blocks)
	binary.LittleEndian.PutUint64(out[32:], h.DataLen)
	binary.LittleEndian.PutUint64(out[40:], h.Wins)
	binary.LittleEndian.PutUint64(out[48:], h.Draws)
	binary.LittleEndian.PutUint64(out[56:], h.Losses)
	binary.LittleEndian.PutUint64(out[64:], h.DontCare)
	for _, o := range index {
		out = binary.LittleEndian.AppendUint32(out, o)
	}
	out = append(out, data...)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
	return out, h, nil
}

// blockPacked marks, in a block index entry, a block stored packed: five
// win/draw/loss codes a byte, c0 + 3*c1 + 9*c2 + 27*c3 + 81*c4. The
// encoder packs a win/draw/loss block when that is shorter than its runs.
const blockPacked = 1 << 31

// pow3 are the place values of a packed byte.
var pow3 = [5]uint8{1, 3, 9, 27, 81}

// appendPacked appends blk packed five codes a byte (don't care as 0).
func appendPacked(data, blk []byte) []byte {
	for i := 0; i < len(blk); i += 5 {
		var b uint8
		for j := i; j < min(i+5, len(blk)); j++ {
			c := blk[j]
			if c == codeDontCare {
				c = codeDraw
			}
			b += c * pow3[j-i]
		}
		data = append(data, b)
	}
	return data
}

// table is one checked slice file in memory (read or mapped).
type table struct {
	h     Header
	index []byte // (Blocks+1) little-endian uint32 offsets into data
	data  []byte
	dtm   bool
}

// errCorrupt is wrapped by every error about a file's content.
var errCorrupt = errors.New("corrupt endgame table")

// corrupt returns an error naming the file and what is wrong with it.
func corrupt(name, format string, a ...any) error {
	return fmt.Errorf("%s: %w: %s", name, errCorrupt, fmt.Sprintf(format, a...))
}

// parseFile checks the file b (named name in errors) completely: header
// fields, length, checksum and every block's runs, so that a probe of the
// table it returns cannot fail. The table keeps b.
func parseFile(name string, b []byte) (*table, error) {
	if len(b) < headerSize+8 {
		return nil, corrupt(name, "%d bytes, shorter than a header (%d)", len(b), headerSize+8)
	}
	if string(b[:8]) != fileMagic {
		return nil, corrupt(name, "not a damka endgame table (bad magic)")
	}
	if ver := binary.LittleEndian.Uint16(b[8:]); ver != fileVersion {
		return nil, corrupt(name, "format version %d (this damka reads %d)", ver, fileVersion)
	}
	var h Header
	h.Variant = engine.VariantID(b[10])
	if h.Variant >= engine.NumVariants {
		return nil, corrupt(name, "unknown variant %d", b[10])
	}
	if b[11] > 1 {
		return nil, corrupt(name, "unknown kind %d (want 0 win/draw/loss or 1 distances)", b[11])
	}
	h.DTM = b[11] == 1
	h.Material = Material{b[12], b[13], b[14], b[15]}
	m := h.Material
	if m.WM > 7 || m.WK > 7 || m.BM > 7 || m.BK > 7 || m.Pieces() > MaxPieces || m.WM+m.WK == 0 || m.BM+m.BK == 0 {
		return nil, corrupt(name, "bad material %d%d%d%d", m.WM, m.WK, m.BM, m.BK)
	}
	if h.DTM != m.KingsOnly() {
		return nil, corrupt(name, "kind %d does not fit material %s", b[11], m)
	}
	h.Positions = binary.LittleEndian.Uint64(b[16:])
	h.BlockSize = binary.LittleEndian.Uint32(b[24:])
	h.Blocks = binary.LittleEndian.Uint32(b[28:])
	h.DataLen = binary.LittleEndian.Uint64(b[32:])
	h.Wins = binary.LittleEndian.Uint64(b[40:])
	h.Draws = binary.LittleEndian.Uint64(b[48:])
	h.Losses = binary.LittleEndian.Uint64(b[56:])
	h.DontCare = binary.LittleEndian.Uint64(b[64:])
	g, _ := geomOf(h.Variant)
	if want := newSlice(m, g).size; h.Positions != want {
		return nil, corrupt(name, "%d positions, slice %s has %d", h.Positions, m, want)
	}
	if h.BlockSize == 0 || h.BlockSize > maxBlockSize {
		return nil, corrupt(name, "block size %d out of range 1..%d", h.BlockSize, maxBlockSize)
	}
	if want := (h.Positions + uint64(h.BlockSize) - 1) / uint64(h.BlockSize); uint64(h.Blocks) != want {
		return nil, corrupt(name, "%d blocks, want %d", h.Blocks, want)
	}
	if h.Wins+h.Draws+h.Losses+h.DontCare != h.Positions {
		return nil, corrupt(name, "counts do not add up to %d positions", h.Positions)
	}
	idxLen := 4 * (uint64(h.Blocks) + 1)
	if want := headerSize + idxLen + h.DataLen + 4; uint64(len(b)) != want {
		return nil, corrupt(name, "%d bytes, header says %d (truncated or padded)", len(b), want)
	}
	body := b[:len(b)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(b[len(b)-4:]); got != want {
		return nil, corrupt(name, "checksum %08x, file says %08x", got, want)
	}
	t := &table{h: h, index: b[headerSize : headerSize+idxLen], data: b[headerSize+idxLen : len(b)-4], dtm: h.DTM}
	if h.DataLen >= blockPacked {
		return nil, corrupt(name, "data length %d over 2 GiB", h.DataLen)
	}
	prev := uint32(0)
	for blk := uint32(0); blk <= h.Blocks; blk++ {
		e := binary.LittleEndian.Uint32(t.index[4*blk:])
		o := e &^ blockPacked
		if o < prev || uint64(o) > h.DataLen || (blk == 0 && o != 0) || (blk == h.Blocks && e != uint32(h.DataLen)) ||
			(e&blockPacked != 0 && h.DTM) {
			return nil, corrupt(name, "block index entry %d (%08x) out of order or of a bad kind", blk, e)
		}
		prev = o
	}
	for blk := uint32(0); blk < h.Blocks; blk++ {
		want := uint64(h.BlockSize)
		if blk == h.Blocks-1 {
			want = h.Positions - uint64(blk)*uint64(h.BlockSize)
		}
		if err := t.checkBlock(blk, want); err != nil {
			return nil, corrupt(name, "block %d: %v", blk, err)
		}
	}
	return t, nil
}

// block returns the data of block blk and whether it is packed.
func (t *table) block(blk uint32) ([]byte, bool) {
	lo := binary.LittleEndian.Uint32(t.index[4*blk:])
	hi := binary.LittleEndian.Uint32(t.index[4*blk+4:]) &^ blockPacked
	return t.data[lo&^blockPacked : hi], lo&blockPacked != 0
}

// checkBlock checks that block blk's runs are well formed, hold valid
// codes and cover exactly n positions (or, packed, that it has the
// length n positions pack to and only valid bytes).
func (t *table) checkBlock(blk uint32, n uint64) error {
	d, packed := t.block(blk)
	if packed {
		if uint64(len(d)) != (n+4)/5 {
			return fmt.Errorf("packed block of %d bytes, want %d", len(d), (n+4)/5)
		}
		for _, b := range d {
			if b >= 243 {
				return fmt.Errorf("bad packed byte %d", b)
			}
		}
		return nil
	}
	var total uint64
	for len(d) > 0 {
		c := d[0]
		if c == codeDontCare || (!t.dtm && c > codeLoss) {
			return fmt.Errorf("bad code %d", c)
		}
		r, k := binary.Uvarint(d[1:])
		if k <= 0 {
			return errors.New("bad run length")
		}
		d = d[1+k:]
		if r >= n || total+r+1 > n {
			return fmt.Errorf("runs cover more than %d positions", n)
		}
		total += r + 1
	}
	if total != n {
		return fmt.Errorf("runs cover %d positions, want %d", total, n)
	}
	return nil
}

// code returns the code of index i (< Positions): it decodes runs of one
// block up to i. It does not allocate.
func (t *table) code(i uint64) uint8 {
	bs := uint64(t.h.BlockSize)
	d, packed := t.block(uint32(i / bs))
	k := i % bs
	if packed {
		return d[k/5] / pow3[k%5] % 3
	}
	for len(d) > 1 {
		c := d[0]
		r, n := binary.Uvarint(d[1:])
		if n <= 0 {
			break
		}
		if k <= r {
			return c
		}
		k -= r + 1
		d = d[1+n:]
	}
	return codeDontCare // unreachable for a checked table
}

// decodeAll expands the table to one code per index.
func (t *table) decodeAll() []byte {
	out := make([]byte, 0, t.h.Positions)
	for blk := uint32(0); blk < t.h.Blocks; blk++ {
		d, packed := t.block(blk)
		if packed {
			n := min(uint64(t.h.BlockSize), t.h.Positions-uint64(len(out)))
			for k := uint64(0); k < n; k++ {
				out = append(out, d[k/5]/pow3[k%5]%3)
			}
			continue
		}
		for len(d) > 1 {
			c := d[0]
			r, n := binary.Uvarint(d[1:])
			d = d[1+n:]
			for j := uint64(0); j <= r; j++ {
				out = append(out, c)
			}
		}
	}
	return out
}
