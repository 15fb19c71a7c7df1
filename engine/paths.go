// paths.go: capture paths: the landing squares of captures, which the
// move generator does not keep, for notation (notation.go) and perft's
// path counts.

package engine

// Capture paths.
//
// The move generator keeps only origin, destination, captured set and the
// crown flag of a capture. Notation needs the landing squares too, so this
// file carries a second, deliberately simple capture enumerator that works on
// rows and columns and follows rules.md section 2 the same way the generator
// does: men capture forwards (and backwards where allowed), flying kings
// capture at a distance and must land where the capture can go on, captured
// pieces stay on the board until the move ends (Turkish strike), a Russian
// man crowned mid-capture goes on as a flying king, and the majority rule
// keeps the longest captures. A flying king that goes on capturing in the
// same direction is recorded once, landing just before the next piece (as
// the generator does, so that path counts agree with its "keep duplicates"
// mode). It is not on the search's hot path.

// capturePath is one capture sequence: the landing squares with the origin
// first, the captured pieces (internal bits) and whether the man is crowned.
type capturePath struct {
	squares []Square
	capt    uint64
	ncapt   int
	crown   bool
}

// move returns the Move that path cp makes in variant v.
func (cp *capturePath) move(v VariantID) Move {
	m := Move{
		Captured: cp.capt,
		From:     bitAt(v, cp.squares[0]),
		To:       bitAt(v, cp.squares[len(cp.squares)-1]),
		NCapt:    uint8(cp.ncapt),
	}
	if cp.crown {
		m.Flags |= FlagCrown
	}
	return m
}

// pathDirs are the row and column steps of dirNW, dirNE, dirSW, dirSE.
var pathDirs = [4][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}

// Cell contents in pathFinder.cell.
const (
	cellEmpty = iota
	cellOwn
	cellEnemy
)

// pathFinder enumerates the capture paths of one position.
type pathFinder struct {
	v        VariantID
	size     int
	promoRow int // the row where the mover's men crown
	cell     [10][10]uint8
	taken    [10][10]bool // captured so far in the current sequence
	manDirs  [4]bool
	flying   bool
	crownMid bool
	crowned  bool // the moving man was crowned during this capture
	cur      []Square
	capt     uint64
	ncapt    int
	out      []capturePath
}

func newPathFinder(p *Position) *pathFinder {
	r := &variants[p.V]
	f := &pathFinder{v: p.V, size: r.BoardSize, flying: r.FlyingKings, crownMid: r.CrownMidCapture}
	us := p.Side
	for sq := 1; sq <= r.Squares; sq++ {
		b := SquareBit(p.V, Square(sq))
		row, col := SquareRowCol(p.V, Square(sq))
		switch {
		case p.Pieces[us]&b != 0:
			f.cell[row][col] = cellOwn
		case p.Pieces[us^1]&b != 0:
			f.cell[row][col] = cellEnemy
		}
	}
	back := r.MenCaptureBackward
	if us == White {
		f.promoRow = 0
		f.manDirs = [4]bool{true, true, back, back}
	} else {
		f.promoRow = r.BoardSize - 1
		f.manDirs = [4]bool{back, back, true, true}
	}
	return f
}

func (f *pathFinder) on(row, col int) bool {
	return row >= 0 && col >= 0 && row < f.size && col < f.size
}

func (f *pathFinder) square(row, col int) Square { return SquareFromRowCol(f.v, row, col) }

func (f *pathFinder) record(crown bool) {
	f.out = append(f.out, capturePath{
		squares: append([]Square(nil), f.cur...),
		capt:    f.capt,
		ncapt:   f.ncapt,
		crown:   crown,
	})
}

// take marks the piece at row, col captured; untake undoes it.
func (f *pathFinder) take(row, col int) {
	f.taken[row][col] = true
	f.capt |= SquareBit(f.v, f.square(row, col))
	f.ncapt++
}

func (f *pathFinder) untake(row, col int) {
	f.taken[row][col] = false
	f.capt &^= SquareBit(f.v, f.square(row, col))
	f.ncapt--
}

// jumpable reports whether row, col holds an enemy piece not yet captured.
func (f *pathFinder) jumpable(row, col int) bool {
	return f.on(row, col) && f.cell[row][col] == cellEnemy && !f.taken[row][col]
}

func (f *pathFinder) empty(row, col int) bool {
	return f.on(row, col) && f.cell[row][col] == cellEmpty
}

// from enumerates every capture path of the piece on square sq (of the side
// to move) into f.out. king tells whether it is a king.
func (f *pathFinder) from(sq Square, king bool) {
	row, col := SquareRowCol(f.v, sq)
	f.cell[row][col] = cellEmpty // the moving piece has left its square
	f.cur = append(f.cur[:0], sq)
	switch {
	case !king:
		f.manJump(row, col)
	case f.flying:
		for d := 0; d < 4; d++ {
			f.kingDir(row, col, d)
		}
	default:
		f.shortKingJump(row, col)
	}
	f.cell[row][col] = cellOwn
}

// manJump continues a man's capture from row, col.
func (f *pathFinder) manJump(row, col int) {
	found := false
	for d := 0; d < 4; d++ {
		if !f.manDirs[d] {
			continue
		}
		dr, dc := pathDirs[d][0], pathDirs[d][1]
		if !f.jumpable(row+dr, col+dc) || !f.empty(row+2*dr, col+2*dc) {
			continue
		}
		found = true
		f.take(row+dr, col+dc)
		f.cur = append(f.cur, f.square(row+2*dr, col+2*dc))
		f.manLand(row+2*dr, col+2*dc, d)
		f.cur = f.cur[:len(f.cur)-1]
		f.untake(row+dr, col+dc)
	}
	if !found && f.ncapt > 0 {
		// English: crowned on reaching the last row, where no forward jump
		// exists. Brazilian, international: crowned only if it ends there.
		f.record(row == f.promoRow)
	}
}

// manLand handles a man that has just landed on row, col jumping in
// direction d.
func (f *pathFinder) manLand(row, col, d int) {
	if f.crownMid && row == f.promoRow {
		// Russian: crowned at once, goes on capturing as a flying king.
		f.crowned = true
		any := false
		for e := 0; e < 4; e++ {
			if e != reverseDir[d] && f.kingDir(row, col, e) {
				any = true
			}
		}
		f.crowned = false
		if !any {
			f.record(true)
		}
		return
	}
	f.manJump(row, col)
}

// shortKingJump continues a non-flying (English) king's capture.
func (f *pathFinder) shortKingJump(row, col int) {
	found := false
	for d := 0; d < 4; d++ {
		dr, dc := pathDirs[d][0], pathDirs[d][1]
		if !f.jumpable(row+dr, col+dc) || !f.empty(row+2*dr, col+2*dc) {
			continue
		}
		found = true
		f.take(row+dr, col+dc)
		f.cur = append(f.cur, f.square(row+2*dr, col+2*dc))
		f.shortKingJump(row+2*dr, col+2*dc)
		f.cur = f.cur[:len(f.cur)-1]
		f.untake(row+dr, col+dc)
	}
	if !found && f.ncapt > 0 {
		f.record(false)
	}
}

// kingDir tries a flying king's capture from row, col in direction d and
// enumerates every path that starts with it. It reports whether the capture
// exists.
func (f *pathFinder) kingDir(row, col, d int) bool {
	dr, dc := pathDirs[d][0], pathDirs[d][1]
	r, c := row+dr, col+dc
	for f.empty(r, c) {
		r, c = r+dr, c+dc
	}
	if !f.jumpable(r, c) || !f.empty(r+dr, c+dc) {
		return false
	}
	vr, vc := r, c
	var land [10][2]int
	k := 0
	for r, c = r+dr, c+dc; f.empty(r, c); r, c = r+dr, c+dc {
		land[k] = [2]int{r, c}
		k++
	}
	f.take(vr, vc)
	any := false
	perp := perpDirs[d]
	for i := 0; i < k; i++ {
		f.cur = append(f.cur, f.square(land[i][0], land[i][1]))
		if f.kingDir(land[i][0], land[i][1], perp[0]) {
			any = true
		}
		if f.kingDir(land[i][0], land[i][1], perp[1]) {
			any = true
		}
		f.cur = f.cur[:len(f.cur)-1]
	}
	// Straight on: counted once, from the square just before the next piece.
	last := land[k-1]
	f.cur = append(f.cur, f.square(last[0], last[1]))
	if f.kingDir(last[0], last[1], d) {
		any = true
	}
	f.cur = f.cur[:len(f.cur)-1]
	if !any {
		// Landing restriction: only when the capture cannot go on may the
		// king stop, and then on any square beyond the captured piece.
		for i := 0; i < k; i++ {
			f.cur = append(f.cur, f.square(land[i][0], land[i][1]))
			f.record(f.crowned)
			f.cur = f.cur[:len(f.cur)-1]
		}
	}
	f.untake(vr, vc)
	return true
}

// capturePaths returns every capture path of the side to move in p (every
// piece; the majority rule applied where the variant has it). It is empty
// when p has no capture.
func (p *Position) capturePaths() []capturePath {
	f := newPathFinder(p)
	own := p.Pieces[p.Side]
	for sq := 1; sq <= variants[p.V].Squares; sq++ {
		b := SquareBit(p.V, Square(sq))
		if own&b != 0 {
			f.from(Square(sq), p.Kings&b != 0)
		}
	}
	if prio := variants[p.V].Capture; prio != CaptureAny && len(f.out) > 0 {
		best := uint8(0)
		for i := range f.out {
			best = max(best, captureScore(prio, uint8(f.out[i].ncapt)))
		}
		n := 0
		for i := range f.out {
			if captureScore(prio, uint8(f.out[i].ncapt)) == best {
				f.out[n] = f.out[i]
				n++
			}
		}
		f.out = f.out[:n]
	}
	return f.out
}

// piecePaths returns the capture paths of the piece of the side to move on
// square sq (no majority filter).
func (p *Position) piecePaths(sq Square) []capturePath {
	b := SquareBit(p.V, sq)
	if b == 0 || p.Pieces[p.Side]&b == 0 {
		return nil
	}
	f := newPathFinder(p)
	f.from(sq, p.Kings&b != 0)
	return f.out
}

// moveSquares returns the squares of m's origin and destination; ok is
// false when either bit is not a playable square of p's board.
func (p *Position) moveSquares(m Move) (from, to Square, ok bool) {
	if p.V >= numVariants || m.From >= 64 || m.To >= 64 {
		return 0, 0, false
	}
	from, to = squareAt(p.V, m.From), squareAt(p.V, m.To)
	return from, to, from != 0 && to != 0
}

// Path returns the squares the piece moving by m passes through: for a
// capture the origin, every landing square and the destination
// (rules.md section 7, "multi-captures list every landing square"); for a
// quiet move [from, to]. m should be a legal move of p (from Generate);
// when several capture paths make the same move, the first one found is
// returned (the rest are duplicates in the sense of rules.md section 3). A
// capture that p cannot make gives [from, to]; a move whose squares are not
// on the board gives nil.
func (p *Position) Path(m Move) []Square {
	from, to, ok := p.moveSquares(m)
	if !ok {
		return nil
	}
	if m.Captured != 0 {
		for _, cp := range p.piecePaths(from) {
			if cp.capt == m.Captured && cp.crown == m.Crowns() && cp.squares[len(cp.squares)-1] == to {
				return cp.squares
			}
		}
	}
	return []Square{from, to}
}
