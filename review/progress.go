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
	"path/filepath"
	"strings"

	"github.com/damka-draughts/damka/engine"
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

// Progress is what ReadProgress found in a progress file.
type Progress struct {
	Games map[int]*Game // the games of its sound records, by index
	// Size is the length of the file's sound beginning: the header and
	// the records before the first damaged one (0: a half-written header).
	Size int64
	// Kept is the file without its damaged records (the header and every
	// sound record, in file order) when a damaged record has sound ones
	// after it; nil when the sound records are the first Size bytes.
	Kept []byte
}

// ReadProgress reads the progress file name of a review stamped now. Every
// sound record is kept: a damaged record in the middle of the file is left
// out, with a warning on warn naming its line and place, and the records
// after it are read on; a half-written last record (a run stopped while
// writing it) is left out with a warning too. The games of the records
// left out are not in the result, so they are reviewed again. A file of
// another review is refused with an error wrapping ErrProgress that names
// what differs; a file whose header line is incomplete holds nothing
// (Size 0).
func ReadProgress(name string, now Stamp, warn io.Writer) (*Progress, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProgress, err)
	}
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	header := []byte(progressHeaderPrefix)
	if !ok && (bytes.HasPrefix(header, line) || bytes.HasPrefix(line, header)) {
		fmt.Fprintf(warn, "%s: half-written header dropped; the review starts from the beginning\n", name)
		return &Progress{Games: map[int]*Game{}}, nil
	}
	if !ok || !bytes.HasPrefix(line, header) {
		return nil, fmt.Errorf("%w: %s is not a damka review progress file: delete it or give another --out", ErrProgress, name)
	}
	var was Stamp
	if err := json.Unmarshal(line[len(progressHeaderPrefix):], &was); err != nil {
		return nil, fmt.Errorf("%w: %s: bad header line: %v: delete it to start over", ErrProgress, name, err)
	}
	if d := was.Differences(now); len(d) > 0 {
		return nil, fmt.Errorf("%w: %s is the progress of another review (%s): delete it to start over, or run the review it was made for", ErrProgress,
			name, strings.Join(d, ", "))
	}
	pr := &Progress{Games: map[int]*Game{}, Size: int64(len(line) + 1)}
	var kept [][]byte // the sound parts, once a damaged record is left out
	damaged := false
	record := 0 // records read or left out so far
	lineNo := 2 // the line rest starts on
	for len(rest) > 0 {
		rv, n, err := readProgressGame(rest)
		if err == nil {
			if pr.Games[rv.Index] != nil {
				return nil, fmt.Errorf("%w: %s: line %d: game %d twice: delete it to start over", ErrProgress, name, lineNo, rv.Index)
			}
			record++
			pr.Games[rv.Index] = rv
			if damaged {
				kept = append(kept, rest[:n])
			} else {
				pr.Size += int64(n)
			}
			lineNo += bytes.Count(rest[:n], []byte("\n"))
			rest = rest[n:]
			continue
		}
		next := nextProgressGame(rest)
		if next < 0 {
			// Nothing sound after it: the end of the file is damaged.
			if starts := progressGameStarts(rest); starts > 1 {
				fmt.Fprintf(warn, "%s: the last %d records (%d to %d, from line %d) are damaged (%v): they are dropped and their games reviewed again\n",
					name, starts, record+1, record+starts, lineNo, err)
			} else {
				fmt.Fprintf(warn, "%s: half-written last record dropped (record %d, line %d: %v); its game is reviewed again\n",
					name, record+1, lineNo, err)
			}
			if damaged {
				pr.Kept = bytes.Join(kept, nil)
			}
			return pr, nil
		}
		starts := max(progressGameStarts(rest[:next]), 1)
		if starts == 1 {
			fmt.Fprintf(warn, "%s: record %d (line %d), in the middle of the file, is damaged (%v): it is dropped and its game reviewed again; the records after it are kept\n",
				name, record+1, lineNo, err)
		} else {
			fmt.Fprintf(warn, "%s: records %d to %d (from line %d), in the middle of the file, are damaged (%v): they are dropped and their games reviewed again; the records after them are kept\n",
				name, record+1, record+starts, lineNo, err)
		}
		record += starts
		if !damaged {
			kept = append(kept, data[:pr.Size])
			damaged = true
		}
		lineNo += bytes.Count(rest[:next], []byte("\n"))
		rest = rest[next:]
	}
	if damaged {
		pr.Kept = bytes.Join(kept, nil)
	}
	return pr, nil
}

// nextProgressGame returns the offset in b of the first sound game record
// that starts on a line after b's first, or -1 when there is none.
func nextProgressGame(b []byte) int {
	sep := []byte("\n" + progressGamePrefix)
	for off := 0; ; {
		i := bytes.Index(b[off:], sep)
		if i < 0 {
			return -1
		}
		off += i + 1
		if _, _, err := readProgressGame(b[off:]); err == nil {
			return off
		}
	}
}

// progressGameStarts counts the lines of b that start as a game record's
// first line.
func progressGameStarts(b []byte) int {
	n := bytes.Count(b, []byte("\n"+progressGamePrefix))
	if bytes.HasPrefix(b, []byte(progressGamePrefix)) {
		n++
	}
	return n
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
		return nil, 0, fmt.Errorf("game %d: its text does not match its sha256", pg.Index)
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
// size bytes (what ReadProgress found sound), with games games in it.
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

// ResumeProgress opens the progress file name of a review stamped now to
// go on with it: it reads the file (ReadProgress, warnings on warn), cuts
// it back to its sound records and returns it open for appending, with the
// games it holds by index. When a damaged record had sound ones after it,
// the file is first written again without it, through a temporary file
// renamed over it, so that no sound record is lost if the rewrite is
// interrupted.
func ResumeProgress(name string, now Stamp, warn io.Writer) (*ProgressFile, map[int]*Game, error) {
	pr, err := ReadProgress(name, now, warn)
	if err != nil {
		return nil, nil, err
	}
	var pf *ProgressFile
	switch {
	case pr.Kept != nil:
		if err = replaceFile(name, pr.Kept); err == nil {
			pf, err = AppendProgress(name, int64(len(pr.Kept)), len(pr.Games))
		}
	case pr.Size > 0:
		pf, err = AppendProgress(name, pr.Size, len(pr.Games))
	default:
		pf, err = CreateProgress(name, now)
	}
	if err != nil {
		return nil, nil, err
	}
	return pf, pr.Games, nil
}

// replaceFile writes b to name through a temporary file in its folder,
// synced and renamed over it.
func replaceFile(name string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
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
