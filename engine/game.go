// game.go: a game record (history, Zobrist keys, draw counters) and the end
// of game rules of docs/rules.md "Draws": no legal move loses,
// threefold repetition, and each variant's draw rules.

package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Result is the outcome of a game as far as the rules decide it.
type Result uint8

// The possible results.
const (
	Ongoing   Result = iota // the game goes on (PDN "*")
	WhiteWins               // White won
	BlackWins               // Black won
	Draw                    // drawn
)

// String returns the result as a PDN token with White's score first: "*",
// "1-0" (White wins), "0-1" (Black wins), "1/2-1/2". English files put the
// first mover's (Black's) score first: use PDN for a variant-aware token.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// PDN returns the result token as files of variant v write it: the score of
// the side that moves first comes first. For Russian, Brazilian and
// international draughts that is White ("1-0" = White wins); for English
// checkers it is Black ("1-0" = Black wins), which is what the English files
// in testdata/draughts do (e.g. the Tinsley game "London 1992, game 18",
// "White overstepped the time control", is marked 1-0).
func (r Result) PDN(v VariantID) string {
	if v.Rules().FirstToMove == Black {
		switch r {
		case WhiteWins:
			return "0-1"
		case BlackWins:
			return "1-0"
		}
	}
	return r.String()
}

// ParseResult reads a PDN result token of variant v (the first mover's score
// first, see Result.PDN). It accepts "*", "1-0", "0-1", "1/2-1/2", "½-½" and
// the international-style "2-0", "0-2", "1-1". "0-0" (both sides scored
// nothing, e.g. a double forfeit) has no Result value and is an error, as is
// any other text.
func ParseResult(v VariantID, tok string) (Result, error) {
	var first, second Result = WhiteWins, BlackWins
	if v.Rules().FirstToMove == Black {
		first, second = BlackWins, WhiteWins
	}
	switch strings.TrimSpace(tok) {
	case "*":
		return Ongoing, nil
	case "1-0", "2-0":
		return first, nil
	case "0-1", "0-2":
		return second, nil
	case "1/2-1/2", "½-½", "1-1":
		return Draw, nil
	}
	return Ongoing, fmt.Errorf("result %q: want *, 1-0, 0-1, 1/2-1/2, 2-0, 0-2 or 1-1", tok)
}

// Reason says why a game ended (or ReasonNone while it goes on).
type Reason uint8

// The reasons a game ends.
const (
	// ReasonNone: the game is not over.
	ReasonNone Reason = iota
	// NoPieces: the side to move has no pieces left and loses.
	NoPieces
	// NoLegalMove: the side to move has pieces but all are blocked; it loses.
	NoLegalMove
	// Repetition: the same position with the same side to move occurred
	// RepetitionDraw times since the last man move or capture.
	Repetition
	// NoProgress: too many moves without a man move or a capture (Russian
	// rule 3 and FMJD: kings only; English: the 40-move rule).
	NoProgress
	// ThreeKingsVsOne: three kings or more (Russian), or three pieces with a
	// king (FMJD), failed to catch a lone king in time.
	ThreeKingsVsOne
	// SmallEnding: FMJD, two pieces or fewer with a king against a lone king
	// for InternationalSmallEndingMoves moves each.
	SmallEnding
	// PieceCountEnding: Russian rule 4, kings on both sides, 4 to 7 pieces,
	// material balance unchanged for RussianEnding45Moves or
	// RussianEnding67Moves moves each.
	PieceCountEnding
	// Resignation: a player resigned (recorded with Game.SetResult, as are
	// the three reasons below; the rules never produce them).
	Resignation
	// Agreement: the players agreed a draw.
	Agreement
	// TimeForfeit: a player ran out of time.
	TimeForfeit
	// Adjudication: an arbiter or a match runner decided the result.
	Adjudication
	numReasons
)

// NumReasons is the number of Reasons: they run from 0 (ReasonNone) to
// NumReasons-1. A stored Reason at or above it is corrupt.
const NumReasons = numReasons

var reasonNames = [numReasons]string{
	ReasonNone:       "none",
	NoPieces:         "no pieces left",
	NoLegalMove:      "no legal move",
	Repetition:       "threefold repetition",
	NoProgress:       "no man move and no capture",
	ThreeKingsVsOne:  "three kings against a lone king",
	SmallEnding:      "king ending against a lone king",
	PieceCountEnding: "king ending with unchanged material",
	Resignation:      "resignation",
	Agreement:        "agreement",
	TimeForfeit:      "time forfeit",
	Adjudication:     "adjudication",
}

// String describes the reason in a few lower-case words.
func (r Reason) String() string {
	if r >= numReasons {
		return fmt.Sprintf("reason(%d)", uint8(r))
	}
	return reasonNames[r]
}

// Draw rule counts, from docs/rules.md "Draws". Every count is in
// moves BY EACH SIDE: one move = one move of White and one of Black = 2
// plies, so a rule of N moves draws once 2*N plies have been played under
// its condition. Counts start when the condition arose; a game set up from
// a FEN starts every count at zero.
const (
	// RepetitionDraw is the number of occurrences of one position (same
	// pieces, same side to move) that draws, all variants. Only positions
	// since the last man move or capture are compared.
	RepetitionDraw = 3

	// RussianThreeKingsMoves is Russian rule 2: three kings or more against
	// a lone king are drawn if the lone king is not captured within 15 moves
	// each (30 plies) from when this balance arose.
	RussianThreeKingsMoves = 15
	// RussianKingsOnlyMoves is Russian rule 3: 15 moves each (30 plies) in
	// which only kings moved and nothing was captured draw.
	RussianKingsOnlyMoves = 15
	// RussianEnding45Moves is Russian rule 4 for 4- and 5-piece endings with
	// kings on both sides: drawn after 30 moves each (60 plies) with the
	// material balance unchanged (no capture, no promotion). The sources
	// differ on whether this "move" is a ply or a pair; damka counts pairs,
	// like every other rule here.
	RussianEnding45Moves = 30
	// RussianEnding67Moves is Russian rule 4 for 6- and 7-piece endings:
	// 60 moves each (120 plies), counted as RussianEnding45Moves.
	RussianEnding67Moves = 60

	// EnglishNoProgressMoves is the English (WCDF/ACF) 40-move rule: 40
	// moves each (80 plies) with no man moved and no capture draw.
	EnglishNoProgressMoves = 40

	// InternationalKingsOnlyMoves is the FMJD rule (international and
	// Brazilian): 25 moves each (50 plies) of kings only without capture draw.
	InternationalKingsOnlyMoves = 25
	// InternationalThreeVsOneMoves is the FMJD rule: three kings, two kings
	// and a man, or a king and two men against a lone king are drawn after
	// 16 moves each (32 plies) from when this balance arose.
	InternationalThreeVsOneMoves = 16
	// InternationalSmallEndingMoves is the FMJD rule: two pieces or fewer,
	// at least one a king, against a lone king are drawn after 5 moves each
	// (10 plies) from when this balance arose.
	InternationalSmallEndingMoves = 5
)

// maxCounter is where the DrawState counters stop counting.
const maxCounter = 1<<16 - 1

// DrawState holds the two ply counters the draw rules of every variant need.
// It is a 4-byte value: search carries one per ply (next := ds.Update(&pos,
// m)) and asks Reason or IsDraw of the position reached, all without
// allocating. Repetition is not part of it: it needs the key history (see
// Game.Keys and KeyRepetitions, with Reversible as the window). The zero
// value is the state at the start of a game or of a position set up from a
// FEN.
type DrawState struct {
	// Reversible counts plies since the last man move or capture (a
	// promotion is a man move). Positions older than this cannot repeat.
	Reversible uint16
	// Balance counts plies since the material balance (men and kings of
	// each colour) last changed, i.e. since the last capture or promotion.
	Balance uint16
}

// Update returns the state after move m is played in prev (m must be legal
// in prev). It does not allocate.
func (d DrawState) Update(prev *Position, m Move) DrawState {
	man := prev.Kings&(uint64(1)<<m.From) == 0
	if man || m.Captured != 0 {
		d.Reversible = 0
	} else if d.Reversible < maxCounter {
		d.Reversible++
	}
	if m.Captured != 0 || (man && m.Flags&FlagCrown != 0) {
		d.Balance = 0
	} else if d.Balance < maxCounter {
		d.Balance++
	}
	return d
}

// Reason returns the draw rule of p's variant (other than repetition) that
// holds in p, the position reached with counters d, or ReasonNone. When two
// rules hold at once the ending rule (ThreeKingsVsOne, SmallEnding) is
// named before NoProgress, NoProgress before PieceCountEnding. It does not
// look for a lost position (see Game.Result) and does not allocate.
func (d DrawState) Reason(p *Position) Reason {
	rev, bal := int(d.Reversible), int(d.Balance)
	switch variants[p.V].Draws {
	case DrawRulesEnglish:
		if rev >= 2*EnglishNoProgressMoves {
			return NoProgress
		}
		return ReasonNone
	case DrawRulesRussian:
		wk, bk := p.Pieces[White]&p.Kings, p.Pieces[Black]&p.Kings
		if wk == 0 || bk == 0 {
			// Rules 2 and 4 need kings on both sides.
			if rev >= 2*RussianKingsOnlyMoves {
				return NoProgress
			}
			return ReasonNone
		}
		wn, bn := bits.OnesCount64(p.Pieces[White]), bits.OnesCount64(p.Pieces[Black])
		if (wn == 1 && bits.OnesCount64(bk) >= 3) || (bn == 1 && bits.OnesCount64(wk) >= 3) {
			if bal >= 2*RussianThreeKingsMoves {
				return ThreeKingsVsOne
			}
		}
		if rev >= 2*RussianKingsOnlyMoves {
			return NoProgress
		}
		switch n := wn + bn; {
		case n >= 4 && n <= 5 && bal >= 2*RussianEnding45Moves:
			return PieceCountEnding
		case n >= 6 && n <= 7 && bal >= 2*RussianEnding67Moves:
			return PieceCountEnding
		}
		return ReasonNone
	default: // DrawRulesFMJD (Brazilian, international)
		if r := fmjdEnding(p, bal); r != ReasonNone {
			return r
		}
		if rev >= 2*InternationalKingsOnlyMoves {
			return NoProgress
		}
		return ReasonNone
	}
}

// fmjdEnding applies the FMJD rules for a few pieces against a lone king,
// with bal plies since the balance arose.
func fmjdEnding(p *Position, bal int) Reason {
	wn, bn := bits.OnesCount64(p.Pieces[White]), bits.OnesCount64(p.Pieces[Black])
	var strong Color
	switch {
	case bn == 1 && p.Pieces[Black]&p.Kings != 0:
		strong = White
	case wn == 1 && p.Pieces[White]&p.Kings != 0:
		strong = Black
	default:
		return ReasonNone
	}
	if p.Pieces[strong]&p.Kings == 0 {
		return ReasonNone // the rules need a king on the stronger side
	}
	switch sn := bits.OnesCount64(p.Pieces[strong]); {
	case sn == 3 && bal >= 2*InternationalThreeVsOneMoves:
		return ThreeKingsVsOne
	case sn <= 2 && bal >= 2*InternationalSmallEndingMoves:
		return SmallEnding
	}
	return ReasonNone
}

// IsDraw reports whether a draw rule other than repetition holds in p, the
// position reached with counters d. It does not allocate.
func (d DrawState) IsDraw(p *Position) bool { return d.Reason(p) != ReasonNone }

// RuleHorizon is the most plies PliesToRule looks ahead.
const RuleHorizon = 1024

// PliesToRule returns the number of plies, from p reached with counters d,
// after which a move-count draw rule of p's variant (Reason) ends the game
// if no man moves, nothing is captured and the material stays as it is; or
// RuleHorizon when none does within RuleHorizon plies. An endgame-database
// win shorter than that is played out before any rule applies (the search
// and the match runner's adjudication trust a database distance by it).
// The rules hold from a counter threshold on, so a binary search finds the
// first ply. It does not allocate.
func (d DrawState) PliesToRule(p *Position) int {
	at := func(k int) bool {
		e := DrawState{
			Reversible: uint16(min(int(d.Reversible)+k, 1<<16-1)),
			Balance:    uint16(min(int(d.Balance)+k, 1<<16-1)),
		}
		return e.IsDraw(p)
	}
	if !at(RuleHorizon) {
		return RuleHorizon
	}
	lo, hi := 0, RuleHorizon
	for lo < hi {
		mid := (lo + hi) / 2
		if at(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// Game is a game record: the start position, the moves played, and per ply
// the position, its Zobrist key and its draw counters. Index i of the
// per-ply data is the state after i plies (0 = start). A Game is not safe
// for concurrent use.
type Game struct {
	pos   []Position  // pos[i]: position after i plies
	keys  []uint64    // keys[i] == pos[i].Key
	draws []DrawState // draws[i]: counters in pos[i]
	moves []Move      // moves[i] leads from pos[i] to pos[i+1]

	setResult Result // recorded by SetResult; Ongoing when none
	setReason Reason
}

// ErrIllegalMove is wrapped by PlayChecked's error when the move is not in
// the legal move list.
var ErrIllegalMove = errors.New("illegal move")

// NewGame starts a game from start. Draw counters start at zero.
func NewGame(start Position) *Game {
	const initialCap = 128
	g := &Game{
		pos:   make([]Position, 1, initialCap),
		keys:  make([]uint64, 1, initialCap),
		draws: make([]DrawState, 1, initialCap),
		moves: make([]Move, 0, initialCap),
	}
	g.pos[0] = start
	g.keys[0] = start.Key
	return g
}

// Play plays m, which the caller guarantees is legal in the current position
// (as produced by Generate or ParseMove). It clears a result recorded by
// SetResult.
func (g *Game) Play(m Move) {
	n := len(g.pos) - 1
	cur := &g.pos[n]
	next := cur.Play(m)
	ds := g.draws[n].Update(cur, m)
	g.pos = append(g.pos, next)
	g.keys = append(g.keys, next.Key)
	g.draws = append(g.draws, ds)
	g.moves = append(g.moves, m)
	g.setResult, g.setReason = Ongoing, ReasonNone
}

// PlayChecked plays m if it is one of the legal moves of the current
// position; otherwise it returns an error wrapping ErrIllegalMove and leaves
// the game unchanged. It does not check whether the game is already over.
func (g *Game) PlayChecked(m Move) error {
	p := g.Position()
	var list MoveList
	p.Generate(&list)
	for _, lm := range list.Slice() {
		if lm == m {
			g.Play(m)
			return nil
		}
	}
	return fmt.Errorf("%w at ply %d: %s", ErrIllegalMove, g.Ply(), describeMove(&p, m))
}

// describeMove names m's squares for error messages without relying on m
// being legal.
func describeMove(p *Position, m Move) string {
	if m.From > 63 || m.To > 63 {
		return "bad move"
	}
	from, to := squareAt(p.V, m.From), squareAt(p.V, m.To)
	sep := "-"
	if m.Captured != 0 {
		sep = "x"
	}
	return fmt.Sprintf("%d%s%d", from, sep, to)
}

// Undo takes back the last move; it returns false (and does nothing) at the
// start. It clears a result recorded by SetResult.
func (g *Game) Undo() bool {
	n := len(g.moves)
	if n == 0 {
		return false
	}
	g.pos = g.pos[:n]
	g.keys = g.keys[:n]
	g.draws = g.draws[:n]
	g.moves = g.moves[:n-1]
	g.setResult, g.setReason = Ongoing, ReasonNone
	return true
}

// Start returns the start position.
func (g *Game) Start() Position { return g.pos[0] }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos[len(g.pos)-1] }

// PositionAt returns the position after ply plies (0 = start); it panics
// when ply is outside 0..Ply().
func (g *Game) PositionAt(ply int) Position { return g.pos[ply] }

// Moves returns the moves played. The slice is the game's own storage: do
// not modify it; it stays valid until the next Play or Undo.
func (g *Game) Moves() []Move { return g.moves[:len(g.moves):len(g.moves)] }

// Ply returns the number of moves (plies) played.
func (g *Game) Ply() int { return len(g.moves) }

// Keys returns the Zobrist keys of every position of the game, Ply()+1 of
// them, the current one last. Search uses them for repetition detection
// together with DrawState().Reversible: only the last Reversible+1 keys
// can repeat. The slice is the game's own storage: do not modify it; it
// stays valid until the next Play or Undo.
func (g *Game) Keys() []uint64 { return g.keys[:len(g.keys):len(g.keys)] }

// DrawState returns the draw counters of the current position; search
// continues from it with DrawState.Update.
func (g *Game) DrawState() DrawState { return g.draws[len(g.draws)-1] }

// Repetitions returns how many times the current position (same pieces,
// same side to move) has occurred since the last man move or capture,
// itself included (1 = first occurrence). Keys are compared first and full
// positions confirm a match, so a key collision cannot fake a repetition.
func (g *Game) Repetitions() int {
	n := len(g.keys) - 1
	cur := &g.pos[n]
	lo := n - int(g.draws[n].Reversible)
	count := 1
	for i := n - 2; i >= lo && i >= 0; i -= 2 {
		if g.keys[i] == cur.Key && samePlacement(&g.pos[i], cur) {
			count++
		}
	}
	return count
}

// KeyRepetitions returns how many times the last key of keys occurs among
// the positions with the same side to move (every second key counting back
// from the last) within the last reversible plies, itself included: the
// repetition count search needs, with keys the game's Keys followed by the
// keys of the search path and reversible the DrawState.Reversible of the
// last position. It compares keys only and does not allocate.
func KeyRepetitions(keys []uint64, reversible uint16) int {
	n := len(keys) - 1
	if n < 0 {
		return 0
	}
	lo := max(n-int(reversible), 0)
	count := 1
	for i := n - 2; i >= lo; i -= 2 {
		if keys[i] == keys[n] {
			count++
		}
	}
	return count
}

// samePlacement reports whether a and b have the same pieces and side to move.
func samePlacement(a, b *Position) bool {
	return a.Pieces == b.Pieces && a.Kings == b.Kings && a.Side == b.Side
}

// SetResult records a result the rules do not decide (resignation,
// agreement, time forfeit, adjudication). Result returns it until the next
// Play or Undo.
func (g *Game) SetResult(r Result, why Reason) {
	g.setResult, g.setReason = r, why
}

// Result returns the outcome in the current position and why: a result
// recorded by SetResult; else a loss for the side to move when it has no
// legal move (NoPieces or NoLegalMove); else a draw by RepetitionDraw-fold
// repetition or by the variant's draw rules (DrawState.Reason); else
// (Ongoing, ReasonNone). Games read from files often go on past a draw a
// player could have claimed: Result only describes the current position.
func (g *Game) Result() (Result, Reason) {
	if g.setReason != ReasonNone || g.setResult != Ongoing {
		return g.setResult, g.setReason
	}
	p := &g.pos[len(g.pos)-1]
	loss := BlackWins
	if p.Side == Black {
		loss = WhiteWins
	}
	if p.Pieces[p.Side] == 0 {
		return loss, NoPieces
	}
	var list MoveList
	if p.CountMoves(&list, false) == 0 {
		return loss, NoLegalMove
	}
	if g.Repetitions() >= RepetitionDraw {
		return Draw, Repetition
	}
	if r := g.draws[len(g.draws)-1].Reason(p); r != ReasonNone {
		return Draw, r
	}
	return Ongoing, ReasonNone
}
