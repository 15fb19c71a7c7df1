package hub

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/internal/logjson"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/search"
)

// testBook writes an English book whose start position has one move, one
// that the embedded English book does not play there (at the default
// book-margin), and returns the
// move in Hub notation and the file.
func testBook(t *testing.T) (string, string) {
	t.Helper()
	start := engine.StartPosition(engine.English)
	embedded, err := book.Default(engine.English)
	require.NoError(t, err)
	entries := embedded.Probe(&start)
	best := entries[0].Score
	for _, e := range entries {
		best = max(best, e.Score)
	}
	var list engine.MoveList
	start.Generate(&list)
	for _, m := range list.Slice() {
		candidate := false // one the embedded book may pick (book.Book.Pick)
		for _, e := range entries {
			candidate = candidate || (e.Move == m && e.Score >= best-search.DefaultBookMargin)
		}
		if candidate {
			continue
		}
		data, err := book.Encode(engine.English, "test book", []book.Record{{Position: start, Moves: []book.Entry{{Move: m, Weight: 1}}}})
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), "english.book")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return start.FormatMove(m, engine.FormatHub), path
	}
	t.Fatal("the embedded book may play every move of the start position")
	return "", ""
}

// bookMove runs go think from the start of a new English game and returns the
// move played.
func bookMove(hs *hubSession) string {
	hs.t.Helper()
	hs.send("new-game", "pos", "level depth=2", "go think")
	done := hs.expect("~done move=.*")
	checkDone(hs.t, ptr(engine.StartPosition(engine.English)), done)
	return regexp.MustCompile(`move=(\S+)`).FindStringSubmatch(done)[1]
}

// TestBookFileParam: a book file that does not load is answered with an
// error and the embedded book is used; a good file's moves are played; a
// book of another variant than the session's is reported at the next
// search, which uses the embedded book; an empty value goes back to it.
func TestBookFileParam(t *testing.T) {
	mv, good := testBook(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.book")
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	corrupt := filepath.Join(dir, "corrupt.book")
	bad := append([]byte(nil), data...)
	bad[len(bad)-3] ^= 1
	require.NoError(t, os.WriteFile(corrupt, bad, 0o644))
	truncated := filepath.Join(dir, "truncated.book")
	require.NoError(t, os.WriteFile(truncated, data[:20], 0o644))

	var logs logjson.Buffer
	cfg := testConfig()
	cfg.Log = zerolog.New(&logs)
	hs := startSession(t, cfg, player.SetBook, "true", player.SetVariant, "english")
	hs.send("init")
	hs.expect("ready")
	for range 5 {
		assert.NotEqual(t, mv, bookMove(hs), "the embedded book never plays the test book's move")
	}

	for _, c := range []struct{ file, why string }{
		{missing, "book: open " + missing + ": no such file or directory"},
		{corrupt, corrupt + ": book: "},
		{truncated, truncated + ": book: "},
		{dir, "book: " + dir + " is a directory, not a regular file"},
		{"/dev/zero", "book: /dev/zero is a character device, not a regular file"},
	} {
		hs.send("set-param name=book-file value=" + c.file)
		hs.expect(`~error message="set-param book-file: ` + regexp.QuoteMeta(c.why) + `.*\(playing with the embedded book\)"`)
		assert.NotEqual(t, mv, bookMove(hs), c.file)
		hs.send("hub")
		hs.expect("~id .*")
		skipTo(hs, "param name=book-margin")
		hs.expect(`param name=book-file value="" type=string`)
		skipTo(hs, "wait")
	}

	hs.send("set-param name=book-file value=" + good)
	for range 3 {
		assert.Equal(t, mv, bookMove(hs), "the file's only move")
	}
	hs.send("hub")
	hs.expect("~id .*")
	skipTo(hs, "param name=book-margin")
	hs.expect(`param name=book-file value=` + good + ` type=string`)
	skipTo(hs, "wait")

	// Another variant: reported once, played from the embedded book.
	hs.send("set-param name=variant value=russian", "pos", "level depth=2", "go think")
	hs.expect(`error message="book-file ` + good + ` is a english book, not russian: russian plays with the embedded book"`)
	checkDone(t, ptr(engine.StartPosition(engine.Russian)), hs.expect("~done move=.*"))
	hs.send("pos", "level depth=2", "go think")
	checkDone(t, ptr(engine.StartPosition(engine.Russian)), hs.expect("~done move=.*"))
	// Back to English: the file's book again.
	hs.send("set-param name=variant value=english")
	assert.Equal(t, mv, bookMove(hs))

	// A bad file after a good one: the embedded book.
	hs.send("set-param name=book-file value=" + missing)
	hs.expect("~error message=\"set-param book-file: book: open .*")
	assert.NotEqual(t, mv, bookMove(hs))
	hs.send("set-param name=book-file value="+good, "set-param name=book-file value=\"\"")
	assert.NotEqual(t, mv, bookMove(hs))
	hs.finish()

	log := logs.String()
	assert.Regexp(t, `"variant":"english",[^\n]*"book":"`+regexp.QuoteMeta(good)+`","message":"player: in use"`, log)
	assert.Regexp(t, `"variant":"russian",[^\n]*"book":"embedded","message":"player: in use"`, log)
}

// TestBookFileOfThePlayer: the book-file setting of the session's player
// is the parameter's value from the start, and its moves are played.
func TestBookFileOfThePlayer(t *testing.T) {
	mv, good := testBook(t)
	hs := startSession(t, testConfig(), player.SetBook, "true", player.SetVariant, "english", player.SetBookFile, good)
	hs.send("hub")
	skipTo(hs, "param name=book-margin")
	hs.expect(`param name=book-file value=` + good + ` type=string`)
	skipTo(hs, "wait")
	hs.send("init")
	hs.expect("ready")
	assert.Equal(t, mv, bookMove(hs))
	hs.finish()
}
