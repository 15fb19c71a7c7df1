// Package slurmtest runs damka's sharded commands as Slurm job arrays on a
// one-node Slurm cluster that the test starts itself, with the job scripts
// of docs/cluster, and checks that the merged shards equal the same work
// done in one run: a match (damka match merge), a self-play run (the game
// files) and an endgame-table build (the table folder).
//
// It needs Debian's slurm-wlm and munge and root (munged runs as the munge
// user); `make test-slurm` runs it with DAMKA_SLURM=1, under which a missing
// piece fails the test instead of skipping it.
package slurmtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// shards is the size of every job array.
const shards = 3

// repoRoot is the repository, from this package's folder.
var repoRoot = filepath.Join("..", "..")

// need skips the test, or fails it under DAMKA_SLURM=1, for want of what.
func need(t *testing.T, format string, a ...any) {
	t.Helper()
	if os.Getenv("DAMKA_SLURM") == "1" {
		t.Fatalf("test-slurm: "+format, a...)
	}
	t.Skipf("no one-node Slurm here (make test-slurm installs and requires it): "+format, a...)
}

// cluster is a running one-node Slurm: munged, slurmctld and slurmd with
// their files in dir, and the environment its clients need.
type cluster struct {
	dir string
	env []string
}

// freePort returns a TCP port of the loopback that nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startCluster starts munged, slurmctld and slurmd configured in a folder
// of their own (world-readable, as munged requires of its socket's path),
// and stops them when the test ends.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	if os.Geteuid() != 0 {
		need(t, "the test starts munged and slurmd and must run as root")
	}
	for _, prog := range []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "sinfo", "runuser"} {
		if _, err := exec.LookPath(prog); err != nil {
			need(t, "%s not found (Debian: apt-get install slurm-wlm munge)", prog)
		}
	}
	if _, err := user.Lookup("munge"); err != nil {
		need(t, "no munge user (Debian's munge package makes it)")
	}
	dir, err := os.MkdirTemp("", "damka-slurm-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	mdir := filepath.Join(dir, "munge")
	for _, d := range []string{"munge/run", "munge/log", "munge/lib", "state", "spool", "log", "jobs"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	run := func(name string, args ...string) {
		t.Helper()
		out, err := exec.Command(name, args...).CombinedOutput()
		require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
	}
	key := filepath.Join(mdir, "munge.key")
	run("mungekey", "--create", "--keyfile", key, "--force")
	run("chown", "-R", "munge:munge", mdir)
	require.NoError(t, os.Chmod(mdir, 0o711))
	require.NoError(t, os.Chmod(filepath.Join(mdir, "lib"), 0o700))
	require.NoError(t, os.Chmod(filepath.Join(mdir, "log"), 0o700))
	socket := filepath.Join(mdir, "run", "munge.socket")
	mungePID := filepath.Join(mdir, "run", "munged.pid")
	run("runuser", "-u", "munge", "--", "munged", "--key-file="+key, "--socket="+socket,
		"--pid-file="+mungePID, "--log-file="+filepath.Join(mdir, "log", "munged.log"),
		"--seed-file="+filepath.Join(mdir, "lib", "munged.seed"))

	host, err := os.Hostname()
	require.NoError(t, err)
	conf := filepath.Join(dir, "slurm.conf")
	cpus := 2
	require.NoError(t, os.WriteFile(conf, []byte(fmt.Sprintf(`ClusterName=damkatest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/log/slurmctld.log
SlurmdLogFile=%[5]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[6]d State=UNKNOWN
PartitionName=test Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, freePort(t), freePort(t), socket, dir, cpus)), 0o644))
	c := &cluster{dir: dir, env: append(os.Environ(), "SLURM_CONF="+conf)}
	t.Cleanup(func() {
		for _, pidFile := range []string{"slurmd.pid", "slurmctld.pid", "munge/run/munged.pid"} {
			if b, err := os.ReadFile(filepath.Join(dir, pidFile)); err == nil {
				_ = exec.Command("kill", strings.TrimSpace(string(b))).Run()
			}
		}
		// The daemons remove their pid files as they end.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			_, e1 := os.Stat(filepath.Join(dir, "slurmd.pid"))
			_, e2 := os.Stat(filepath.Join(dir, "slurmctld.pid"))
			if errors.Is(e1, os.ErrNotExist) && errors.Is(e2, os.ErrNotExist) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	c.run(t, "slurmctld", "-c")
	c.run(t, "slurmd")
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _ := c.output("sinfo", "--noheader", "--format=%t")
		if strings.TrimSpace(out) == "idle" {
			break
		}
		if time.Now().After(deadline) {
			logs, _ := os.ReadFile(filepath.Join(dir, "log", "slurmctld.log"))
			t.Fatalf("the node is not idle after 30 s (sinfo: %q); slurmctld.log:\n%s", out, logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return c
}

// run runs a Slurm program with the cluster's environment.
func (c *cluster) run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := c.output(name, args...)
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
}

func (c *cluster) output(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = c.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// array submits script (a file of docs/cluster) as a job array of shards
// tasks with args, waits for it and fails the test, with the tasks' logs,
// when a task failed.
func (c *cluster) array(t *testing.T, damka, script string, args ...string) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(script), ".sbatch")
	logs := filepath.Join(c.dir, "jobs", name+"-%a.log")
	sb := append([]string{"--wait", fmt.Sprintf("--array=1-%d", shards), "--output=" + logs,
		"--chdir=" + c.dir, script}, args...)
	cmd := exec.Command("sbatch", sb...)
	cmd.Env = append(c.env, "DAMKA="+damka)
	out, err := cmd.CombinedOutput()
	if err != nil {
		var all strings.Builder
		for i := 1; i <= shards; i++ {
			b, _ := os.ReadFile(strings.Replace(logs, "%a", fmt.Sprint(i), 1))
			fmt.Fprintf(&all, "--- task %d:\n%s\n", i, b)
		}
		t.Fatalf("sbatch %s: %v: %s\n%s", strings.Join(sb, " "), err, out, all.String())
	}
}

// TestSlurmArrays: a match, a self-play run and an endgame-table build
// split into job arrays of docs/cluster's scripts give what one run gives.
func TestSlurmArrays(t *testing.T) {
	if testing.Short() && os.Getenv("DAMKA_SLURM") != "1" {
		t.Skip("-short: make test-slurm runs it")
	}
	c := startCluster(t)
	work := t.TempDir()
	require.NoError(t, os.Chmod(work, 0o755))
	damka := filepath.Join(work, "damka")
	build := exec.Command("go", "build", "-o", damka, "./cmd/damka")
	build.Dir = repoRoot
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	scripts, err := filepath.Abs(filepath.Join(repoRoot, "docs", "cluster"))
	require.NoError(t, err)
	testdata, err := filepath.Abs(filepath.Join(repoRoot, "testdata", "draughts"))
	require.NoError(t, err)

	// The three arrays run at once; the single runs after them.
	deck := filepath.Join(work, "deck.pdn")
	runDamka(t, damka, "openings", "--variant", "russian", "--plies", "1", "--out", deck)
	// Fixed depth and no book (the book varies its moves at random): the
	// games are the same whatever process plays them.
	engine := `cmd="` + damka + ` hub"`
	matchFlags := []string{"--variant", "russian", "--engine", "name=A " + engine + " option.threads=1 option.book=false",
		"--engine", "name=B " + engine + " option.threads=1 option.hash=2 option.book=false", "--openings", deck, "--depth", "3"}
	selfplayFlags := []string{"--variant", "english", "--games", "9", "--nodes", "1500", "--seed", "5",
		"--openings", filepath.Join(testdata, "acf_3move_ballots.tsv")}
	egdbFlags := []string{"--variant", "english", "--pieces", "4"}
	start := time.Now()
	var wg sync.WaitGroup
	for _, job := range []struct {
		script string
		args   []string
	}{
		{"match.sbatch", append([]string{filepath.Join(work, "match")}, matchFlags...)},
		{"selfplay.sbatch", append([]string{filepath.Join(work, "selfplay")}, selfplayFlags...)},
		{"egdb.sbatch", append([]string{filepath.Join(work, "tables")}, egdbFlags...)},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.array(t, damka, filepath.Join(scripts, job.script), job.args...)
		}()
	}
	wg.Wait()
	t.Logf("three job arrays of %d tasks: %.1f s", shards, time.Since(start).Seconds())
	if t.Failed() {
		return
	}

	t.Run("match", func(t *testing.T) {
		parts, err := filepath.Glob(filepath.Join(work, "match", "part-*.pdn"))
		require.NoError(t, err)
		require.Len(t, parts, shards)
		one := filepath.Join(work, "match-one.pdn")
		runDamka(t, damka, append(append([]string{"match"}, matchFlags...), "--pdn", one)...)
		merged := runDamka(t, damka, append([]string{"match", "merge", "--variant", "russian"}, parts...)...)
		single := runDamka(t, damka, "match", "merge", "--variant", "russian", one)
		assert.Equal(t, single, merged, "match merge of the shards against the single run")
		assert.Contains(t, single, "games=14 ")
		assert.Equal(t, gamesByRound(t, one), gamesByRound(t, parts...), "the games")
	})
	t.Run("selfplay", func(t *testing.T) {
		one := filepath.Join(work, "selfplay-one.dkg")
		runDamka(t, damka, append(append([]string{"selfplay"}, selfplayFlags...), "--threads", "2", "--out", one)...)
		want := records(t, one)
		require.Len(t, want, 9)
		var got []string
		for i := 1; i <= shards; i++ {
			got = append(got, records(t, filepath.Join(work, "selfplay", fmt.Sprintf("part-%d.dkg", i)))...)
		}
		sort.Strings(got)
		assert.Equal(t, want, got, "the games of the shards against the single run's")
	})
	t.Run("egdb", func(t *testing.T) {
		one := filepath.Join(work, "tables-one")
		runDamka(t, damka, append(append([]string{"egdb", "build"}, egdbFlags...), "--no-progress", "--out", one)...)
		runDamka(t, damka, "egdb", "verify", "--variant", "english", filepath.Join(work, "tables"))
		want, err := filepath.Glob(filepath.Join(one, "*.egdb"))
		require.NoError(t, err)
		require.NotEmpty(t, want)
		got, err := filepath.Glob(filepath.Join(work, "tables", "*"))
		require.NoError(t, err)
		assert.Len(t, got, len(want), "the table folder holds only the tables")
		for _, w := range want {
			a, err := os.ReadFile(w)
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(work, "tables", filepath.Base(w)))
			require.NoError(t, err, "the sharded build lacks %s", filepath.Base(w))
			assert.True(t, bytes.Equal(a, b), "%s differs", filepath.Base(w))
		}
	})
}

// runDamka runs the damka binary and returns its standard output.
func runDamka(t *testing.T, damka string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, damka, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "damka %s: %s", strings.Join(args, " "), stderr.String())
	return stdout.String()
}

// volatileTag matches the tags that differ between two runs of the same
// games: when and how long they were played.
var volatileTag = regexp.MustCompile(`^\[(Date|Time|UTCDate|UTCTime|TimeControl|Annotator|Site)\b`)

// gamesByRound returns the games of PDN files as text without their
// volatile tags, sorted by their Round tag (the game's place in the
// match, whatever shard played it).
func gamesByRound(t *testing.T, files ...string) []string {
	t.Helper()
	var games []string
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		r := pdn.NewReader(bufio.NewReader(f), engine.Russian)
		for {
			g, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err, name)
			var b bytes.Buffer
			require.NoError(t, pdn.Write(&b, g))
			var kept []string
			for _, line := range strings.Split(b.String(), "\n") {
				if !volatileTag.MatchString(line) {
					kept = append(kept, line)
				}
			}
			games = append(games, g.Tag("Round")+"\n"+strings.Join(kept, "\n"))
		}
		f.Close()
	}
	sort.Strings(games)
	return games
}

// records returns the games of a game file, each as its index, start,
// moves, scores and result in words, sorted by index.
func records(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	gr, err := pdn.NewRecordReader(f)
	require.NoError(t, err, name)
	var out []string
	for {
		rec, err := gr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, name)
		out = append(out, fmt.Sprintf("%06d %s %v %v %v %v", rec.Index, rec.Start.FEN(), rec.Moves, rec.Scores, rec.Result, rec.Reason))
	}
	sort.Strings(out)
	return out
}
