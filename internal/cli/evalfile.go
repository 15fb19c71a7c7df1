// evalfile.go: --eval-file, a weights file of the learned evaluation, for
// the commands that search.

package cli

import (
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
)

// loadEvalFile reads the --eval-file weights for variant v: nil without
// the flag (the embedded weights). A file that does not load or holds
// another variant's weights is bad input (exit status 2) naming the file
// and what was wrong. It logs the weights in use.
func loadEvalFile(path string, v engine.VariantID) (*eval.Weights, error) {
	w, err := readEvalFile(path)
	if err != nil || w == nil {
		if err == nil {
			logger.Info().Str("variant", v.String()).Str("eval", "embedded").Str("weights", eval.Default(v).Title()).
				Msg("evaluation weights")
		}
		return nil, err
	}
	if w.V != v {
		return nil, badInput("--eval-file %s holds %v weights, not %v: give a %v weights file or --variant %v",
			path, w.V, v, v, w.V)
	}
	return w, nil
}

// readEvalFile reads the --eval-file weights whatever their variant: nil
// without the flag. A file that does not load is bad input naming it.
func readEvalFile(path string) (*eval.Weights, error) {
	if path == "" {
		return nil, nil
	}
	w, err := eval.ReadWeightsFile(path)
	if err != nil {
		return nil, badInput("--eval-file: %v", err)
	}
	logger.Info().Str("variant", w.V.String()).Str("eval", path).Str("weights", w.Title()).Msg("evaluation weights")
	return w, nil
}
