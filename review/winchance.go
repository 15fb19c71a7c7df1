// winchance.go: the expected result of a position from its search score
// and the men left, fitted to game results (winmodel_data.go).

package review

import (
	"math"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/learn"
	"github.com/damka-draughts/damka/search"
)

//go:generate go run ./internal/winfit -out winmodel_data.go

// MenBuckets are the classes of material of the win model: a position
// with m men on the board (both sides, kings not counted) is in the first
// bucket whose upper bound is m or more.
var MenBuckets = [...]int{4, 8, 12, 16, 24, 40}

// bucketOf returns the index in MenBuckets of a position with men men.
func bucketOf(men int) int {
	for i, hi := range MenBuckets {
		if men <= hi {
			return i
		}
	}
	return len(MenBuckets) - 1
}

// WinModel gives a side's expected result (a win 1, a draw 1/2, a loss 0)
// from a search score, in centi-men from that side's view, and the men on
// the board: 1 / (1 + exp(-score / Scale[bucket])), with one scale per
// bucket of MenBuckets. A larger scale means that a score of the same size
// decides less (king endings, where a man more often draws).
type WinModel struct {
	Scale [len(MenBuckets)]float64 // centi-men
}

// Model returns variant v's win model (winmodel_data.go: fitted by `go
// generate ./review` to the self-play games of learn/games).
func Model(v engine.VariantID) WinModel { return winModels[v] }

// Expected returns the expected result for the side whose score is s
// (centi-men, its view) with men men on the board: 0 to 1. A score of a
// decided position (a table result or a found win or loss, beyond
// ±search.EGDBWinBound) is 1 or 0.
func (m WinModel) Expected(s, men int) float64 {
	switch {
	case s >= search.EGDBWinBound:
		return 1
	case s <= -search.EGDBWinBound:
		return 0
	}
	return 1 / (1 + math.Exp(-float64(s)/m.Scale[bucketOf(men)]))
}

// menOf returns the men of both sides on p's board.
func menOf(p *engine.Position) int {
	w, _ := p.Count(engine.White)
	b, _ := p.Count(engine.Black)
	return w + b
}

// FitWinModel fits a win model to samples (search scores and game
// results, White's view, as learn.Data reads them from game files): for
// each bucket of MenBuckets, the scale of least cross-entropy
// (learn.FitScale); a bucket without samples takes the scale of the
// nearest bucket below it that has some, or of all samples.
func FitWinModel(samples []learn.Sample) (WinModel, [len(MenBuckets)]int) {
	var by [len(MenBuckets)][]learn.Sample
	for _, s := range samples {
		i := bucketOf(int(s.MenLeft))
		by[i] = append(by[i], s)
	}
	var m WinModel
	var counts [len(MenBuckets)]int
	all := 0.0
	for i := range by {
		counts[i] = len(by[i])
		if len(by[i]) > 0 {
			m.Scale[i] = learn.FitScale(by[i])
		}
	}
	for i := range m.Scale {
		if m.Scale[i] != 0 {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if m.Scale[j] != 0 {
				m.Scale[i] = m.Scale[j]
				break
			}
		}
		if m.Scale[i] == 0 {
			if all == 0 {
				all = learn.FitScale(samples)
			}
			m.Scale[i] = all
		}
	}
	return m, counts
}

// CrossEntropy returns the mean cross-entropy of m's expected results
// against the samples' game results (White's view): how well m predicts
// them, lower is better; for comparing models on the same samples.
func (m WinModel) CrossEntropy(samples []learn.Sample) float64 {
	if len(samples) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range samples {
		p := m.Expected(int(s.Score), int(s.MenLeft))
		p = min(max(p, 1e-9), 1-1e-9)
		y := float64(s.Result)
		sum -= y*math.Log(p) + (1-y)*math.Log(1-p)
	}
	return sum / float64(len(samples))
}
