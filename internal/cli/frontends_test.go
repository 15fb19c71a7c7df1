package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/book"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/cb"
	"github.com/damka-draughts/damka/protocol/dxp"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
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

// TestFrontEndsUseTheBook: a move chosen by each front end in a
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
				conn, err := dxpwire.Dial(ctx, addr.String(), 5*time.Second)
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

// TestFrontEndsShareTheLimits: every front end accepts
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

// hubParamLine matches a Hub param line: name, value, type and the rest
// (min/max or values).
var hubParamLine = regexp.MustCompile(`^param name=(\S+) value=("[^"]*"|\S*) type=(\S+)(.*)$`)

// TestFrontEndsExposeTheSettings: every front end offers the player's one
// table of settings with the same names, ranges and defaults: the Hub
// parameters, the flags of the commands that play (hub, dxp and the
// analysis commands' subset), CheckerBoard's enginecommand (its native
// keys and get/set NAME; protocol/cb's TestSettingsMatchPlayerTable checks
// every range there) and the text mode.
func TestFrontEndsExposeTheSettings(t *testing.T) {
	table := player.Settings()

	t.Run("hub parameters", func(t *testing.T) {
		out, err := rootWithInput(t, "hub\nquit\n", "hub")
		require.NoError(t, err)
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			m := hubParamLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			got = append(got, m[1])
			st, ok := player.Lookup(m[1])
			require.True(t, ok, "param %s is not a setting", m[1])
			assert.Equal(t, st.Default, strings.Trim(m[2], `"`), m[1])
			assert.Equal(t, st.Kind.String(), m[3], m[1])
			switch st.Kind {
			case player.Int:
				assert.Equal(t, fmt.Sprintf(" min=%d max=%d", st.Min, st.Max), m[4], m[1])
			case player.Enum:
				assert.Equal(t, fmt.Sprintf(" values=%q", strings.Join(st.Values, " ")), m[4], m[1])
			default:
				assert.Empty(t, m[4], m[1])
			}
		}
		assert.Equal(t, player.Names(), got, "one param line per setting, in table order")
	})

	t.Run("flags", func(t *testing.T) {
		root := newRootCmd()
		for _, c := range []struct {
			path  []string
			names []string // nil: every setting
		}{
			{nil, nil}, // plain damka: the text mode on a terminal, Hub on a pipe
			{[]string{"play"}, nil},
			{[]string{"hub"}, nil},
			{[]string{"dxp"}, nil},
			{[]string{"analyse"}, analyseSettings},
			{[]string{"solve"}, searchSettings},
		} {
			cmd, _, err := root.Find(c.path)
			require.NoError(t, err, "%v", c.path)
			want := c.names
			if want == nil {
				want = player.Names()
			}
			for _, st := range table {
				f := cmd.Flags().Lookup(st.Name)
				if !slices.Contains(want, st.Name) {
					assert.Nil(t, f, "%v --%s", c.path, st.Name)
					continue
				}
				require.NotNil(t, f, "%v has no --%s", c.path, st.Name)
				assert.Equal(t, st.Default, f.DefValue, "%v --%s", c.path, st.Name)
				assert.Contains(t, f.Usage, st.Doc, "%v --%s", c.path, st.Name)
				if st.Kind == player.Int {
					assert.Contains(t, f.Usage, st.Range(), "%v --%s", c.path, st.Name)
				}
			}
		}
		// One past the range is bad input on every command, naming it.
		for _, st := range table {
			if st.Kind != player.Int {
				continue
			}
			over := strconv.Itoa(st.Max + 1)
			for _, args := range [][]string{{"hub"}, {"dxp", "--listen", "127.0.0.1:0", "--variant", "russian"}} {
				_, errs, code := runCLI(append(args, "--"+st.Name, over)...)
				assert.Equal(t, exitBadInput, code, "%v --%s %s: %s", args, st.Name, over, errs)
				assert.Contains(t, errs, "--"+st.Name+" "+over+" out of range "+st.Range(), args)
			}
		}
	})

	t.Run("text mode", func(t *testing.T) {
		withStdin(t, "settings\nquit\n")
		out, errs, code := runCLI("play")
		require.Equal(t, 0, code, errs)
		_, list, ok := strings.Cut(out, "settings (set NAME VALUE changes one):\n")
		require.True(t, ok, out)
		var got []string
		for _, line := range strings.Split(list, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
				continue
			}
			st, ok := player.Lookup(f[0])
			if !ok {
				break // the list is over
			}
			got = append(got, f[0])
			value := f[1]
			if value == `""` {
				value = ""
			}
			assert.Equal(t, st.Default, value, f[0])
			assert.Contains(t, line, "("+st.Range()+")", f[0])
		}
		assert.Equal(t, player.Names(), got, "one line per setting, in table order")
	})

	t.Run("checkerboard", func(t *testing.T) {
		e := cb.New(cb.Config{Variant: engine.Russian, HasVariant: true})
		native := map[string]bool{}
		for _, setting := range cb.NativeKeys() {
			native[setting] = true
		}
		for _, st := range table {
			if native[st.Name] {
				continue // a native key stands for it (its own answer, e.g. a book level)
			}
			reply, ok := e.Command("get " + st.Name)
			assert.True(t, ok, "get %s: %s", st.Name, reply)
			assert.Equal(t, st.Default, reply, st.Name)
		}
		for key, setting := range cb.NativeKeys() {
			_, ok := player.Lookup(setting)
			assert.True(t, ok, "native key %s stands for %s, which is not a setting", key, setting)
		}
	})
}
