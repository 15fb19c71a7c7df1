// merge.go: statistics recomputed from the PDN files of match runs
// (shards of one match, or a run and its continuation).

package match

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// MergeSummary is what MergeGames finds in a set of match games.
type MergeSummary struct {
	EngineA, EngineB string
	Stats            Stats
	// Faults counts, per engine (0 = A, 1 = B), the games it lost by each
	// fault Termination; Terminations counts every game by Termination.
	Faults       [2]map[string]int
	Terminations map[string]int
	// Cut lists the games whose movetext holds fewer or more plies than
	// their PlyCount tag says (a file copied while its match was still
	// writing it, or edited by hand), one line each naming the game. They are
	// counted with their Result tag, which Run writes before the moves.
	Cut []string
}

// ReadPDN reads every game of a PDN stream (the default variant
// applies to games without a GameType tag; match games have one).
func ReadPDN(r io.Reader, v engine.VariantID) ([]*pdn.Game, error) {
	pr := pdn.NewReader(r, v)
	var out []*pdn.Game
	for {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, g)
	}
}

// splitRound reads a match Round tag "R.P.G" into the pair part "R.P" and
// the game number G (1 or 2); ok is false for any other form.
func splitRound(tag string) (pair string, game int, ok bool) {
	i := strings.LastIndexByte(tag, '.')
	if i <= 0 || strings.Count(tag, ".") != 2 {
		return "", 0, false
	}
	switch tag[i+1:] {
	case "1":
		game = 1
	case "2":
		game = 2
	default:
		return "", 0, false
	}
	return tag[:i], game, true
}

// MergeGames recomputes the statistics of match games as Run wrote them.
// Engine A is a when not empty, else White of the first game whose Round
// tag is "R.P.1" (Run gives A White in game 1 of each pair). Games pair up
// by their Round tag without the game number and their Opening tag. Every
// game must be finished, be played between A and B (two engines of
// different names, as Run requires; a White or Black tag missing, empty
// or "?" names no engine), be of one variant, and appear once.
func MergeGames(games []*pdn.Game, a string) (MergeSummary, error) {
	var ms MergeSummary
	ms.Faults = [2]map[string]int{{}, {}}
	ms.Terminations = map[string]int{}
	if len(games) == 0 {
		return ms, errors.New("merge: no games")
	}
	if a == "" {
		for _, g := range games {
			if _, n, ok := splitRound(g.Tag("Round")); ok && n == 1 {
				a = g.Tag("White")
				break
			}
		}
		if a == "" {
			return ms, errors.New("merge: no game has a match Round tag R.P.1: cannot tell engine A (give it)")
		}
	}
	ms.EngineA = a
	seen := map[string]bool{}
	var outcomes []Outcome
	for i, g := range games {
		where := fmt.Sprintf("game %d (line %d, Round %q)", i+1, g.Line, g.Tag("Round"))
		white, black := g.Tag("White"), g.Tag("Black")
		for _, side := range [...]struct{ tag, name string }{{"White", white}, {"Black", black}} {
			// Run names both engines; PDN writes a missing tag as "?".
			if side.name == "" || side.name == "?" {
				return ms, fmt.Errorf("merge: %s: %s names no engine (%q): not a game of a match between two engines", where, side.tag, side.name)
			}
		}
		if white == black {
			// Run refuses two engines of one name: such a game would
			// count as A's win or loss against itself.
			return ms, fmt.Errorf("merge: %s: White and Black are both %q: not a game of a match between two engines", where, white)
		}
		var other string
		switch a {
		case white:
			other = black
		case black:
			other = white
		default:
			return ms, fmt.Errorf("merge: %s: players %q and %q, neither is engine A %q", where, white, black, a)
		}
		if ms.EngineB == "" {
			ms.EngineB = other
		} else if other != ms.EngineB {
			return ms, fmt.Errorf("merge: %s: opponent %q, earlier games were against %q", where, other, ms.EngineB)
		}
		if g.Variant != games[0].Variant {
			return ms, fmt.Errorf("merge: %s: a %s game, game 1 is %s (shards of one match play one variant)", where, g.Variant, games[0].Variant)
		}
		res, err := engine.ParseResult(g.Variant, g.Result)
		if err != nil {
			return ms, fmt.Errorf("merge: %s: %w", where, err)
		}
		var score float64
		switch {
		case res == engine.Ongoing:
			return ms, fmt.Errorf("merge: %s: unfinished game (result *)", where)
		case res == engine.Draw:
			score = 0.5
		case (res == engine.WhiteWins) == (white == a):
			score = 1
		}
		id := g.Tag("Round") + "\x00" + g.Tag("Opening")
		if seen[id] {
			return ms, fmt.Errorf("merge: %s: the same game (Round and Opening) appears twice", where)
		}
		seen[id] = true
		pair := ""
		if p, _, ok := splitRound(g.Tag("Round")); ok {
			pair = p + "|" + g.Tag("Opening")
		}
		outcomes = append(outcomes, Outcome{Pair: pair, Score: score})
		if pc := g.Tag("PlyCount"); pc != "" {
			if n, err := strconv.Atoi(pc); err != nil || n != len(g.Moves) {
				ms.Cut = append(ms.Cut, fmt.Sprintf("%s: PlyCount %q but %d plies in the movetext", where, pc, len(g.Moves)))
			}
		}
		term := g.Tag("Termination")
		ms.Terminations[term]++
		if isFault(term) && res != engine.Draw {
			loser := 0
			if score == 1 {
				loser = 1
			}
			ms.Faults[loser][term]++
		}
	}
	st, err := ComputeStats(outcomes)
	if err != nil {
		return ms, fmt.Errorf("merge: %w", err)
	}
	ms.Stats = st
	return ms, nil
}

// isFault reports whether a Termination value is an engine fault.
func isFault(term string) bool {
	switch term {
	case TermIllegal, TermCrash, TermHang, TermTime:
		return true
	}
	return false
}
