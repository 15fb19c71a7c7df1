// result.go: whether a game's recorded result agrees with its moves.

package pdn

import (
	"fmt"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

// CheckResult reports whether g's result agrees with g itself: nil when
// it does, else an error saying how it does not. A Result tag that names
// another outcome than the movetext's result token contradicts it; a game
// whose final position is lost by the rules (the side to move has no
// piece or no legal move) must be recorded as the other side's win or as
// "*" (unknown). A decisive or drawn result in a position the rules leave
// open is a resignation, agreement, time forfeit or adjudication, and
// agrees; so does a game that went on past a draw a player could claim.
// "0-0" (a double forfeit) agrees with any position.
func CheckResult(g *Game) error {
	res, err := engine.ParseResult(g.Variant, g.Result)
	if err != nil {
		if strings.TrimSpace(g.Result) == "0-0" {
			return nil
		}
		return err
	}
	if tag := strings.TrimSpace(g.Tag("Result")); tag != "" && isResultToken(tag) && tag != "0-0" {
		if t, err := engine.ParseResult(g.Variant, tag); err == nil && t != res {
			return fmt.Errorf("the Result tag %q contradicts the movetext's result %q", tag, g.Result)
		}
	}
	if res == engine.Ongoing {
		return nil
	}
	rule, why := g.Game().Result()
	if why != engine.NoPieces && why != engine.NoLegalMove || rule == res {
		return nil
	}
	loser := engine.White
	if rule == engine.WhiteWins {
		loser = engine.Black
	}
	return fmt.Errorf("result %s (%s) contradicts the final position: %s to move has %s, so %s (%s)",
		g.Result, resultWords(res), loser.Name(), whyWords(why), resultWords(rule), rule.PDN(g.Variant))
}

// resultWords names a decided result in words.
func resultWords(r engine.Result) string {
	switch r {
	case engine.WhiteWins:
		return "White wins"
	case engine.BlackWins:
		return "Black wins"
	case engine.Draw:
		return "a draw"
	}
	return "unknown"
}

// whyWords is a rule loss's reason as the object of "has".
func whyWords(why engine.Reason) string {
	if why == engine.NoPieces {
		return "no pieces left"
	}
	return "no legal move"
}
