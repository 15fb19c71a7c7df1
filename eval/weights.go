// weights.go: the learned evaluation's weights, their file format and the
// embedded defaults.
//
// A weights file (extension .dkw) is, little-endian:
//
//	magic        8 bytes  "DMKEVAL1"
//	version      uint16   1
//	variant      uint8    engine.VariantID
//	feature set  uint8    FeatureSet (4), or 3 (no row bands), 2 (also kings out of the patterns), or 1 (also NumDenseV1 dense features)
//	dense        uint16   NumDense, or 16 in a file of sets 2 to 4 without the first-king feature (it reads as 0)
//	regions      uint16   Regions(variant) in that set: 22 (set 4) or 15 on 8x8, 46 (set 4) or 28 on 10x10
//	pattern size uint32   PatternSize
//	note length  uint32, then the note (UTF-8): the training command and data
//	dense        NumDense x (middlegame int16, endgame int16)
//	patterns     regions x PatternSize x (middlegame int16, endgame int16)
//	checksum     uint32   CRC-32 (IEEE) of everything before it
//
// Weights are in 1/16 of a centi-man (WeightShift). Region i < R = (rows-3)
// * (rowLen-1) is the 4x4 region at top row i / (rowLen-1) and left square
// i mod (rowLen-1); region R+r is the row band of rows r and r+1
// (pattern.go).

package eval

import (
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
)

// WeightsMagic opens every weights file.
const WeightsMagic = "DMKEVAL1"

const weightsVersion = 1

// maxWeightsNote bounds a weights file's note.
const maxWeightsNote = 1 << 20

// Weights are one variant's learned evaluation weights.
type Weights struct {
	V engine.VariantID
	// Set is the feature set the weights were trained for and are
	// evaluated with: FeatureSet, 3 (no row bands), or 2 for a file of
	// set 1 or 2 (the patterns without kings; set 1's extra dense weights
	// are 0).
	Set     uint8
	Dense   [NumDense][2]int16 // per dense feature: middlegame and endgame weight
	Pattern [][2]int16         // (regions of V in Set)*PatternSize entries: region*PatternSize + index
	Note    string             // how they were made (the training command and data)

	// board is what Evaluate reads (Prepare): per region and White's view
	// index, the region's weight from White's view minus the weight of
	// the same eight squares from Black's view, so one lookup a region
	// scores both sides.
	board [][2]int16
}

// regionPerm[i] is the pattern index, from the other side's view, of the
// squares whose index is i: the squares in reverse order (the board turned
// half round) and the colours swapped.
var regionPerm = func() (t [PatternSize]uint16) {
	for i := range PatternSize {
		x, out := i, 0
		var d [8]int
		for k := range 8 {
			d[k] = x % 3
			x /= 3
		}
		for k := 7; k >= 0; k-- {
			e := d[7-k]
			if e != 0 {
				e = 3 - e
			}
			out = out*3 + e
		}
		t[i] = uint16(out)
	}
	return t
}()

// Prepare builds the tables Evaluate reads from Pattern. ParseWeights and
// NewWeights call it; call it again after changing Pattern. Entries whose
// combined value does not fit 16 bits are saturated.
func (w *Weights) Prepare() {
	pg := &patternGeoms[w.V]
	n := len(w.Pattern) / PatternSize
	if len(w.board) != n*PatternSize {
		w.board = make([][2]int16, n*PatternSize)
	}
	per := pg.rowLen - 1
	for r := range n {
		r0, j := r/per, r%per
		rot := (pg.rows-4-r0)*per + (per - 1 - j)
		if r >= pg.regions { // a row band: band b turned is band bands-1-b
			rot = pg.regions + pg.bands - 1 - (r - pg.regions)
		}
		own := w.Pattern[r*PatternSize : (r+1)*PatternSize]
		other := w.Pattern[rot*PatternSize : (rot+1)*PatternSize]
		dst := w.board[r*PatternSize : (r+1)*PatternSize]
		for i := range PatternSize {
			o := other[regionPerm[i]]
			for k := range 2 {
				dst[i][k] = int16(max(min(int(own[i][k])-int(o[k]), math.MaxInt16), -math.MaxInt16))
			}
		}
	}
}

// NewWeights returns weights for v with every pattern weight 0 and the
// dense weights of the hand-set prior (priorDense): the starting point of
// training.
func NewWeights(v engine.VariantID) *Weights { return NewWeightsSet(v, FeatureSet) }

// NewWeightsSet is NewWeights in feature set set (a Trainable set; the
// caller checks).
func NewWeightsSet(v engine.VariantID, set uint8) *Weights {
	w := &Weights{V: v, Set: set, Pattern: make([][2]int16, regionsOf(v, set)*PatternSize), Dense: priorDense(v)}
	w.Prepare()
	return w
}

// priorDense is a material-and-mobility evaluation in 1/16 centi-men: a man
// 100, a king worth 140 (English) to 300 (international) centi-men.
func priorDense(v engine.VariantID) (d [NumDense][2]int16) {
	set := func(f int, mg, eg int) { d[f] = [2]int16{int16(mg << WeightShift), int16(eg << WeightShift)} }
	king := 260
	switch v {
	case engine.English:
		king = 140
	case engine.International:
		king = 300
	}
	set(DenseMen, 100, 100)
	set(DenseKings, king, king)
	set(DenseManMob, 2, 2)
	set(DenseKingMob, 2, 2)
	set(DenseBlocked, -4, -4)
	set(DenseTempo, 1, 3)
	set(DenseRunaway, 60, 100)
	set(DenseRunSteps, -6, -10)
	set(DenseTrade, 2, 2)
	return d
}

// MarshalBinary returns w in the weights file format.
func (w *Weights) MarshalBinary() ([]byte, error) {
	set := w.Set
	if set < 2 || set > FeatureSet {
		return nil, fmt.Errorf("weights: feature set %d, want 2 to %d", set, FeatureSet)
	}
	n := regionsOf(w.V, set)
	if len(w.Pattern) != n*PatternSize {
		return nil, fmt.Errorf("weights: %d pattern entries, want %d for %v in feature set %d",
			len(w.Pattern), n*PatternSize, w.V, set)
	}
	b := make([]byte, 0, 32+len(w.Note)+4*(NumDense+n*PatternSize)+4)
	b = append(b, WeightsMagic...)
	le := binary.LittleEndian
	b = le.AppendUint16(b, weightsVersion)
	b = append(b, byte(w.V), set)
	b = le.AppendUint16(b, NumDense)
	b = le.AppendUint16(b, uint16(n))
	b = le.AppendUint32(b, PatternSize)
	b = le.AppendUint32(b, uint32(len(w.Note)))
	b = append(b, w.Note...)
	for _, d := range w.Dense {
		b = le.AppendUint16(b, uint16(d[0]))
		b = le.AppendUint16(b, uint16(d[1]))
	}
	for _, d := range w.Pattern {
		b = le.AppendUint16(b, uint16(d[0]))
		b = le.AppendUint16(b, uint16(d[1]))
	}
	return le.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// ParseWeights reads a weights file. want is the variant the caller plays;
// a file of another variant is refused (the 8x8 variants' boards agree but
// their games do not). Errors say what was wrong: not a weights file, a
// version, variant or feature set it does not match, a size that does not
// fit, or a checksum mismatch (a damaged file).
func ParseWeights(data []byte, want engine.VariantID) (*Weights, error) {
	const head = 24
	if len(data) < head {
		return nil, fmt.Errorf("weights file of %d bytes: too short for the %d-byte header", len(data), head)
	}
	if string(data[:8]) != WeightsMagic {
		return nil, fmt.Errorf("not a damka weights file (magic %q, want %q)", data[:8], WeightsMagic)
	}
	le := binary.LittleEndian
	if ver := le.Uint16(data[8:]); ver != weightsVersion {
		return nil, fmt.Errorf("weights file version %d, want %d", ver, weightsVersion)
	}
	v := engine.VariantID(data[10])
	if v >= engine.NumVariants {
		return nil, fmt.Errorf("weights file variant %d unknown", data[10])
	}
	if v != want {
		return nil, fmt.Errorf("weights file is for %v, not %v", v, want)
	}
	fs := data[11]
	wantDense := NumDense
	set := fs
	switch fs {
	case FeatureSet, 3, 2:
		if le.Uint16(data[12:]) == numDenseV2 {
			wantDense = numDenseV2 // written before DenseKingFirst: it reads as 0
		}
	case 1:
		wantDense = NumDenseV1 // set 2 added dense features: they read as 0
		set = 2
	default:
		return nil, fmt.Errorf("weights file feature set %d, this damka reads 1 to %d", fs, FeatureSet)
	}
	nd, nr, ps := int(le.Uint16(data[12:])), int(le.Uint16(data[14:])), int(le.Uint32(data[16:]))
	if nd != wantDense || nr != regionsOf(v, set) || ps != PatternSize {
		return nil, fmt.Errorf("weights file (feature set %d) has %d dense features, %d regions of %d: want %d, %d, %d",
			fs, nd, nr, ps, wantDense, regionsOf(v, set), PatternSize)
	}
	nl := int(le.Uint32(data[20:]))
	want4 := head + nl + 4*(nd+nr*ps) + 4
	if nl > maxWeightsNote || len(data) != want4 {
		return nil, fmt.Errorf("weights file of %d bytes, want %d (truncated or padded)", len(data), want4)
	}
	if sum := le.Uint32(data[len(data)-4:]); crc32.ChecksumIEEE(data[:len(data)-4]) != sum {
		return nil, errors.New("weights file checksum mismatch: the file is damaged")
	}
	note := data[head : head+nl]
	if !utf8.Valid(note) {
		return nil, errors.New("weights file note is not UTF-8")
	}
	w := &Weights{V: v, Set: set, Note: string(note), Pattern: make([][2]int16, nr*ps)}
	at := head + nl
	for i := range nd {
		w.Dense[i] = [2]int16{int16(le.Uint16(data[at:])), int16(le.Uint16(data[at+2:]))}
		at += 4
	}
	for i := range w.Pattern {
		w.Pattern[i] = [2]int16{int16(le.Uint16(data[at:])), int16(le.Uint16(data[at+2:]))}
		at += 4
	}
	w.Prepare()
	return w, nil
}

// LoadWeights reads the weights file at path for variant v; errors name
// the file.
func LoadWeights(path string, v engine.VariantID) (*Weights, error) {
	data, err := readWeightsData(path)
	if err != nil {
		return nil, err
	}
	w, err := ParseWeights(data, v)
	if err != nil {
		return nil, fmt.Errorf("eval file %s: %w", path, err)
	}
	return w, nil
}

// ReadWeightsFile reads the weights file at path whatever its variant
// (the result's V says which); errors name the file. Front ends that take
// a file before they know the variant of the game use it, and check V
// when the game starts.
func ReadWeightsFile(path string) (*Weights, error) {
	data, err := readWeightsData(path)
	if err != nil {
		return nil, err
	}
	want := engine.VariantID(0)
	if len(data) > 10 && engine.VariantID(data[10]) < engine.NumVariants {
		want = engine.VariantID(data[10]) // ParseWeights checks the rest
	}
	w, err := ParseWeights(data, want)
	if err != nil {
		return nil, fmt.Errorf("eval file %s: %w", path, err)
	}
	return w, nil
}

// maxWeightsFile bounds what readWeightsData reads: more than the largest
// weights file (10x10 with the longest note), so that a device or a huge
// file given by mistake is refused, not read into memory.
const maxWeightsFile = 4 << 20

// readWeightsData reads the file at path, a regular file of at most
// maxWeightsFile bytes (a device or a named pipe is refused, not read).
func readWeightsData(path string) ([]byte, error) {
	data, err := fileread.Read(path, maxWeightsFile)
	if err != nil {
		return nil, fmt.Errorf("eval file: %w", err)
	}
	return data, nil
}

// Title returns the first line of w's note (how the weights were made),
// or "(no note)": what logs say about the weights in use.
func (w *Weights) Title() string {
	t, _, _ := strings.Cut(w.Note, "\n")
	if t = strings.TrimSpace(t); t == "" {
		return "(no note)"
	}
	return t
}

// Save writes w to path.
func (w *Weights) Save(path string) error {
	b, err := w.MarshalBinary()
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

//go:embed weights/*.dkw
var embedded embed.FS

// defaults are the embedded weights, one per variant, read at start.
var defaults = loadDefaults()

func loadDefaults() (d [engine.NumVariants]*Weights) {
	for v := range engine.NumVariants {
		name := "weights/" + v.String() + ".dkw"
		data, err := embedded.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("eval: embedded %s: %v", name, err))
		}
		w, err := ParseWeights(data, v)
		if err != nil {
			panic(fmt.Sprintf("eval: embedded %s: %v", name, err))
		}
		d[v] = w
	}
	return d
}

// Default returns the embedded weights of v (shared: do not change them).
func Default(v engine.VariantID) *Weights { return defaults[v] }
