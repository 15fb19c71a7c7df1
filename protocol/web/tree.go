// tree.go: the game as a tree of moves: the main line and its variations,
// the node shown, the marks and comments of a review, and PDN in and out.

package web

import (
	"slices"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// maxTreeNodes bounds the moves a page's tree holds: past it a move is
// still played, but the tree (the move list) ends before it.
const maxTreeNodes = 1 << 16

// treeNode is one move of the tree (node 0, the root, is the start
// position and has no move).
type treeNode struct {
	parent   int
	move     engine.Move
	children []int  // the first is the main continuation
	glyph    string // "?!", "?", "??", "!" ... from a review or a PDN
	comment  string
}

// moveTree is the game with its variations. The player's game is always
// the line from the root to the node shown (cur).
type moveTree struct {
	start    engine.Position
	nodes    []treeNode
	cur      int
	accuracy map[string]string // "white", "black": a review's accuracy, in per cent
	// result and why are a loaded game's recorded result, which holds at
	// the end of its main line.
	result engine.Result
	why    engine.Reason
}

// newMoveTree returns the tree of g's moves: one line, its end shown.
func newMoveTree(g *engine.Game) *moveTree {
	t := &moveTree{start: g.Start(), nodes: []treeNode{{parent: -1}}}
	t.cur, _ = t.follow(g.Moves())
	return t
}

// child returns the child of node n by move mv, added when there is none
// (the first child is the main line). At the bound of the tree a new move
// is not added: it returns -1 and the caller's line ends at n.
func (t *moveTree) child(n int, mv engine.Move) int {
	for _, c := range t.nodes[n].children {
		if t.nodes[c].move == mv {
			return c
		}
	}
	if len(t.nodes) >= maxTreeNodes {
		return -1
	}
	t.nodes = append(t.nodes, treeNode{parent: n, move: mv})
	id := len(t.nodes) - 1
	t.nodes[n].children = append(t.nodes[n].children, id)
	return id
}

// line returns the moves from the root to node n.
func (t *moveTree) line(n int) []engine.Move {
	var out []engine.Move
	for ; n > 0; n = t.nodes[n].parent {
		out = append(out, t.nodes[n].move)
	}
	slices.Reverse(out)
	return out
}

// path returns the nodes from the root's first move to node n.
func (t *moveTree) path(n int) []int {
	var out []int
	for ; n > 0; n = t.nodes[n].parent {
		out = append(out, n)
	}
	slices.Reverse(out)
	return out
}

// follow returns the node the moves lead to from the root, adding the
// moves the tree does not have; ok is false when the tree is full.
func (t *moveTree) follow(moves []engine.Move) (n int, ok bool) {
	for _, mv := range moves {
		c := t.child(n, mv)
		if c < 0 {
			return n, false
		}
		n = c
	}
	return n, true
}

// mainEnd returns the last node of the line that starts at n and follows
// the first children.
func (t *moveTree) mainEnd(n int) int {
	for len(t.nodes[n].children) > 0 {
		n = t.nodes[n].children[0]
	}
	return n
}

// treeFromPDN returns the tree of a PDN game: its moves as the main line,
// each move's variation beside it, its glyphs and comments, the
// accuracies of a review (the WhiteAccuracy and BlackAccuracy tags); the
// main line's end is shown.
func treeFromPDN(pg *pdn.Game) *moveTree {
	t := &moveTree{start: pg.Start, nodes: []treeNode{{parent: -1}}}
	n := 0
	pos := pg.Start
	for i, mv := range pg.Moves {
		before := n
		n = t.child(n, mv)
		if n < 0 {
			n = before
			break
		}
		t.nodes[n].glyph = pg.Glyph(i)
		t.nodes[n].comment = pg.Comment(i)
		switch {
		case i < len(pg.Lines) && len(pg.Lines[i]) > 0:
			t.addLines(before, pos, pg.Lines[i])
		case i < len(pg.Variations) && len(pg.Variations[i]) > 0:
			t.addLine(before, pos, pg.Variations[i])
		}
		pos = pos.Play(mv)
	}
	t.cur = n
	for _, c := range []engine.Color{engine.White, engine.Black} {
		if a := pg.Tag(c.Name() + "Accuracy"); a != "" {
			if t.accuracy == nil {
				t.accuracy = map[string]string{}
			}
			t.accuracy[colourWord(c)] = a
		}
	}
	return t
}

// addLine adds the line of play from node n (whose position is pos) as
// far as its moves are legal, and returns its first node (-1 for none).
func (t *moveTree) addLine(n int, pos engine.Position, line []engine.Move) int {
	first := -1
	var list engine.MoveList
	for _, mv := range line {
		pos.Generate(&list)
		if !slices.Contains(list.Slice(), mv) {
			break
		}
		c := t.child(n, mv)
		if c < 0 {
			break
		}
		if first < 0 {
			first = c
		}
		n = c
		pos = pos.Play(mv)
	}
	return first
}

// addLines adds variations from node n (whose position is pos), with
// their comments (a line's Intro before its first move's comment) and
// the variations inside them. A move the tree has already keeps its
// comment.
func (t *moveTree) addLines(n int, pos engine.Position, lines []pdn.Line) {
	for _, l := range lines {
		at, p := n, pos
		var list engine.MoveList
		for i, mv := range l.Moves {
			p.Generate(&list)
			if !slices.Contains(list.Slice(), mv) {
				break
			}
			c := t.child(at, mv)
			if c < 0 {
				return
			}
			text := l.Comment(i)
			if i == 0 && l.Intro != "" {
				text = strings.TrimSpace(l.Intro + " " + text)
			}
			if t.nodes[c].comment == "" {
				t.nodes[c].comment = text
			}
			if i < len(l.Lines) && len(l.Lines[i]) > 0 {
				t.addLines(at, p, l.Lines[i])
			}
			at, p = c, p.Play(mv)
		}
	}
}

// pdnLines returns the variations of node n's first child: the lines of
// its other children, each with its moves' comments and the variations
// of its own moves.
func (t *moveTree) pdnLines(n int) []pdn.Line {
	kids := t.nodes[n].children
	if len(kids) < 2 {
		return nil
	}
	var out []pdn.Line
	for _, v := range kids[1:] {
		var l pdn.Line
		has, hasC := false, false
		for x, i := v, 0; ; i++ {
			l.Moves = append(l.Moves, t.nodes[x].move)
			l.Comments = append(l.Comments, t.nodes[x].comment)
			hasC = hasC || t.nodes[x].comment != ""
			var subs []pdn.Line
			if x != v {
				subs = t.pdnLines(t.nodes[x].parent)
			}
			l.Lines = append(l.Lines, subs)
			has = has || len(subs) > 0
			if len(t.nodes[x].children) == 0 {
				break
			}
			x = t.nodes[x].children[0]
		}
		if !has {
			l.Lines = nil
		}
		if !hasC {
			l.Comments = nil
		}
		out = append(out, l)
	}
	return out
}

// toPDN fills pg's moves from the tree: the main line, with each move's
// glyph and comment and its variations (every other move of its
// position, each line along the first children, with the variations
// inside it).
func (t *moveTree) toPDN(pg *pdn.Game) {
	var glyphs, comments []string
	var vars [][]engine.Move
	var lines [][]pdn.Line
	hasG, hasC, hasV := false, false, false
	for n := 0; len(t.nodes[n].children) > 0; {
		c := t.nodes[n].children[0]
		pg.AppendMove(t.nodes[c].move)
		glyphs = append(glyphs, t.nodes[c].glyph)
		comments = append(comments, t.nodes[c].comment)
		hasG = hasG || t.nodes[c].glyph != ""
		hasC = hasC || t.nodes[c].comment != ""
		ls := t.pdnLines(n)
		var v []engine.Move
		if len(ls) > 0 {
			v = ls[0].Moves
			hasV = true
		}
		vars = append(vars, v)
		lines = append(lines, ls)
		n = c
	}
	if hasG {
		pg.Glyphs = glyphs
	}
	if hasC {
		pg.Comments = comments
	}
	if hasV {
		pg.Variations = vars
		pg.Lines = lines
	}
	for _, c := range []engine.Color{engine.White, engine.Black} {
		if a := t.accuracy[colourWord(c)]; a != "" {
			pg.SetTag(c.Name()+"Accuracy", a)
		}
	}
}

// nodeMsg is one node of the tree for the page: its parent (-1 for the
// root), its move's text, its children (the first is the main
// continuation), its glyph and comment.
type nodeMsg struct {
	Parent   int    `json:"parent"`
	Move     string `json:"move"`
	Children []int  `json:"children"`
	Glyph    string `json:"glyph,omitempty"`
	Comment  string `json:"comment,omitempty"`
	Ply      int    `json:"ply"`
}

// message returns the tree's nodes for the page, indexed by id.
func (t *moveTree) message() []nodeMsg {
	out := make([]nodeMsg, len(t.nodes))
	pos := make([]engine.Position, len(t.nodes))
	pos[0] = t.start
	out[0] = nodeMsg{Parent: -1, Children: t.nodes[0].children}
	// Parents come before their children: ids grow down the tree.
	for id := 1; id < len(t.nodes); id++ {
		nd := &t.nodes[id]
		p := pos[nd.parent]
		pos[id] = p.Play(nd.move)
		kids := nd.children
		if kids == nil {
			kids = []int{}
		}
		out[id] = nodeMsg{Parent: nd.parent, Move: p.FormatMove(nd.move, engine.FormatFull), Children: kids,
			Glyph: nd.glyph, Comment: nd.comment, Ply: out[nd.parent].Ply + 1}
	}
	if out[0].Children == nil {
		out[0].Children = []int{}
	}
	return out
}

// syncTree makes the tree hold the player's game: the node shown is the
// end of the game's line, its moves added where the tree lacks them (a
// move played after a take back becomes a variation). A game from another
// start gets a new tree.
func (s *session) syncTree() {
	g := s.game()
	if s.tree == nil || s.tree.start != g.Start() {
		s.tree = newMoveTree(g)
		s.gameID++
		return
	}
	s.tree.cur, _ = s.tree.follow(g.Moves())
}

// gotoNode shows node n of the tree: the game becomes its line. A
// running analysis goes on in the new position, a running review goes on
// (it reviews a line of its own); damka's thinking stops and does not
// start again by itself.
func (s *session) gotoNode(n int) {
	s.syncTree()
	if n < 0 || n >= len(s.tree.nodes) {
		s.sendError("goto: no move %d in the game (0 to %d)", n, len(s.tree.nodes)-1)
		return
	}
	// A game lost on time: going to another move stops the clocks, as a
	// take back does; else the flag of the position shown falls again.
	if n != s.tree.cur {
		if _, why := s.ended(); why == engine.TimeForfeit {
			s.clock.base, s.clock.inc = 0, 0
			s.send(map[string]any{"type": "notice", "message": "a move shown after a loss on time: the clocks are stopped (untimed play); Start clocks to time the game again"})
		}
	}
	analysing := s.analysing
	reviewing := s.reviewing
	s.reviewing = nil
	s.stopLocked()
	s.reviewing = reviewing
	if reviewing == nil {
		s.send(map[string]any{"type": "busy", "what": ""})
	}
	g := s.game()
	target := s.tree.line(n)
	moves := g.Moves()
	common := 0
	for common < len(moves) && common < len(target) && moves[common] == target[common] {
		common++
	}
	for g.Ply() > common {
		g.Undo()
	}
	for _, mv := range target[common:] {
		g.Play(mv)
	}
	s.tree.cur = n
	if n == s.tree.mainEnd(0) && s.tree.result != engine.Ongoing {
		if res, _ := g.Result(); res == engine.Ongoing {
			g.SetResult(s.tree.result, s.tree.why)
		}
	}
	ply := g.Ply()
	if len(s.clock.spent) > ply {
		s.clock.spent = s.clock.spent[:ply]
	}
	for len(s.clock.spent) < ply {
		s.clock.spent = append(s.clock.spent, 0)
	}
	s.clock.fromPly = min(s.clock.fromPly, ply)
	s.clock.turnStart, s.clock.stopped = time.Now(), false
	s.armFlag()
	s.sendStateLocked()
	if analysing {
		s.analyse()
	}
}

// mainLineResult returns the result at the end of the tree's main line:
// the game's own when it is shown, else by the rules or as the loaded
// game recorded it.
func (s *session) mainLineResult() engine.Result {
	end := s.tree.mainEnd(0)
	if s.tree.cur == end {
		res, _ := s.ended()
		return res
	}
	g := engine.NewGame(s.tree.start)
	for _, mv := range s.tree.line(end) {
		g.Play(mv)
	}
	res, _ := g.Result()
	if res == engine.Ongoing {
		res = s.tree.result
	}
	return res
}
