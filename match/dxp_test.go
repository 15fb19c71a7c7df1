package match

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/openings"
)

// TestMatchDXP: a Hub engine against a DXP engine that the runner starts
// (on a free port, "{port}" in its command) plays complete games from
// start positions and set-up positions (GAMEREQ 'B'), every game legal and
// read back from the PDN; the DXP engine's faults (an illegal MOVE, a
// crash, GAMEEND instead of a move) are scored like a Hub engine's, and a
// crashed DXP engine is started again for the next game.
func TestMatchDXP(t *testing.T) {
	dir := t.TempDir()
	hubFake := goBuild(t, dir, "fakeengine", "./testdata/fakeengine")
	dxpFake := goBuild(t, dir, "fakedxp", "./testdata/fakedxp")
	ops, err := openings.Load("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	dxpSpec := func(name string, args ...string) EngineSpec {
		return EngineSpec{Name: name, Proto: ProtoDXP, Command: append([]string{dxpFake, "-port", "{port}", "-seed", "5"}, args...)}
	}
	cases := []struct {
		mode, term string
		loser      int
	}{
		{"good", "", -1},
		{"illegal", TermIllegal, 1},
		{"crash", TermCrash, 1},
		{"resign", TermNormal, -1},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			var pdn, out bytes.Buffer
			sum, err := Run(context.Background(), Config{
				Variant: engine.International, Openings: ops, Limits: Limits{MoveTime: 100 * time.Millisecond},
				Engines:    [2]EngineSpec{fakeEngine(hubFake, "hub", "-seed", "3"), dxpSpec("dxp", "-mode", c.mode, "-at", "3")},
				TimeMargin: time.Second, PDN: &pdn, Out: &out, HandshakeTimeout: 10 * time.Second,
			})
			require.NoError(t, err, out.String())
			assert.Equal(t, 6, sum.Played, out.String())
			games := pdnGames(t, pdn.Bytes(), engine.International)
			require.Len(t, games, 6)
			for i, r := range sum.Results {
				assert.Equal(t, c.loser, r.Loser, "%s: %s", r.Termination, r.Detail)
				if c.mode == "good" {
					assert.Contains(t, []string{TermNormal, TermAdjudication}, r.Termination, r.Detail)
					assert.Greater(t, r.Plies, 10)
					assert.Empty(t, sum.Faults[0])
					assert.Empty(t, sum.Faults[1])
					continue
				}
				assert.Equal(t, c.term, r.Termination, r.Detail)
				assert.Equal(t, 1.0, r.AScore(), "the DXP engine lost %s", r.Detail)
				assert.Equal(t, c.term, games[i].Tag("Termination"))
				switch c.mode {
				case "illegal":
					assert.Contains(t, r.Detail, "dxp played \"M0000")
				case "crash":
					assert.Contains(t, r.Detail, "dxp exited")
				case "resign":
					assert.Contains(t, r.Detail, "dxp resigned")
				}
			}
			if c.mode != "good" {
				assert.Equal(t, 6, sum.Stats.Wins)
			}
		})
	}
}

// TestMatchDXPHost: an engine already listening (host=) plays the match
// over one connection; a wrong address or limits DXP cannot express fail
// before any game.
func TestMatchDXPHost(t *testing.T) {
	dir := t.TempDir()
	hubFake := goBuild(t, dir, "fakeengine", "./testdata/fakeengine")
	dxpFake := goBuild(t, dir, "fakedxp", "./testdata/fakedxp")
	ops, err := openings.Load("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	port, err := freePort()
	require.NoError(t, err)
	cmd := exec.Command(dxpFake, "-port", strconv.Itoa(port))
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cfg := Config{
		Variant: engine.International, Openings: ops, Limits: Limits{Base: time.Minute},
		Engines:          [2]EngineSpec{{Name: "listening", Proto: ProtoDXP, Host: addr}, fakeEngine(hubFake, "hub")},
		HandshakeTimeout: 10 * time.Second,
	}
	var pdn bytes.Buffer
	cfg.PDN = &pdn
	sum, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, 6, sum.Played)
	assert.Empty(t, sum.Faults[0])
	for _, g := range pdnGames(t, pdn.Bytes(), engine.International) {
		assert.Equal(t, "60", g.Tag("TimeControl"))
		assert.NotEqual(t, "*", g.Result)
	}

	bad := cfg
	bad.PDN = nil
	bad.Engines[0].Host = "127.0.0.1:1"
	bad.HandshakeTimeout = 300 * time.Millisecond
	_, err = Run(context.Background(), bad)
	assert.ErrorIs(t, err, ErrStart)
	assert.ErrorContains(t, err, "could not connect to 127.0.0.1:1")
	for _, c := range []struct {
		lim Limits
		msg string
	}{
		{Limits{Depth: 3}, "not depth= or nodes="},
		{Limits{Base: 90 * time.Second}, "whole minutes"},
		{Limits{Base: time.Minute, Inc: time.Second}, "no increment"},
	} {
		bad := cfg
		bad.Limits = c.lim
		_, err := Run(context.Background(), bad)
		assert.ErrorContains(t, err, c.msg)
	}
	bad = cfg
	bad.Concurrency = 2
	_, err = Run(context.Background(), bad)
	assert.ErrorContains(t, err, "--concurrency 1")
}

// TestMatchDXPEngineExitsAtOnce: a DXP engine whose command exits before it
// listens (here: a bad flag) stops the match before the first game with an
// ErrStart naming the exit, instead of a nil pointer panic.
func TestMatchDXPEngineExitsAtOnce(t *testing.T) {
	dir := t.TempDir()
	hubFake := goBuild(t, dir, "fakeengine", "./testdata/fakeengine")
	dxpFake := goBuild(t, dir, "fakedxp", "./testdata/fakedxp")
	ops, err := openings.Load("testdata/openings_international.pdn", engine.International)
	require.NoError(t, err)
	_, err = Run(context.Background(), Config{
		Variant: engine.International, Openings: ops, Limits: Limits{MoveTime: 100 * time.Millisecond},
		Engines: [2]EngineSpec{fakeEngine(hubFake, "hub"),
			{Name: "dxp", Proto: ProtoDXP, Command: []string{dxpFake, "-no-such-flag", "-port", "{port}"}}},
		HandshakeTimeout: 10 * time.Second,
	})
	assert.ErrorIs(t, err, ErrStart)
	assert.ErrorContains(t, err, "the engine exited before it listened")
	assert.ErrorContains(t, err, "exit status")
}
