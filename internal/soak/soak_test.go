package soak

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envInt reads the environment variable name as a count, def when unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "%s", name)
	require.GreaterOrEqual(t, n, 0, "%s", name)
	return n
}

// TestSoak is `make soak`: DAMKA_SOAK=N plays N Hub games per variant
// (match runner, damka against damka, three time controls), N/5 DXP games
// and N/10 text-mode games per variant (at least 2 and 1), CheckerBoard
// games where wine and the Windows builds exist, and a memory run of
// DAMKA_SOAK_MEM games (default N) with one process per engine; it prints
// one line per front end and variant, the memory figures, and fails on
// any fault. DAMKA_SOAK_DXP, DAMKA_SOAK_TEXT set the other counts,
// DAMKA_SOAK_MARGIN the runner's time margin in milliseconds (default
// 200), DAMKA_SOAK_DIR keeps the PDN files there. Without DAMKA_SOAK it
// is skipped.
func TestSoak(t *testing.T) {
	n := envInt(t, "DAMKA_SOAK", 0)
	if n == 0 {
		t.Skip("set DAMKA_SOAK=N (games per variant) to run the soak: make soak")
	}
	dir := os.Getenv("DAMKA_SOAK_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	dir, err := filepath.Abs(dir)
	require.NoError(t, err)
	bin := filepath.Join(dir, "damka")
	gobin, err := exec.LookPath("go")
	require.NoError(t, err)
	out, err := exec.Command(gobin, "build", "-o", bin, "damka/cmd/damka").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	cfg := Config{
		Damka: bin, Decks: "../../openings/decks", Dir: dir, Games: n,
		DXPGames:   envInt(t, "DAMKA_SOAK_DXP", max(2, n/5)),
		TextGames:  envInt(t, "DAMKA_SOAK_TEXT", max(1, n/10)),
		MemGames:   envInt(t, "DAMKA_SOAK_MEM", n),
		TimeMargin: time.Duration(envInt(t, "DAMKA_SOAK_MARGIN", 200)) * time.Millisecond,
		Out:        os.Stdout,
	}
	if wine, err := exec.LookPath("wine"); err == nil {
		cbhub, dll := filepath.Join("..", "..", "bin", "cbhub.exe"), filepath.Join("..", "..", "bin", "damka.dll")
		_, err1 := os.Stat(cbhub)
		_, err2 := os.Stat(dll)
		if err1 == nil && err2 == nil {
			cfg.Wine, cfg.CBHub, cfg.CBDLL = wine, cbhub, dll
		}
	}
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	t.Logf("soak of %v, PDN files in %s:\n%s", time.Since(start).Round(time.Second), dir, rep)
	assert.Zero(t, rep.Faults(), "faults in the soak:\n%s", rep)
}
