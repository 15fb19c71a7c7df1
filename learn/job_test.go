package learn

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// TestRunJobInputErrors: RunJob names the Job field at fault: a dense
// feature that is none (quoted, the names listed), a data file that does
// not read; DenseFeatures reads the names eval gives.
func TestRunJobInputErrors(t *testing.T) {
	job := Job{V: engine.English, Set: eval.FeatureSet, Data: []string{filepath.Join(t.TempDir(), "none.dkg")}}
	var ie *InputError

	bad := job
	bad.Fixed = []string{"nosuch"}
	_, err := RunJob(context.Background(), bad)
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "Fixed", ie.Field)
	assert.Contains(t, ie.Err.Error(), `"nosuch": no such dense feature (want one of `+eval.DenseName(0))

	_, err = RunJob(context.Background(), job)
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "Data", ie.Field)
	assert.Empty(t, ie.Files, "the read error names the file")
	assert.Contains(t, err.Error(), "none.dkg")

	fixed, err := DenseFeatures([]string{eval.DenseName(1), eval.DenseName(0)})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 0}, fixed)
}
