package soak

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/match"

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
// and N/10 text-mode games per variant (at least 2 and 1), N CheckerBoard
// games where wine, the Windows builds and the wine prefix of make test-cb
// exist, and a memory run of DAMKA_SOAK_MEM games (default N) with one
// process per engine; it prints one line per front end and variant, the
// memory figures, and fails on any fault. DAMKA_SOAK_DXP, DAMKA_SOAK_TEXT
// and DAMKA_SOAK_CB set the other counts (with DAMKA_SOAK unset or 0, only
// those set are played), DAMKA_SOAK_MARGIN the runner's time margin in
// milliseconds (default 200; DAMKA_SOAK_CB_MARGIN that of the CheckerBoard
// games, default 1000), DAMKA_SOAK_DIR keeps the PDN files there,
// DAMKA_SOAK_SHARD=i/N makes the run shard i of N (other openings, PDN
// files named -iofN), DAMKA_SOAK_VARIANTS=russian,english plays only
// those variants' games. With no count set it is skipped.
func TestSoak(t *testing.T) {
	n := envInt(t, "DAMKA_SOAK", 0)
	cfg := Config{
		Decks: "../../openings/decks", Games: n,
		DXPGames:   envInt(t, "DAMKA_SOAK_DXP", max(2, n/5)),
		TextGames:  envInt(t, "DAMKA_SOAK_TEXT", max(1, n/10)),
		MemGames:   envInt(t, "DAMKA_SOAK_MEM", n),
		CBGames:    envInt(t, "DAMKA_SOAK_CB", n),
		TimeMargin: time.Duration(envInt(t, "DAMKA_SOAK_MARGIN", 200)) * time.Millisecond,
		CBMargin:   time.Duration(envInt(t, "DAMKA_SOAK_CB_MARGIN", int(DefaultCBMargin/time.Millisecond))) * time.Millisecond,
		Out:        os.Stdout,
	}
	if n == 0 {
		cfg.DXPGames = envInt(t, "DAMKA_SOAK_DXP", 0)
		cfg.TextGames = envInt(t, "DAMKA_SOAK_TEXT", 0)
	}
	if v := os.Getenv("DAMKA_SOAK_VARIANTS"); v != "" {
		vs, err := parseVariants(v)
		require.NoError(t, err, "DAMKA_SOAK_VARIANTS")
		cfg.Variants = vs
	}
	if cfg.Games+cfg.DXPGames+cfg.TextGames+cfg.MemGames+cfg.CBGames == 0 {
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
	out, err := exec.Command(gobin, "build", "-o", bin, "github.com/damka-draughts/damka/cmd/damka").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	shard, shards := 1, 1
	if v := os.Getenv("DAMKA_SOAK_SHARD"); v != "" {
		shard, shards, err = match.ParseShard(v)
		require.NoError(t, err, "DAMKA_SOAK_SHARD")
	}
	cfg.Damka, cfg.Dir, cfg.Shard, cfg.Shards = bin, dir, shard, shards
	if wine, err := exec.LookPath("wine"); err == nil {
		cbhub, dll := filepath.Join("..", "..", "bin", "cbhub.exe"), filepath.Join("..", "..", "bin", "damka.dll")
		_, err1 := os.Stat(cbhub)
		_, err2 := os.Stat(dll)
		// The wine prefix of make test-cb, which holds the
		// bcryptprimitives.dll that Go's DLL needs where wine lacks it.
		prefix := os.Getenv("WINEPREFIX")
		if prefix == "" {
			prefix, err = filepath.Abs(filepath.Join("..", "..", "bin", "wine"))
			require.NoError(t, err)
			t.Setenv("WINEPREFIX", prefix)
			t.Setenv("WINEDEBUG", "-all")
		}
		_, err3 := os.Stat(filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll"))
		if err1 == nil && err2 == nil && err3 == nil {
			cfg.Wine, cfg.CBHub, cfg.CBDLL = wine, cbhub, dll
		}
	}
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	t.Logf("soak of %v, PDN files in %s:\n%s", time.Since(start).Round(time.Second), dir, rep)
	assert.Zero(t, rep.Faults(), "faults in the soak:\n%s", rep)
}

// TestPickShards checks that the shards of a soak play other openings:
// two shards of a deck that holds both share none, and a shard of more
// openings than the deck holds takes the deck in turn.
func TestPickShards(t *testing.T) {
	cfg := Config{Decks: "../../openings/decks"}
	ops, err := cfg.deck(engine.Russian)
	require.NoError(t, err)
	seen := map[string]int{}
	for shard := 1; shard <= 3; shard++ {
		got := pick(ops, 40, shard)
		require.Len(t, got, 40)
		for _, o := range got {
			assert.Zero(t, seen[o.Name], "shard %d repeats opening %s of shard %d", shard, o.Name, seen[o.Name])
			seen[o.Name] = shard
		}
	}
	all := pick(ops, len(ops)+5, 1)
	require.Len(t, all, len(ops)+5)
	assert.Equal(t, all[0].Name, all[len(ops)].Name)
	assert.Empty(t, pick(nil, 3, 1))
}

// TestParseVariants checks SOAK_VARIANTS: names in the order given, an
// unknown or repeated name refused, and a nil list playing all four.
func TestParseVariants(t *testing.T) {
	vs, err := parseVariants("international, russian")
	require.NoError(t, err)
	assert.Equal(t, []engine.VariantID{engine.International, engine.Russian}, vs)
	_, err = parseVariants("russian,pool")
	assert.ErrorContains(t, err, "pool")
	_, err = parseVariants("english,english")
	assert.ErrorContains(t, err, "twice")
	_, err = parseVariants("")
	assert.Error(t, err)
	assert.Equal(t, engine.AllVariants(), (&Config{}).variants())
	assert.Equal(t, vs, (&Config{Variants: vs}).variants())
}
