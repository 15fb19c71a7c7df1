package match

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

// PeersEnv names the folder of the built peer engines (built as
// docs/strength.md says, with mobydam/mobydam and mobydam/book/book.opn,
// and Scan 2.0 in scan2/ with scan_hub2 linked in): the real-peer match
// test runs only when it is set.
const PeersEnv = "DAMKA_PEERS"

// TestMatchRealPeers plays damka against Moby Dam over DXP (the runner
// starts it on a port of its own, its move time set on its console), and
// against Scan 2.0 over Hub (through scan_hub2) and over DXP (Scan's port
// from a scan.ini of the test's own): every game complete, legal (read
// back from the PDN) and without faults. Skipped unless $DAMKA_PEERS is
// set; not with -short.
func TestMatchRealPeers(t *testing.T) {
	peers := os.Getenv(PeersEnv)
	if peers == "" || testing.Short() {
		t.Skipf("$%s is not set (or -short): no real peers", PeersEnv)
	}
	dir := t.TempDir()
	damka := goBuild(t, dir, "damka", "github.com/damka-draughts/damka/cmd/damka")
	ops, err := openings.Load("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	ops = ops[:1]
	damkaSpec := EngineSpec{Name: "damka", Command: []string{damka}, Options: []hubclient.Setting{{Name: "threads", Value: "1"}}}
	play := func(t *testing.T, peer EngineSpec, lim Limits) {
		var pdn bytes.Buffer
		sum, err := Run(context.Background(), Config{
			Variant: engine.International, Openings: ops, Limits: lim,
			Engines: [2]EngineSpec{damkaSpec, peer}, TimeMargin: 3 * time.Second, PDN: &pdn,
		})
		require.NoError(t, err)
		assert.Equal(t, 2, sum.Played)
		assert.Empty(t, sum.Faults[0], "damka's faults")
		assert.Empty(t, sum.Faults[1], "the peer's faults")
		games := pdnGames(t, pdn.Bytes(), engine.International)
		require.Len(t, games, 2)
		for _, g := range games {
			assert.NotEqual(t, "*", g.Result)
			t.Logf("%s - %s %s (%s: %s), %d plies", g.Tag("White"), g.Tag("Black"), g.Result, g.Tag("Termination"), g.Tag("TerminationDetail"), len(g.Moves))
		}
	}
	t.Run("mobydam-dxp", func(t *testing.T) {
		moby := filepath.Join(peers, "mobydam", "mobydam")
		if _, err := os.Stat(moby); err != nil {
			t.Skipf("no Moby Dam: %v", err)
		}
		play(t, EngineSpec{
			Name: "mobydam", Proto: ProtoDXP, Dir: t.TempDir(), Stdin: "time 150",
			Command: []string{moby, "-b", filepath.Join(peers, "mobydam", "book", "book.opn"), "-t", "22", "-p", "{port}"},
		}, Limits{MoveTime: 150 * time.Millisecond})
	})
	scan := filepath.Join(peers, "scan2")
	t.Run("scan-hub", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(scan, "scan_hub2")); err != nil {
			t.Skipf("no Scan 2.0: %v", err)
		}
		play(t, EngineSpec{
			Name: "scan", Command: []string{filepath.Join(scan, "scan_hub2")}, Dir: scan,
			Options: []hubclient.Setting{{Name: "threads", Value: "1"}, {Name: "tt-size", Value: "22"}},
		}, Limits{MoveTime: 150 * time.Millisecond})
	})
	t.Run("scan-dxp", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(scan, "scan")); err != nil {
			t.Skipf("no Scan 2.0: %v", err)
		}
		port, err := freePort()
		require.NoError(t, err)
		run := t.TempDir()
		require.NoError(t, os.Symlink(filepath.Join(scan, "data"), filepath.Join(run, "data")))
		ini := strings.Join([]string{"book = true", "book-margin = 2", "threads = 1", "tt-size = 22", "bb-size = 4",
			"dxp-server = true", "dxp-host = 127.0.0.1", "dxp-port = " + strconv.Itoa(port), "dxp-initiator = false",
			"dxp-time = 1", "dxp-moves = 0", "dxp-board = false", "dxp-search = false"}, "\n") + "\n"
		require.NoError(t, os.WriteFile(filepath.Join(run, "scan.ini"), []byte(ini), 0o644))
		play(t, EngineSpec{
			Name: "scan", Proto: ProtoDXP, Dir: run, Port: port,
			Command: []string{filepath.Join(scan, "scan"), "dxp"},
		}, Limits{Base: time.Minute})
	})
}
