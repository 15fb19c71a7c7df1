// testset.go: test positions from PDN games (a match against other
// engines, a database of master games): a measure of the evaluation on
// games it was not fitted to.

package learn

import (
	"errors"
	"fmt"
	"io"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/internal/gzfile"
	"github.com/damka-draughts/damka/pdn"
)

// TestSet holds the positions of PDN games, each labelled with its game's
// result, on which Train measures the evaluation (Options.Test) without
// fitting to them.
type TestSet struct {
	V       engine.VariantID
	Samples []Sample // Result is White's score of the game (1, 0.5, 0); Score is 0
	Games   int      // games read
	// Set is the feature set the samples are read in: the training
	// data's (Data.Set; 0, or a set that is not eval.Trainable, reads as
	// eval.FeatureSet). Set it before reading.
	Set uint8
	// Games skipped: of another variant, without a result ("*" or a token
	// engine.ParseResult refuses), or with a fault (a *pdn.Error: an
	// illegal move, a bad tag).
	OtherVariant, Unfinished, Bad int
}

// ReadPDN reads the PDN games of t.V in r (named name in errors) into t:
// every position before a move of a finished game where the side to move
// has no capture and men are left (the rule of the training positions),
// labelled with the game's result. Games without a GameType tag are of
// t.V. It returns the games read; skipped games are counted in t. Errors:
// a read error of r (a damaged gzip stream), prefixed by name.
func (t *TestSet) ReadPDN(r io.Reader, name string) (int, error) {
	pr := pdn.NewReader(r, t.V)
	set := trainableSet(t.Set)
	var f eval.Features
	games := 0
	for {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			return games, nil
		}
		var pe *pdn.Error
		switch {
		case err != nil && !errors.As(err, &pe):
			return games, fmt.Errorf("%s: %w", name, err)
		case g != nil && g.Variant != t.V:
			t.OtherVariant++
			continue
		case err != nil || g == nil:
			t.Bad++
			continue
		}
		res, err := engine.ParseResult(g.Variant, g.Result)
		if err != nil || res == engine.Ongoing {
			t.Unfinished++
			continue
		}
		y := float32(0.5)
		switch res {
		case engine.WhiteWins:
			y = 1
		case engine.BlackWins:
			y = 0
		}
		p := g.Start
		for _, m := range g.Moves {
			if s, ok := sampleOf(&p, &f, set); ok {
				s.Result, s.Game = y, uint32(t.Games)
				t.Samples = append(t.Samples, s)
			}
			p = p.Play(m)
		}
		t.Games++
		games++
	}
}

// ReadPDNFiles reads the PDN files at paths into t; a file may be
// gzip-compressed (as `damka match --pdn` files in learn/sprt are).
// Errors name the file: one that cannot be opened or read, or one with
// no finished game of t.V.
func (t *TestSet) ReadPDNFiles(paths ...string) error {
	for _, path := range paths {
		if err := t.readPDNFile(path); err != nil {
			return err
		}
	}
	return nil
}

func (t *TestSet) readPDNFile(path string) error {
	f, err := gzfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	other, unfinished, bad := t.OtherVariant, t.Unfinished, t.Bad
	n, err := t.ReadPDN(f, path)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s: no finished %v game (skipped: %d of another variant, %d without a result, %d with a fault)",
			path, t.V, t.OtherVariant-other, t.Unfinished-unfinished, t.Bad-bad)
	}
	return nil
}
