// job.go: a training run from files to a weights file's content, the
// work of damka train: the starting weights, the test games, the data,
// Train, and the note the weights file carries.

package learn

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/internal/fileread"
)

// Job is one training run over files.
type Job struct {
	// V is the variant whose weights are fitted.
	V engine.VariantID
	// Set is the feature set fitted (eval.Trainable).
	Set uint8
	// Data are the game files of damka selfplay (Data.ReadFiles), at
	// least one, read in order.
	Data []string
	// TestPDN are PDN files (possibly gzipped) whose finished games of V
	// measure the weights (Options.Test); none: no test set.
	TestPDN []string
	// InitFile, if not "", is the weights file training starts from;
	// else FromPrior starts from a material-only prior of Set; else the
	// embedded weights of V.
	InitFile  string
	FromPrior bool
	// Fixed names dense features (eval.DenseName) whose weights keep
	// their starting values.
	Fixed []string
	// EGDB, if not nil, labels the positions it holds (Data.EGDB).
	EGDB EGDB
	// Options are Train's; RunJob sets their Init, Fixed and Test.
	Options Options
	// Command is the command line the weights' note records first.
	Command string
	// FileRead, if not nil, is told after each file is read: its name,
	// whether it is a TestPDN file, and the games (test files) or
	// positions it added.
	FileRead func(r FileRead)
	// TestRead, if not nil, is told when the TestPDN files are read
	// (before the data), DataRead when the data are, with the time they
	// took.
	TestRead func(t *TestSet)
	DataRead func(d *Data, took time.Duration)
}

// FileRead is one file a Job read: its name, whether it is a TestPDN
// file, the games it held (test files only) and the positions it added.
type FileRead struct {
	File      string
	Test      bool
	Games     int
	Positions int
}

// InputError is RunJob's error about an input of the Job: Field is the
// Job field at fault ("Data", "TestPDN", "InitFile", "Fixed"), Files the
// files concerned (empty when Err names them itself).
type InputError = fileread.FieldError

// JobResult is what RunJob returns: Train's result, its Weights' Note
// set to the job's record, and the data and test set it was trained and
// measured on (Test nil without TestPDN).
type JobResult struct {
	*Result
	Data *Data
	Test *TestSet
}

// DenseFeatures returns the indexes of the dense features named (as
// eval.DenseName spells them); the error quotes a name that is none and
// lists the names.
func DenseFeatures(names []string) ([]int, error) {
	var out []int
	for _, name := range names {
		f := -1
		for k := range eval.NumDense {
			if eval.DenseName(k) == name {
				f = k
			}
		}
		if f < 0 {
			all := make([]string, eval.NumDense)
			for k := range all {
				all[k] = eval.DenseName(k)
			}
			return nil, fmt.Errorf("%q: no such dense feature (want one of %s)", name, strings.Join(all, ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// RunJob reads the job's files and trains. The errors about its inputs
// are *InputError: a dense feature that is none (Fixed), an InitFile that
// does not load, a TestPDN file that does not read or no position in
// them, a Data file that does not read, data Train refuses (too few
// positions, weights of another variant: Files are then all of Data).
// Training stops early when ctx is done, with the best weights so far.
func RunJob(ctx context.Context, j Job) (*JobResult, error) {
	o := j.Options
	fixed, err := DenseFeatures(j.Fixed)
	if err != nil {
		return nil, &InputError{Field: "Fixed", Err: err}
	}
	o.Fixed = append(o.Fixed, fixed...)
	switch {
	case j.InitFile != "":
		w, err := eval.LoadWeights(j.InitFile, j.V)
		if err != nil {
			return nil, &InputError{Field: "InitFile", Err: err}
		}
		o.Init = w
	case j.FromPrior:
		o.Init = eval.NewWeightsSet(j.V, j.Set)
	default:
		o.Init = eval.Default(j.V)
	}
	d := &Data{V: j.V, Set: j.Set, EGDB: j.EGDB}
	// The test games first: a bad file is refused before the data are read.
	if len(j.TestPDN) > 0 {
		ts := &TestSet{V: j.V, Set: j.Set}
		for _, f := range j.TestPDN {
			games, positions := ts.Games, len(ts.Samples)
			if err := ts.ReadPDNFiles(f); err != nil {
				return nil, &InputError{Field: "TestPDN", Err: err}
			}
			if j.FileRead != nil {
				j.FileRead(FileRead{File: f, Test: true, Games: ts.Games - games, Positions: len(ts.Samples) - positions})
			}
		}
		if len(ts.Samples) == 0 {
			return nil, &InputError{Field: "TestPDN", Files: j.TestPDN,
				Err: fmt.Errorf("no position without a capture in %d games", ts.Games)}
		}
		if j.TestRead != nil {
			j.TestRead(ts)
		}
		o.Test = ts
	}
	start := time.Now()
	for _, f := range j.Data {
		before := len(d.Samples)
		if err := d.ReadFiles(f); err != nil {
			return nil, &InputError{Field: "Data", Err: err}
		}
		if j.FileRead != nil {
			j.FileRead(FileRead{File: f, Positions: len(d.Samples) - before})
		}
	}
	if j.DataRead != nil {
		j.DataRead(d, time.Since(start))
	}
	res, err := Train(ctx, d, o)
	if err != nil { // the data or the starting weights do not fit: too few positions, another variant
		return nil, &InputError{Field: "Data", Files: j.Data, Err: err}
	}
	w := res.Weights
	w.Note = fmt.Sprintf("%s\ndata: %s (%d games, %d training and %d validation positions)\nscale=%.1f best epoch %d val_loss=%.6f",
		j.Command, strings.Join(j.Data, " "), d.Games, res.Train, res.Val, res.Scale, res.Best.Epoch, res.Best.Validate)
	if o.Test != nil {
		w.Note += fmt.Sprintf("\ntest: %s (%d games, %d positions) test_loss=%.6f",
			strings.Join(j.TestPDN, " "), o.Test.Games, len(o.Test.Samples), res.Best.Test)
	}
	return &JobResult{Result: res, Data: d, Test: o.Test}, nil
}
