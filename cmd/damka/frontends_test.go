package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"damka/book"
	"damka/engine"
	"damka/pdn"
	"damka/protocol/dxp"
	"damka/search"
)

// isBookMove reports whether m is a move of the embedded book in p.
func isBookMove(t *testing.T, p engine.Position, m engine.Move) bool {
	t.Helper()
	b, err := book.Default(p.V)
	require.NoError(t, err)
	for _, e := range b.Probe(&p) {
		if e.Move == m {
			return true
		}
	}
	return false
}

// TestFrontEndsUseTheBook (issue 11): a move chosen by each front end in a
// book position, Hub, DXP and the text mode, comes from the embedded book
// (all three choose through search.Start).
func TestFrontEndsUseTheBook(t *testing.T) {
	start := engine.StartPosition(engine.Russian)

	t.Run("hub", func(t *testing.T) {
		out, err := rootWithInput(t, "hub\ninit\npos\nlevel depth=3\ngo think\nquit\n", "hub")
		require.NoError(t, err)
		assert.NotContains(t, out, "\ninfo ", "a book move needs no search")
		m := regexp.MustCompile(`(?m)^done move=(\S+)$`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		mv, err := start.ParseMove(m[1])
		require.NoError(t, err)
		assert.True(t, isBookMove(t, start, mv), "hub played %s", m[1])
	})

	t.Run("text mode", func(t *testing.T) {
		out, err := rootWithInput(t, "go\nquit\n", "play", "--threads", "1", "--hash", "4")
		require.NoError(t, err)
		m := regexp.MustCompile(`damka plays (\S+) \(book\)`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		mv, err := start.ParseMove(m[1])
		require.NoError(t, err)
		assert.True(t, isBookMove(t, start, mv), "text mode played %s", m[1])
	})

	t.Run("dxp", func(t *testing.T) {
		pdnPath := filepath.Join(t.TempDir(), "games.pdn")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		peerDone := make(chan error, 1)
		dxpListening = func(addr net.Addr) {
			go func() {
				conn, err := dxp.Dial(ctx, addr.String(), 5*time.Second)
				if err != nil {
					peerDone <- err
					return
				}
				cfg := quickPeer(engine.Russian, dxp.Initiator)
				cfg.Games, cfg.Minutes, cfg.Moves = 2, 1, 10
				_, err = dxp.Run(ctx, conn, cfg)
				peerDone <- err
			}()
		}
		defer func() { dxpListening = nil }()
		_, errs, code := runCLI("dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--sessions", "1",
			"--depth", "1", "--hash", "1", "--pdn", pdnPath)
		require.Equal(t, 0, code, errs)
		require.NoError(t, <-peerDone)
		f, err := os.Open(pdnPath)
		require.NoError(t, err)
		defer f.Close()
		r := pdn.NewReader(f, engine.Russian)
		asWhite := 0
		for {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			if g.Tag("White") != dxp.DefaultName {
				continue
			}
			asWhite++
			require.NotEmpty(t, g.Moves)
			assert.True(t, isBookMove(t, start, g.Moves[0]), "dxp played %s", g.MoveTexts[0])
		}
		assert.Equal(t, 1, asWhite, "one game of two with damka moving first")
	})
}

// TestFrontEndsShareTheLimits (issue 11.2): every front end accepts
// threads, hash and depth up to the search package's limits and refuses
// one more, naming the range.
func TestFrontEndsShareTheLimits(t *testing.T) {
	threads := fmt.Sprintf("out of range 1..%d", search.MaxThreads)
	hash := fmt.Sprintf("out of range 1..%d MiB", search.MaxHashMiB)
	depth := fmt.Sprintf("..%d", search.MaxDepth)
	over := func(n int) string { return fmt.Sprint(n + 1) }
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"hub", "--threads", over(search.MaxThreads)}, threads},
		{[]string{"hub", "--hash", over(search.MaxHashMiB)}, hash},
		{[]string{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--threads", over(search.MaxThreads)}, threads},
		{[]string{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--hash", over(search.MaxHashMiB)}, hash},
		{[]string{"analyse", "--depth", "2", "--threads", over(search.MaxThreads)}, threads},
		{[]string{"analyse", "--depth", "2", "--hash", over(search.MaxHashMiB)}, hash},
		{[]string{"book", "build", "--out", filepath.Join(t.TempDir(), "x.book"), "--threads", over(search.MaxThreads)}, threads},
		{[]string{"book", "build", "--out", filepath.Join(t.TempDir(), "x.book"), "--hash", over(search.MaxHashMiB)}, hash},
		{[]string{"dxp", "--listen", "127.0.0.1:0", "--variant", "russian", "--depth", over(search.MaxDepth)}, depth},
		{[]string{"analyse", "--depth", over(search.MaxDepth)}, depth},
		{[]string{"book", "build", "--out", filepath.Join(t.TempDir(), "x.book"), "--depth", over(search.MaxDepth)}, depth},
	} {
		_, errs, code := runCLI(c.args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.True(t, strings.Contains(errs, c.want), "%v: %q does not say %q", c.args, errs, c.want)
	}
	// The text mode starts with the defaults every front end shares, and
	// the Hub parameters' ranges are the same (protocol/hub tests them).
	out, err := rootWithInput(t, "hub\nquit\n", "hub")
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("param name=threads value=%d type=int min=1 max=%d\n", search.DefaultThreads, search.MaxThreads))
	assert.Contains(t, out, fmt.Sprintf("param name=hash value=%d type=int min=1 max=%d\n", search.DefaultHashMiB, search.MaxHashMiB))
	out, err = rootWithInput(t, fmt.Sprintf("level depth=%d\nquit\n", search.MaxDepth+1), "hub")
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("out of range 1..%d", search.MaxDepth))
}
