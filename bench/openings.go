// openings.go: opening decks for the match runner, read from the ACF
// 3-move TSV, pydraughts-style JSON ballot files, PDN files and plain lines
// of FEN.

package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"damka/engine"
)

// Opening is one start of a match game: a position and the moves played
// from it before the engines take over (both may be empty of meaning: an
// opening can be a bare FEN, or the variant's start position and a few
// moves). Every move is legal in order.
type Opening struct {
	Name  string          // shown in the PDN Opening tag; unique within a deck
	Start engine.Position // where the game record starts
	Moves []engine.Move   // opening moves, legal in order from Start
}

// Position returns the position the engines start from (Start after Moves).
func (o *Opening) Position() engine.Position {
	p := o.Start
	for _, m := range o.Moves {
		p = p.Play(m)
	}
	return p
}

// LoadOpenings reads the openings of file for variant v. The format is
// chosen from the file name and content:
//
//   - ".tsv": the ACF 3-move list (shared/data/draughts/acf_3move_ballots.tsv,
//     columns acf_no, moves, deck, name, FEN): the 156-opening tournament
//     deck, i.e. the rows whose deck is "crossboard" or "mailplay" (with or
//     without a "+ctd" suffix: 144 + 12 rows); "barred" rows are skipped. The moves are replayed from the start position and
//     must reach the row's FEN.
//   - ".json": a pydraughts ballot file: an object name -> FEN (numeric or
//     algebraic squares), or pydraughts' layout {"all": {name: FEN, ...},
//     "standard": [name, ...], ...}, of which the "standard" names are
//     taken when the list is there, else all of "all". Order is the file's
//     (the "standard" list's). For English prefer the TSV: pydraughts'
//     3-move "standard" list has 157 names, not the 156-opening deck.
//   - ".pdn": each game is an opening: its FEN tag (or the start position)
//     and its moves. The name is the Opening tag, else the Event tag, else
//     "game N".
//   - anything else: one opening per line, a PDN FEN or a Hub position
//     string; an optional name follows a ';'. Blank lines and lines starting
//     with '#' are skipped.
//
// Errors name the file and the line, key or game that was wrong. An opening
// in which the side to move has no legal move (or a draw rule already
// applies) is an error, as is an empty deck.
func LoadOpenings(file string, v engine.VariantID) ([]Opening, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	var ops []Opening
	switch strings.ToLower(filepath.Ext(file)) {
	case ".tsv":
		ops, err = ParseACFTSV(bytes.NewReader(data), v)
	case ".json":
		ops, err = ParseBallotJSON(data, v)
	case ".pdn":
		ops, err = ParsePDNOpenings(bytes.NewReader(data), v)
	default:
		ops, err = ParseFENLines(bytes.NewReader(data), v)
	}
	if err != nil {
		return nil, fmt.Errorf("openings %s: %w", file, err)
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("openings %s: no openings", file)
	}
	if all8x8(ops) {
		return nil, fmt.Errorf("openings %s: every position stands on a1-h8: an 8x8 file, not %s", file, v)
	}
	if err := checkOpenings(ops); err != nil {
		return nil, fmt.Errorf("openings %s: %w", file, err)
	}
	return ops, nil
}

// all8x8 reports whether every opening of a 10x10 variant is an 8x8
// position read on the larger board (see engine.Position.Within8x8).
func all8x8(ops []Opening) bool {
	for i := range ops {
		if !ops[i].Start.Within8x8() {
			return false
		}
	}
	return len(ops) > 0
}

// checkOpenings rejects finished openings and makes names unique by
// appending " #2", " #3" to repeats.
func checkOpenings(ops []Opening) error {
	seen := map[string]int{}
	for i := range ops {
		o := &ops[i]
		g := engine.NewGame(o.Start)
		for _, m := range o.Moves {
			g.Play(m)
		}
		if r, why := g.Result(); r != engine.Ongoing {
			return fmt.Errorf("opening %q: the game is already over (%s)", o.Name, why)
		}
		seen[o.Name]++
		if n := seen[o.Name]; n > 1 {
			o.Name = fmt.Sprintf("%s #%d", o.Name, n)
		}
	}
	return nil
}

// ParseACFTSV reads the ACF 3-move TSV (see LoadOpenings) for English
// checkers: the crossboard and mailplay rows, in file order, each named
// "ACF NNN m1 m2 m3" (plus the row's name when it has one).
func ParseACFTSV(r io.Reader, v engine.VariantID) ([]Opening, error) {
	if v != engine.English {
		return nil, fmt.Errorf("the ACF 3-move deck is for english, not %s", v)
	}
	sc := bufio.NewScanner(r)
	var ops []Opening
	line := 0
	col := map[string]int{}
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if len(col) == 0 {
			for i, name := range f {
				col[strings.ToLower(strings.TrimSpace(name))] = i
			}
			for _, need := range []string{"acf_no", "moves", "deck"} {
				if _, ok := col[need]; !ok {
					return nil, fmt.Errorf("line 1: header has no %q column (want acf_no, moves, deck, name, FEN)", need)
				}
			}
			continue
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(f) {
				return strings.TrimSpace(f[i])
			}
			return ""
		}
		deck := strings.ToLower(get("deck"))
		// "crossboard+ctd" and "mailplay+ctd" are in the deck too.
		kind, _, _ := strings.Cut(deck, "+")
		switch kind {
		case "barred":
			continue
		case "crossboard", "mailplay":
		default:
			return nil, fmt.Errorf("line %d: deck %q: want crossboard, mailplay or barred", line, deck)
		}
		var no int
		if _, err := fmt.Sscanf(get("acf_no"), "%d", &no); err != nil {
			return nil, fmt.Errorf("line %d: acf_no %q is not a number", line, get("acf_no"))
		}
		moves := strings.Fields(get("moves"))
		o := Opening{Name: fmt.Sprintf("ACF %03d %s", no, strings.Join(moves, " ")), Start: engine.StartPosition(v)}
		if n := get("name"); n != "" {
			o.Name += " (" + n + ")"
		}
		p := o.Start
		for _, mt := range moves {
			m, err := p.ParseMove(mt)
			if err != nil {
				return nil, fmt.Errorf("line %d: move %q: %w", line, mt, err)
			}
			o.Moves = append(o.Moves, m)
			p = p.Play(m)
		}
		// The FEN column is the last one ("fen_after_3_moves(pydraughts)").
		if fen := strings.TrimSpace(f[len(f)-1]); len(f) > 4 && strings.Contains(fen, ":") {
			want, err := engine.ParseFEN(v, fen)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			if want.Pieces != p.Pieces || want.Kings != p.Kings || want.Side != p.Side {
				return nil, fmt.Errorf("line %d: the moves %q reach %s, not the FEN column's %s", line, get("moves"), p.FEN(), fen)
			}
		}
		ops = append(ops, o)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return ops, nil
}

// ParseBallotJSON reads a pydraughts ballot file (see LoadOpenings).
func ParseBallotJSON(data []byte, v engine.VariantID) ([]Opening, error) {
	top, err := orderedObject(data)
	if err != nil {
		return nil, err
	}
	if len(top) == 0 {
		return nil, errors.New("empty JSON object")
	}
	entries := top
	var all, standard json.RawMessage
	for _, e := range top {
		switch e.key {
		case "all":
			all = e.value
		case "standard":
			standard = e.value
		}
	}
	if len(all) > 0 && all[0] == '{' {
		// pydraughts: "all" maps names to FENs; "standard" (and "lost")
		// list names of it.
		if entries, err = orderedObject(all); err != nil {
			return nil, fmt.Errorf("group \"all\": %w", err)
		}
		if len(standard) > 0 {
			var names []string
			if err := json.Unmarshal(standard, &names); err != nil {
				return nil, fmt.Errorf("group \"standard\": want a list of ballot names: %v", err)
			}
			byName := map[string]jsonEntry{}
			for _, e := range entries {
				byName[e.key] = e
			}
			entries = entries[:0:0]
			for _, n := range names {
				e, ok := byName[n]
				if !ok {
					return nil, fmt.Errorf("group \"standard\": ballot %q is not in \"all\"", n)
				}
				entries = append(entries, e)
			}
		}
	}
	ops := make([]Opening, 0, len(entries))
	for _, e := range entries {
		var fen string
		if err := json.Unmarshal(e.value, &fen); err != nil {
			return nil, fmt.Errorf("ballot %q: want a FEN string: %v", e.key, err)
		}
		p, err := engine.ParseFEN(v, fen)
		if err != nil {
			return nil, fmt.Errorf("ballot %q: %w", e.key, err)
		}
		ops = append(ops, Opening{Name: e.key, Start: p})
	}
	return ops, nil
}

// jsonEntry is one member of a JSON object, in file order.
type jsonEntry struct {
	key   string
	value json.RawMessage
}

// orderedObject returns the members of the JSON object data in file order.
func orderedObject(data []byte) ([]jsonEntry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("want a JSON object of name -> FEN")
	}
	var out []jsonEntry
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("bad JSON: %w", err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("bad JSON at %q: %w", key, err)
		}
		out = append(out, jsonEntry{key, raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	return out, nil
}

// ParsePDNOpenings reads every game of a PDN stream as an opening (see
// LoadOpenings). A game of another variant than v is an error.
func ParsePDNOpenings(r io.Reader, v engine.VariantID) ([]Opening, error) {
	pr := engine.NewPDNReader(r, v)
	var ops []Opening
	for i := 1; ; i++ {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			return ops, nil
		}
		if err != nil {
			return nil, err
		}
		if g.Variant != v {
			return nil, fmt.Errorf("game %d (line %d) is %s, the match is %s", i, g.Line, g.Variant, v)
		}
		name := g.Tag("Opening")
		if name == "" {
			name = g.Tag("Event")
		}
		if name == "" || name == "?" {
			name = fmt.Sprintf("game %d", i)
		}
		ops = append(ops, Opening{Name: name, Start: g.Start, Moves: g.Moves})
	}
}

// ParseFENLines reads one opening per line: a PDN FEN or a Hub position,
// optionally followed by ';' and a name (see LoadOpenings).
func ParseFENLines(r io.Reader, v engine.VariantID) ([]Opening, error) {
	sc := bufio.NewScanner(r)
	var ops []Opening
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		name := fmt.Sprintf("line %d", line)
		if i := strings.IndexByte(text, ';'); i >= 0 {
			if n := strings.TrimSpace(text[i+1:]); n != "" {
				name = n
			}
			text = strings.TrimSpace(text[:i])
		}
		p, err := engine.ParsePosition(v, text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		ops = append(ops, Opening{Name: name, Start: p})
	}
	return ops, sc.Err()
}
