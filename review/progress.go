// progress.go: the progress file of a review (OUT.partial beside the
// output), which keeps the games reviewed so far so that an interrupted
// review goes on where it stopped (damka review --resume).

package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"damka/engine"
)

// ProgressSuffix names the progress file of a review: OUT.partial beside
// the output OUT.
const ProgressSuffix = ".partial"

// Line prefixes of the progress file. Both lines are PDN line comments, so
// the file reads as a PDN file of the games reviewed so far.
const (
	progressHeaderPrefix = "; damka review progress "
	progressGamePrefix   = "; damka review game "
)

// Stamp is what a review's result depends on, written as the first
// line of its progress file: a progress file is resumed only by a review
// with the same stamp (the input's name aside).
type Stamp struct {
	Input    string `json:"input"`    // the input file's name, for a person reading the file (not compared)
	Size     int64  `json:"size"`     // the input's size in bytes
	SHA256   string `json:"sha256"`   // the input's content, hex
	Variant  string `json:"variant"`  // the variant of games without a GameType tag
	Limits   string `json:"limits"`   // the search limit, as in the Annotator tag
	Version  string `json:"version"`  // damka's version (it is in the Annotator tag)
	Settings string `json:"settings"` // the engine settings that change scores
}

// NewStamp returns the stamp of a review of data (the content of file
// in) of variant v under limits, by damka version version, with the
// engine settings that change scores (settings, as text).
func NewStamp(in string, data []byte, v engine.VariantID, limits, version, settings string) Stamp {
	sum := sha256.Sum256(data)
	return Stamp{Input: in, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]),
		Variant: v.String(), Limits: limits, Version: version, Settings: settings}
}

// Differences lists what differs between the stamp of a progress file (s)
// and that of the review now (now), each as `WHAT "FILE's" (now "NOW's")`;
// none when the file can be resumed. The input's name is not compared.
func (s Stamp) Differences(now Stamp) []string {
	var d []string
	diff := func(what, a, b string) {
		if a != b {
			d = append(d, fmt.Sprintf("%s %q (now %q)", what, a, b))
		}
	}
	diff("input size", fmt.Sprint(s.Size), fmt.Sprint(now.Size))
	diff("input sha256", s.SHA256, now.SHA256)
	diff("variant", s.Variant, now.Variant)
	diff("limit", s.Limits, now.Limits)
	diff("version", s.Version, now.Version)
	diff("settings", s.Settings, now.Settings)
	return d
}

// progressGame is the line before each game of a progress file: what the
// summary needs of the game and the length of its PDN text, which follows.
type progressGame struct {
	Index  int       `json:"index"`
	Bytes  int       `json:"bytes"`
	Result string    `json:"result"`
	Names  [2]string `json:"names"`
	Sides  [2]Side   `json:"sides"`
	SHA256 string    `json:"sha256"` // of the PDN text
}

// ProgressFile is an open progress file, appended to game by game.
type ProgressFile struct {
	name string
	f    *os.File
	n    int // games in the file
}

// ErrProgress marks the errors of a progress file that are the file's or
// the caller's (a file of another review, a damaged header, a file that
// cannot be opened), as against write errors.
var ErrProgress = errors.New("review progress")

// Games returns the number of games in the file.
func (pf *ProgressFile) Games() int { return pf.n }

// ReadProgress reads the progress file name of a review stamped now: the
// games it holds by index, and the length of its good part (a half-written
// last record is left out and reported on warn). A file of another review
// is refused with an error wrapping ErrProgress that names what differs; a
// file whose header line is incomplete holds nothing (size 0).
func ReadProgress(name string, now Stamp, warn io.Writer) (map[int]*Game, int64, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrProgress, err)
	}
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	header := []byte(progressHeaderPrefix)
	if !ok && (bytes.HasPrefix(header, line) || bytes.HasPrefix(line, header)) {
		fmt.Fprintf(warn, "%s: half-written header dropped; the review starts from the beginning\n", name)
		return map[int]*Game{}, 0, nil
	}
	if !ok || !bytes.HasPrefix(line, header) {
		return nil, 0, fmt.Errorf("%w: %s is not a damka review progress file: delete it or give another --out", ErrProgress, name)
	}
	var was Stamp
	if err := json.Unmarshal(line[len(progressHeaderPrefix):], &was); err != nil {
		return nil, 0, fmt.Errorf("%w: %s: bad header line: %v: delete it to start over", ErrProgress, name, err)
	}
	if d := was.Differences(now); len(d) > 0 {
		return nil, 0, fmt.Errorf("%w: %s is the progress of another review (%s): delete it to start over, or run the review it was made for", ErrProgress,
			name, strings.Join(d, ", "))
	}
	games := map[int]*Game{}
	good := int64(len(line) + 1)
	for len(rest) > 0 {
		rv, n, err := readProgressGame(rest)
		if err != nil {
			fmt.Fprintf(warn, "%s: half-written last record dropped (%v); its game is reviewed again\n", name, err)
			break
		}
		if games[rv.Index] != nil {
			return nil, 0, fmt.Errorf("%w: %s: game %d twice: delete it to start over", ErrProgress, name, rv.Index)
		}
		games[rv.Index] = rv
		rest = rest[n:]
		good += int64(n)
	}
	return games, good, nil
}

// readProgressGame reads the first game record of b: the game and the
// record's length.
func readProgressGame(b []byte) (*Game, int, error) {
	line, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		return nil, 0, errors.New("incomplete game line")
	}
	if !bytes.HasPrefix(line, []byte(progressGamePrefix)) {
		return nil, 0, errors.New("no game line")
	}
	var pg progressGame
	if err := json.Unmarshal(line[len(progressGamePrefix):], &pg); err != nil {
		return nil, 0, fmt.Errorf("bad game line: %v", err)
	}
	if pg.Index < 1 || pg.Bytes < 0 || pg.Bytes > len(rest) {
		return nil, 0, fmt.Errorf("game %d incomplete", pg.Index)
	}
	rec := rest[:pg.Bytes]
	if sum := sha256.Sum256(rec); hex.EncodeToString(sum[:]) != pg.SHA256 {
		return nil, 0, fmt.Errorf("game %d damaged", pg.Index)
	}
	rv := &Game{Index: pg.Index, Names: pg.Names, Sides: pg.Sides, Result: pg.Result,
		Record: bytes.Clone(rec)}
	return rv, len(line) + 1 + pg.Bytes, nil
}

// CreateProgress starts the progress file name with the header of stamp.
func CreateProgress(name string, stamp Stamp) (*ProgressFile, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProgress, err)
	}
	head, err := json.Marshal(stamp)
	if err != nil {
		f.Close()
		return nil, err
	}
	pf := &ProgressFile{name: name, f: f}
	if err := pf.write([]byte(progressHeaderPrefix + string(head) + "\n")); err != nil {
		f.Close()
		return nil, err
	}
	return pf, nil
}

// AppendProgress opens the progress file name to go on after its first
// size bytes (what readProgress found good), with games games in it.
func AppendProgress(name string, size int64, games int) (*ProgressFile, error) {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProgress, err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &ProgressFile{name: name, f: f, n: games}, nil
}

// write writes b and syncs the file, so that a record is on disk before
// the next game is reviewed.
func (pf *ProgressFile) write(b []byte) error {
	if _, err := pf.f.Write(b); err != nil {
		return fmt.Errorf("%s: %v", pf.name, err)
	}
	if err := pf.f.Sync(); err != nil {
		return fmt.Errorf("%s: %v", pf.name, err)
	}
	return nil
}

// Add appends the record of a reviewed game: its game line and its PDN
// text, as one write.
func (pf *ProgressFile) Add(rv *Game) error {
	text, err := rv.PDN()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(text)
	line, err := json.Marshal(progressGame{Index: rv.Index, Bytes: len(text), Result: rv.Result,
		Names: rv.Names, Sides: rv.Sides, SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return err
	}
	rec := append([]byte(progressGamePrefix), line...)
	rec = append(append(rec, '\n'), text...)
	if err := pf.write(rec); err != nil {
		return err
	}
	pf.n++
	return nil
}

// Close closes the file; remove also removes it.
func (pf *ProgressFile) Close(remove bool) error {
	err := pf.f.Close()
	if remove {
		if rerr := os.Remove(pf.name); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}
