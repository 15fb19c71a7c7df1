package hub

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/damka-draughts/damka/egdb"
)

// TestEGDBPathParam: egdb-path "" is the embedded set, "off" none, a
// directory the tables there; one that cannot be read is an error after
// which the embedded set is used.
func TestEGDBPathParam(t *testing.T) {
	hs := startSession(t, testConfig())
	hs.send("init")
	hs.expect("ready")
	assert.Same(t, egdb.Default(), hs.spy.Options().EGDB)

	hs.send("set-param name=egdb-path value=off", "hub")
	hs.expect("~id .*")
	skipTo(hs, "param name=eval-file")
	hs.expect(`param name=egdb-path value=off type=string`)
	hs.expect(`param name=egdb-pieces value=7 type=int min=0 max=7`)
	hs.expect(`param name=multipv value=1 type=int min=1 max=32`)
	hs.expect(`param name=strength value=10 type=int min=1 max=10`)
	hs.expect("wait")
	assert.Nil(t, hs.spy.Options().EGDB)

	dir := t.TempDir()
	hs.send("set-param name=egdb-path value=" + dir)
	hs.send("pos", "level depth=2", "go think")
	hs.expect("~done move=.*")
	db, ok := hs.spy.Options().EGDB.(*egdb.DB)
	if assert.True(t, ok) {
		assert.Equal(t, dir, db.Dir())
	}

	missing := filepath.Join(dir, "nowhere")
	hs.send("set-param name=egdb-path value=" + missing)
	hs.expect(`~error message="set-param egdb-path: endgame tables: open ` + missing + `: no such file or directory \(playing with the embedded endgame tables\)"`)
	hs.send("hub")
	hs.expect("~id .*")
	skipTo(hs, "param name=eval-file")
	hs.expect(`param name=egdb-path value="" type=string`)
	hs.expect(`param name=egdb-pieces value=7 type=int min=0 max=7`)
	hs.expect(`param name=multipv value=1 type=int min=1 max=32`)
	hs.expect(`param name=strength value=10 type=int min=1 max=10`)
	hs.expect("wait")
	assert.Same(t, egdb.Default(), hs.spy.Options().EGDB)
	hs.finish()
}
