// gamerec.go: damka's compact binary game records, the archive that
// `damka selfplay` writes and `damka train` reads.
//
// A game file is a header and then game records, all little-endian:
//
//	header: magic "DMKGAMES" (8 bytes), version uint16 (1), variant uint8
//	        (VariantID), reserved uint8 (0), note length uint32, note (UTF-8:
//	        the command and settings that wrote the file)
//	record: size uint32 (bytes that follow, the CRC included), index uint32
//	        (the game's number in its run), start position (white, black and
//	        kings as uint64 square sets: bit s-1 is square s; side uint8),
//	        result uint8 (Result), reason uint8 (Reason), plies uint16, then
//	        per ply: from uint8 and to uint8 (square numbers), alt uint8 (the
//	        move's rank, 0-based, among the legal moves with that origin and
//	        destination ordered by their captured square sets), score int16
//	        (the search score in centi-men from the side to move's view, or
//	        NoScore where the move was not searched); last a CRC-32 (IEEE) of
//	        the record from index to the last ply.
//
// Moves are named by squares, not by generator order, so a file stays
// readable when the generator changes.

package pdn

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/damka-draughts/damka/engine"
)

// RecordFileMagic opens every game file.
const RecordFileMagic = "DMKGAMES"

// gameFileVersion is the format version written and read.
const gameFileVersion = 1

// NoScore marks a ply of a Record that was not searched (an opening or a
// random ply).
const NoScore int16 = math.MinInt16

// maxRecordPlies bounds a record's plies (the plies field is 16 bits).
const maxRecordPlies = math.MaxUint16

// maxNoteLen bounds a header note; longer ones are refused on reading.
const maxNoteLen = 1 << 20

// ErrTruncatedRecord is wrapped by RecordReader.Next when the file ends inside
// a record (a run stopped while writing it).
var ErrTruncatedRecord = errors.New("truncated game record")

// ErrTruncatedHeader is wrapped by NewRecordReader when the input ends
// inside the header (a run stopped while it was writing it): what it holds
// is a beginning of a game file's header, and it holds no game.
var ErrTruncatedHeader = errors.New("truncated game file header")

// Record is one game of a game file.
type Record struct {
	Index  uint32 // the game's number in the run that played it
	Start  engine.Position
	Moves  []engine.Move // the moves played from Start, all legal
	Scores []int16       // per move: search score (centi-men, side to move) or NoScore
	Result engine.Result
	Reason engine.Reason
}

// moveAlt returns m's rank among the legal moves of l with its origin and
// destination, ordered by captured square sets.
func moveAlt(p *engine.Position, l *engine.MoveList, m engine.Move) uint8 {
	mine := engine.SquareSet(p.V, m.Captured)
	alt := 0
	for _, o := range l.Slice() {
		if o.From == m.From && o.To == m.To && o != m && engine.SquareSet(p.V, o.Captured) < mine {
			alt++
		}
	}
	return uint8(alt)
}

// RecordWriter writes a game file. It buffers: call Flush (or Close the
// underlying file after Flush) to make the records durable.
type RecordWriter struct {
	w   *bufio.Writer
	v   engine.VariantID
	buf []byte
	l   engine.MoveList
}

// NewRecordWriter writes a game file header for variant v with note (the
// command that made the file) to w and returns a writer for its records.
func NewRecordWriter(w io.Writer, v engine.VariantID, note string) (*RecordWriter, error) {
	gw := &RecordWriter{w: bufio.NewWriterSize(w, 1<<16), v: v}
	h := make([]byte, 0, 16+len(note))
	h = append(h, RecordFileMagic...)
	h = binary.LittleEndian.AppendUint16(h, gameFileVersion)
	h = append(h, byte(v), 0)
	h = binary.LittleEndian.AppendUint32(h, uint32(len(note)))
	h = append(h, note...)
	if _, err := gw.w.Write(h); err != nil {
		return nil, err
	}
	return gw, nil
}

// AppendRecordWriter returns a writer that appends records to w, a game file
// of variant v whose header is already written.
func AppendRecordWriter(w io.Writer, v engine.VariantID) *RecordWriter {
	return &RecordWriter{w: bufio.NewWriterSize(w, 1<<16), v: v}
}

// Write appends rec. It fails when rec is of another variant, has more
// plies than the format holds, lengths of Moves and Scores differ, or a
// move is not legal where it is played.
func (gw *RecordWriter) Write(rec *Record) error {
	if rec.Start.V != gw.v {
		return fmt.Errorf("game %d is %v, the file is %v", rec.Index, rec.Start.V, gw.v)
	}
	if len(rec.Moves) > maxRecordPlies || len(rec.Scores) != len(rec.Moves) {
		return fmt.Errorf("game %d: %d moves and %d scores", rec.Index, len(rec.Moves), len(rec.Scores))
	}
	b := gw.buf[:0]
	b = binary.LittleEndian.AppendUint32(b, 0) // size, set below
	b = binary.LittleEndian.AppendUint32(b, rec.Index)
	w, bl, k := rec.Start.Squares()
	b = binary.LittleEndian.AppendUint64(b, w)
	b = binary.LittleEndian.AppendUint64(b, bl)
	b = binary.LittleEndian.AppendUint64(b, k)
	b = append(b, byte(rec.Start.Side), byte(rec.Result), byte(rec.Reason))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(rec.Moves)))
	p := rec.Start
	for i, m := range rec.Moves {
		p.Generate(&gw.l)
		if !containsMove(&gw.l, m) {
			return fmt.Errorf("game %d ply %d: illegal move in %s", rec.Index, i+1, p.FEN())
		}
		b = append(b, byte(engine.SquareAt(p.V, m.From)), byte(engine.SquareAt(p.V, m.To)), moveAlt(&p, &gw.l, m))
		b = binary.LittleEndian.AppendUint16(b, uint16(rec.Scores[i]))
		p = p.Play(m)
	}
	binary.LittleEndian.PutUint32(b, uint32(len(b)-4+4))
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
	gw.buf = b
	_, err := gw.w.Write(b)
	return err
}

func containsMove(l *engine.MoveList, m engine.Move) bool {
	for _, o := range l.Slice() {
		if o == m {
			return true
		}
	}
	return false
}

// Flush writes buffered records to the underlying writer.
func (gw *RecordWriter) Flush() error { return gw.w.Flush() }

// RecordReader reads a game file.
type RecordReader struct {
	r      *bufio.Reader
	v      engine.VariantID
	note   string
	offset int64 // bytes consumed: the end of the last whole record
	l      engine.MoveList
}

// NewRecordReader reads the header of a game file from r. It fails with a
// message naming the fault when the magic, version or variant is wrong,
// and with one wrapping ErrTruncatedHeader when the input ends inside the
// header.
func NewRecordReader(r io.Reader) (*RecordReader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	h := make([]byte, 16)
	if n, err := io.ReadFull(br, h); err != nil {
		if isEOF(err) && strings.HasPrefix(RecordFileMagic, string(h[:min(n, 8)])) {
			return nil, fmt.Errorf("game file header: %w after %d bytes", ErrTruncatedHeader, n)
		}
		return nil, fmt.Errorf("game file header: %w", noEOF(err))
	}
	if string(h[:8]) != RecordFileMagic {
		return nil, fmt.Errorf("not a damka game file (magic %q, want %q)", h[:8], RecordFileMagic)
	}
	if ver := binary.LittleEndian.Uint16(h[8:]); ver != gameFileVersion {
		return nil, fmt.Errorf("game file version %d, want %d", ver, gameFileVersion)
	}
	v := engine.VariantID(h[10])
	if v >= engine.NumVariants {
		return nil, fmt.Errorf("game file variant %d unknown", h[10])
	}
	n := binary.LittleEndian.Uint32(h[12:])
	if n > maxNoteLen {
		return nil, fmt.Errorf("game file note of %d bytes (at most %d)", n, maxNoteLen)
	}
	note := make([]byte, n)
	if got, err := io.ReadFull(br, note); err != nil {
		if isEOF(err) {
			return nil, fmt.Errorf("game file note: %w after %d of its %d bytes", ErrTruncatedHeader, got, n)
		}
		return nil, fmt.Errorf("game file note: %w", err)
	}
	if !utf8.Valid(note) {
		return nil, errors.New("game file note is not UTF-8")
	}
	return &RecordReader{r: br, v: v, note: string(note), offset: int64(16 + n)}, nil
}

// isEOF reports whether err is io.EOF or io.ErrUnexpectedEOF.
func isEOF(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Variant returns the variant of the file's games.
func (gr *RecordReader) Variant() engine.VariantID { return gr.v }

// Note returns the header's note.
func (gr *RecordReader) Note() string { return gr.note }

// Offset returns the file offset just after the last record Next returned
// (after the header before the first): where an appending writer resumes.
func (gr *RecordReader) Offset() int64 { return gr.offset }

// Next returns the next record, io.EOF after the last, an error wrapping
// ErrTruncatedRecord when the file ends inside one, or an error naming the
// record (by its offset) whose checksum, position or moves are bad.
func (gr *RecordReader) Next() (*Record, error) {
	var sz [4]byte
	if _, err := io.ReadFull(gr.r, sz[:]); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, gr.readError(err)
	}
	n := binary.LittleEndian.Uint32(sz[:])
	const fixed = 4 + 24 + 3 + 2 + 4
	if n < fixed || n > fixed+5*maxRecordPlies {
		return nil, fmt.Errorf("record at byte %d: size %d out of range", gr.offset, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(gr.r, b); err != nil {
		return nil, gr.readError(err)
	}
	at := gr.offset
	bad := func(format string, a ...any) error {
		return fmt.Errorf("record at byte %d: %s", at, fmt.Sprintf(format, a...))
	}
	body, sum := b[:n-4], binary.LittleEndian.Uint32(b[n-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, bad("checksum mismatch")
	}
	rec := &Record{Index: binary.LittleEndian.Uint32(body)}
	le := binary.LittleEndian
	start, err := engine.PositionFromSquares(gr.v, le.Uint64(body[4:]), le.Uint64(body[12:]), le.Uint64(body[20:]), engine.Color(body[28]))
	if err != nil {
		return nil, bad("start position: %v", err)
	}
	rec.Start = start
	rec.Result, rec.Reason = engine.Result(body[29]), engine.Reason(body[30])
	if rec.Result > engine.Draw || rec.Reason >= engine.NumReasons {
		return nil, bad("result %d reason %d out of range", body[29], body[30])
	}
	plies := int(le.Uint16(body[31:]))
	if len(body) != 33+5*plies {
		return nil, bad("%d plies in %d bytes", plies, len(body))
	}
	rec.Moves = make([]engine.Move, plies)
	rec.Scores = make([]int16, plies)
	p := start
	for i := range plies {
		e := body[33+5*i:]
		m, ok := gr.findMove(&p, engine.Square(e[0]), engine.Square(e[1]), e[2])
		if !ok {
			return nil, bad("ply %d: no legal move %d-%d (alt %d) in %s", i+1, e[0], e[1], e[2], p.FEN())
		}
		rec.Moves[i] = m
		rec.Scores[i] = int16(le.Uint16(e[3:]))
		p = p.Play(m)
	}
	gr.offset += int64(4 + n)
	return rec, nil
}

// readError is the error of a read inside the record at gr.offset: one
// wrapping ErrTruncatedRecord when the file ends there, else the reader's
// own error (a failing disk is not a torn record to cut off).
func (gr *RecordReader) readError(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("record at byte %d: %w", gr.offset, ErrTruncatedRecord)
	}
	return fmt.Errorf("record at byte %d: %w", gr.offset, err)
}

func (gr *RecordReader) findMove(p *engine.Position, from, to engine.Square, alt uint8) (engine.Move, bool) {
	p.Generate(&gr.l)
	for _, m := range gr.l.Slice() {
		if engine.SquareAt(p.V, m.From) == from && engine.SquareAt(p.V, m.To) == to && moveAlt(p, &gr.l, m) == alt {
			return m, true
		}
	}
	return engine.Move{}, false
}
