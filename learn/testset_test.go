package learn

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/internal/gzfile"
	"github.com/damka-draughts/damka/pdn"
)

// Test games in the repository: Russian master games (plain PDN, no
// GameType tag) and damka matches (gzipped PDN).
const (
	russianPDN       = "../testdata/draughts/russian_ussr_championship_X.pdn"
	englishPDN       = "sprt/english_r6_vs_set4.pdn.gz"
	internationalPDN = "sprt/international_r4_vs_r3.pdn.gz"
)

// directTestLoss replays the finished games of v in the PDN file path on
// its own and returns the mean cross-entropy against the games' results
// of sigmoid(score / scale), the score being the model of w in feature
// set set (first) and w.Evaluate (second), and the positions counted.
func directTestLoss(t *testing.T, path string, v engine.VariantID, w *eval.Weights, set uint8, scale float64) (model, evaluate float64, n int) {
	t.Helper()
	f, err := gzfile.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m := newModel(w, set)
	r := pdn.NewReader(f, v)
	var feats eval.Features
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if g.Variant != v {
			continue
		}
		res, err := engine.ParseResult(v, g.Result)
		if err != nil || res == engine.Ongoing {
			continue
		}
		y := map[engine.Result]float64{engine.WhiteWins: 1, engine.BlackWins: 0, engine.Draw: 0.5}[res]
		p := g.Start
		for _, mv := range g.Moves {
			if !p.HasCapture() && p.Pieces[0]&^p.Kings|p.Pieces[1]&^p.Kings != 0 {
				eval.ExtractFeaturesSet(&p, &feats, set)
				s := newSample(&feats)
				sc, _, _ := m.score(&s)
				model += crossEntropy(sigmoid(sc/scale), y)
				e := float64(w.Evaluate(&p))
				if p.Side == engine.Black {
					e = -e
				}
				evaluate += crossEntropy(sigmoid(e/scale), y)
				n++
			}
			p = p.Play(mv)
		}
	}
	require.Positive(t, n)
	return model / float64(n), evaluate / float64(n), n
}

// TestTrainTestLoss: the test loss Train reports for the starting weights
// is the mean cross-entropy of their predictions on the PDN games'
// positions against the games' results, computed here on its own; it is
// reported every epoch and does not choose the best one.
func TestTrainTestLoss(t *testing.T) {
	for _, c := range []struct {
		v    engine.VariantID
		set  uint8
		file string
	}{{engine.Russian, eval.FeatureSet, russianPDN}, {engine.Russian, 3, russianPDN}} {
		t.Run(fmt.Sprintf("set%d", c.set), func(t *testing.T) {
			const scale = 250
			d := &Data{V: c.v, Set: c.set}
			require.NoError(t, d.ReadFiles(selfPlayFile(t, c.v)))
			ts := &TestSet{V: c.v, Set: c.set}
			require.NoError(t, ts.ReadPDNFiles(c.file))
			require.Positive(t, ts.Games)
			// Weights of the set with every pattern entry set (random), so
			// that every feature counts and w.Evaluate reads the same ones.
			rng := rand.New(rand.NewPCG(7, uint64(c.set)))
			init := eval.NewWeightsSet(c.v, c.set)
			init.Dense = eval.Default(c.v).Dense
			for i := range init.Pattern {
				init.Pattern[i] = [2]int16{int16(rng.IntN(801) - 400), int16(rng.IntN(801) - 400)}
			}
			init.Prepare()
			want, wantEval, n := directTestLoss(t, c.file, c.v, init, c.set, scale)
			assert.Len(t, ts.Samples, n)

			var reps []EpochReport
			res, err := Train(context.Background(), d, Options{Epochs: 2, Batch: 256, Rate: 2, Lambda: 0.5, Scale: scale,
				Validate: 4, Seed: 1, Threads: 2, Init: init, Test: ts, Progress: func(r EpochReport) { reps = append(reps, r) }})
			require.NoError(t, err)
			require.Len(t, reps, 3)
			assert.InDelta(t, want, reps[0].Test, 1e-9)
			// The model's score is the evaluation's within rounding (a
			// centi-man), so the losses differ by at most about 1/scale.
			assert.InDelta(t, wantEval, reps[0].Test, 1.01/scale)
			best := reps[0]
			for _, r := range reps[1:] {
				assert.Positive(t, r.Test)
				if r.Validate < best.Validate {
					best = r
				}
			}
			assert.Equal(t, best.Epoch, res.Best.Epoch, "the best epoch is the validation loss's")
			assert.Equal(t, best.Test, res.Best.Test)
			t.Logf("%d games, %d positions: test loss %.6f (evaluate %.6f), epochs %.6f %.6f",
				ts.Games, n, reps[0].Test, wantEval, reps[1].Test, reps[2].Test)

			// Epochs 0: the starting weights' losses, the starting weights.
			reps = nil
			res, err = Train(context.Background(), d, Options{Epochs: 0, Scale: scale, Validate: 4, Threads: 1, Init: init, Test: ts,
				Progress: func(r EpochReport) { reps = append(reps, r) }})
			require.NoError(t, err)
			require.Len(t, reps, 1)
			assert.InDelta(t, want, reps[0].Test, 1e-9)
			assert.Equal(t, 0, res.Best.Epoch)
			assert.Equal(t, init.Pattern, res.Weights.Pattern)
			assert.Equal(t, init.Dense, res.Weights.Dense)
		})
	}
}

// TestTestSetRead checks which games ReadPDN takes and the errors of
// ReadPDNFiles, which name the file.
func TestTestSetRead(t *testing.T) {
	// A game of another variant, an unfinished one, one with an illegal
	// move, and two finished Russian games.
	const games = `[Result "1-0"]
1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-0

[GameType "21"]
1. 11-15 23-19 1-0

[Result "*"]
1. c3-d4 *

[Result "0-1"]
1. c3-d4 c3-d4 0-1

[Result "1/2-1/2"]
[FEN "W:W21,22:B5,6."]
1. c3-d4 c7-b6 1/2-1/2
`
	ts := &TestSet{V: engine.Russian}
	n, err := ts.ReadPDN(bytes.NewReader([]byte(games)), "x.pdn")
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, 2, ts.Games)
	assert.Equal(t, 1, ts.OtherVariant)
	assert.Equal(t, 1, ts.Unfinished)
	assert.Equal(t, 1, ts.Bad)
	// Game 1: the start (no capture), then Black to move with a capture,
	// then White to move after f6-e5 with d4:f6 to play, then Black's
	// reply g7:e5 forced: 2 quiet positions. Game 2 (from its FEN): 2.
	require.Len(t, ts.Samples, 4)
	for i, want := range []struct {
		result float32
		game   uint32
	}{{1, 0}, {1, 0}, {0.5, 1}, {0.5, 1}} {
		assert.Equal(t, want.result, ts.Samples[i].Result, "sample %d", i)
		assert.Equal(t, want.game, ts.Samples[i].Game, "sample %d", i)
		assert.Zero(t, ts.Samples[i].Score)
	}

	// A gzipped file reads as its decompressed text does.
	gz := &TestSet{V: engine.International}
	require.NoError(t, gz.ReadPDNFiles(internationalPDN))
	data, err := os.ReadFile(internationalPDN)
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	plain := &TestSet{V: engine.International}
	n, err = plain.ReadPDN(zr, "x.pdn")
	require.NoError(t, err)
	assert.Equal(t, 415, n)
	assert.Equal(t, plain, gz)
	assert.Greater(t, len(gz.Samples), 100*gz.Games)

	dir := t.TempDir()
	none := filepath.Join(dir, "none.pdn")
	err = (&TestSet{V: engine.Russian}).ReadPDNFiles(none)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, none)

	// English games read as international: none of the variant.
	err = (&TestSet{V: engine.International}).ReadPDNFiles(englishPDN)
	assert.EqualError(t, err, englishPDN+": no finished international game (skipped: 1163 of another variant, 0 without a result, 0 with a fault)")

	// A damaged gzip stream is a read error naming the file.
	data, err = os.ReadFile(englishPDN)
	require.NoError(t, err)
	torn := filepath.Join(dir, "torn.pdn.gz")
	require.NoError(t, os.WriteFile(torn, data[:len(data)/2], 0o644))
	err = (&TestSet{V: engine.English}).ReadPDNFiles(torn)
	assert.ErrorContains(t, err, torn+": ")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)

	// Train refuses a test set of another variant or feature set, or
	// one without positions.
	d := readData(t, engine.Russian)
	for _, c := range []struct {
		ts   *TestSet
		want string
	}{
		{&TestSet{V: engine.English, Samples: []Sample{{}}}, "train: test positions are english, the data russian"},
		{&TestSet{V: engine.Russian, Set: 3, Samples: []Sample{{}}}, "train: test positions are in feature set 3, the data in 4"},
		{&TestSet{V: engine.Russian}, "train: no test positions"},
	} {
		_, err := Train(context.Background(), d, Options{Epochs: 0, Test: c.ts})
		assert.EqualError(t, err, c.want)
	}
}
