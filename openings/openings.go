// Package openings reads opening decks, the one reader of damka match,
// damka selfplay and damka dxp --openings: the ACF 3-move TSV,
// pydraughts-style JSON ballot files, PDN files and plain lines of FEN
// (or Hub position strings), each opening optionally named.
//
// It imports only the rules core (engine), so that every layer above
// (protocol/dxp, bench, cmd/damka) can use it.
package openings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/fileread"
	"github.com/damka-draughts/damka/pdn"
)

// MaxBytes bounds an openings file (64 MiB).
const MaxBytes = 64 << 20

// Opening is one start of a game: a position and the moves played from it
// before the engines take over (an opening can be a bare FEN, or the
// variant's start position and a few moves). Every move is legal in order.
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

// Positions returns the positions the engines start from, one per opening
// (the form DXP's GAMEREQ carries).
func Positions(ops []Opening) []engine.Position {
	out := make([]engine.Position, len(ops))
	for i := range ops {
		out[i] = ops[i].Position()
	}
	return out
}

// Load reads the openings of file for variant v. The format is chosen from
// the file name and content:
//
//   - ".tsv": the ACF 3-move list (testdata/draughts/acf_3move_ballots.tsv,
//     columns acf_no, moves, deck, name, FEN): the 156-opening tournament
//     deck, i.e. the rows whose deck is "crossboard" or "mailplay" (with or
//     without a "+ctd" suffix: 144 + 12 rows); "barred" rows are skipped.
//     The moves are replayed from the start position and must reach the
//     row's FEN.
//   - ".json": a pydraughts ballot file: an object name -> FEN (numeric or
//     algebraic squares), or pydraughts' layout {"all": {name: FEN, ...},
//     "standard": [name, ...], ...}, of which the "standard" names are
//     taken when the list is there, else all of "all". Order is the file's
//     (the "standard" list's). For English prefer the TSV: pydraughts'
//     3-move "standard" list has 157 names, not the 156-opening deck.
//   - ".pdn", or any other file whose first line that is not blank or a
//     comment does not start with a side to move (W, B) or a quote: PDN;
//     each game is an opening: its FEN tag (or the start position) and its
//     moves. Games without a GameType tag are of variant v; a game of
//     another variant is an error. The name is the Opening tag, else the
//     Event tag, else "game N".
//   - anything else: one opening per line, a PDN FEN or a Hub position
//     string; an optional name follows a ';' ("FEN ; name"). Blank lines
//     and lines starting with '#' or ';' are skipped.
//
// A UTF-8 byte order mark is skipped; a file over MaxBytes is an error.
// Errors name the file and the line, key or game that was wrong. An
// opening in which the side to move has no legal move (or a draw rule
// already applies) is an error, as is an empty deck, and an 8x8 file read
// for a 10x10 variant.
func Load(file string, v engine.VariantID) ([]Opening, error) {
	f, err := fileread.Open(file)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	ops, err := Read(f, filepath.Ext(file), v)
	if err != nil {
		return nil, fmt.Errorf("openings %s: %w", file, err)
	}
	return ops, nil
}

// Read reads openings of variant v from r in the format of a file with
// extension ext (".tsv", ".json", ".pdn", or anything else: see Load),
// with every check of Load. Errors name the line, key or game.
func Read(r io.Reader, ext string, v engine.VariantID) ([]Opening, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("more than %d MiB", MaxBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var ops []Opening
	switch strings.ToLower(ext) {
	case ".tsv":
		ops, err = ParseACFTSV(bytes.NewReader(data), v)
	case ".json":
		ops, err = ParseBallotJSON(data, v)
	case ".pdn":
		ops, err = ParsePDN(bytes.NewReader(data), v)
	default:
		if isFENList(data) {
			ops, err = ParseFENLines(bytes.NewReader(data), v)
		} else {
			ops, err = ParsePDN(bytes.NewReader(data), v)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, errors.New("no openings")
	}
	if all8x8(ops) {
		return nil, fmt.Errorf("every position stands on a1-h8: an 8x8 file, not %s", v)
	}
	if err := Check(ops); err != nil {
		return nil, err
	}
	return ops, nil
}

// isFENList reports whether the first line that is not blank or a comment
// ('#', ';') looks like a FEN or a Hub position (it starts with the side
// to move, or a quote); a file of comments only counts as one.
func isFENList(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), MaxBytes)
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

// Check rejects finished openings (the error names the opening and the
// rule) and makes names unique by appending " #2", " #3" to repeats.
func Check(ops []Opening) error {
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
			// The next free " #N": a deck may name an opening "x #2" itself.
			base := o.Name
			for ; seen[fmt.Sprintf("%s #%d", base, n)] > 0; n++ {
			}
			seen[base] = n
			o.Name = fmt.Sprintf("%s #%d", base, n)
			seen[o.Name]++
		}
	}
	return nil
}

// ParseACFTSV reads the ACF 3-move TSV (see Load) for English
// checkers: the crossboard and mailplay rows, in file order, each named
// "ACF NNN m1 m2 m3" (plus the row's name when it has one).
func ParseACFTSV(r io.Reader, v engine.VariantID) ([]Opening, error) {
	if v != engine.English {
		return nil, fmt.Errorf("the ACF 3-move deck is for english, not %s", v)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxBytes)
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

// ParseBallotJSON reads a pydraughts ballot file (see Load).
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
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("bad JSON: %q after the end of the object", clip(rest, 20))
	}
	return out, nil
}

// clip returns at most n bytes of b, with "..." when it cut.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

// ParsePDN reads every game of a PDN stream as an opening (see Load). A
// game of another variant than v is an error.
func ParsePDN(r io.Reader, v engine.VariantID) ([]Opening, error) {
	pr := pdn.NewReader(r, v)
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
// optionally followed by ';' and a name (see Load).
func ParseFENLines(r io.Reader, v engine.VariantID) ([]Opening, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxBytes)
	var ops []Opening
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' || text[0] == ';' {
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

// shortMoveRE matches a move of the short algebraic form of pydraughts'
// ballot names: the origin's file and the destination ("cd4": c3-d4).
var shortMoveRE = regexp.MustCompile(`^([a-j])([a-j](?:10|[1-9]))$`)

// MovesFromName recovers the moves of a ballot whose name lists them after
// a label, as pydraughts' ballot files do ("1-I cd4 ba5 dc5",
// "I-3: ab4 ba5 ba3 ab6", "001 09-13 21-17 05-09"): the words after the
// first, in the variant's notation or in the short form "cd4" (origin
// file, destination; one legal move must fit), played from v's start
// position. It returns them when they are all legal and reach end (same
// pieces and side to move), else ok false.
func MovesFromName(v engine.VariantID, name string, end engine.Position) (moves []engine.Move, ok bool) {
	words := strings.Fields(name)
	if len(words) < 2 {
		return nil, false
	}
	p := engine.StartPosition(v)
	var list engine.MoveList
	for _, w := range words[1:] {
		m, err := p.ParseMove(w)
		if err != nil {
			sm := shortMoveRE.FindStringSubmatch(w)
			if sm == nil {
				return nil, false
			}
			p.Generate(&list)
			n := 0
			for _, lm := range list.Slice() {
				from := engine.SquareName(v, engine.SquareAt(v, lm.From), engine.Algebraic)
				to := engine.SquareName(v, engine.SquareAt(v, lm.To), engine.Algebraic)
				if from[:1] == sm[1] && to == sm[2] {
					m, n = lm, n+1
				}
			}
			if n != 1 {
				return nil, false
			}
		}
		moves = append(moves, m)
		p = p.Play(m)
	}
	if p.Pieces != end.Pieces || p.Kings != end.Kings || p.Side != end.Side {
		return nil, false
	}
	return moves, true
}
