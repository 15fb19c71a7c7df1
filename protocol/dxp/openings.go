// openings.go: reading the initiator's opening positions from a file.

package dxp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"damka/engine"
)

// maxOpeningsBytes bounds an openings file.
const maxOpeningsBytes = 64 << 20

// ReadOpenings reads opening positions of variant v from r, in one of two
// forms, told apart by the first line that is not blank or a comment:
//
//   - one position per line, a PDN FEN ("W:W31-50:B1-20") or a Hub position
//     string (51 or 33 characters); blank lines and lines starting with
//     '#' or ';' are skipped;
//   - PDN: each game gives the position after its moves, played from its
//     FEN tag or from the start position (so both set-up positions and
//     opening lines work). Games without a GameType tag are of variant v;
//     a game of another variant is an error.
//
// Every position must be an unfinished game (the side to move has a legal
// move). Errors name the line or the game. Input beyond 64 MiB is an
// error.
func ReadOpenings(r io.Reader, v engine.VariantID) ([]engine.Position, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxOpeningsBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxOpeningsBytes {
		return nil, fmt.Errorf("openings: more than %d MiB", maxOpeningsBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if isFENList(data) {
		return readFENLines(data, v)
	}
	return readPDNOpenings(data, v)
}

// isFENList reports whether the first meaningful line looks like a FEN or
// a Hub position (it starts with the side to move, or a quote).
func isFENList(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxOpeningsBytes)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		switch line[0] {
		case 'W', 'B', 'w', 'b', '"':
			return true
		}
		return false
	}
	return true
}

func readFENLines(data []byte, v engine.VariantID) ([]engine.Position, error) {
	var out []engine.Position
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxOpeningsBytes)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		p, err := engine.ParsePosition(v, line)
		if err != nil {
			return nil, fmt.Errorf("openings line %d: %v", n, err)
		}
		if err := playable(p); err != nil {
			return nil, fmt.Errorf("openings line %d: %v", n, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openings line %d: %v", n+1, err)
	}
	if len(out) == 0 {
		return nil, errors.New("openings: no position in the file")
	}
	return out, nil
}

func readPDNOpenings(data []byte, v engine.VariantID) ([]engine.Position, error) {
	var out []engine.Position
	r := engine.NewPDNReader(bytes.NewReader(data), v)
	for i := 1; ; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("openings: %v", err)
		}
		if g.Variant != v {
			return nil, fmt.Errorf("openings: game %d (line %d) is %s, the match is %s", i, g.Line, g.Variant, v)
		}
		p := g.Position()
		if err := playable(p); err != nil {
			return nil, fmt.Errorf("openings: game %d (line %d): %v", i, g.Line, err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, errors.New("openings: no game in the PDN file")
	}
	return out, nil
}

// playable checks that p is an unfinished game.
func playable(p engine.Position) error {
	if r, why := engine.NewGame(p).Result(); r != engine.Ongoing {
		return fmt.Errorf("position %s: the game is over (%v)", p.FEN(), why)
	}
	return nil
}
