// movegen.go: the public move generation entry points for every variant.
//
// Each board has its own generator, with the board's shifts and masks as
// constants: movegen_8x8.go is written by hand, the others are generated
// from it (internal/genboard). The entry points below pick the generator
// of the position's board (the variant's Board in the rules table); the
// rule switches (flying kings, capture priority, crowning) come from the
// same table through the generators' templates. A new board is a case here
// and a target of genboard; a new variant on an existing board is only a
// row of the rules table.

package engine

//go:generate go run ./internal/genboard

// dupMinCaptures is the fewest captured pieces with which two different
// capture paths can be duplicates (same origin, destination, captured set
// and crowning): the paths must enclose a cycle of at least four jumps.
// Shorter sequences skip the duplicate check; TestDuplicateThreshold checks
// the claim against full pairwise comparison on many positions.
const dupMinCaptures = 4

// crownFlag returns FlagCrown when bit to lies in the crowning row promo.
func crownFlag(to uint8, promo uint64) MoveFlags {
	if (uint64(1)<<to)&promo != 0 {
		return FlagCrown
	}
	return 0
}

// Generate writes every legal move of p into list, one per distinct move
// (origin, destination, captured set, crowned or not; rules.md section 3).
// Captures are compulsory, and the majority rule applies where the variant
// has it. It allocates nothing.
func (p *Position) Generate(list *MoveList) { p.generate(list, false) }

// GeneratePaths is Generate but keeps every capture path: two paths that
// capture the same pieces between the same squares are both listed. Perft's
// "keep duplicates" column counts these.
func (p *Position) GeneratePaths(list *MoveList) { p.generate(list, true) }

func (p *Position) generate(list *MoveList, paths bool) {
	list.N = 0
	list.Overflow = false
	if boardOf[p.V.slot()] == Board10x10 {
		n, ok := quickCaptures10x10(p, list, false)
		switch {
		case !ok: // some capture is more than a single man jump
			slowCaptures10x10(p, list, paths, false)
		case n == 0:
			generateQuiet10x10(p, list)
		}
		return
	}
	n, ok := quickCaptures8x8(p, list, false)
	switch {
	case !ok:
		slowCaptures8x8(p, list, paths, false)
	case n == 0:
		generateQuiet8x8(p, list)
	}
}

// GenerateCaptures writes only the legal captures of p into list (empty
// when p has none). Quiescence search uses it.
func (p *Position) GenerateCaptures(list *MoveList) {
	list.N = 0
	list.Overflow = false
	if boardOf[p.V.slot()] == Board10x10 {
		generateCaptures10x10(p, list, false)
		return
	}
	generateCaptures8x8(p, list, false)
}

// CountMoves returns the number of legal moves of p (distinct moves, or every
// capture path when paths is true) without keeping them: quiet moves are
// counted with bit operations. list is scratch space for captures; the call
// allocates nothing.
func (p *Position) CountMoves(list *MoveList, paths bool) int {
	list.N = 0
	list.Overflow = false
	us := p.Side & 1
	if boardOf[p.V.slot()] == Board10x10 {
		return countBoards10x10(p.Pieces[us], p.Pieces[us^1], p.Kings, p.Side, p.V, list, paths)
	}
	return countBoards8x8(p.Pieces[us], p.Pieces[us^1], p.Kings, p.Side, p.V, list, paths)
}

// HasCapture reports whether the side to move must capture.
func (p *Position) HasCapture() bool {
	if boardOf[p.V.slot()] == Board10x10 {
		return hasCapture10x10(p)
	}
	return hasCapture8x8(p)
}

// CountKingQuietMoves returns the number of non-capturing moves of the
// kings in kings (internal bits of board b) onto the squares of empty:
// flying kings to any empty square of their diagonals up to the first
// piece, short kings one step. Perft counts with it, and the evaluation's
// king mobility is it. It allocates nothing.
func CountKingQuietMoves(b Board, kings, empty uint64, flying bool) int {
	if b == Board10x10 {
		return countKingQuiet10x10(kings, empty, flying)
	}
	return countKingQuiet8x8(kings, empty, flying)
}
