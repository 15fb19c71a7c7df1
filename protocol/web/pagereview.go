// pagereview.go: the review of the game shown (package review): its
// progress, and its marks, better lines and accuracies in the tree.

package web

import (
	"context"
	"fmt"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/review"
	"github.com/damka-draughts/damka/search"
)

// ReviewDepth is the search depth of a review from the page when it asks
// for none: shallower than damka review's, so that a game of 60 moves is
// reviewed in seconds (damka review: review.DefaultDepth).
const ReviewDepth = 8

// maxReviewDepth bounds the depth a page may ask a review for.
const maxReviewDepth = 30

// reviewHashMiB bounds the table of a review's own search engine.
const reviewHashMiB = 64

// startReview reviews the line shown (the moves to the node shown and on
// along its main continuation) at depth (0: ReviewDepth): the page is
// sent review messages with the progress, then the state with the marks,
// the better lines as variations and the accuracies. Going to another
// move of the tree lets it run; any other action stops it.
func (s *session) startReview(depth int) {
	if depth == 0 {
		depth = ReviewDepth
	}
	if depth < 1 || depth > maxReviewDepth {
		s.sendError("review: want a depth from 1 to %d, got %d", maxReviewDepth, depth)
		return
	}
	if s.busyThinking() {
		s.sendError("%s is thinking: review after its move", s.sides[s.game().Position().Side])
		return
	}
	s.syncTree()
	t := s.tree
	nodes := t.path(t.mainEnd(t.cur))
	if len(nodes) == 0 {
		s.sendError("review: no moves to review")
		return
	}
	s.stopLocked()
	v := t.start.V
	pg := pdn.NewGame(v, t.start)
	// The players' names for the review's summary after the last move.
	for _, c := range []engine.Color{engine.White, engine.Black} {
		pg.SetTag(c.Name(), s.playerName(c))
	}
	for _, mv := range t.line(nodes[len(nodes)-1]) {
		pg.AppendMove(mv)
	}
	opts := s.p.Options()
	opts.HashMiB = min(max(opts.HashMiB, 1), reviewHashMiB)
	opts.Threads = max(opts.Threads, 1)
	lim := search.Limits{Depth: depth}
	cfg := review.Config{Options: opts, Limits: lim, Verify: review.VerifyLimits(lim)}
	if b, err := book.Default(v); err == nil {
		cfg.Books[v] = b
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.reviewing = cancel
	s.reviewN++
	id := s.reviewN
	total := len(nodes)
	s.send(map[string]any{"type": "busy", "what": "review", "who": Damka})
	s.send(map[string]any{"type": "review", "done": 0, "total": total})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		done := 0
		rv, err := review.New(cfg).Review(ctx, 1, pg, func() {
			done++
			s.sendInfo(map[string]any{"type": "review", "done": done, "total": total})
		})
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.reviewN != id || s.reviewing == nil || s.tree != t {
			return // stopped, or another game
		}
		s.reviewing = nil
		s.send(map[string]any{"type": "busy", "what": ""})
		if err != nil {
			s.sendError("review: %v", err)
			return
		}
		t.applyReview(nodes, rv)
		s.sendStateLocked()
	}()
}

// applyReview puts a review of the line of nodes into the tree: each
// move's glyph (a move the review does not mark keeps its own) and
// comment, the better line of each marked move as a variation, and the
// sides' accuracies.
func (t *moveTree) applyReview(nodes []int, rv *review.Game) {
	pos := t.start
	for i, id := range nodes {
		nd := &t.nodes[id]
		// A review's mark replaces the move's; a mark of another kind ("!")
		// stays where the review has none.
		if g := rv.Game.Glyph(i); g != "" || reviewMark(nd.glyph) {
			nd.glyph = g
		}
		nd.comment = rv.Game.Comment(i)
		if i < len(rv.Game.Variations) && len(rv.Game.Variations[i]) > 0 {
			t.addLine(nd.parent, pos, rv.Game.Variations[i])
		}
		pos = pos.Play(nd.move)
	}
	t.accuracy = map[string]string{}
	for _, c := range []engine.Color{engine.White, engine.Black} {
		if rv.Sides[c].Moves > 0 {
			t.accuracy[colourWord(c)] = fmt.Sprintf("%.1f", rv.Sides[c].Accuracy())
		}
	}
}

// reviewMark reports whether glyph is one a review gives: "?!", "?", "??".
func reviewMark(glyph string) bool {
	return glyph == "?!" || glyph == "?" || glyph == "??"
}
