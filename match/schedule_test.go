package match

import (
	"testing"
	"time"

	"github.com/google/shlex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/hubclient"
)

func testOpenings(n int) []Opening {
	ops := make([]Opening, n)
	for i := range ops {
		ops[i] = Opening{Name: string(rune('a' + i)), Start: engine.StartPosition(engine.English)}
	}
	return ops
}

// TestSchedule: file order with seed 0, a seeded order that is the same
// in every round and for every call, and pair labels.
func TestSchedule(t *testing.T) {
	ops := testOpenings(6)
	s := Schedule(ops, 2, 0)
	require.Len(t, s, 12)
	for i, p := range s {
		assert.Equal(t, i, p.Index)
		assert.Equal(t, i/6+1, p.Round)
		assert.Equal(t, i%6+1, p.Number)
		assert.Equal(t, ops[i%6].Name, p.Opening.Name)
	}
	assert.Equal(t, "2.3", s[8].Key())
	g := GameJob{PairJob: s[8], Game: 2}
	assert.Equal(t, "2.3.2", g.RoundTag())
	assert.False(t, g.AWhite())

	a, b := Schedule(ops, 2, 42), Schedule(ops, 2, 42)
	var names []string
	for i := range a {
		assert.Equal(t, a[i].Opening.Name, b[i].Opening.Name, "same seed, same schedule")
		assert.Equal(t, a[i%6].Opening.Name, a[i].Opening.Name, "same order every round")
		names = append(names, a[i].Opening.Name)
	}
	assert.ElementsMatch(t, []string{"a", "b", "c", "d", "e", "f", "a", "b", "c", "d", "e", "f"}, names)
	assert.NotEqual(t, []string{"a", "b", "c", "d", "e", "f"}, names[:6], "seed 42 shuffles")
}

// TestShardsPartition: for every N the shards are disjoint and their union
// is the schedule.
func TestShardsPartition(t *testing.T) {
	full := Schedule(testOpenings(7), 3, 5)
	for n := 1; n <= 9; n++ {
		seen := map[int]int{}
		for i := 1; i <= n; i++ {
			for _, p := range Shard(full, i, n) {
				seen[p.Index]++
				assert.Equal(t, full[p.Index], p)
			}
		}
		require.Len(t, seen, len(full), "n=%d", n)
		for idx, c := range seen {
			assert.Equal(t, 1, c, "pair %d in %d shards (n=%d)", idx, c, n)
		}
	}
	// A config's games: two a pair of its shard.
	ops := testOpenings(7)
	assert.Equal(t, 42, Config{Openings: ops, Rounds: 3, Seed: 5}.Games())
	assert.Equal(t, 2*len(Shard(full, 2, 4)), Config{Openings: ops, Rounds: 3, Seed: 5, Shard: 2, Shards: 4}.Games())
	i, n, err := ParseShard("2/8")
	require.NoError(t, err)
	assert.Equal(t, [2]int{2, 8}, [2]int{i, n})
	for _, bad := range []string{"0/2", "3/2", "2", "a/b", "1/0", ""} {
		_, _, err := ParseShard(bad)
		assert.Error(t, err, bad)
	}
}

func TestLimits(t *testing.T) {
	l, err := ParseTC("40/60+0.5")
	require.NoError(t, err)
	assert.Equal(t, Limits{Moves: 40, Base: time.Minute, Inc: 500 * time.Millisecond}, l)
	assert.Equal(t, "40/60+0.5", l.String())
	l, err = ParseTC("10+0.1")
	require.NoError(t, err)
	assert.Equal(t, Limits{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, l)
	l, err = ParseTC("0+0.2")
	require.NoError(t, err)
	assert.True(t, l.Clocked())
	for _, bad := range []string{"", "x", "0/5", "40/", "5+x", "0", "-1", "0+0"} {
		_, err := ParseTC(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, "movetime=0.05", Limits{MoveTime: 50 * time.Millisecond}.String())
	assert.Equal(t, "depth=6", Limits{Depth: 6}.String())
	assert.Equal(t, "nodes=1000", Limits{Nodes: 1000}.String())
	assert.Error(t, Limits{}.Validate())
	assert.Error(t, Limits{Depth: 2, Nodes: 5}.Validate())
	assert.NoError(t, Limits{Moves: 40, Base: time.Second}.Validate())
	_, err = ParseMoveTime("0")
	assert.Error(t, err)
}

func TestParseEngineSpec(t *testing.T) {
	e, err := ParseEngineSpec([]string{"name=A", `cmd=/opt/my engine/scan "hub mode"`, "dir=/tmp", "option.threads=1", "option.hash=64", "movetime=0.1"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, []string{"/opt/my", "engine/scan", "hub mode"}, e.Command, "split as a shell does")
	e, err = ParseEngineSpec([]string{"name=A", `cmd="/opt/my engine/scan" hub`, "dir=/tmp", "option.threads=1", "option.hash=64", "movetime=0.1"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, EngineSpec{
		Name: "A", Command: []string{"/opt/my engine/scan", "hub"}, Dir: "/tmp",
		Options: []hubclient.Setting{{Name: "threads", Value: "1"}, {Name: "hash", Value: "64"}},
		Limits:  Limits{MoveTime: 100 * time.Millisecond},
	}, e)
	e, err = ParseEngineSpec([]string{"cmd=/usr/bin/damka", "tc=40/60+0.5"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, "damka", e.Name)
	assert.Equal(t, 40, e.Limits.Moves)
	e, err = ParseEngineSpec([]string{"cmd=x", "depth=7"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, Limits{Depth: 7}, e.Limits)
	// DXP engines: started with a port, or already listening.
	e, err = ParseEngineSpec([]string{"proto=dxp", `cmd=mobydam -p {port}`, "stdin=time 200;wipe"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, EngineSpec{Name: "mobydam", Proto: ProtoDXP, Command: []string{"mobydam", "-p", "{port}"}, Stdin: "time 200;wipe"}, e)
	e, err = ParseEngineSpec([]string{"host=127.0.0.1:27631"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, EngineSpec{Name: "127.0.0.1:27631", Proto: ProtoDXP, Host: "127.0.0.1:27631"}, e)
	e, err = ParseEngineSpec([]string{"cmd=scan dxp", "port=27631"}, shlex.Split)
	require.NoError(t, err)
	assert.Equal(t, ProtoDXP, e.Proto, "port= implies proto=dxp")
	for _, bad := range [][]string{{"name=A"}, {"cmd="}, {"cmd=x", "color=red"}, {"cmd=x", "noequals"}, {"cmd=x", "depth=0"}, {"cmd=x", "tc=?"}, {`cmd="x`},
		{"cmd=x", "proto=uci"}, {"cmd=x", "port=0"}, {"cmd=x", "port=70000"}, {"cmd=x", "host=h:1"}, {"host="}, {"proto=hub", "cmd=x", "port=5"},
		{"proto=dxp", "cmd=x", "option.threads=1"}, {"cmd=x", "ponder=maybe"}, {"proto=dxp", "cmd=x", "ponder=true"}} {
		_, err := ParseEngineSpec(bad, shlex.Split)
		assert.Error(t, err, "%q", bad)
	}
	// A key twice, or two limits, is refused (the last one silently won).
	for _, bad := range [][]string{{"name=b", "cmd=x", "name=c"}, {"cmd=x", "cmd=y"}, {"cmd=x", "tc=60", "movetime=0.1"},
		{"cmd=x", "depth=3", "nodes=100"}, {"cmd=x", "option.hash=1", "option.hash=2"}} {
		_, err := ParseEngineSpec(bad, shlex.Split)
		assert.ErrorContains(t, err, "give each key once", "%q", bad)
	}
	e, err = ParseEngineSpec([]string{"cmd=x", "option.hash=1", "option.threads=2"}, shlex.Split)
	require.NoError(t, err)
	assert.Len(t, e.Options, 2)
	cfg := Config{Limits: Limits{Depth: 3}, Engines: [2]EngineSpec{{Limits: Limits{Nodes: 9}}, {}}}
	assert.Equal(t, Limits{Nodes: 9}, cfg.EngineLimits(0))
	assert.Equal(t, Limits{Depth: 3}, cfg.EngineLimits(1))

	// ponder= replaces the match's --ponder for that engine; a DXP engine
	// never ponders.
	off, err := ParseEngineSpec([]string{"cmd=x", "ponder=false"}, shlex.Split)
	require.NoError(t, err)
	require.NotNil(t, off.Ponder)
	assert.False(t, *off.Ponder)
	on, err := ParseEngineSpec([]string{"cmd=y", "ponder=true"}, shlex.Split)
	require.NoError(t, err)
	dxp, err := ParseEngineSpec([]string{"proto=dxp", "cmd=z", "ponder=false"}, shlex.Split)
	require.NoError(t, err)
	_, err = ParseEngineSpec([]string{"cmd=x", "ponder=true", "ponder=false"}, shlex.Split)
	assert.ErrorContains(t, err, "give each key once")
	_, err = ParseEngineSpec([]string{"cmd=x", "ponder=1x"}, shlex.Split)
	assert.ErrorContains(t, err, `ponder="1x": want true or false`)
	cfg = Config{Ponder: true, Engines: [2]EngineSpec{off, {}}}
	assert.False(t, cfg.EnginePonder(0))
	assert.True(t, cfg.EnginePonder(1))
	cfg = Config{Engines: [2]EngineSpec{on, {Proto: ProtoDXP}}}
	assert.True(t, cfg.EnginePonder(0))
	cfg.Ponder = true
	assert.False(t, cfg.EnginePonder(1))
	cfg.Engines[1] = dxp
	assert.False(t, cfg.EnginePonder(1))
}
