// inuse.go: what a game uses (weights, book) and the notices when a file
// set does not fit the game's variant.

package player

import (
	"fmt"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// inUse is what a Go reported in use: the variant and the weights and
// book files then set.
type inUse struct {
	v     engine.VariantID
	evalW *eval.Weights
	bookB *book.Book
}

// reportInUse logs the weights and book the game's variant uses when that
// changes, and sends a notice when a file set is of another variant.
func (p *Player) reportInUse() {
	now := inUse{v: p.variant, evalW: p.evalW, bookB: p.bookB}
	if now == p.shown {
		return
	}
	p.shown = now
	use, evalFrom := eval.Default(p.variant), "embedded"
	if p.evalW != nil && p.evalW.V == p.variant {
		use, evalFrom = p.evalW, p.evalFile
	}
	bookFrom := "embedded"
	if p.gameBook() != nil {
		bookFrom = p.bookFile
	}
	p.log.Info().Str("variant", p.variant.String()).Str("eval", evalFrom).Str("weights", use.Title()).
		Str("book", bookFrom).Msg("player: in use")
	for _, m := range p.mismatches() {
		p.notice(m.Error() + ": " + p.variant.String() + " plays with the embedded " + m.embedded)
	}
}

// Mismatch is a file setting that does not fit the variant setting: a
// weights or book file of another variant. The file stays set (a GUI may
// set the variant after it) and the embedded one is used meanwhile.
type Mismatch struct {
	Setting string           // eval-file or book-file
	File    string           // the setting's value
	Holds   engine.VariantID // the file's variant
	Variant engine.VariantID // the variant setting
	// embedded names what is used instead: "weights" or "book".
	embedded string
}

// Error says what does not fit, e.g. "eval-file w.dkw holds english
// weights, not russian".
func (m Mismatch) Error() string {
	if m.Setting == SetBookFile {
		return fmt.Sprintf("book-file %s is a %v book, not %v", m.File, m.Holds, m.Variant)
	}
	return fmt.Sprintf("eval-file %s holds %v weights, not %v", m.File, m.Holds, m.Variant)
}

// Mismatches returns the file settings of another variant than the
// variant setting (none when all fit). Command lines refuse them as bad
// input; a GUI session is told at Go (Config.Notice).
func (p *Player) Mismatches() []Mismatch {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mismatches()
}

// mismatches is Mismatches with p.mu held.
func (p *Player) mismatches() []Mismatch {
	var out []Mismatch
	if p.evalW != nil && p.evalW.V != p.variant {
		out = append(out, Mismatch{SetEvalFile, p.evalFile, p.evalW.V, p.variant, "weights"})
	}
	if p.bookB != nil && p.bookB.Variant() != p.variant {
		out = append(out, Mismatch{SetBookFile, p.bookFile, p.bookB.Variant(), p.variant, "book"})
	}
	return out
}

// SetNotice replaces Config.Notice: f (nil for none) is told from now on
// when a setting cannot be used as set in the current game. A front end
// given a ready player (made from the command line) sets it to its own
// way of telling the user.
func (p *Player) SetNotice(f func(msg string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.Notice = f
}

// notice passes msg to Config.Notice and the log.
func (p *Player) notice(msg string) {
	p.log.Warn().Msg(msg)
	if p.cfg.Notice != nil {
		p.cfg.Notice(msg)
	}
}
