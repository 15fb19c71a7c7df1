// reviewresume.go: the progress file of `damka review` (OUT.partial), which
// keeps the games reviewed so far so that `damka review --resume` goes on
// after an interruption.

package cli

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
	"damka/player"
	"damka/review"
)

// progressSuffix names the progress file of a review: OUT.partial beside
// the output OUT.
const progressSuffix = ".partial"

// Line prefixes of the progress file. Both lines are PDN line comments, so
// the file reads as a PDN file of the games reviewed so far.
const (
	progressHeaderPrefix = "; damka review progress "
	progressGamePrefix   = "; damka review game "
)

// reviewStamp is what a review's result depends on, written as the first
// line of its progress file: a progress file is resumed only by a review
// with the same stamp (the input's name aside).
type reviewStamp struct {
	Input    string `json:"input"`    // the input file's name, for the messages only
	Size     int64  `json:"size"`     // the input's size in bytes
	SHA256   string `json:"sha256"`   // the input's content, hex
	Variant  string `json:"variant"`  // the variant of games without a GameType tag
	Limits   string `json:"limits"`   // the search limit, as in the Annotator tag
	Version  string `json:"version"`  // damka's version (it is in the Annotator tag)
	Settings string `json:"settings"` // the engine settings that change scores
}

// reviewSettings returns the engine settings of p that change a review's
// scores, for its stamp: "eval-file=F egdb-path=D egdb-pieces=N", with
// the SHA-256 of the eval file's content after its name (a file of the
// same name with other weights is another review).
func reviewSettings(p *player.Player) (string, error) {
	var settings []string
	for _, name := range []string{player.SetEvalFile, player.SetEGDBPath, player.SetEGDBPieces} {
		val, err := p.Get(name)
		if err != nil {
			return "", err
		}
		if name == player.SetEvalFile && val != "" {
			data, err := os.ReadFile(val)
			if err != nil {
				return "", badInput("--%s: %v", name, err)
			}
			sum := sha256.Sum256(data)
			val += "@sha256:" + hex.EncodeToString(sum[:8])
		}
		settings = append(settings, name+"="+val)
	}
	return strings.Join(settings, " "), nil
}

// newReviewStamp returns the stamp of a review of data (the content of
// file in).
func newReviewStamp(in string, data []byte, v engine.VariantID, limits, settings string) reviewStamp {
	sum := sha256.Sum256(data)
	return reviewStamp{Input: in, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]),
		Variant: v.String(), Limits: limits, Version: version, Settings: settings}
}

// differences lists what differs between the stamp of a progress file (s)
// and that of the review now (now), as "WHAT: FILE's vs NOW's".
func (s reviewStamp) differences(now reviewStamp) []string {
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
	Index  int            `json:"index"`
	Bytes  int            `json:"bytes"`
	Result string         `json:"result"`
	Names  [2]string      `json:"names"`
	Sides  [2]review.Side `json:"sides"`
	SHA256 string         `json:"sha256"` // of the PDN text
}

// progressFile is an open progress file, appended to game by game.
type progressFile struct {
	name string
	f    *os.File
	n    int // games in the file
}

// readProgress reads the progress file name of a review stamped now: the
// games it holds by index, and the length of its good part (a half-written
// last record is left out and reported on warn). A file of another review
// is refused as bad input naming what differs; a file whose header line is
// incomplete holds nothing (size 0).
func readProgress(name string, now reviewStamp, warn io.Writer) (map[int]*review.Game, int64, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, 0, badInput("--resume: %v", err)
	}
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	header := []byte(progressHeaderPrefix)
	if !ok && (bytes.HasPrefix(header, line) || bytes.HasPrefix(line, header)) {
		fmt.Fprintf(warn, "%s: half-written header dropped; the review starts from the beginning\n", name)
		return map[int]*review.Game{}, 0, nil
	}
	if !ok || !bytes.HasPrefix(line, header) {
		return nil, 0, badInput("%s is not a damka review progress file: delete it or give another --out", name)
	}
	var was reviewStamp
	if err := json.Unmarshal(line[len(progressHeaderPrefix):], &was); err != nil {
		return nil, 0, badInput("%s: bad header line: %v: delete it to start over", name, err)
	}
	if d := was.differences(now); len(d) > 0 {
		return nil, 0, badInput("%s is the progress of another review (%s): delete it to start over, or run the review it was made for",
			name, strings.Join(d, ", "))
	}
	games := map[int]*review.Game{}
	good := int64(len(line) + 1)
	for len(rest) > 0 {
		rv, n, err := readProgressGame(rest)
		if err != nil {
			fmt.Fprintf(warn, "%s: half-written last record dropped (%v); its game is reviewed again\n", name, err)
			break
		}
		if games[rv.Index] != nil {
			return nil, 0, badInput("%s: game %d twice: delete it to start over", name, rv.Index)
		}
		games[rv.Index] = rv
		rest = rest[n:]
		good += int64(n)
	}
	return games, good, nil
}

// readProgressGame reads the first game record of b: the game and the
// record's length.
func readProgressGame(b []byte) (*review.Game, int, error) {
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
	rv := &review.Game{Index: pg.Index, Names: pg.Names, Sides: pg.Sides, Result: pg.Result,
		Record: bytes.Clone(rec)}
	return rv, len(line) + 1 + pg.Bytes, nil
}

// createProgress starts the progress file name with the header of stamp.
func createProgress(name string, stamp reviewStamp) (*progressFile, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, badInput("--out: progress file: %v", err)
	}
	head, err := json.Marshal(stamp)
	if err != nil {
		f.Close()
		return nil, err
	}
	pf := &progressFile{name: name, f: f}
	if err := pf.write([]byte(progressHeaderPrefix + string(head) + "\n")); err != nil {
		f.Close()
		return nil, err
	}
	return pf, nil
}

// appendProgress opens the progress file name to go on after its first
// size bytes (what readProgress found good), with games games in it.
func appendProgress(name string, size int64, games int) (*progressFile, error) {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return nil, badInput("--resume: %v", err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &progressFile{name: name, f: f, n: games}, nil
}

// write writes b and syncs the file, so that a record is on disk before
// the next game is reviewed.
func (pf *progressFile) write(b []byte) error {
	if _, err := pf.f.Write(b); err != nil {
		return fmt.Errorf("%s: %v", pf.name, err)
	}
	if err := pf.f.Sync(); err != nil {
		return fmt.Errorf("%s: %v", pf.name, err)
	}
	return nil
}

// add appends the record of a reviewed game: its game line and its PDN
// text, as one write.
func (pf *progressFile) add(rv *review.Game) error {
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

// close closes the file; remove also removes it.
func (pf *progressFile) close(remove bool) error {
	err := pf.f.Close()
	if remove {
		if rerr := os.Remove(pf.name); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}
