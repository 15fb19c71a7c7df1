// Package learn trains the pattern evaluation (package eval) on game files
// (pdn/gamerec.go, written by `damka selfplay`): a logistic regression
// of the game result, blended with the search score, on
// sigmoid(eval / scale), with L2 regularisation and Adam over mini-batches,
// and a held-out validation set. It is deterministic for a seed. A test
// set of PDN games (TestSet: matches against other engines) measures the
// evaluation on games it is not fitted to.
package learn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/internal/gzfile"
	"github.com/damka-draughts/damka/pdn"
)

// Sample is one training position: its features and what it should score.
type Sample struct {
	White, Black [eval.MaxRegions]uint16 // pattern indices per region (eval.Features)
	Dense        [eval.NumDense]int16    // White's minus Black's counts
	MenLeft      uint8                   // men of both sides
	Scale        uint8                   // the endgame rules' divisor (1 or 2)
	Drawish      [2]uint8                // the drawish-material divisors, White ahead and Black ahead (eval.Features.Drawish)
	Result       float32                 // White's score: 1, 0.5 or 0 (the game's, or the table's when Exact)
	Exact        bool                    // Result is the endgame table's value of the position (Data.EGDB)
	Score        int16                   // search score, White's view, centi-men
	Game         uint32                  // the sample's game (its number among the games read)
}

// newSample returns the sample of the features f (Result, Score and Game
// unset).
func newSample(f *eval.Features) Sample {
	return Sample{White: f.White, Black: f.Black, Dense: f.Dense, MenLeft: uint8(f.MenLeft), Scale: uint8(f.Scale),
		Drawish: [2]uint8{uint8(f.Drawish[0]), uint8(f.Drawish[1])}}
}

// EGDB gives training positions their exact values (Data.EGDB); an
// *egdb.DB is one. Probe returns the value of p for its side to move, its
// distance in plies to the end of the game (-1: the table stores none) and
// whether p is in the tables; Pieces the most pieces of v's positions the
// tables hold completely.
type EGDB interface {
	Probe(p *engine.Position) (v egdb.Value, dist int, ok bool)
	Pieces(v engine.VariantID) int
}

// Data are the samples read from game files.
type Data struct {
	V       engine.VariantID
	Samples []Sample
	Games   int // games read
	// EGDB, if not nil, labels the positions it holds with their exact
	// values instead of their games' results (Sample.Exact), where the
	// draw rules cannot change the value (egdb.Decided, with the draw
	// counters of the game at that point).
	EGDB EGDB
	// Exact counts the samples labelled by EGDB, and Corrected those of
	// them whose game had another result.
	Exact, Corrected int
	// Set is the feature set the samples are read in and Train fits
	// (eval.Trainable; 0, or a set that is not, reads as
	// eval.FeatureSet). Set it before reading.
	Set uint8
}

// set returns the feature set of d's samples.
func (d *Data) set() uint8 { return trainableSet(d.Set) }

// trainableSet returns set when damka train can fit it, else
// eval.FeatureSet: the one place Data.Set and TestSet.Set are checked.
func trainableSet(set uint8) uint8 {
	if eval.Trainable(set) {
		return set
	}
	return eval.FeatureSet
}

// sampleOf returns the sample of p in feature set set (f is scratch) and
// whether p is a position the model scores: the side to move has no
// capture and men are left. Result, Score and Game are unset.
func sampleOf(p *engine.Position, f *eval.Features, set uint8) (Sample, bool) {
	if p.HasCapture() {
		return Sample{}, false
	}
	eval.ExtractFeaturesSet(p, f, set)
	if f.Scale == 0 {
		return Sample{}, false
	}
	return newSample(f), true
}

// ReadGames reads every game of the game file r (named name in errors) into
// d: the positions whose move was searched (a score is recorded), where
// the side to move has no capture and men are left. The file must be of
// d.V. With d.EGDB, positions in the tables take their exact values.
func (d *Data) ReadGames(r io.Reader, name string) error {
	gr, err := pdn.NewRecordReader(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if gr.Variant() != d.V {
		return fmt.Errorf("%s: %v games, not %v", name, gr.Variant(), d.V)
	}
	var f eval.Features
	set := d.set()
	tablePieces := 0
	if d.EGDB != nil {
		tablePieces = d.EGDB.Pieces(d.V)
	}
	for {
		rec, err := gr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		res := float32(0.5)
		switch rec.Result {
		case engine.WhiteWins:
			res = 1
		case engine.BlackWins:
			res = 0
		case engine.Ongoing:
			continue
		}
		p := rec.Start
		var ds engine.DrawState
		for i, m := range rec.Moves {
			if sc := rec.Scores[i]; sc != pdn.NoScore {
				if s, ok := sampleOf(&p, &f, set); ok {
					s.Result, s.Game = res, uint32(d.Games)
					if p.Side == engine.Black {
						sc = -sc
					}
					s.Score = sc
					if tablePieces > 0 && bits.OnesCount64(p.Pieces[0]|p.Pieces[1]) <= tablePieces {
						d.label(&s, &p, ds)
					}
					d.Samples = append(d.Samples, s)
				}
			}
			ds = ds.Update(&p, m)
			p = p.Play(m)
		}
		d.Games++
	}
}

// label gives s, the sample of p (reached with draw counters ds), the
// table value of p when the tables hold p and the draw rules cannot change
// it.
func (d *Data) label(s *Sample, p *engine.Position, ds engine.DrawState) {
	v, dist, ok := d.EGDB.Probe(p)
	if !ok || (v != egdb.Draw && !egdb.Decided(v, dist, ds.PliesToRule(p))) {
		return
	}
	if p.Side == engine.Black {
		v = -v
	}
	r := float32(v+1) / 2 // White's score
	s.Exact = true
	d.Exact++
	if r != s.Result {
		d.Corrected++
		s.Result = r
	}
}

// ReadFiles reads the game files at paths into d; a file may be
// gzip-compressed (as the games shipped in learn/games are).
func (d *Data) ReadFiles(paths ...string) error {
	for _, path := range paths {
		if err := d.readFile(path); err != nil {
			return err
		}
	}
	return nil
}

func (d *Data) readFile(path string) error {
	f, err := gzfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return d.ReadGames(f, path)
}

// Options configure Train.
type Options struct {
	Epochs   int     // passes over the training set (0: none; the losses of Init alone)
	Batch    int     // positions per Adam step (0: 16384)
	Rate     float64 // Adam step size in centi-men (0: 1)
	Decay    float64 // the step size is multiplied by this after every epoch (0: 0.85)
	L2       float64 // L2 penalty on the pattern weights, per position (0: 1e-6)
	Lambda   float64 // weight of the game result in the target; 1-Lambda goes to the search score
	Scale    float64 // sigmoid scale in centi-men; 0: fitted to the data's search scores and results
	Validate int     // every Validate-th game is held out (0: 10)
	Seed     uint64
	Threads  int               // 0: all CPUs
	Progress func(EpochReport) // after every epoch, if not nil
	Init     *eval.Weights     // start from these weights (nil: eval.NewWeights)
	// Fixed lists dense features (eval.DenseMen ...) whose weights stay
	// at their initial values: a term the data would push to extremes
	// (king mobility in middlegames where a king is rare and decisive).
	Fixed []int
	// Test, if not nil, holds positions of other games (TestSet.ReadPDN),
	// of the data's variant and feature set, whose cross-entropy against
	// their game results every epoch reports (EpochReport.Test). It is a
	// measure only: the best epoch is chosen by the validation loss.
	Test *TestSet
}

// EpochReport is one epoch's losses (cross-entropy against the target),
// the validation positions' cross-entropy against their game results
// alone (comparable between runs with different Lambda), and the mean
// cross-entropy of Options.Test's positions against their game results
// (0 without Options.Test).
type EpochReport struct {
	Epoch                   int
	Train, Validate, Result float64
	Test                    float64
	Time                    time.Duration
}

// Result is what Train returns.
type Result struct {
	Weights    *eval.Weights // the weights of the epoch with the lowest validation loss
	Scale      float64       // the sigmoid scale used
	Best       EpochReport   // that epoch (epoch 0: the initial weights)
	Train, Val int           // positions in each set
}

// chunks is the fixed number of parts a batch is split into: the gradient
// sums are added in chunk order, so the result does not depend on the
// number of threads.
const chunks = 8

// model is the trainer's float copy of the weights, in centi-men.
type model struct {
	v       engine.VariantID
	set     uint8 // feature set (Data.Set)
	regions int
	men     int // men a side at the start
	w       []float64
}

// newModel returns the float model of the weights w in feature set set:
// the regions the two sets share (the 4x4 ones come first in both) start
// from w's, the others from 0.
func newModel(w *eval.Weights, set uint8) *model {
	m := &model{v: w.V, set: set, regions: eval.RegionsOf(w.V, set), men: w.V.Rules().Board.Info().Men}
	m.w = make([]float64, 2*eval.NumDense+2*m.regions*eval.PatternSize)
	for f := range eval.NumDense {
		for k := range 2 {
			m.w[2*f+k] = float64(w.Dense[f][k]) / (1 << eval.WeightShift)
		}
	}
	for i, pw := range w.Pattern[:min(len(w.Pattern), m.regions*eval.PatternSize)] {
		for k := range 2 {
			m.w[2*eval.NumDense+2*i+k] = float64(pw[k]) / (1 << eval.WeightShift)
		}
	}
	return m
}

// score returns s's linear score in centi-men, White's view, divided as
// eval divides it (eval.Features.Divisor: the endgame rules, the
// drawish material of the side ahead), and the blend factors of the
// middlegame and endgame weights.
func (m *model) score(s *Sample) (score, fm, fe float64) {
	w := m.w
	var mg, eg float64
	for f, x := range s.Dense {
		if x != 0 {
			mg += float64(x) * w[2*f]
			eg += float64(x) * w[2*f+1]
		}
	}
	base := 2 * eval.NumDense
	for r := range m.regions {
		a := base + 2*int(s.White[r])
		b := base + 2*int(s.Black[r])
		mg += w[a] - w[b]
		eg += w[a+1] - w[b+1]
		base += 2 * eval.PatternSize
	}
	full := float64(2 * m.men)
	fm = float64(s.MenLeft) / full
	fe = (full - float64(s.MenLeft)) / full
	div := float64(eval.Divisor(int(s.Scale), [2]int{int(s.Drawish[0]), int(s.Drawish[1])}, mg*fm+eg*fe))
	fm /= div
	fe /= div
	return mg*fm + eg*fe, fm, fe
}

// addGrad adds g times the gradient of s's score to grad.
func (m *model) addGrad(s *Sample, g, fm, fe float64, grad []float64) {
	gm, ge := g*fm, g*fe
	for f, x := range s.Dense {
		if x != 0 {
			grad[2*f] += float64(x) * gm
			grad[2*f+1] += float64(x) * ge
		}
	}
	base := 2 * eval.NumDense
	for r := range m.regions {
		a := base + 2*int(s.White[r])
		b := base + 2*int(s.Black[r])
		grad[a] += gm
		grad[a+1] += ge
		grad[b] -= gm
		grad[b+1] -= ge
		base += 2 * eval.PatternSize
	}
}

// resultLoss returns the mean cross-entropy of sigmoid(score / scale) of
// samples against their results, summed in a fixed order on up to threads
// goroutines.
func (m *model) resultLoss(samples []Sample, scale float64, threads int) float64 {
	if len(samples) == 0 {
		return 0
	}
	var sums [chunks]float64
	parallel(threads, chunks, func(c int) {
		lo, hi := c*len(samples)/chunks, (c+1)*len(samples)/chunks
		sum := 0.0
		for i := range samples[lo:hi] {
			s := &samples[lo+i]
			sc, _, _ := m.score(s)
			sum += crossEntropy(sigmoid(sc/scale), float64(s.Result))
		}
		sums[c] = sum
	})
	t := 0.0
	for _, s := range sums {
		t += s
	}
	return t / float64(len(samples))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// crossEntropy of prediction p against target y, clamped away from log 0.
func crossEntropy(p, y float64) float64 {
	p = min(max(p, 1e-12), 1-1e-12)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// target is what sample s should score: lambda times its result plus
// 1-lambda times its search score's prediction, or its result alone when
// that is exact (a table value).
func target(s *Sample, lambda, scale float64) float32 {
	if s.Exact {
		return s.Result
	}
	return float32(lambda*float64(s.Result) + (1-lambda)*sigmoid(float64(s.Score)/scale))
}

// FitScale returns the sigmoid scale (centi-men) under which the search
// scores of samples predict their game results best (least cross-entropy),
// by golden-section search over 10..5000.
func FitScale(samples []Sample) float64 {
	loss := func(k float64) float64 {
		sum := 0.0
		for i := range samples {
			s := &samples[i]
			sum += crossEntropy(sigmoid(float64(s.Score)/k), float64(s.Result))
		}
		return sum
	}
	lo, hi := math.Log(10), math.Log(5000)
	phi := (math.Sqrt(5) - 1) / 2
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := loss(math.Exp(a)), loss(math.Exp(b))
	for range 40 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = loss(math.Exp(a))
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = loss(math.Exp(b))
		}
	}
	return math.Exp((lo + hi) / 2)
}

// Train fits weights to d. It stops early when ctx is done, returning the
// best weights so far.
func Train(ctx context.Context, d *Data, o Options) (*Result, error) {
	if len(d.Samples) == 0 {
		return nil, errors.New("train: no positions")
	}
	if o.Batch <= 0 {
		o.Batch = 16384
	}
	if o.Rate <= 0 {
		o.Rate = 1
	}
	if o.Decay <= 0 {
		o.Decay = 0.85
	}
	o.L2 = max(o.L2, 0)
	if o.Validate <= 0 {
		o.Validate = 10
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.Scale <= 0 {
		o.Scale = FitScale(d.Samples)
	}
	init := o.Init
	if init == nil {
		init = eval.NewWeights(d.V)
	}
	if init.V != d.V {
		return nil, fmt.Errorf("train: initial weights are %v, the data %v", init.V, d.V)
	}
	if t := o.Test; t != nil {
		switch {
		case t.V != d.V:
			return nil, fmt.Errorf("train: test positions are %v, the data %v", t.V, d.V)
		case trainableSet(t.Set) != d.set():
			return nil, fmt.Errorf("train: test positions are in feature set %d, the data in %d", trainableSet(t.Set), d.set())
		case len(t.Samples) == 0:
			return nil, errors.New("train: no test positions")
		}
	}
	m := newModel(init, d.set())

	var train, val []int32
	targets := make([]float32, len(d.Samples))
	for i := range d.Samples {
		s := &d.Samples[i]
		targets[i] = target(s, o.Lambda, o.Scale)
		if int(s.Game)%o.Validate == 0 {
			val = append(val, int32(i))
		} else {
			train = append(train, int32(i))
		}
	}
	if len(train) == 0 || len(val) == 0 {
		return nil, fmt.Errorf("train: %d training and %d validation positions: need some of each (more games)", len(train), len(val))
	}

	grads := make([][]float64, chunks)
	for c := range grads {
		grads[c] = make([]float64, len(m.w))
	}
	mom := make([]float64, len(m.w))
	vel := make([]float64, len(m.w))
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	step := 0

	// evalLoss returns the mean cross-entropy of idx's predictions against
	// their targets and against their game results.
	evalLoss := func(idx []int32) (float64, float64) {
		var sums, rsums [chunks]float64
		parallel(o.Threads, chunks, func(c int) {
			lo, hi := c*len(idx)/chunks, (c+1)*len(idx)/chunks
			sum, rsum := 0.0, 0.0
			for _, i := range idx[lo:hi] {
				sc, _, _ := m.score(&d.Samples[i])
				p := sigmoid(sc / o.Scale)
				sum += crossEntropy(p, float64(targets[i]))
				rsum += crossEntropy(p, float64(d.Samples[i].Result))
			}
			sums[c], rsums[c] = sum, rsum
		})
		t, r := 0.0, 0.0
		for c := range chunks {
			t += sums[c]
			r += rsums[c]
		}
		return t / float64(len(idx)), r / float64(len(idx))
	}

	// testLoss returns the mean cross-entropy of the test positions'
	// predictions against their game results (0 without o.Test).
	testLoss := func() float64 {
		if o.Test == nil {
			return 0
		}
		return m.resultLoss(o.Test.Samples, o.Scale, o.Threads)
	}

	res := &Result{Scale: o.Scale, Train: len(train), Val: len(val)}
	best := append([]float64(nil), m.w...)
	res.Best = EpochReport{Epoch: 0}
	res.Best.Train, _ = evalLoss(train)
	res.Best.Validate, res.Best.Result = evalLoss(val)
	res.Best.Test = testLoss()
	if o.Progress != nil {
		o.Progress(res.Best)
	}
	var fixed [eval.NumDense]bool
	for _, f := range o.Fixed {
		if f < 0 || f >= eval.NumDense {
			return nil, fmt.Errorf("train: fixed dense feature %d out of range 0..%d", f, eval.NumDense-1)
		}
		fixed[f] = true
	}
	rate := o.Rate
	rng := rand.New(rand.NewPCG(o.Seed, 0x7261696e))
	for epoch := 1; epoch <= o.Epochs && ctx.Err() == nil; epoch++ {
		start := time.Now()
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		trainLoss := 0.0
		for b0 := 0; b0 < len(train) && ctx.Err() == nil; b0 += o.Batch {
			batch := train[b0:min(b0+o.Batch, len(train))]
			losses := make([]float64, chunks)
			parallel(o.Threads, chunks, func(c int) {
				g := grads[c]
				clear(g)
				lo, hi := c*len(batch)/chunks, (c+1)*len(batch)/chunks
				sum := 0.0
				for _, i := range batch[lo:hi] {
					s := &d.Samples[i]
					sc, fm, fe := m.score(s)
					p := sigmoid(sc / o.Scale)
					y := float64(targets[i])
					sum += crossEntropy(p, y)
					m.addGrad(s, (p-y)/o.Scale, fm, fe, g)
				}
				losses[c] = sum
			})
			for c := range chunks {
				trainLoss += losses[c]
			}
			n := float64(len(batch))
			step++
			c1 := 1 - math.Pow(beta1, float64(step))
			c2 := 1 - math.Pow(beta2, float64(step))
			parallel(o.Threads, chunks, func(c int) {
				lo, hi := c*len(m.w)/chunks, (c+1)*len(m.w)/chunks
				for i := lo; i < hi; i++ {
					if i < 2*eval.NumDense && fixed[i/2] {
						continue
					}
					g := 0.0
					for k := range chunks {
						g += grads[k][i]
					}
					// The batch's sum, not its mean: a pattern weight is in a
					// few positions of a batch, and Adam's epsilon must not
					// swamp its gradient.
					if i >= 2*eval.NumDense {
						g += n * o.L2 * m.w[i]
					}
					mom[i] = beta1*mom[i] + (1-beta1)*g
					vel[i] = beta2*vel[i] + (1-beta2)*g*g
					m.w[i] -= rate * (mom[i] / c1) / (math.Sqrt(vel[i]/c2) + eps)
				}
			})
		}
		rep := EpochReport{Epoch: epoch, Train: trainLoss / float64(len(train)), Time: time.Since(start)}
		rep.Validate, rep.Result = evalLoss(val)
		rep.Test = testLoss()
		if o.Progress != nil {
			o.Progress(rep)
		}
		if rep.Validate < res.Best.Validate {
			res.Best = rep
			copy(best, m.w)
		}
		rate *= o.Decay
	}
	copy(m.w, best)
	res.Weights = m.weights()
	return res, nil
}

// weights rounds the model to an eval.Weights.
func (m *model) weights() *eval.Weights {
	w := eval.NewWeightsSet(m.v, m.set)
	q := func(x float64) int16 {
		return int16(max(min(math.Round(x*(1<<eval.WeightShift)), math.MaxInt16), -math.MaxInt16))
	}
	for f := range eval.NumDense {
		w.Dense[f] = [2]int16{q(m.w[2*f]), q(m.w[2*f+1])}
	}
	for i := range w.Pattern {
		w.Pattern[i] = [2]int16{q(m.w[2*eval.NumDense+2*i]), q(m.w[2*eval.NumDense+2*i+1])}
	}
	w.Prepare()
	return w
}

// parallel runs fn(0..n-1) on up to threads goroutines and waits.
func parallel(threads, n int, fn func(int)) {
	if threads <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range min(threads, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
