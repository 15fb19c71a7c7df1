// seeds.go: reading seed positions (opening ballots, FEN lists) for a build.

package book

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// ParseSeeds reads the seed positions of variant v from data, named source
// in errors, in one of three forms, told apart by their content (and a
// source named *.json is JSON whatever it holds):
//
//   - a JSON ballot file as pydraughts ships them: an object whose "all"
//     member maps ballot names ("1-I cd4 ba5 dc5", "013 9-13 22-18 12-16")
//     to FENs, in the order of the "standard" list of names when there is
//     one, else by name. A seed's ply is the number of moves after the
//     first word of its name (words holding a digit: "cd4", "9-13").
//   - a tab-separated table with a header line naming a column that
//     starts with "fen" (e.g. acf_3move_ballots.tsv): one seed per row.
//     Rows whose "deck" column says "barred" are left out. A "moves"
//     column gives the ply (its number of words); a "name" or the first
//     column names the seed.
//   - a text file with one FEN per line, optionally followed by white
//     space and the ply; blank lines and lines starting with # are skipped.
//
// For international, a file whose every position stands on a1-h8 is an
// 8x8 file (its algebraic squares are valid 10x10 squares too) and is
// refused.
//
// Errors give the source and the line or name of the bad entry.
func ParseSeeds(data []byte, v engine.VariantID, source string) ([]Seed, error) {
	t := bytes.TrimSpace(data)
	var (
		seeds []Seed
		err   error
	)
	switch {
	case len(t) > 0 && t[0] == '{', strings.EqualFold(filepath.Ext(source), ".json"):
		seeds, err = parseJSONSeeds(t, v, source)
	case bytes.Contains(firstLine(t), []byte("\t")):
		seeds, err = parseTSVSeeds(string(data), v, source)
	default:
		seeds, err = parseFENLines(string(data), v, source)
	}
	if err == nil && len(seeds) > 0 && !v.Is8x8() {
		all := true
		for i := range seeds {
			all = all && seeds[i].Position.Within8x8()
		}
		if all {
			return nil, fmt.Errorf("%s: every position stands on a1-h8: an 8x8 file, not %s", source, v)
		}
	}
	return seeds, err
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

func parseJSONSeeds(data []byte, v engine.VariantID, source string) ([]Seed, error) {
	var f struct {
		All      map[string]string `json:"all"`
		Standard []string          `json:"standard"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON (a ballot file is {\"all\": {NAME: FEN, ...}}): %w", source, err)
	}
	if len(f.All) == 0 {
		return nil, fmt.Errorf("%s: no \"all\" object of ballots", source)
	}
	names := f.Standard
	if len(names) == 0 {
		for n := range f.All {
			names = append(names, n)
		}
		slices.Sort(names)
	}
	seeds := make([]Seed, 0, len(names))
	for _, name := range names {
		fen, ok := f.All[name]
		if !ok {
			return nil, fmt.Errorf("%s: ballot %q of the standard list has no FEN", source, name)
		}
		p, err := engine.ParseFEN(v, fen)
		if err != nil {
			return nil, fmt.Errorf("%s: ballot %q: %w", source, name, err)
		}
		words := strings.Fields(name)
		if len(words) > 0 {
			words = words[1:] // the ballot's number
		}
		seeds = append(seeds, Seed{Position: p, Ply: countMoves(words), Name: name})
	}
	return seeds, nil
}

// countMoves counts the words that hold a digit or are algebraic moves
// such as "cd4" ("Free" in "5-VII Free" is no move).
func countMoves(words []string) int {
	n := 0
	for _, w := range words {
		if strings.ContainsAny(w, "0123456789") {
			n++
		}
	}
	return n
}

func parseTSVSeeds(data string, v engine.VariantID, source string) ([]Seed, error) {
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	head := strings.Split(lines[0], "\t")
	col := func(prefix string) int {
		for i, h := range head {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(h)), prefix) {
				return i
			}
		}
		return -1
	}
	fenCol, deckCol, movesCol, nameCol := col("fen"), col("deck"), col("moves"), col("name")
	if fenCol < 0 {
		return nil, fmt.Errorf("%s: line 1: no column named fen... in the header", source)
	}
	var seeds []Seed
	for i, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		f := strings.Split(l, "\t")
		get := func(c int) string {
			if c < 0 || c >= len(f) {
				return ""
			}
			return strings.TrimSpace(f[c])
		}
		if strings.Contains(strings.ToLower(get(deckCol)), "barred") {
			continue
		}
		name := strings.TrimSpace(get(0) + " " + get(movesCol) + " " + get(nameCol))
		p, err := engine.ParseFEN(v, get(fenCol))
		if err != nil {
			return nil, fmt.Errorf("%s: line %d (%s): %w", source, i+2, name, err)
		}
		seeds = append(seeds, Seed{Position: p, Ply: countMoves(strings.Fields(get(movesCol))), Name: name})
	}
	return seeds, nil
}

func parseFENLines(data string, v engine.VariantID, source string) ([]Seed, error) {
	var seeds []Seed
	for i, l := range strings.Split(data, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		f := strings.Fields(l)
		ply := 0
		if len(f) > 1 {
			n, err := strconv.Atoi(f[len(f)-1])
			if err == nil && n >= 0 {
				ply = n
				f = f[:len(f)-1]
			}
		}
		p, err := engine.ParseFEN(v, strings.Join(f, " "))
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", source, i+1, err)
		}
		seeds = append(seeds, Seed{Position: p, Ply: ply, Name: fmt.Sprintf("%s:%d", source, i+1)})
	}
	return seeds, nil
}
