package hub

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/player"
)

// testWeights writes Russian weights that differ from the embedded ones
// (a side to move worth 3 men) and returns them and their file.
func testWeights(t *testing.T) (*eval.Weights, string) {
	t.Helper()
	w := eval.NewWeights(engine.Russian)
	w.Dense[eval.DenseToMove] = [2]int16{300 << eval.WeightShift, 300 << eval.WeightShift}
	w.Note = "test weights: to move is 3 men\nsecond line"
	path := filepath.Join(t.TempDir(), "russian.dkw")
	require.NoError(t, w.Save(path))
	return w, path
}

// thinkScore runs go think at depth 4 from the start of a new game (a
// cleared table: the same search every time) and returns the done
// line and the score of the last info line.
func thinkScore(hs *hubSession) (string, float64) {
	hs.t.Helper()
	hs.infos = nil
	hs.send("new-game", "pos", "level depth=4", "go think")
	done := hs.expect("~done move=.*")
	checkDone(hs.t, ptr(engine.StartPosition(engine.Russian)), done)
	require.NotEmpty(hs.t, hs.infos)
	last := hs.infos[len(hs.infos)-1]
	_, rest, ok := strings.Cut(last, "score=")
	require.True(hs.t, ok, last)
	score, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
	require.NoError(hs.t, err, last)
	return done, score
}

func ptr[T any](x T) *T { return &x }

// TestEvalFileParam: a file that does not load is answered with an error
// and the engine plays on with the embedded weights; a good file reaches
// the search and changes its scores; a file of another variant than the
// session's is reported at the next search, which uses the embedded
// weights; an empty value goes back to them.
func TestEvalFileParam(t *testing.T) {
	w, good := testWeights(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.dkw")
	corrupt := filepath.Join(dir, "corrupt.dkw")
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	data[len(data)/2] ^= 1
	require.NoError(t, os.WriteFile(corrupt, data, 0o644))
	truncated := filepath.Join(dir, "truncated.dkw")
	require.NoError(t, os.WriteFile(truncated, data[:1000], 0o644))

	var logs logjson.Buffer
	cfg := testConfig()
	cfg.Log = zerolog.New(&logs)
	hs := startSession(t, cfg)
	hs.send("init")
	hs.expect("ready")
	_, embedded := thinkScore(hs)
	assert.Nil(t, hs.spy.Options().Eval)

	for _, c := range []struct{ file, why string }{
		{missing, "eval file: open " + missing + ": no such file or directory"},
		{corrupt, "eval file " + corrupt + ": weights file checksum mismatch: the file is damaged"},
		{truncated, "eval file " + truncated + ": weights file of 1000 bytes, want " + strconv.Itoa(len(data)) + " (truncated or padded)"},
		{dir, "eval file: " + dir + " is a directory, not a regular file"},
		{"/dev/zero", "eval file: /dev/zero is a character device, not a regular file"},
	} {
		hs.send("set-param name=eval-file value=" + c.file)
		hs.expect(`error message="set-param eval-file: ` + c.why + ` (playing with the embedded weights)"`)
		_, s := thinkScore(hs)
		assert.Equal(t, embedded, s, c.file)
		assert.Nil(t, hs.spy.Options().Eval)
		hs.send("hub")
		hs.expect("~id .*")
		skipTo(hs, "param name=move-overhead")
		hs.expect(`param name=eval-file value="" type=string`)
		hs.expect(`param name=egdb-path value="" type=string`)
		hs.expect(`param name=egdb-pieces value=7 type=int min=0 max=7`)
		hs.expect(`param name=multipv value=1 type=int min=1 max=32`)
		hs.expect(`param name=strength value=10 type=int min=1 max=10`)
		hs.expect("wait")
	}

	hs.send("set-param name=eval-file value=" + good)
	_, loaded := thinkScore(hs)
	assert.NotEqual(t, embedded, loaded, "the file's weights change the score")
	assert.Equal(t, w, hs.spy.Options().Eval)
	hs.send("hub")
	hs.expect("~id .*")
	skipTo(hs, "param name=move-overhead")
	hs.expect(`param name=eval-file value=` + good + ` type=string`)
	hs.expect(`param name=egdb-path value="" type=string`)
	hs.expect(`param name=egdb-pieces value=7 type=int min=0 max=7`)
	hs.expect(`param name=multipv value=1 type=int min=1 max=32`)
	hs.expect(`param name=strength value=10 type=int min=1 max=10`)
	hs.expect("wait")
	// Set again: the same weights, kept as they are (no table clear).
	first := hs.spy.Options().Eval
	hs.send("set-param name=eval-file value=" + good)
	_, again := thinkScore(hs)
	assert.Equal(t, loaded, again)
	assert.Same(t, first, hs.spy.Options().Eval)

	// Another variant: reported once, searched with the embedded weights.
	hs.send("set-param name=variant value=english", "pos", "level depth=2", "go think")
	hs.expect(`error message="eval-file ` + good + ` holds russian weights, not english: english plays with the embedded weights"`)
	checkDone(t, ptr(engine.StartPosition(engine.English)), hs.expect("~done move=.*"))
	hs.send("pos", "level depth=2", "go think")
	checkDone(t, ptr(engine.StartPosition(engine.English)), hs.expect("~done move=.*"))
	// Back to Russian: the file's weights again.
	hs.send("set-param name=variant value=russian")
	_, back := thinkScore(hs)
	assert.Equal(t, loaded, back)

	// A bad file after a good one: the embedded weights.
	hs.send("set-param name=eval-file value=" + missing)
	hs.expect("~error message=\"set-param eval-file: eval file: open .*")
	_, s := thinkScore(hs)
	assert.Equal(t, embedded, s)

	hs.send("set-param name=eval-file value="+good, "set-param name=eval-file value=\"\"")
	_, s = thinkScore(hs)
	assert.Equal(t, embedded, s)
	assert.Nil(t, hs.spy.Options().Eval)
	hs.finish()

	log := logs.String()
	assert.Contains(t, log, `"eval":"`+good+`","weights":"test weights: to move is 3 men","book":"embedded","message":"player: in use"`)
	assert.Contains(t, log, `"variant":"english","eval":"embedded","weights":"`+eval.Default(engine.English).Title()+`"`)
}

// TestEvalFileOfThePlayer: the eval-file setting of the session's player
// is the parameter's value from the start, and its weights reach the
// search.
func TestEvalFileOfThePlayer(t *testing.T) {
	w, good := testWeights(t)
	hs := startSession(t, testConfig(), player.SetEvalFile, good)
	hs.send("hub")
	skipTo(hs, "param name=move-overhead")
	hs.expect(`param name=eval-file value=` + good + ` type=string`)
	hs.expect(`param name=egdb-path value="" type=string`)
	hs.expect(`param name=egdb-pieces value=7 type=int min=0 max=7`)
	hs.expect(`param name=multipv value=1 type=int min=1 max=32`)
	hs.expect(`param name=strength value=10 type=int min=1 max=10`)
	hs.expect("wait")
	hs.send("init")
	hs.expect("ready")
	assert.Equal(t, w, hs.spy.Options().Eval)
	thinkScore(hs)
	hs.finish()
}
