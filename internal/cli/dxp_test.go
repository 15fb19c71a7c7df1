package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxp"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

func TestDXPBadInput(t *testing.T) {
	cases := [][]string{
		{"dxp", "--variant", "international"},
		{"dxp", "--listen", ":0", "--connect", "x:1", "--variant", "international"},
		{"dxp", "--listen", "127.0.0.1:0"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "chess"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--games", "4"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--initiator", "--time", "1000"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--initiator", "--openings", "/nonexistent/file"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--name", strings.Repeat("n", 33)},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--pdn", "/nonexistent/dir/x.pdn"},
		{"dxp", "--listen", "127.0.0.1:99999", "--variant", "russian"},
		{"dxp", "--listen", "127.0.0.1", "--variant", "russian"},
		{"dxp", "--connect", ":27531", "--variant", "russian"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--peer-timeout", "-1s"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--peer-timeout", "soon"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--message-gap", "-1ms"},
		{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--message-gap", "1m"},
	}
	for _, args := range cases {
		out, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
		assert.Empty(t, out, "%v", args)
	}
}

// quickPeer returns a Config for an in-process peer with tiny limits: a
// player of one thread, a 1 MiB table and no book.
func quickPeer(v engine.VariantID, role dxp.Role) dxp.Config {
	p := player.New(player.Config{})
	p.SetVariant(v)
	for _, kv := range [][2]string{{player.SetThreads, "1"}, {player.SetHash, "1"}, {player.SetBook, "false"}} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			panic(err) // the values are in range
		}
	}
	return dxp.Config{
		Variant: v, Role: role, Name: "peer",
		Player:     p,
		Limits:     search.Limits{Depth: 1, Nodes: 1000},
		AckTimeout: 5 * time.Second,
		Logger:     zerolog.Nop(),
	}
}

var gameLine = regexp.MustCompile(`^game=(\d+) color=(white|black) opponent="peer" result=(1-0|0-1|1/2-1/2) outcome=(win|draw|loss) plies=(\d+) reason="[^"]+"$`)

// checkDXPOutput checks the per-game lines and the summary line, and the
// PDN file.
func checkDXPOutput(t *testing.T, out, pdnPath string, v engine.VariantID, games int) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, games+1, out)
	var w, d, l int
	for i, line := range lines[:games] {
		m := gameLine.FindStringSubmatch(line)
		require.NotNil(t, m, "line %d: %q", i+1, line)
		switch m[4] {
		case "win":
			w++
		case "draw":
			d++
		case "loss":
			l++
		}
	}
	want := dxp.Summary{Games: games, Wins: w, Draws: d, Losses: l}
	assert.Equal(t, want.String(), lines[games])

	f, err := os.Open(pdnPath)
	require.NoError(t, err)
	defer f.Close()
	r := pdn.NewReader(f, v)
	n := 0
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		n++
		assert.NotEqual(t, "*", g.Result)
		assert.Equal(t, v, g.Variant)
	}
	assert.Equal(t, games, n)
}

// TestDXPListenFollower: `damka dxp --listen` as the follower against an
// in-process initiator.
func TestDXPListenFollower(t *testing.T) {
	for _, v := range []engine.VariantID{engine.International, engine.Russian} {
		dir := t.TempDir()
		pdnPath := filepath.Join(dir, "games.pdn")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		peerDone := make(chan error, 1)
		dxpListening = func(addr net.Addr) {
			go func() {
				conn, err := dxpwire.Dial(ctx, addr.String(), 5*time.Second)
				if err != nil {
					peerDone <- err
					return
				}
				cfg := quickPeer(v, dxp.Initiator)
				cfg.Games, cfg.Minutes, cfg.Moves = 4, 1, 30
				_, err = dxp.Run(ctx, conn, cfg)
				peerDone <- err
			}()
		}
		out, errs, code := runCLI("dxp", "--listen", "127.0.0.1:0", "--variant", v.String(), "--sessions", "1",
			"--depth", "1", "--hash", "1", "--pdn", pdnPath)
		dxpListening = nil
		require.Equal(t, 0, code, errs)
		require.NoError(t, <-peerDone)
		cancel()
		checkDXPOutput(t, out, pdnPath, v, 4)
	}
}

// TestDXPConnectInitiator: `damka dxp --connect --initiator` with an
// openings file against an in-process listening follower.
func TestDXPConnectInitiator(t *testing.T) {
	v := engine.English
	dir := t.TempDir()
	pdnPath := filepath.Join(dir, "games.pdn")
	openings := filepath.Join(dir, "openings.txt")
	// The `damka match` form ("FEN ; name") works too: one reader.
	require.NoError(t, os.WriteFile(openings, []byte("# two English openings: 9-14, and 9-14 22-18\nW:W21-32:B1-8,10-12,14 ; 9-14\nB:W18,21,23-32:B1-8,10-12,14\n"), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ln, err := dxpwire.Listen(ctx, "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	peerDone := make(chan error, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			peerDone <- err
			return
		}
		_, err = dxp.Run(ctx, conn, quickPeer(v, dxp.Follower))
		peerDone <- err
	}()
	out, errs, code := runCLI("dxp", "--connect", ln.Addr().String(), "--variant", "english", "--initiator",
		"--games", "4", "--time", "1", "--moves", "30", "--openings", openings, "--nodes", "500", "--hash", "1",
		"--pdn", pdnPath)
	require.Equal(t, 0, code, errs)
	require.NoError(t, <-peerDone)
	checkDXPOutput(t, out, pdnPath, v, 4)
	data, err := os.ReadFile(pdnPath)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(data), `[FEN "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,14"]`),
		"each opening is played twice")
}

// TestDXPTwoProcesses builds damka and plays a match between two
// processes on loopback in every variant (skipped with -short).
func TestDXPTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts processes")
	}
	bin := buildDamka(t, t.TempDir())
	for _, v := range engine.AllVariants() {
		t.Run(v.String(), func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			follower := exec.CommandContext(ctx, bin, "dxp", "--listen", "127.0.0.1:0", "--sessions", "1",
				"--variant", v.String(), "--depth", "2", "--hash", "4", "--pdn", filepath.Join(dir, "f.pdn"),
				"--log-level", "info")
			var fout bytes.Buffer
			follower.Stdout = &fout
			stderr, err := follower.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, follower.Start())
			// The follower logs the address it listens on.
			addr := ""
			sc := bufio.NewScanner(stderr)
			ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
			for addr == "" && sc.Scan() {
				line := ansi.ReplaceAllString(sc.Text(), "")
				if m := regexp.MustCompile(`dxp listening.*addr=(\S+)`).FindStringSubmatch(line); m != nil {
					addr = m[1]
				}
			}
			require.NotEmpty(t, addr)
			go io.Copy(io.Discard, stderr)
			initiator := exec.CommandContext(ctx, bin, "dxp", "--connect", addr, "--initiator", "--games", "4",
				"--time", "1", "--moves", "60", "--variant", v.String(), "--depth", "2", "--hash", "4",
				"--pdn", filepath.Join(dir, "i.pdn"))
			var ierr bytes.Buffer
			initiator.Stderr = &ierr
			iout, err := initiator.Output()
			require.NoError(t, err, ierr.String())
			require.NoError(t, follower.Wait())
			checkDXPOutput(t, strings.ReplaceAll(string(iout), `opponent="damka"`, `opponent="peer"`),
				filepath.Join(dir, "i.pdn"), v, 4)
			checkDXPOutput(t, strings.ReplaceAll(fout.String(), `opponent="damka"`, `opponent="peer"`),
				filepath.Join(dir, "f.pdn"), v, 4)
		})
	}
}
