package cli

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/eval"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/search"
)

// TestLearnPipeline runs the training pipeline end to end on a tiny scale:
// damka selfplay a few games, damka train one epoch on them, the weights
// file read back and a game played with it.
func TestLearnPipeline(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "russian.games")
	selfplay := []string{"selfplay", "--variant", "russian", "--games", "8", "--nodes", "300", "--threads", "2",
		"--hash", "1", "--seed", "3", "--random-plies", "6", "--out", games, "--no-progress"}
	out, stderr, code := runCLI(selfplay...)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^games=8 resumed=0 played=8 plies=\d+ white=\d+ black=\d+ draws=\d+ nodes=\d+ time=\S+ games_per_s=\S+\n$`, out)
	data, err := os.ReadFile(games)
	require.NoError(t, err)
	gr, err := pdn.NewRecordReader(strings.NewReader(string(data)))
	require.NoError(t, err)
	assert.Equal(t, engine.Russian, gr.Variant())
	assert.Equal(t, "damka selfplay --hash 1 --nodes 300 --out "+games+" --random-plies 6 --seed 3 --variant russian", gr.Note())

	// Run again: the file holds its games and stays as it is.
	out, stderr, code = runCLI(selfplay...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "games=8 resumed=8 played=0 ")
	again, err := os.ReadFile(games)
	require.NoError(t, err)
	assert.Equal(t, data, again)

	weights := filepath.Join(dir, "russian.dkw")
	out, stderr, code = runCLI("train", "--variant", "russian", "--data", games, "--out", weights, "--epochs", "1",
		"--batch", "32", "--validate", "3", "--threads", "2", "--from-prior")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^read \d+ positions of 8 games in \S+s\n$`, stderr)
	assert.Regexp(t, `^epoch=0 train_loss=0\.\d+ val_loss=0\.\d+ val_result_loss=0\.\d+ time=\S+\nepoch=1 train_loss=0\.\d+ val_loss=0\.\d+ val_result_loss=0\.\d+ time=\S+\n`+
		`scale=\S+ best_epoch=[01] val_loss=0\.\d+ out=`+weights+"\n$", out)

	// With the embedded tables: their positions are counted (8 short
	// games may reach none), and the weights note the flag.
	labelled := filepath.Join(dir, "russian-egdb.dkw")
	_, stderr, code = runCLI("train", "--variant", "russian", "--data", games, "--out", labelled, "--epochs", "0",
		"--validate", "3", "--threads", "2", "--egdb", "")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `\nendgame tables \(4 pieces\): \d+ positions take their exact values, \d+ of them differ from their game's result\n$`, stderr)
	lw, err := eval.LoadWeights(labelled, engine.Russian)
	require.NoError(t, err)
	assert.Contains(t, lw.Note, " --egdb '' ", "the note should record --egdb")
	assert.Equal(t, uint8(eval.FeatureSet), lw.Set)

	// --feature-set 3: a file of the 4x4 regions alone.
	set3 := filepath.Join(dir, "russian-set3.dkw")
	_, stderr, code = runCLI("train", "--variant", "russian", "--data", games, "--out", set3, "--epochs", "1",
		"--validate", "3", "--threads", "2", "--from-prior", "--feature-set", "3")
	require.Equal(t, 0, code, stderr)
	w3, err := eval.LoadWeights(set3, engine.Russian)
	require.NoError(t, err)
	assert.Equal(t, uint8(3), w3.Set)
	assert.Len(t, w3.Pattern, eval.RegionsOf(engine.Russian, 3)*eval.PatternSize)
	assert.Contains(t, w3.Note, " --feature-set 3 ")

	w, err := eval.LoadWeights(weights, engine.Russian)
	require.NoError(t, err)
	assert.Equal(t, engine.Russian, w.V)
	assert.True(t, strings.HasPrefix(w.Note, "damka train --batch 32 --data "+games+" --epochs 1 --from-prior --out "+weights+
		" --validate 3 --variant russian\ndata: "+games+" (8 games, "), w.Note)
	// The weights of the best epoch are written: the prior's (all
	// patterns 0) when the epoch did not lower the validation loss, which
	// on 8 games can happen, else trained ones.
	changed := 0
	for _, pw := range w.Pattern {
		if pw != [2]int16{} {
			changed++
		}
	}
	if strings.Contains(out, " best_epoch=1 ") {
		assert.Positive(t, changed, "the epoch's weights are not written")
	} else {
		assert.Zero(t, changed, "best epoch 0, yet the patterns changed:\n%s", out)
	}
	_, err = eval.LoadWeights(weights, engine.English)
	assert.ErrorContains(t, err, "weights file is for russian, not english")

	// Play with the weights: a few moves of a game, each legal, and the
	// search scores with them (a depth-1 search from the start, where no
	// capture is near, is the best of the replies' static scores).
	e := search.New(search.Options{Threads: 1, HashMiB: 1, Eval: w})
	start := engine.StartPosition(engine.Russian)
	r := e.Search(context.Background(), start, nil, search.Limits{Depth: 1}, nil)
	require.True(t, r.HasMove)
	var l engine.MoveList
	start.Generate(&l)
	best := -1 << 30
	for _, m := range l.Slice() {
		c := start.Play(m)
		best = max(best, -w.Evaluate(&c))
	}
	assert.Equal(t, best, r.Score, "the depth-1 score is not the trained weights' one")
	g := engine.NewGame(start)
	for range 8 {
		r := e.SearchGame(context.Background(), g, search.Limits{Depth: 4}, nil)
		require.True(t, r.HasMove)
		require.NoError(t, g.PlayChecked(r.Move))
	}
}

// TestLearnCommandsBadInput checks the bad input of selfplay and train:
// exit status 2 and a message naming the fault, no file written.
func TestLearnCommandsBadInput(t *testing.T) {
	dir := t.TempDir()
	selfplay := func(out string, extra ...string) []string {
		return append([]string{"selfplay", "--variant", "english", "--games", "2", "--nodes", "200", "--threads", "1",
			"--hash", "1", "--out", out, "--no-progress"}, extra...)
	}
	english := filepath.Join(dir, "english.games")
	_, stderr, code := runCLI(selfplay(english)...)
	require.Equal(t, 0, code, stderr)
	good, err := os.ReadFile(english)
	require.NoError(t, err)
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return path
	}
	// The same games under another name: damaged in the first game.
	damaged := filepath.Join(dir, "damaged.games")
	_, stderr, code = runCLI(selfplay(damaged, "--games", "1")...)
	require.Equal(t, 0, code, stderr)
	_, stderr, code = runCLI(selfplay(damaged)...)
	require.Equal(t, 0, code, stderr)
	flipped, err := os.ReadFile(damaged)
	require.NoError(t, err)
	first := 16 + int(binary.LittleEndian.Uint32(flipped[12:])) // the first record
	flipped[first+30] ^= 0x40
	write("damaged.games", flipped)
	torn := write("torn.games", good[:len(good)-7])
	headerOnly := write("empty.games", good[:16+int(binary.LittleEndian.Uint32(good[12:]))])
	pdn := write("games.pdn", []byte("[Event \"x\"]\n1. 11-15 *\n"))
	trained := filepath.Join(dir, "w.dkw")
	_, stderr, code = runCLI("train", "--variant", "english", "--data", english, "--out", trained, "--epochs", "0", "--validate", "2")
	require.Equal(t, 0, code, stderr)

	out := filepath.Join(dir, "out")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"selfplay", "--games", "1"}, "--out is required"},
		{[]string{"selfplay", "--nodes", "0", "--out", out}, "--nodes 0 out of range 1..1000000000000"},
		{[]string{"selfplay", "--nodes", "-3", "--out", out}, "--nodes -3 out of range 1..1000000000000"},
		{[]string{"selfplay", "--depth", "3", "--nodes", "100", "--out", out}, "give one of --nodes and --depth, not both"},
		{[]string{"selfplay", "--depth", "0", "--out", out}, "--depth 0 out of range"},
		{[]string{"selfplay", "--games", "0", "--out", out}, "--games 0 out of range"},
		{[]string{"selfplay", "--threads", "0", "--out", out}, "--threads 0 out of range"},
		{[]string{"selfplay", "--random-plies", "101", "--out", out}, "--random-plies 101 out of range"},
		{[]string{"selfplay", "--shard", "0/3", "--out", out}, `--shard: shard "0/3": want I/N with 1 <= I <= N`},
		{[]string{"selfplay", "--shard", "4/3", "--out", out}, `--shard: shard "4/3": want I/N`},
		{[]string{"selfplay", "--shard", "x", "--out", out}, `--shard: shard "x": want I/N`},
		{[]string{"selfplay", "--variant", "checkers9", "--out", out}, "checkers9"},
		{[]string{"selfplay", "--out", filepath.Join(dir, "none", "x.games")}, "--out " + filepath.Join(dir, "none", "x.games") + ": folder"},
		{[]string{"selfplay", "--variant", "russian", "--openings", "../../bench/testdata/openings_international.pdn", "--out", out}, "--openings: "},
		{[]string{"selfplay", "--variant", "russian", "--games", "3", "--nodes", "100", "--out", english},
			"--out: selfplay: cannot resume " + english + ": the file holds english games, not russian"},
		{selfplay(damaged, "--games", "3"), fmt.Sprintf("--out: selfplay: cannot resume %s: record at byte %d: checksum mismatch", damaged, first)},
		{selfplay(english, "--games", "3", "--nodes", "100"), "--out: selfplay: cannot resume " + english +
			`: its games were played by "damka selfplay --hash 1 --nodes 200 --out ` + english + ` --variant english", not ` +
			`"damka selfplay --hash 1 --nodes 100 --out ` + english + ` --variant english" (other settings)`},
		{[]string{"selfplay", "--variant", "english", "--games", "3", "--nodes", "100", "--out", pdn},
			"cannot resume " + pdn + ": not a damka game file"},

		{[]string{"train", "--out", out}, "--data is required"},
		{[]string{"train", "--data", english}, "--out is required: the weights file to write (optional only with --epochs 0)"},
		{[]string{"train", "--variant", "english", "--data", english, "--out", out, "--feature-set", "2"}, "--feature-set 2: want 3 or 4"},
		{[]string{"train", "--variant", "english", "--data", english, "--out", out, "--feature-set", "5"}, "--feature-set 5: want 3 or 4"},
		{[]string{"train", "--variant", "russian", "--data", english, "--out", out}, "--data: " + english + ": english games, not russian"},
		{[]string{"train", "--variant", "english", "--data", damaged, "--out", out},
			fmt.Sprintf("--data: %s: record at byte %d: checksum mismatch", damaged, first)},
		{[]string{"train", "--variant", "english", "--data", torn, "--out", out}, "truncated game record"},
		{[]string{"train", "--variant", "english", "--data", pdn, "--out", out}, "not a damka game file"},
		{[]string{"train", "--variant", "english", "--data", filepath.Join(dir, "no.games"), "--out", out}, "no such file"},
		{[]string{"train", "--variant", "english", "--data", headerOnly, "--out", out}, "train: no positions"},
		{[]string{"train", "--variant", "english", "--data", english, "--validate", "1", "--out", out}, "--validate 1: want at least 2"},
		{[]string{"train", "--variant", "english", "--data", english, "--epochs", "-1", "--out", out}, "--epochs -1 out of range"},
		{[]string{"train", "--variant", "english", "--data", english, "--lambda", "2", "--out", out}, "--lambda 2 out of range 0..1"},
		{[]string{"train", "--variant", "english", "--data", english, "--lambda", "NaN", "--out", out}, "--lambda NaN: want a finite number"},
		{[]string{"train", "--variant", "english", "--data", english, "--rate", "Inf", "--out", out}, "--rate +Inf: want a finite number"},
		{[]string{"train", "--variant", "english", "--data", english, "--l2", "nan", "--out", out}, "--l2 NaN: want a finite number"},
		{[]string{"train", "--variant", "english", "--data", english, "--scale", "NaN", "--out", out}, "--scale NaN: want a finite number"},
		{[]string{"train", "--variant", "english", "--data", english, "--decay", "NaN", "--out", out}, "--decay NaN: want a finite number"},
		{[]string{"train", "--variant", "english", "--data", english, "--init", trained, "--from-prior", "--out", out}, "give one of --init and --from-prior"},
		{[]string{"train", "--variant", "russian", "--data", english, "--init", trained, "--out", out}, "--init: eval file " + trained + ": weights file is for english, not russian"},
		{[]string{"train", "--variant", "english", "--data", english, "--init", damaged, "--out", out}, "--init: eval file " + damaged + ": not a damka weights file"},
		{[]string{"train", "--variant", "english", "--data", english, "--fix", "king-mobility,wings", "--out", out}, `--fix "wings": no such dense feature (want one of men, kings,`},
		{[]string{"train", "--variant", "english", "--data", english, "--egdb", filepath.Join(dir, "no-tables"), "--out", out}, "--egdb " + filepath.Join(dir, "no-tables") + ": "},
		{[]string{"train", "--variant", "english", "--data", english, "--epochs", "0", "--test-pdn", internationalPDN},
			"--test-pdn: " + internationalPDN + ": no finished english game (skipped: 415 of another variant, 0 without a result, 0 with a fault)"},
		{[]string{"train", "--variant", "english", "--data", english, "--test-pdn", englishPDN, "--test-pdn", filepath.Join(dir, "none.pdn"), "--out", out},
			"--test-pdn: open " + filepath.Join(dir, "none.pdn") + ": no such file"},
		{[]string{"train", "--variant", "english", "--epochs", "0", "--test-pdn", englishPDN}, "--data is required"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.Contains(t, stderr, "damka: ", "%v", c.args)
		assert.Empty(t, stdout, "%v", c.args)
		_, err := os.Stat(out)
		assert.ErrorIs(t, err, os.ErrNotExist, "%v wrote %s", c.args, out)
	}
	// The refused resumes left their files alone.
	again, err := os.ReadFile(english)
	require.NoError(t, err)
	assert.Equal(t, good, again)
	again, err = os.ReadFile(damaged)
	require.NoError(t, err)
	assert.Equal(t, flipped, again)
}

// TestSelfPlayResumesMovedFile: a game file resumes under another path (a
// file moved, unpacked from learn/games/, or named by an absolute path):
// --out is where the games go, not a setting of the games; another
// setting is still refused.
func TestSelfPlayResumesMovedFile(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first.games")
	selfplay := func(out string, extra ...string) []string {
		return append([]string{"selfplay", "--variant", "english", "--nodes", "200", "--threads", "1",
			"--hash", "1", "--out", out, "--no-progress"}, extra...)
	}
	_, stderr, code := runCLI(selfplay(first, "--games", "1")...)
	require.Equal(t, 0, code, stderr)
	moved := filepath.Join(dir, "moved 'x'.games")
	require.NoError(t, os.Rename(first, moved))
	out, stderr, code := runCLI(selfplay(moved, "--games", "2")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "games=2 resumed=1 played=1 ")
	_, stderr, code = runCLI(selfplay(moved, "--games", "3", "--nodes", "300")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "other settings")

	assert.True(t, sameSelfPlaySettings("damka selfplay --nodes 5 --out a.games --seed 3", "damka selfplay --nodes 5 --out '/x/b c.games' --seed 3"))
	assert.False(t, sameSelfPlaySettings("damka selfplay --nodes 5 --out a.games --seed 3", "damka selfplay --nodes 5 --out a.games --seed 4"))
	assert.False(t, sameSelfPlaySettings("damka selfplay --nodes 5 --out a.games", "damka selfplay --nodes 5 --out a.games --seed 4"))
	// Defaults written out or left out, decks named relatively or not.
	assert.True(t, sameSelfPlaySettings("damka selfplay --nodes 10000 --out a.games --seed 1", "damka selfplay --out b.games"))
	abs, err := filepath.Abs("../../x/deck.pdn")
	require.NoError(t, err)
	assert.True(t, sameSelfPlaySettings("damka selfplay --openings "+abs+" --out a.games", "damka selfplay --openings ../../x/deck.pdn --out a.games"))
	assert.False(t, sameSelfPlaySettings("damka selfplay --openings /x/deck.pdn", "damka selfplay --openings /y/deck.pdn"))
	assert.False(t, sameSelfPlaySettings("damka selfplay --bogus 1", "damka selfplay"), "a note that does not parse must be equal")
	assert.True(t, sameSelfPlaySettings("damka selfplay --bogus 1", "damka selfplay --bogus 1"))
	// A shard is a setting: 1/1 is the whole run.
	assert.True(t, sameSelfPlaySettings("damka selfplay --shard 1/1 --out a.games", "damka selfplay --out a.games"))
	assert.True(t, sameSelfPlaySettings("damka selfplay --shard 02/4", "damka selfplay --shard 2/4"))
	assert.False(t, sameSelfPlaySettings("damka selfplay --shard 1/4", "damka selfplay --shard 2/4"))
	assert.False(t, sameSelfPlaySettings("damka selfplay --shard 1/4", "damka selfplay"))
}

// TestSelfPlayShardCommand: `damka selfplay --shard I/N` writes the
// shard's games with their numbers, its note records the shard, and its
// file resumes as that shard only.
func TestSelfPlayShardCommand(t *testing.T) {
	dir := t.TempDir()
	selfplay := func(out string, extra ...string) []string {
		return append([]string{"selfplay", "--variant", "english", "--games", "3", "--nodes", "200", "--threads", "1",
			"--hash", "1", "--out", out, "--no-progress"}, extra...)
	}
	for i, want := range [][]uint32{{0, 2}, {1}} {
		out := filepath.Join(dir, fmt.Sprintf("part-%d.dkg", i))
		stdout, stderr, code := runCLI(selfplay(out, "--shard", fmt.Sprintf("%d/2", i+1))...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, fmt.Sprintf("games=%d resumed=0 played=%d ", len(want), len(want)))
		f, err := os.Open(out)
		require.NoError(t, err)
		gr, err := pdn.NewRecordReader(f)
		require.NoError(t, err)
		assert.Contains(t, gr.Note(), fmt.Sprintf(" --shard %d/2", i+1))
		var got []uint32
		for {
			rec, err := gr.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			got = append(got, rec.Index)
		}
		f.Close()
		assert.Equal(t, want, got, "shard %d/2", i+1)
	}
	stdout, stderr, code := runCLI(selfplay(filepath.Join(dir, "part-0.dkg"), "--shard", "1/2")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "games=2 resumed=2 played=0 ")
	_, stderr, code = runCLI(selfplay(filepath.Join(dir, "part-0.dkg"), "--shard", "2/2")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "other settings")
}

// Match games in the repository, gzipped PDN (the package's tests run in
// internal/cli).
const (
	englishPDN       = "../../learn/sprt/english_r6_vs_set4.pdn.gz"
	englishPDN2      = "../../learn/sprt/english_set4_vs_round4.pdn.gz"
	internationalPDN = "../../learn/sprt/international_r4_vs_r3.pdn.gz"
)

// TestTrainTestPDN: --test-pdn adds test_loss to every epoch line and to
// the last one, and to the weights' note; --epochs 0 prints the starting
// weights' losses and writes nothing without --out, their file with it.
func TestTrainTestPDN(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "english.games")
	_, stderr, code := runCLI("selfplay", "--variant", "english", "--games", "6", "--nodes", "200", "--threads", "2",
		"--hash", "1", "--seed", "2", "--out", games, "--no-progress")
	require.Equal(t, 0, code, stderr)
	train := func(extra ...string) []string {
		return append([]string{"train", "--variant", "english", "--data", games, "--validate", "3", "--threads", "2", "--batch", "64"}, extra...)
	}

	out, stderr, code := runCLI(train("--epochs", "0", "--test-pdn", englishPDN)...)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `\ntest: [1-9]\d+ positions of 1163 games \(skipped: 0 of another variant, 0 without a result, 0 with a fault\)\n`, "\n"+stderr)
	m := regexp.MustCompile(`^epoch=0 train_loss=0\.\d+ val_loss=(0\.\d+) val_result_loss=0\.\d+ test_loss=(0\.\d+) time=\S+\n` +
		`scale=\S+ best_epoch=0 val_loss=(0\.\d+) test_loss=(0\.\d+)\n$`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Equal(t, m[1], m[3])
	assert.Equal(t, m[2], m[4])
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "--epochs 0 without --out wrote a file")

	// Without --test-pdn the lines have no test_loss.
	out, stderr, code = runCLI(train("--epochs", "0")...)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^epoch=0 train_loss=0\.\d+ val_loss=0\.\d+ val_result_loss=0\.\d+ time=\S+\nscale=\S+ best_epoch=0 val_loss=0\.\d+\n$`, out)
	assert.NotContains(t, stderr, "test:")

	// --epochs 0 --out: the starting weights (the embedded ones).
	start := filepath.Join(dir, "start.dkw")
	out, stderr, code = runCLI(train("--epochs", "0", "--out", start)...)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `\nscale=\S+ best_epoch=0 val_loss=0\.\d+ out=`+regexp.QuoteMeta(start)+"\n$", out)
	w, err := eval.LoadWeights(start, engine.English)
	require.NoError(t, err)
	def := eval.Default(engine.English)
	assert.Equal(t, def.Set, w.Set)
	assert.Equal(t, def.Dense, w.Dense)
	assert.Equal(t, def.Pattern, w.Pattern)

	// Training with two test files: test_loss on every line, the last
	// one the best epoch's, and in the note.
	trained := filepath.Join(dir, "trained.dkw")
	out, stderr, code = runCLI(train("--epochs", "2", "--test-pdn", englishPDN, "--test-pdn", englishPDN2, "--out", trained)...)
	require.Equal(t, 0, code, stderr)
	m = regexp.MustCompile(`\ntest: (\d+) positions of (\d+) games `).FindStringSubmatch("\n" + stderr)
	require.NotNil(t, m, stderr)
	lines := regexp.MustCompile(`(?m)^epoch=(\d) train_loss=0\.\d+ val_loss=(0\.\d+) val_result_loss=0\.\d+ test_loss=(0\.\d+) time=\S+$`).FindAllStringSubmatch(out, -1)
	require.Len(t, lines, 3, out)
	last := regexp.MustCompile(`\nscale=\S+ best_epoch=(\d) val_loss=(0\.\d+) test_loss=(0\.\d+) out=` + regexp.QuoteMeta(trained) + "\n$").FindStringSubmatch(out)
	require.NotNil(t, last, out)
	best := lines[0]
	for _, l := range lines[1:] {
		if l[2] < best[2] { // same format: compares as numbers
			best = l
		}
	}
	assert.Equal(t, best[1:], last[1:], "the last line is the best epoch's (by val_loss)")
	w, err = eval.LoadWeights(trained, engine.English)
	require.NoError(t, err)
	assert.Contains(t, w.Note, fmt.Sprintf("\ntest: %s %s (%s games, %s positions) test_loss=%s", englishPDN, englishPDN2, m[2], m[1], last[3]))
	assert.Contains(t, w.Note, " --test-pdn "+englishPDN+" --test-pdn "+englishPDN2+" ")
}
