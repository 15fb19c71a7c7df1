package learn

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/bench"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/pdn"
)

// testDir holds the game files the tests share (TestMain removes it).
var testDir string

var (
	gameFilesMu sync.Mutex
	gameFiles   = map[engine.VariantID]string{}
)

// selfPlayFile plays a few fast self-play games of v once per test binary
// and returns the game file's path.
func selfPlayFile(t *testing.T, v engine.VariantID) string {
	t.Helper()
	gameFilesMu.Lock()
	defer gameFilesMu.Unlock()
	if f, ok := gameFiles[v]; ok {
		return f
	}
	f := filepath.Join(testDir, v.String()+".games")
	_, err := bench.SelfPlay(context.Background(), bench.SelfPlayOptions{Variant: v, Games: 24, Nodes: 300,
		Threads: 2, HashMiB: 1, Seed: 5, RandomPlies: 8, Out: f, Note: "learn test"})
	require.NoError(t, err)
	gameFiles[v] = f
	return f
}

func TestMain(m *testing.M) {
	var err error
	testDir, err = os.MkdirTemp("", "damka-learn-test-")
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(testDir)
	os.Exit(code)
}

func readData(t *testing.T, v engine.VariantID) *Data {
	t.Helper()
	d := &Data{V: v}
	require.NoError(t, d.ReadFiles(selfPlayFile(t, v)))
	return d
}

func TestFitScale(t *testing.T) {
	for _, k := range []float64{80, 250, 900} {
		rng := rand.New(rand.NewPCG(1, uint64(k)))
		samples := make([]Sample, 40000)
		for i := range samples {
			s := &samples[i]
			s.Score = int16(rng.IntN(3001) - 1500)
			if rng.Float64() < sigmoid(float64(s.Score)/k) {
				s.Result = 1
			}
		}
		got := FitScale(samples)
		assert.InEpsilon(t, k, got, 0.08, "scale %g fitted as %g", k, got)
	}
}

// TestModelMatchesEval checks the trainer's float model against the
// evaluation it trains: on every training position of the games, the
// model of some weights scores what eval scores with the same weights, up
// to rounding.
func TestModelMatchesEval(t *testing.T) {
	for _, c := range []struct {
		v   engine.VariantID
		set uint8
	}{{engine.Russian, eval.FeatureSet}, {engine.International, eval.FeatureSet}, {engine.International, 3}, {engine.English, 3}} {
		v, set := c.v, c.set
		t.Run(fmt.Sprintf("%v/set%d", v, set), func(t *testing.T) {
			// Weights with every pattern entry set: random, so that no
			// entry is zero.
			rng := rand.New(rand.NewPCG(3, uint64(v)))
			w := eval.NewWeightsSet(v, set)
			require.Equal(t, set, w.Set)
			require.Len(t, w.Pattern, eval.RegionsOf(v, set)*eval.PatternSize)
			for i := range w.Pattern {
				w.Pattern[i] = [2]int16{int16(rng.IntN(801) - 400), int16(rng.IntN(801) - 400)}
			}
			w.Prepare()
			m := newModel(w, set)
			f, err := os.Open(selfPlayFile(t, v))
			require.NoError(t, err)
			defer f.Close()
			gr, err := pdn.NewRecordReader(f)
			require.NoError(t, err)
			d := &Data{V: v, Set: set}
			var feats eval.Features
			checked, halved := 0, 0
			for {
				rec, err := gr.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				p := rec.Start
				for i, mv := range rec.Moves {
					if rec.Scores[i] != pdn.NoScore && !p.HasCapture() {
						eval.ExtractFeaturesSet(&p, &feats, set)
						if feats.Scale != 0 {
							s := newSample(&feats)
							sc, _, _ := m.score(&s)
							want := float64(w.Evaluate(&p))
							if p.Side == engine.Black {
								want = -want
							}
							if !assert.InDelta(t, want, sc, 1.01, "%s", p.FEN()) {
								return
							}
							checked++
							if feats.Scale == 2 {
								halved++
							}
						}
					}
					p = p.Play(mv)
				}
			}
			require.NoError(t, d.ReadFiles(selfPlayFile(t, v)))
			assert.Equal(t, checked, len(d.Samples), "training positions")
			t.Logf("%d positions, %d with the endgame divisor 2", checked, halved)
		})
	}
}

// TestReadGamesSamples checks what ReadGames keeps: searched, quiet
// positions with men, labelled with White's result and score.
func TestReadGamesSamples(t *testing.T) {
	v := engine.Russian
	data, err := os.ReadFile(selfPlayFile(t, v))
	require.NoError(t, err)
	gr, err := pdn.NewRecordReader(bytes.NewReader(data))
	require.NoError(t, err)
	var want []Sample
	games := 0
	for {
		rec, err := gr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		res := map[engine.Result]float32{engine.WhiteWins: 1, engine.BlackWins: 0, engine.Draw: 0.5}[rec.Result]
		p := rec.Start
		for i, m := range rec.Moves {
			if sc := rec.Scores[i]; sc != pdn.NoScore && !p.HasCapture() && p.Pieces[0]&^p.Kings|p.Pieces[1]&^p.Kings != 0 {
				if p.Side == engine.Black {
					sc = -sc
				}
				want = append(want, Sample{Result: res, Score: sc, Game: uint32(games)})
			}
			p = p.Play(m)
		}
		games++
	}
	d := &Data{V: v}
	require.NoError(t, d.ReadGames(bytes.NewReader(data), "x"))
	assert.Equal(t, games, d.Games)
	require.Len(t, d.Samples, len(want))
	for i := range want {
		got := d.Samples[i]
		assert.Equal(t, want[i], Sample{Result: got.Result, Score: got.Score, Game: got.Game}, "sample %d", i)
		assert.NotZero(t, got.MenLeft)
	}
}

// TestTrainLowersValidationLoss trains from the prior on a committed
// round's games (thousands of games: the two dozen quick games of
// selfPlayFile are too few for the held-out loss to follow the training).
func TestTrainLowersValidationLoss(t *testing.T) {
	for _, v := range []engine.VariantID{engine.Russian, engine.English} {
		t.Run(v.String(), func(t *testing.T) {
			d := &Data{V: v}
			require.NoError(t, d.ReadFiles(filepath.Join("games", "r1_"+v.String()+".dkg.gz")))
			var reps []EpochReport
			res, err := Train(context.Background(), d, Options{Epochs: 4, Batch: 16384, Rate: 3, Lambda: 0.5, L2: 1e-10,
				Validate: 10, Seed: 1, Threads: 2, Init: eval.NewWeights(v),
				Progress: func(r EpochReport) { reps = append(reps, r) }})
			require.NoError(t, err)
			require.Len(t, reps, 5)
			for i, r := range reps {
				assert.Equal(t, i, r.Epoch)
				assert.False(t, math.IsNaN(r.Validate) || math.IsNaN(r.Train))
			}
			t.Logf("%d train, %d validation positions, scale %.0f; validation loss by epoch: %.4f %.4f %.4f %.4f %.4f",
				res.Train, res.Val, res.Scale, reps[0].Validate, reps[1].Validate, reps[2].Validate, reps[3].Validate, reps[4].Validate)
			assert.Equal(t, len(d.Samples), res.Train+res.Val)
			assert.Positive(t, res.Val)
			assert.Positive(t, res.Best.Epoch, "no epoch improved on the initial weights")
			assert.Less(t, res.Best.Validate, reps[0].Validate)
			assert.Equal(t, reps[res.Best.Epoch], res.Best)
			for _, r := range reps {
				assert.GreaterOrEqual(t, r.Validate, res.Best.Validate)
			}
			require.NotNil(t, res.Weights)
			assert.Equal(t, v, res.Weights.V)
			assert.Len(t, res.Weights.Pattern, eval.Regions(v)*eval.PatternSize)
			changed := false
			for i, pw := range eval.NewWeights(v).Pattern {
				changed = changed || pw != res.Weights.Pattern[i]
			}
			assert.True(t, changed, "pattern weights unchanged")
			// The weights written are those of the best epoch: their
			// validation loss (re-evaluated by a zero-epoch run from them)
			// is that epoch's, up to the rounding to 1/16 centi-man.
			again, err := Train(context.Background(), d, Options{Epochs: 0, Lambda: 0.5, L2: 1e-10, Validate: 10, Scale: res.Scale,
				Init: res.Weights, Threads: 1})
			require.NoError(t, err)
			assert.InDelta(t, res.Best.Validate, again.Best.Validate, 1e-3)
			b, err := res.Weights.MarshalBinary()
			require.NoError(t, err)
			w, err := eval.ParseWeights(b, v)
			require.NoError(t, err)
			assert.Equal(t, res.Weights.Pattern, w.Pattern)
		})
	}
}

// TestTrainFeatureSet: Data.Set 3 trains weights of feature set 3 (the
// 4x4 regions alone) that a weights file carries as set 3, and weights of
// another set given as the start keep the regions the two sets share.
func TestTrainFeatureSet(t *testing.T) {
	v := engine.International
	d := &Data{V: v, Set: 3}
	require.NoError(t, d.ReadFiles(selfPlayFile(t, v)))
	res, err := Train(context.Background(), d, Options{Epochs: 1, Lambda: 0.5, Validate: 4, Seed: 1, Threads: 2, Init: eval.NewWeightsSet(v, 3)})
	require.NoError(t, err)
	assert.Equal(t, uint8(3), res.Weights.Set)
	assert.Len(t, res.Weights.Pattern, eval.RegionsOf(v, 3)*eval.PatternSize)
	b, err := res.Weights.MarshalBinary()
	require.NoError(t, err)
	w, err := eval.ParseWeights(b, v)
	require.NoError(t, err)
	assert.Equal(t, uint8(3), w.Set)
	assert.Equal(t, res.Weights.Pattern, w.Pattern)

	// A set-4 start (4x4 regions, then row bands), zero epochs: the set-3
	// result is its 4x4 regions.
	init := eval.NewWeights(v)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range init.Pattern {
		init.Pattern[i] = [2]int16{int16(rng.IntN(801) - 400), int16(rng.IntN(801) - 400)}
	}
	init.Prepare()
	res, err = Train(context.Background(), d, Options{Epochs: 0, Lambda: 0.5, Validate: 4, Threads: 1, Init: init})
	require.NoError(t, err)
	assert.Equal(t, init.Pattern[:len(res.Weights.Pattern)], res.Weights.Pattern)

	// Set 0 (unset) is eval.FeatureSet.
	d4 := &Data{V: v}
	require.NoError(t, d4.ReadFiles(selfPlayFile(t, v)))
	res, err = Train(context.Background(), d4, Options{Epochs: 0, Lambda: 0.5, Validate: 4, Threads: 1, Init: eval.NewWeightsSet(v, 3)})
	require.NoError(t, err)
	assert.Equal(t, uint8(eval.FeatureSet), res.Weights.Set)
	assert.Len(t, res.Weights.Pattern, eval.Regions(v)*eval.PatternSize)
}

func TestTrainThreadsIdentical(t *testing.T) {
	d := readData(t, engine.Russian)
	train := func(threads int) *Result {
		res, err := Train(context.Background(), d, Options{Epochs: 2, Batch: 100, Lambda: 0.7, Validate: 5, Seed: 9, Threads: threads})
		require.NoError(t, err)
		return res
	}
	one, four := train(1), train(4)
	assert.Equal(t, one.Best, func() EpochReport { b := four.Best; b.Time = one.Best.Time; return b }())
	assert.Equal(t, one.Scale, four.Scale)
	assert.Equal(t, one.Weights.Dense, four.Weights.Dense)
	assert.True(t, assert.ObjectsAreEqual(one.Weights.Pattern, four.Weights.Pattern), "pattern weights differ with 1 and 4 threads")
	other, err := Train(context.Background(), d, Options{Epochs: 2, Batch: 100, Lambda: 0.7, Validate: 5, Seed: 10, Threads: 4})
	require.NoError(t, err)
	assert.False(t, assert.ObjectsAreEqual(one.Weights.Pattern, other.Weights.Pattern), "another seed, the same weights")
}

func TestTrainStopped(t *testing.T) {
	d := readData(t, engine.Russian)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	init := eval.Default(engine.Russian)
	res, err := Train(ctx, d, Options{Epochs: 5, Validate: 3, Init: init})
	require.NoError(t, err)
	assert.Equal(t, 0, res.Best.Epoch)
	assert.Equal(t, init.Dense, res.Weights.Dense)
	// The init's regions come back as they were; when it is of an older
	// set than the trainer's (the embedded Russian file is of set 1, without
	// row bands), the regions it lacks come back as 0.
	n := len(init.Pattern)
	require.Len(t, res.Weights.Pattern, eval.Regions(engine.Russian)*eval.PatternSize)
	assert.True(t, assert.ObjectsAreEqual(init.Pattern, res.Weights.Pattern[:n]), "a stopped run changed the weights")
	assert.Equal(t, make([][2]int16, len(res.Weights.Pattern)-n), res.Weights.Pattern[n:])
}

func TestTrainBadInput(t *testing.T) {
	_, err := Train(context.Background(), &Data{V: engine.Russian}, Options{Epochs: 1})
	assert.EqualError(t, err, "train: no positions")

	d := readData(t, engine.Russian)
	_, err = Train(context.Background(), d, Options{Epochs: 1, Init: eval.NewWeights(engine.English)})
	assert.EqualError(t, err, "train: initial weights are english, the data russian")

	_, err = Train(context.Background(), d, Options{Epochs: 1, Validate: 1})
	assert.ErrorContains(t, err, "training and")
	assert.ErrorContains(t, err, "need some of each")

	// Files: another variant, missing, damaged.
	wrong := &Data{V: engine.Brazilian}
	err = wrong.ReadFiles(selfPlayFile(t, engine.Russian))
	assert.ErrorContains(t, err, "russian games, not brazilian")
	assert.Empty(t, wrong.Samples)

	err = (&Data{V: engine.Russian}).ReadFiles(filepath.Join(t.TempDir(), "none.games"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	data, err := os.ReadFile(selfPlayFile(t, engine.Russian))
	require.NoError(t, err)
	bad := filepath.Join(t.TempDir(), "bad.games")
	data = bytes.Clone(data)
	data[len(data)-9] ^= 0x10
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	err = (&Data{V: engine.Russian}).ReadFiles(bad)
	assert.ErrorContains(t, err, bad+": record at byte ")
	assert.ErrorContains(t, err, "checksum mismatch")

	require.NoError(t, os.WriteFile(bad, data[:len(data)-3], 0o644))
	err = (&Data{V: engine.Russian}).ReadFiles(bad)
	assert.ErrorIs(t, err, pdn.ErrTruncatedRecord)

	err = (&Data{V: engine.Russian}).ReadGames(bytes.NewReader([]byte("DMKEVAL1\x01\x00\x00\x01\x0c\x00\x0f\x00\x41\x19\x00\x00")), "w.dkw")
	assert.ErrorContains(t, err, "w.dkw: not a damka game file")
}

// TestTrainFixed: the dense weights named in Fixed keep their initial
// values while the others move; an index out of range is an error.
func TestTrainFixed(t *testing.T) {
	d := readData(t, engine.Russian)
	init := eval.NewWeights(engine.Russian)
	res, err := Train(context.Background(), d, Options{Epochs: 2, Batch: 256, Rate: 2, Lambda: 0.5, L2: 1e-6,
		Validate: 4, Seed: 1, Threads: 1, Init: init, Fixed: []int{eval.DenseKingMob, eval.DenseMen}})
	require.NoError(t, err)
	require.Positive(t, res.Best.Epoch)
	assert.Equal(t, init.Dense[eval.DenseKingMob], res.Weights.Dense[eval.DenseKingMob])
	assert.Equal(t, init.Dense[eval.DenseMen], res.Weights.Dense[eval.DenseMen])
	assert.NotEqual(t, init.Dense[eval.DenseManMob], res.Weights.Dense[eval.DenseManMob])
	_, err = Train(context.Background(), d, Options{Epochs: 1, Init: init, Fixed: []int{eval.NumDense}})
	assert.ErrorContains(t, err, fmt.Sprintf("fixed dense feature %d out of range 0..%d", eval.NumDense, eval.NumDense-1))
}
