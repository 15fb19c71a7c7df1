package hub

import (
	"bufio"
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/player"
)

// TestSessionMemoryBounded: one Hub session playing game after game, as a
// match runner drives an engine (new-game, then pos with the game's moves,
// level and go for every move), keeps no per-game state: its live heap
// after the games of a warm-up and after many more grows by less than 2
// KiB a game (a 64-byte slice kept per pos command grows it by 400 KiB).
// Endgame tables are off (their slices load on first
// probe, a bounded growth the soak's warm-up covers).
func TestSessionMemoryBounded(t *testing.T) {
	const warmup, games, perGame = 10, 60, 2 << 10
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cfg := testConfig()
	cfg.Player = testPlayer(t, player.Config{}, player.SetEGDBPath, "off")
	done := make(chan error, 1)
	go func() {
		err := Run(context.Background(), inR, outW, cfg)
		outW.Close()
		done <- err
	}()
	defer func() {
		inW.Close()
		require.NoError(t, <-done)
		outR.Close()
	}()
	out := bufio.NewScanner(outR)
	send := func(lines ...string) {
		for _, l := range lines {
			_, err := io.WriteString(inW, l+"\n")
			require.NoError(t, err)
		}
	}
	// until reads lines up to the first one starting with prefix.
	until := func(prefix string) string {
		for out.Scan() {
			if strings.HasPrefix(out.Text(), prefix) {
				return out.Text()
			}
		}
		require.FailNow(t, "output ended", "want %q", prefix)
		return ""
	}
	send("hub")
	until("wait")
	send("init")
	until("ready")

	start := engine.StartPosition(engine.Russian)
	var list engine.MoveList
	start.Generate(&list)
	first := list.N
	play := func(n int) {
		g := engine.NewGame(start)
		// A different first move and reply in each game.
		m := list.Moves[n%first]
		g.Play(m)
		hist := []string{start.FormatMove(m, engine.FormatHub)}
		var replies engine.MoveList
		p := g.Position()
		p.Generate(&replies)
		r := replies.Moves[n/first%replies.N]
		g.Play(r)
		hist = append(hist, p.FormatMove(r, engine.FormatHub))
		send("new-game")
		for ply := 0; ply < 120; ply++ {
			if res, _ := g.Result(); res != engine.Ongoing {
				return
			}
			send(`pos pos=`+start.HubPosition()+` moves="`+strings.Join(hist, " ")+`"`, "level depth=3", "go think")
			move, _, _ := strings.Cut(strings.TrimPrefix(until("done move="), "done move="), " ")
			p := g.Position()
			mv, err := p.ParseMove(move)
			require.NoError(t, err, "done move=%s", move)
			g.Play(mv)
			hist = append(hist, move)
		}
	}
	heap := func() uint64 {
		send("ping")
		until("pong")
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	for i := range warmup {
		play(i)
	}
	before := heap()
	for i := warmup; i < warmup+games; i++ {
		play(i)
	}
	after := heap()
	growth := int64(after) - int64(before)
	t.Logf("live heap after %d games %d B, after %d more %d B: %+d B", warmup, before, games, after, growth)
	assert.Less(t, growth, int64(games*perGame), "the session's live heap grows with the games")
}
