package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"
)

// TestMatchAdjudicateEGDBBadInput: an unknown --adjudicate value, a
// missing --egdb directory and --egdb without --adjudicate egdb exit 2
// before the match starts, saying what is wrong.
func TestMatchAdjudicateEGDBBadInput(t *testing.T) {
	dir := t.TempDir()
	op := filepath.Join(dir, "o.fen")
	require.NoError(t, os.WriteFile(op, []byte("W:WK1,K2:BK32\n"), 0o644))
	self, err := os.Executable()
	require.NoError(t, err)
	base := []string{"match", "--variant", "english", "--openings", op, "--no-progress", "--depth", "2",
		"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--adjudicate", "tablebase"}, `--adjudicate "tablebase": want egdb`},
		{[]string{"--adjudicate", "egdb", "--egdb", filepath.Join(dir, "none")}, "--egdb " + filepath.Join(dir, "none") + ": endgame tables: open"},
		{[]string{"--adjudicate", "egdb", "--egdb", op}, "not a directory"},
		{[]string{"--egdb", dir}, "--egdb " + dir + ": the tables are for --adjudicate egdb, which is not given"},
	} {
		out, errs, code := runCLI(append(base, c.args...)...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errs, c.msg, "%v", c.args)
	}
}

// TestMatchAdjudicateEGDB: `damka match --adjudicate egdb` between two
// damka processes ends an English two-kings-against-one opening after the
// first move as the two kings' win, and a king against a king as a draw,
// with the embedded set and with a directory (empty: the embedded set
// behind it answers).
func TestMatchAdjudicateEGDB(t *testing.T) {
	dir := t.TempDir()
	bin := buildDamka(t, dir)
	op := filepath.Join(dir, "o.fen")
	require.NoError(t, os.WriteFile(op, []byte("W:WK1,K2:BK32 ; 2K-1K\nW:WK1:BK32 ; 1K-1K\n"), 0o644))
	tables := filepath.Join(dir, "tables")
	require.NoError(t, os.Mkdir(tables, 0o755))
	for _, extra := range [][]string{nil, {"--egdb", tables}} {
		pdn := filepath.Join(dir, "m.pdn")
		_ = os.Remove(pdn)
		args := append([]string{"match", "--variant", "english", "--openings", op, "--no-progress", "--depth", "2",
			"--engine", "name=A", "cmd=" + bin, "--engine", "name=B", "cmd=" + bin,
			"--adjudicate", "egdb", "--pdn", pdn, "--log-level", "error"}, extra...)
		out, errs, code := runCLI(args...)
		require.Equal(t, 0, code, "%s\n%s", out, errs)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		assert.Regexp(t, `^games=4 wins=1 draws=2 losses=1 `, lines[len(lines)-1])
		b, err := os.ReadFile(pdn)
		require.NoError(t, err)
		games, err := match.ReadPDN(bytes.NewReader(b), engine.English)
		require.NoError(t, err)
		require.Len(t, games, 4)
		for _, g := range games {
			assert.Equal(t, "egdb adjudication", g.Tag("Termination"))
			assert.Contains(t, g.Tag("TerminationDetail"), "endgame database: Black to move ")
		}
	}
}
