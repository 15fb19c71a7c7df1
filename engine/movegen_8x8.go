// movegen_8x8.go: legal move generation on the 8x8 board.
//
// Every board's generator is this code: the 8-by-8 board's file is written by
// hand, and internal/genboard (`go generate ./engine`) derives the other
// boards' files from it with the board's name put in, so that each board
// gets its shifts and masks as constants. Edit the hand-written file, never
// a generated copy.

package engine

import "math/bits"

// delta8x8 holds the internal bit offset of one diagonal step, by direction.
var delta8x8 = [4]int{-nw8x8, -ne8x8, sw8x8, se8x8}

// rays8x8[d][b] holds the squares a king on internal bit b passes over in
// direction d to the edge of the board (b itself excluded).
var rays8x8 = func() (r [4][64]uint64) {
	for d, dl := range delta8x8 {
		for b := 0; b < 64; b++ {
			if board8x8&(uint64(1)<<b) == 0 {
				continue
			}
			for s := b + dl; s >= 0 && s < 64 && board8x8&(uint64(1)<<s) != 0; s += dl {
				r[d][b] |= uint64(1) << s
			}
		}
	}
	return r
}()

// gen8x8 is the state of one capture generation. It lives on the caller's
// stack; nothing escapes.
type gen8x8 struct {
	list     *MoveList
	empty    uint64          // empty squares, the moving piece's origin included
	enemy    uint64          // enemy pieces; captured ones stay here: they block until the move ends
	promo    uint64          // the mover's crowning row
	from     uint8           // origin of the piece being moved
	best     uint8           // highest captureScore of the sequences so far
	priority CapturePriority // the variant's capture priority rule
	paths    bool            // keep every capture path (no duplicate removal)
	crownMid bool            // Russian: crowned during the capture, continue as a king
	crowned  bool            // the man being moved was crowned mid-capture
	flying   bool            // flying kings
	forward  bool            // men capture forward only, any sequence, no crowning mid-capture (English)
	manDirs  [4]bool
	dirMask  [4]uint64 // all ones for the directions in manDirs, else zero
	count    bool      // count sequences in cnt instead of listing those that cannot be duplicates
	cnt      int       // sequences counted, not listed (count mode)
}

// genTemplate8x8 holds, per variant (VariantID.slot()) and side to move, the
// fields of gen8x8 that depend only on the rules table, so a generation
// starts with one copy.
var genTemplate8x8 [variantSlots][2]gen8x8

func init() {
	for v := range variants {
		r := &variants[v]
		for c := range 2 {
			g := &genTemplate8x8[r.ID.slot()][c]
			g.priority = r.Capture
			g.crownMid = r.CrownMidCapture
			g.flying = r.FlyingKings
			back := r.MenCaptureBackward
			g.forward = !back && !r.CrownMidCapture && r.Capture == CaptureAny
			if Color(c) == White {
				g.promo = promoWhite8x8
				g.manDirs = [4]bool{true, true, back, back}
			} else {
				g.promo = promoBlack8x8
				g.manDirs = [4]bool{back, back, true, true}
			}
			for d, ok := range g.manDirs {
				if ok {
					g.dirMask[d] = ^uint64(0)
				}
			}
		}
	}
}

// add records a finished capture sequence.
func (g *gen8x8) add(to uint8, capt uint64, n uint8, crown bool) {
	if g.priority != CaptureAny {
		s := captureScore(g.priority, n)
		if s < g.best {
			return
		}
		if s > g.best {
			g.best = s
			g.list.N = 0
			g.cnt = 0
		}
	}
	if g.count && (g.paths || n < dupMinCaptures) {
		g.cnt++
		return
	}
	m := Move{Captured: capt, From: g.from, To: to, NCapt: n}
	if crown {
		m.Flags |= FlagCrown
	}
	l := g.list
	if !g.paths && n >= dupMinCaptures {
		for i := 0; i < l.N; i++ {
			if l.Moves[i] == m {
				return
			}
		}
	}
	if l.N == MaxMoves {
		l.Overflow = true
		return
	}
	l.Moves[l.N] = m
	l.N++
}

// manJump continues a man's capture from bit sq; when no further jump exists
// and n > 0, the sequence ends at sq.
func (g *gen8x8) manJump(sq uint8, capt uint64, n uint8) {
	found := false
	b := uint64(1) << sq
	foes := g.enemy &^ capt
	if g.manDirs[dirNW] {
		if v := b >> nw8x8; v&foes != 0 && (v>>nw8x8)&g.empty != 0 {
			found = true
			if t := sq - 2*nw8x8; g.crownMid && (uint64(1)<<t)&g.promo != 0 {
				g.crownLand(t, capt|v, n+1, dirNW)
			} else {
				g.manJump(t, capt|v, n+1)
			}
		}
	}
	if g.manDirs[dirNE] {
		if v := b >> ne8x8; v&foes != 0 && (v>>ne8x8)&g.empty != 0 {
			found = true
			if t := sq - 2*ne8x8; g.crownMid && (uint64(1)<<t)&g.promo != 0 {
				g.crownLand(t, capt|v, n+1, dirNE)
			} else {
				g.manJump(t, capt|v, n+1)
			}
		}
	}
	if g.manDirs[dirSW] {
		if v := b << sw8x8; v&foes != 0 && (v<<sw8x8)&g.empty != 0 {
			found = true
			if t := sq + 2*sw8x8; g.crownMid && (uint64(1)<<t)&g.promo != 0 {
				g.crownLand(t, capt|v, n+1, dirSW)
			} else {
				g.manJump(t, capt|v, n+1)
			}
		}
	}
	if g.manDirs[dirSE] {
		if v := b << se8x8; v&foes != 0 && (v<<se8x8)&g.empty != 0 {
			found = true
			if t := sq + 2*se8x8; g.crownMid && (uint64(1)<<t)&g.promo != 0 {
				g.crownLand(t, capt|v, n+1, dirSE)
			} else {
				g.manJump(t, capt|v, n+1)
			}
		}
	}
	if !found && n > 0 {
		g.add(sq, capt, n, b&g.promo != 0)
	}
}

// crownLand handles a Russian man landing on its crowning row during a
// capture (after a jump in direction d): it is crowned at once and goes on
// capturing as a king if it can.
func (g *gen8x8) crownLand(to uint8, capt uint64, n uint8, d int) {
	g.crowned = true
	any := false
	for e := 0; e < 4; e++ {
		if e != reverseDir[d] && g.kingDir(to, capt, n, e) {
			any = true
		}
	}
	g.crowned = false
	if !any {
		g.add(to, capt, n, true)
	}
}

// shortKingJump continues a non-flying king's capture from bit sq.
func (g *gen8x8) shortKingJump(sq uint8, capt uint64, n uint8) {
	found := false
	b := uint64(1) << sq
	foes := g.enemy &^ capt
	if v := b >> nw8x8; v&foes != 0 && (v>>nw8x8)&g.empty != 0 {
		found = true
		g.shortKingJump(sq-2*nw8x8, capt|v, n+1)
	}
	if v := b >> ne8x8; v&foes != 0 && (v>>ne8x8)&g.empty != 0 {
		found = true
		g.shortKingJump(sq-2*ne8x8, capt|v, n+1)
	}
	if v := b << sw8x8; v&foes != 0 && (v<<sw8x8)&g.empty != 0 {
		found = true
		g.shortKingJump(sq+2*sw8x8, capt|v, n+1)
	}
	if v := b << se8x8; v&foes != 0 && (v<<se8x8)&g.empty != 0 {
		found = true
		g.shortKingJump(sq+2*se8x8, capt|v, n+1)
	}
	if !found && n > 0 {
		g.add(sq, capt, n, false)
	}
}

// kingDir tries a flying king's capture from bit sq in direction d and
// generates every sequence that starts with it. It reports whether such a
// capture exists.
func (g *gen8x8) kingDir(sq uint8, capt uint64, n uint8, d int) bool {
	dl := delta8x8[d]
	// The first piece on the ray (directions 0 and 1 go to lower bits).
	block := rays8x8[d&3][sq&63] &^ g.empty
	if block == 0 {
		return false
	}
	s := bits.TrailingZeros64(block)
	if d < 2 {
		s = 63 - bits.LeadingZeros64(block)
	}
	v := uint64(1) << uint(s)
	if v&g.enemy&^capt == 0 {
		return false
	}
	s += dl
	if (uint64(1)<<uint(s))&g.empty == 0 {
		return false
	}
	var land [maxRay8x8]uint8
	k := 0
	for (uint64(1)<<uint(s))&g.empty != 0 {
		land[k] = uint8(s)
		k++
		s += dl
	}
	capt |= v
	n++
	any := false
	p := perpDirs[d]
	for i := 0; i < k; i++ {
		if g.kingDir(land[i], capt, n, p[0]) {
			any = true
		}
		if g.kingDir(land[i], capt, n, p[1]) {
			any = true
		}
	}
	// Straight on: the square after the last landing holds a piece.
	if w := uint64(1) << uint(s); w&g.enemy&^capt != 0 && (uint64(1)<<uint(s+dl))&g.empty != 0 {
		g.kingDir(land[k-1], capt, n, d)
		any = true
	}
	if !any {
		for i := 0; i < k; i++ {
			g.add(land[i], capt, n, g.crowned)
		}
	}
	return true
}

// manCaptureOrigins8x8 returns the men of men that can capture at least once.
func manCaptureOrigins8x8(men, enemy, empty uint64, dirs *[4]bool) uint64 {
	var o uint64
	if dirs[dirNW] {
		o |= men & ((enemy & (empty << nw8x8)) << nw8x8)
	}
	if dirs[dirNE] {
		o |= men & ((enemy & (empty << ne8x8)) << ne8x8)
	}
	if dirs[dirSW] {
		o |= men & ((enemy & (empty >> sw8x8)) >> sw8x8)
	}
	if dirs[dirSE] {
		o |= men & ((enemy & (empty >> se8x8)) >> se8x8)
	}
	return o
}

// generateCaptures8x8 writes the legal captures of p into list (paths: every
// capture path rather than every distinct move).
func generateCaptures8x8(p *Position, list *MoveList, paths bool) {
	captures8x8(p, list, paths, false)
}

// countCaptures8x8 returns the number of legal captures of p (or of capture
// paths), using list only for sequences that may be duplicates.
func countCaptures8x8(p *Position, list *MoveList, paths bool) int {
	return captures8x8(p, list, paths, true)
}

// captures8x8 generates (count false) or counts (count true) the captures of
// p; it returns the count in count mode.
func captures8x8(p *Position, list *MoveList, paths, count bool) int {
	if n, ok := quickCaptures8x8(p, list, count); ok {
		return n
	}
	return slowCaptures8x8(p, list, paths, count)
}

// slowCaptures8x8 is captures8x8 without the quick path: every sequence is
// followed square by square.
func slowCaptures8x8(p *Position, list *MoveList, paths, count bool) int {
	us := p.Side & 1
	own := p.Pieces[us]
	g := genTemplate8x8[p.V.slot()][us] // rule switches, crowning row and man directions
	g.list = list
	g.enemy = p.Pieces[us^1]
	g.paths = paths
	g.count = count
	empty := board8x8 &^ (own | g.enemy)
	men := own &^ p.Kings
	for b := manCaptureOrigins8x8(men, g.enemy, empty, &g.manDirs); b != 0; b &= b - 1 {
		sq := uint8(bits.TrailingZeros64(b))
		g.from = sq
		g.empty = empty | 1<<sq
		g.manJump(sq, 0, 0)
	}
	for b := own & p.Kings; b != 0; b &= b - 1 {
		sq := uint8(bits.TrailingZeros64(b))
		g.from = sq
		g.empty = empty | 1<<sq
		if g.flying {
			for d := 0; d < 4; d++ {
				g.kingDir(sq, 0, 0, d)
			}
		} else {
			g.shortKingJump(sq, 0, 0)
		}
	}
	return g.cnt + list.N
}

// generateQuiet8x8 writes the non-capturing moves of p into list.
func generateQuiet8x8(p *Position, list *MoveList) {
	us := p.Side
	own := p.Pieces[us]
	empty := board8x8 &^ (own | p.Pieces[us^1])
	men := own &^ p.Kings
	n := list.N
	if us == White {
		for t := (men >> nw8x8) & empty; t != 0; t &= t - 1 {
			to := uint8(bits.TrailingZeros64(t))
			list.Moves[n] = Move{From: to + nw8x8, To: to, Flags: crownFlag(to, promoWhite8x8)}
			n++
		}
		for t := (men >> ne8x8) & empty; t != 0; t &= t - 1 {
			to := uint8(bits.TrailingZeros64(t))
			list.Moves[n] = Move{From: to + ne8x8, To: to, Flags: crownFlag(to, promoWhite8x8)}
			n++
		}
	} else {
		for t := (men << sw8x8) & empty; t != 0; t &= t - 1 {
			to := uint8(bits.TrailingZeros64(t))
			list.Moves[n] = Move{From: to - sw8x8, To: to, Flags: crownFlag(to, promoBlack8x8)}
			n++
		}
		for t := (men << se8x8) & empty; t != 0; t &= t - 1 {
			to := uint8(bits.TrailingZeros64(t))
			list.Moves[n] = Move{From: to - se8x8, To: to, Flags: crownFlag(to, promoBlack8x8)}
			n++
		}
	}
	flying := variants[p.V].FlyingKings
	for b := own & p.Kings; b != 0; b &= b - 1 {
		sq := uint8(bits.TrailingZeros64(b))
		// Per direction, the empty squares of the ray up to the first
		// piece, nearest first: directions 0 and 1 go to lower bits.
		for d := 0; d < 2; d++ {
			ray := rays8x8[d][sq&63]
			reach := ray
			if block := ray &^ empty; block != 0 {
				reach &^= uint64(2)<<(63-bits.LeadingZeros64(block)) - 1
			}
			if !flying {
				reach &= uint64(1) << (63 - bits.LeadingZeros64(ray|1))
			}
			for ; reach != 0; reach &^= uint64(1) << (63 - bits.LeadingZeros64(reach)) {
				if n == MaxMoves {
					list.Overflow = true
					list.N = n
					return
				}
				list.Moves[n] = Move{From: sq, To: uint8(63 - bits.LeadingZeros64(reach))}
				n++
			}
		}
		for d := 2; d < 4; d++ {
			ray := rays8x8[d][sq&63]
			reach := ray
			if block := ray &^ empty; block != 0 {
				reach &= block&-block - 1
			}
			if !flying {
				reach &= ray & -ray
			}
			for ; reach != 0; reach &= reach - 1 {
				if n == MaxMoves {
					list.Overflow = true
					list.N = n
					return
				}
				list.Moves[n] = Move{From: sq, To: uint8(bits.TrailingZeros64(reach))}
				n++
			}
		}
	}
	list.N = n
}

// countQuiet8x8 returns the number of non-capturing moves of p without
// generating them (perft bulk counting).
func countQuiet8x8(p *Position) int {
	us := p.Side
	own := p.Pieces[us]
	empty := board8x8 &^ (own | p.Pieces[us^1])
	men := own &^ p.Kings
	var n int
	if us == White {
		n = bits.OnesCount64((men>>nw8x8)&empty) + bits.OnesCount64((men>>ne8x8)&empty)
	} else {
		n = bits.OnesCount64((men<<sw8x8)&empty) + bits.OnesCount64((men<<se8x8)&empty)
	}
	if kings := own & p.Kings; kings != 0 {
		n += countKingQuiet8x8(kings, empty, variants[p.V].FlyingKings)
	}
	return n
}

// countKingQuiet8x8 returns the number of non-capturing moves of kings onto
// the empty squares, flying (any distance) or one step.
func countKingQuiet8x8(kings, empty uint64, flying bool) int {
	if !flying {
		return bits.OnesCount64((kings>>nw8x8)&empty) + bits.OnesCount64((kings>>ne8x8)&empty) +
			bits.OnesCount64((kings<<sw8x8)&empty) + bits.OnesCount64((kings<<se8x8)&empty)
	}
	// Flying kings: the squares of each direction's occluded fill (rays
	// of one direction never overlap: a king blocks another's).
	return bits.OnesCount64(FillRight(kings, empty, nw8x8)>>nw8x8&empty) +
		bits.OnesCount64(FillRight(kings, empty, ne8x8)>>ne8x8&empty) +
		bits.OnesCount64(FillLeft(kings, empty, sw8x8)<<sw8x8&empty) +
		bits.OnesCount64(FillLeft(kings, empty, se8x8)<<se8x8&empty)
}

// countBoards8x8 returns the number of legal moves (distinct moves, or every
// capture path when paths is true) of the position of variant v in which
// colour c, with pieces own, moves against the pieces enemy; kings holds the
// kings of both sides. The position is given as bitboards so that perft can
// count a child without building it. Quiet moves and single man jumps are
// counted with bit operations; other captures are followed one by one, with
// list as scratch space for sequences that may be duplicates.
func countBoards8x8(own, enemy, kings uint64, c Color, v VariantID, list *MoveList, paths bool) int {
	t := &genTemplate8x8[v.slot()][c&1]
	empty := board8x8 &^ (own | enemy)
	men := own &^ kings
	k := own & kings
	if k == 0 || !kingsCanCapture8x8(k, enemy, empty, t.flying) {
		// j*: squares from which a man jump in that direction is open,
		// masked by the directions the variant's men may capture in.
		jNW := ((empty << nw8x8) & enemy) << nw8x8 & t.dirMask[dirNW]
		jNE := ((empty << ne8x8) & enemy) << ne8x8 & t.dirMask[dirNE]
		jSW := ((empty >> sw8x8) & enemy) >> sw8x8 & t.dirMask[dirSW]
		jSE := ((empty >> se8x8) & enemy) >> se8x8 & t.dirMask[dirSE]
		if men&(jNW|jNE|jSW|jSE) == 0 { // no capture: count the quiet moves
			var n int
			if c == White {
				n = bits.OnesCount64((men>>nw8x8)&empty) + bits.OnesCount64((men>>ne8x8)&empty)
			} else {
				n = bits.OnesCount64((men<<sw8x8)&empty) + bits.OnesCount64((men<<se8x8)&empty)
			}
			if k != 0 {
				n += countKingQuiet8x8(k, empty, t.flying)
			}
			return n
		}
		// Only men capture: single jumps that cannot go on are counted
		// as in quickCaptures8x8.
		lNW := (men & jNW) >> (2 * nw8x8)
		lNE := (men & jNE) >> (2 * ne8x8)
		lSW := (men & jSW) << (2 * sw8x8)
		lSE := (men & jSE) << (2 * se8x8)
		cont := lNW&(jNW|jNE|jSW) | lNE&(jNW|jNE|jSE) | lSW&(jNW|jSW|jSE) | lSE&(jNE|jSW|jSE)
		if cont == 0 && !(t.crownMid && (lNW|lNE|lSW|lSE)&t.promo != 0) {
			return bits.OnesCount64(lNW) + bits.OnesCount64(lNE) + bits.OnesCount64(lSW) + bits.OnesCount64(lSE)
		}
		if t.forward { // men that only jump forward: no two paths are duplicates
			n := 0
			if c == White {
				for o := men & (jNW | jNE); o != 0; o &= o - 1 {
					n += countUpJumps8x8(o&-o, enemy, empty)
				}
			} else {
				for o := men & (jSW | jSE); o != 0; o &= o - 1 {
					n += countDownJumps8x8(o&-o, enemy, empty)
				}
			}
			return n
		}
	}
	var q Position
	q.Pieces[c&1] = own
	q.Pieces[(c^1)&1] = enemy
	q.Kings = kings
	q.Side = c
	q.V = v
	list.N = 0
	list.Overflow = false
	return slowCaptures8x8(&q, list, paths, true)
}

// countUpJumps8x8 returns the number of capture sequences of a man on bit b
// that jumps toward bit 0 only (White without backward captures), over the
// pieces foes onto empty squares; the captured pieces keep blocking. A man
// that cannot jump ends a sequence there: the caller passes a man that can.
// Such a man never returns to a square, so no two sequences are duplicates.
func countUpJumps8x8(b, foes, empty uint64) int {
	n := 0
	if v := b >> nw8x8; v&foes != 0 && (v>>nw8x8)&empty != 0 {
		n += countUpJumps8x8(v>>nw8x8, foes&^v, empty)
	}
	if v := b >> ne8x8; v&foes != 0 && (v>>ne8x8)&empty != 0 {
		n += countUpJumps8x8(v>>ne8x8, foes&^v, empty)
	}
	return max(n, 1)
}

// countDownJumps8x8 is countUpJumps8x8 for a man jumping toward the high
// bits (Black).
func countDownJumps8x8(b, foes, empty uint64) int {
	n := 0
	if v := b << sw8x8; v&foes != 0 && (v<<sw8x8)&empty != 0 {
		n += countDownJumps8x8(v<<sw8x8, foes&^v, empty)
	}
	if v := b << se8x8; v&foes != 0 && (v<<se8x8)&empty != 0 {
		n += countDownJumps8x8(v<<se8x8, foes&^v, empty)
	}
	return max(n, 1)
}

// perftTwo8x8 returns perft(2) of p (distinct moves, or every capture path
// when paths is true): each move is played on bitboards only, without a
// move list when p has no capture, and the replies are counted by
// countBoards8x8. list holds p's captures; scratch is the replies' scratch.
func perftTwo8x8(p *Position, list, scratch *MoveList, paths bool) uint64 {
	us := p.Side & 1
	them := Color(us ^ 1)
	own, enemy, kings := p.Pieces[us], p.Pieces[us^1], p.Kings
	v := p.V
	var n uint64
	if hasCapture8x8(p) {
		list.N = 0
		list.Overflow = false
		captures8x8(p, list, paths, false)
		for i := 0; i < list.N; i++ {
			m := &list.Moves[i]
			from := uint64(1) << (m.From & 63)
			to := uint64(1) << (m.To & 63)
			k := kings &^ m.Captured
			if kings&from != 0 {
				k ^= from ^ to // from == to leaves the king where it is
			} else if m.Flags&FlagCrown != 0 {
				k |= to
			}
			n += uint64(countBoards8x8(enemy&^m.Captured, own^from^to, k, them, v, scratch, paths))
		}
		return n
	}
	empty := board8x8 &^ (own | enemy)
	men := own &^ kings
	if us == White {
		for t := (men >> nw8x8) & empty; t != 0; t &= t - 1 {
			to := t & -t
			n += uint64(countBoards8x8(enemy, own^(to|to<<nw8x8), kings|to&promoWhite8x8, them, v, scratch, paths))
		}
		for t := (men >> ne8x8) & empty; t != 0; t &= t - 1 {
			to := t & -t
			n += uint64(countBoards8x8(enemy, own^(to|to<<ne8x8), kings|to&promoWhite8x8, them, v, scratch, paths))
		}
	} else {
		for t := (men << sw8x8) & empty; t != 0; t &= t - 1 {
			to := t & -t
			n += uint64(countBoards8x8(enemy, own^(to|to>>sw8x8), kings|to&promoBlack8x8, them, v, scratch, paths))
		}
		for t := (men << se8x8) & empty; t != 0; t &= t - 1 {
			to := t & -t
			n += uint64(countBoards8x8(enemy, own^(to|to>>se8x8), kings|to&promoBlack8x8, them, v, scratch, paths))
		}
	}
	flying := genTemplate8x8[v.slot()][us].flying
	for b := own & kings; b != 0; b &= b - 1 {
		from := b & -b
		for to := (from >> nw8x8) & empty; to != 0; to = (to >> nw8x8) & empty {
			n += uint64(countBoards8x8(enemy, own^from^to, kings^from^to, them, v, scratch, paths))
			if !flying {
				break
			}
		}
		for to := (from >> ne8x8) & empty; to != 0; to = (to >> ne8x8) & empty {
			n += uint64(countBoards8x8(enemy, own^from^to, kings^from^to, them, v, scratch, paths))
			if !flying {
				break
			}
		}
		for to := (from << sw8x8) & empty; to != 0; to = (to << sw8x8) & empty {
			n += uint64(countBoards8x8(enemy, own^from^to, kings^from^to, them, v, scratch, paths))
			if !flying {
				break
			}
		}
		for to := (from << se8x8) & empty; to != 0; to = (to << se8x8) & empty {
			n += uint64(countBoards8x8(enemy, own^from^to, kings^from^to, them, v, scratch, paths))
			if !flying {
				break
			}
		}
	}
	return n
}

// hasCapture8x8 reports whether the side to move in p has a capture, with
// bit-parallel tests only.
func hasCapture8x8(p *Position) bool {
	us := p.Side & 1
	own := p.Pieces[us]
	enemy := p.Pieces[us^1]
	empty := board8x8 &^ (own | enemy)
	t := &genTemplate8x8[p.V.slot()][us]
	if manCaptureOrigins8x8(own&^p.Kings, enemy, empty, &t.manDirs) != 0 {
		return true
	}
	kings := own & p.Kings
	return kings != 0 && kingsCanCapture8x8(kings, enemy, empty, t.flying)
}

// kingsCanCapture8x8 reports whether any of kings can capture a piece of
// enemy, with bit-parallel fills.
func kingsCanCapture8x8(kings, enemy, empty uint64, flying bool) bool {
	if !flying {
		all := [4]bool{true, true, true, true}
		return manCaptureOrigins8x8(kings, enemy, empty, &all) != 0
	}
	if (FillRight(kings, empty, nw8x8)>>nw8x8&enemy)>>nw8x8&empty != 0 ||
		(FillRight(kings, empty, ne8x8)>>ne8x8&enemy)>>ne8x8&empty != 0 {
		return true
	}
	return (FillLeft(kings, empty, sw8x8)<<sw8x8&enemy)<<sw8x8&empty != 0 ||
		(FillLeft(kings, empty, se8x8)<<se8x8&enemy)<<se8x8&empty != 0
}

// quickCaptures8x8 handles the common case where every capture of p is a
// single jump by a man that cannot go on: it then counts the captures (count)
// or writes them into list, and returns ok. Otherwise (a king can capture, a
// jump can continue, or a Russian man would crown mid-capture) it returns
// ok false and leaves list alone.
//
// Continuations are found in parallel: after jumping in direction d the man
// cannot jump back (the captured piece still stands there), its origin lies
// behind that piece, and every other jump from the landing square sees the
// board as it was.
func quickCaptures8x8(p *Position, list *MoveList, count bool) (n int, ok bool) {
	us := p.Side & 1
	t := &genTemplate8x8[p.V.slot()][us]
	own := p.Pieces[us]
	enemy := p.Pieces[us^1]
	empty := board8x8 &^ (own | enemy)
	kings := own & p.Kings
	if kings != 0 && kingsCanCapture8x8(kings, enemy, empty, t.flying) {
		return 0, false
	}
	men := own &^ p.Kings
	// j*: squares from which a man jump in that direction is open, masked
	// by the directions the variant's men may capture in.
	jNW := ((empty << nw8x8) & enemy) << nw8x8 & t.dirMask[dirNW]
	jNE := ((empty << ne8x8) & enemy) << ne8x8 & t.dirMask[dirNE]
	jSW := ((empty >> sw8x8) & enemy) >> sw8x8 & t.dirMask[dirSW]
	jSE := ((empty >> se8x8) & enemy) >> se8x8 & t.dirMask[dirSE]
	// Landing squares per direction.
	var land [4]uint64
	land[dirNW] = (men & jNW) >> (2 * nw8x8)
	land[dirNE] = (men & jNE) >> (2 * ne8x8)
	land[dirSW] = (men & jSW) << (2 * sw8x8)
	land[dirSE] = (men & jSE) << (2 * se8x8)
	all := land[dirNW] | land[dirNE] | land[dirSW] | land[dirSE]
	cont := land[dirNW]&(jNW|jNE|jSW) | land[dirNE]&(jNW|jNE|jSE) |
		land[dirSW]&(jNW|jSW|jSE) | land[dirSE]&(jNE|jSW|jSE)
	if cont != 0 || (t.crownMid && all&t.promo != 0) {
		return 0, false
	}
	if count {
		return bits.OnesCount64(land[dirNW]) + bits.OnesCount64(land[dirNE]) +
			bits.OnesCount64(land[dirSW]) + bits.OnesCount64(land[dirSE]), true
	}
	k := list.N
	for d := 0; d < 4; d++ {
		dl := delta8x8[d]
		for b := land[d]; b != 0; b &= b - 1 {
			to := bits.TrailingZeros64(b)
			list.Moves[k] = Move{
				Captured: uint64(1) << uint(to-dl),
				From:     uint8(to - 2*dl),
				To:       uint8(to),
				Flags:    crownFlag(uint8(to), t.promo),
				NCapt:    1,
			}
			k++
		}
	}
	list.N = k
	return k, true
}
