// openings.go: a match's openings are those of package openings, the one
// reader of opening decks for match, selfplay and dxp.

package match

import "github.com/damka-draughts/damka/openings"

// Opening is one start of a match game (see openings.Opening): a position
// and the moves played from it before the engines take over.
type Opening = openings.Opening
