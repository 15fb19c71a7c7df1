package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/internal/testfiles"
	"github.com/damka-draughts/damka/match"
	"github.com/damka-draughts/damka/player"
)

func TestExtractEngines(t *testing.T) {
	rest, engines, err := extractEngines([]string{
		"--variant", "english",
		"--engine", "name=A", "cmd=damka", "option.threads=1",
		"--engine", `name=B cmd="/opt/scan hub" option.hash=64`,
		"--depth", "3",
		"--engine=cmd=/path/to/other --hub", "movetime=0.1",
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"--variant", "english", "--depth", "3"}, rest)
	assert.Equal(t, [][]string{
		{"name=A", "cmd=damka", "option.threads=1"},
		{"name=B", "cmd=/opt/scan hub", "option.hash=64"},
		{"cmd=/path/to/other --hub", "movetime=0.1"},
	}, engines)

	_, _, err = extractEngines([]string{"--engine", "--depth", "3"})
	assert.Error(t, err)

	// A whole description with an unterminated quote is refused as such,
	// not read as a name running on into the cmd= (then "no cmd= given").
	_, _, err = extractEngines([]string{"--engine", `name=B cmd='/opt/scan hub`})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "EOF found when expecting closing quote")
	// A whole description with a word that is not key=value is refused
	// naming that word, not read as a name running on into the cmd=.
	_, _, err = extractEngines([]string{"--engine", `name=B cmd=/opt/scan hub`})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"hub" is not key=value`)
	_, _, err = extractEngines([]string{"--engine", `name=B cmd=damka option.foo`})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"option.foo" is not key=value`)
	// An apostrophe inside one word's value stays that word's.
	_, engines, err = extractEngines([]string{"--engine", "cmd=/opt/it's/scan hub", "name=B"})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"cmd=/opt/it's/scan hub", "name=B"}}, engines)
}

// TestMatchCommand runs `damka match` in-process against two damka
// processes, then `damka match merge` and `damka pdn check` on its PDN.
func TestMatchCommand(t *testing.T) {
	data := testfiles.Must(t)
	dir := t.TempDir()
	bin := buildDamka(t, dir)
	pdn := filepath.Join(dir, "m.pdn")
	tsv := filepath.Join(data, "acf_3move_ballots.tsv")
	out, errs, code := runCLI("match", "--variant", "english",
		"--engine", "name=A", "cmd="+bin, "option.hash=8",
		"--engine", "name=B cmd='"+bin+" hub' option.threads=1",
		"--openings", tsv, "--shard", "1/78", "--depth", "2", "--concurrency", "2",
		"--pdn", pdn, "--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05", "--no-progress", "--log-level", "error")
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	lineRE := regexp.MustCompile(`^games=4 wins=(\d) draws=(\d) losses=(\d) elo=\S+ err=\S+ los=(?:\d+\.\d%|n/a) llr=-?\d+\.\d\d$`)
	assert.Regexp(t, lineRE, last)
	assert.Contains(t, out, "match english: A (depth=2) vs B (depth=2), 156 openings x 1 rounds, 4 games (shard 1/78)")
	assert.Contains(t, out, "faults of A: illegal=0 crash=0 hang=0 time=0")
	assert.Contains(t, out, "faults of B: illegal=0 crash=0 hang=0 time=0")
	assert.Equal(t, 4, strings.Count(out, "\ngame "))
	// English: Black moves first and the score is Black's first; so is the name.
	assert.Regexp(t, `(?m)^game \d/4 \S+ [AB] \(Black\) - [AB] \(White\): `, out)

	mout, errs, code := runCLI("match", "merge", pdn, "--variant", "english", "--sprt", "elo0=0,elo1=5")
	require.Equal(t, 0, code, errs)
	mlines := strings.Split(strings.TrimSpace(mout), "\n")
	assert.Equal(t, last, mlines[len(mlines)-1], "merge recomputes the run's numbers")

	// The same command again, without --resume: refused before a game, the
	// file as it was.
	before, err := os.ReadFile(pdn)
	require.NoError(t, err)
	_, errs, code = runCLI("match", "--variant", "english",
		"--engine", "name=A", "cmd="+bin, "option.hash=8",
		"--engine", "name=B cmd='"+bin+" hub' option.threads=1",
		"--openings", tsv, "--shard", "1/78", "--depth", "2", "--pdn", pdn, "--no-progress", "--log-level", "error")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--pdn "+pdn+" holds games already: add --resume")
	after, err := os.ReadFile(pdn)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// The same games gzip-compressed (as learn/sprt keeps them) merge the same;
	// a cut-off gzip file is bad input naming the file.
	raw, err := os.ReadFile(pdn)
	require.NoError(t, err)
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	_, err = zw.Write(raw)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	gz := filepath.Join(dir, "m.pdn.gz")
	require.NoError(t, os.WriteFile(gz, zbuf.Bytes(), 0o644))
	zout, errs, code := runCLI("match", "merge", gz, "--variant", "english", "--sprt", "elo0=0,elo1=5")
	require.Equal(t, 0, code, errs)
	assert.Equal(t, mout, zout)
	cut := filepath.Join(dir, "cut.pdn.gz")
	require.NoError(t, os.WriteFile(cut, zbuf.Bytes()[:zbuf.Len()/2], 0o644))
	_, errs, code = runCLI("match", "merge", cut, "--variant", "english")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, cut+" (gzip): ")

	cout, _, code := runCLI("pdn", "check", pdn)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=4 ok=4 bad=0\n", cout)

	hout, _, code := runCLI("match", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, hout, "--engine")
	assert.Contains(t, hout, "games=N wins=W draws=D losses=L")
}

func TestMatchBadInput(t *testing.T) {
	dir := t.TempDir()
	fen := filepath.Join(dir, "o.fen")
	require.NoError(t, os.WriteFile(fen, []byte("W:W21-32:B1-12\n"), 0o644))
	eng := []string{"--engine", "name=A", "cmd=nothing", "--engine", "name=B", "cmd=nothing"}
	cases := [][]string{
		{"match", "--openings", fen, "--depth", "2"},
		{"match", "--engine", "name=A", "cmd=x", "--openings", fen, "--depth", "2"},
		append([]string{"match", "--openings", fen}, eng...),
		append([]string{"match", "--openings", fen, "--depth", "2", "--movetime", "1"}, eng...),
		append([]string{"match", "--openings", fen, "--tc", "40/x"}, eng...),
		append([]string{"match", "--openings", fen, "--depth", "2", "--shard", "3/2"}, eng...),
		append([]string{"match", "--openings", fen, "--depth", "2", "--sprt", "elo0=5,elo1=0"}, eng...),
		append([]string{"match", "--openings", filepath.Join(dir, "none.fen"), "--depth", "2"}, eng...),
		append([]string{"match", "--openings", fen, "--depth", "2", "--variant", "chess"}, eng...),
		append([]string{"match", "--openings", fen, "--depth", "2", "stray"}, eng...),
		{"match", "--engine", "name=A", "cmd=x", "bogus=1", "--engine", "cmd=y", "--openings", fen, "--depth", "2"},
		{"match", "merge", filepath.Join(dir, "none.pdn")},
	}
	for _, args := range cases {
		_, errs, code := runCLI(args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errs)
	}
}

// TestMatchBadInputMessages: wrong engine descriptions and limits exit with
// status 2 before the header, with messages that say what is wrong.
func TestMatchBadInputMessages(t *testing.T) {
	dir := t.TempDir()
	op := filepath.Join(dir, "o.fen")
	require.NoError(t, os.WriteFile(op, []byte("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n"), 0o644))
	self, err := os.Executable()
	require.NoError(t, err)
	base := []string{"match", "--openings", op, "--no-progress"}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=A", "cmd=" + self, "--depth", "2"}, `both engines are named "A"`},
		{[]string{"--engine", "name=A", "cmd=/nonexistent/engine", "--engine", "name=B", "cmd=" + self, "--depth", "2"}, "/nonexistent/engine"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--movetime", "-1"}, "out of range"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--tc", "-5+1"}, "out of range"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--nodes", "-5"}, "--nodes -5 out of range 1..1000000000000"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--depth", "99999999999999999999"}, "--depth 99999999999999999999 out of range"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--depth", "2", "--draw", "movecount=0,score=1"}, "--draw: draw rule"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--depth", "2", "--resign", "movecount=3"}, "score= is missing"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "proto=dxp", "cmd=" + self, "--depth", "2"}, "not depth= or nodes="},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--depth", "2", "--shard", "2/2"}, "--shard 2/2: that part of the schedule has no games (1 openings x 1 rounds make 1 pairs)"},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--depth", "2", "--concurrency", "10000"}, fmt.Sprintf("--concurrency 10000 out of range 1..%d", maxConcurrency())},
		{[]string{"--engine", "name=A", "cmd=" + self, "--engine", "name=B", "cmd=" + self, "--depth", "2", "--concurrency", "0"}, "--concurrency 0 out of range"},
	} {
		out, errs, code := runCLI(append(base, c.args...)...)
		assert.Equal(t, exitBadInput, code, "%v: %s", c.args, errs)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errs, c.msg, "%v", c.args)
		assert.NotContains(t, errs, "strconv", "%v", c.args)
		assert.NotContains(t, errs, "not a number of seconds", "%v", c.args)
	}
	// An engine that never says wait: the handshake timeout, named.
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	_, errs, code := runCLI(append(base, "--engine", "name=A", "cmd="+cat, "--engine", "name=B", "cmd="+cat,
		"--depth", "2", "--handshake-timeout", "0.5", "--log-level", "error")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "no `wait` from the engine within 500ms (--handshake-timeout)")

	// An engine that answers hub as Scan 2.0's `scan hub` does: refused
	// with exit status 2 before any game, naming the missing id line.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	legacy := filepath.Join(dir, "scan20.sh")
	require.NoError(t, os.WriteFile(legacy, []byte(`while read -r l; do case "$l" in
hub*) printf 'name Scan 2.0\nauthor Fabien Letouzey\ncountry France\nwait\n';;
init*) echo ready;; pos*) echo 'error bad position';; ping*) echo pong;; quit*) exit 0;; esac; done
`), 0o755))
	out, errs, code := runCLI(append(base, "--engine", "name=scan", "cmd="+sh+" "+legacy, "--engine", "name=B", "cmd="+sh+" "+legacy,
		"--depth", "2", "--log-level", "error")...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, "engine scan")
	assert.Contains(t, errs, "does not speak Hub 2: no `id` line before `wait`")
	assert.NotContains(t, out, "\ngame ")
}

// TestProgressRule: match, book build and selfplay draw a progress bar
// only on a terminal, and --no-progress turns it off (a file or a buffer
// never gets one).
func TestProgressRule(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, progressOn(f, false), "a file is not a terminal")
	assert.False(t, progressOn(&strings.Builder{}, false))
	assert.False(t, progressOn(os.Stderr, true), "--no-progress")
	for _, c := range []*cobra.Command{newMatchCmd(), newSelfPlayCmd(), newBookBuildCmd(), newReviewCmd()} {
		fl := c.Flags().Lookup("no-progress")
		require.NotNil(t, fl, c.Name())
		assert.Equal(t, noProgressUsage, fl.Usage, c.Name())
	}
}

// buildPkg builds the Go package pkg (a path relative to this folder)
// into dir/name.
func buildPkg(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	bin := filepath.Join(dir, name)
	out, err := exec.Command(goTool, "build", "-o", bin, pkg).CombinedOutput()
	require.NoError(t, err, "go build %s: %s", pkg, out)
	return bin
}

// TestMatchDXPCommand: `damka match` with a DXP engine (proto=dxp, its
// port in cmd= as {port}) against a Hub engine, both the runner's test
// fakes, from a "FEN ; name" deck: complete games, the statistics lines,
// `match merge` equal to the run, and `pdn check` happy.
func TestMatchDXPCommand(t *testing.T) {
	dir := t.TempDir()
	hubFake := buildPkg(t, dir, "fakeengine", "../../match/testdata/fakeengine")
	dxpFake := buildPkg(t, dir, "fakedxp", "../../match/testdata/fakedxp")
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte("# two openings\nW:W31-50:B1-20 ; start\nB:W28,31-50:B1-20 ; 32-28\n"), 0o644))
	pdn := filepath.Join(dir, "m.pdn")
	out, errs, code := runCLI("match", "--variant", "international",
		"--engine", "name=hub", "cmd="+hubFake+" -seed 4",
		"--engine", "name=dxp", "proto=dxp", "cmd="+dxpFake+" -port {port} -seed 9",
		"--openings", deck, "--movetime", "0.1", "--time-margin", "2", "--pdn", pdn,
		"--sprt", "elo0=0,elo1=2,model=normalized", "--no-progress", "--log-level", "error")
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	assert.Contains(t, out, "match international: hub (movetime=0.1) vs dxp (movetime=0.1), 2 openings x 1 rounds, 4 games")
	assert.Equal(t, 4, strings.Count(out, "\ngame "))
	assert.Contains(t, out, "faults of dxp: illegal=0 crash=0 hang=0 time=0")
	assert.Contains(t, out, "normalized elo ")
	assert.Contains(t, out, "SPRT elo0=0,elo1=2,alpha=0.05,beta=0.05,model=normalized: llr ")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	assert.Regexp(t, `^games=4 wins=\d draws=\d losses=\d elo=\S+ err=\S+ los=(?:\d+\.\d%|n/a) llr=-?\d+\.\d\d$`, last)
	assert.NotContains(t, last, "inf")

	mout, errs, code := runCLI("match", "merge", pdn, "--variant", "international", "--sprt", "elo0=0,elo1=2,model=normalized")
	require.Equal(t, 0, code, errs)
	mlines := strings.Split(strings.TrimSpace(mout), "\n")
	assert.Equal(t, last, mlines[len(mlines)-1], "merge recomputes the run's numbers")
	cout, _, code := runCLI("pdn", "check", pdn)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=4 ok=4 bad=0\n", cout)
}

// TestMatchSIGTERM: a match process sent SIGTERM (a batch system's time
// limit) stops like one interrupted with Ctrl-C: the summary of the games
// finished, each of them in the PDN, and an error line saying why (exit
// status 1), not a death at once without a summary.
func TestMatchSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send")
	}
	dir := t.TempDir()
	bin := buildDamka(t, dir)
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte(strings.Repeat("W:W21-32:B1-12\n", 50)), 0o644))
	pdn := filepath.Join(dir, "m.pdn")
	cmd := exec.Command(bin, "match", "--variant", "english", "--engine", "name=A", "cmd="+bin, "option.book=false",
		"--engine", "name=B", "cmd="+bin, "option.book=false", "--openings", deck, "--depth", "2", "--pdn", pdn, "--no-progress")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "game 1/100 ") {
			require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
			break
		}
	}
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s\n%s", out.String(), stderr.String())
	assert.Equal(t, 1, ee.ExitCode())
	assert.Regexp(t, `match stopped early: interrupted \(by a signal\) after \d+ of 100 games`, stderr.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	m := regexp.MustCompile(`^games=(\d+) `).FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, out.String())
	data, err := os.ReadFile(pdn)
	require.NoError(t, err)
	assert.Equal(t, m[1], strconv.Itoa(strings.Count(string(data), "[Round ")), "every game of the summary is in the PDN")
}

// TestMatchCtrlC: Ctrl-C in a terminal (SIGINT to the whole foreground
// process group: the match and, unless they run in a group of their own,
// its engines) while engines are searching prints on stderr the documented
// line alone, no warning of the engines stopped or killed, and records no
// game lost by an engine that died of the signal; exit status 1, every
// game of the summary in the PDN, no engine left running.
func TestMatchCtrlC(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups to signal")
	}
	dir := t.TempDir()
	bin := buildDamka(t, dir)
	fake := buildPkg(t, dir, "fakeengine", "../../match/testdata/fakeengine")
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte(strings.Repeat("W:W21-32:B1-12\nB:W21-32:B1-12\n", 25)), 0o644))
	pdn := filepath.Join(dir, "m.pdn")
	rec := filepath.Join(dir, "rec") // the engines' PID.log files
	require.NoError(t, os.Mkdir(rec, 0o755))
	eng := func(seed string) string { return "cmd=" + fake + " -seed " + seed + " -delay 20ms -record " + rec }
	cmd := exec.Command(bin, "match", "--variant", "english", "--engine", "name=A", eng("1"), "--engine", "name=B", eng("2"),
		"--openings", deck, "--movetime", "0.5", "--time-margin", "5", "--concurrency", "2", "--pdn", pdn, "--no-progress")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a terminal's foreground group of its own
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "game 2/100 ") {
			time.Sleep(100 * time.Millisecond) // both workers' engines in mid-game
			require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
			break
		}
	}
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "%s\n%s", out.String(), stderr.String())
	assert.Equal(t, 1, ee.ExitCode())
	assert.Regexp(t, `^damka: match stopped early: interrupted \(by a signal\) after \d+ of 100 games \(continue with --resume\)\n$`,
		stderr.String(), "the documented line alone")
	data, err := os.ReadFile(pdn)
	require.NoError(t, err)
	assert.NotContains(t, string(data), `[Termination "crash"]`, "no engine died of the signal")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	m := regexp.MustCompile(`^games=(\d+) `).FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, out.String())
	assert.Equal(t, m[1], strconv.Itoa(strings.Count(string(data), "[Round ")), "every game of the summary is in the PDN")
	logs, err := os.ReadDir(rec)
	require.NoError(t, err)
	require.NotEmpty(t, logs)
	for _, l := range logs {
		pid, err := strconv.Atoi(strings.TrimSuffix(l.Name(), ".log"))
		require.NoError(t, err)
		assert.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, 5*time.Second, 20*time.Millisecond,
			"engine process %d left running", pid)
	}
}

// TestMatchProgressBarEndsBeforeSummary: on a terminal, where the bar
// (stderr) and the results (stdout) share the screen, the bar is finished
// and its line ended before the summary, so that "score of" starts a line
// of its own instead of running on after the bar's "elo ...".
func TestMatchProgressBarEndsBeforeSummary(t *testing.T) {
	defer func(f func(io.Writer) bool) { isTerminalOut = f }(isTerminalOut)
	isTerminalOut = func(io.Writer) bool { return true }
	dir := t.TempDir()
	fake := buildPkg(t, dir, "fakeengine", "../../match/testdata/fakeengine")
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte("W:W21-32:B1-12\nB:W21-32:B1-12\n"), 0o644))
	var screen bytes.Buffer
	term := &lockedWriter{w: &screen}
	code := run([]string{"match", "--variant", "english", "--engine", "name=a", "cmd=" + fake + " -seed 1",
		"--engine", "name=b", "cmd=" + fake + " -seed 2", "--openings", deck, "--depth", "1", "--log-level", "error"}, term, term)
	out := screen.String()
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "games", "the bar was drawn")
	assert.Regexp(t, `(?m)^score of a vs b: `, out)
	assert.NotRegexp(t, `[^\n]score of a vs b`, out)
}

// TestMatchEngineUnknownKeyQuoted: an unknown key in a description given
// as one quoted word gets the same message as in one given as several
// words (not "no cmd= given", the key's value having swallowed the rest).
func TestMatchEngineUnknownKeyQuoted(t *testing.T) {
	dir := t.TempDir()
	op := filepath.Join(dir, "o.fen")
	require.NoError(t, os.WriteFile(op, []byte("W:W21-32:B1-12\n"), 0o644))
	self, err := os.Executable()
	require.NoError(t, err)
	base := []string{"match", "--openings", op, "--depth", "2", "--no-progress", "--engine", "name=a", "cmd=" + self}
	_, words, code := runCLI(append(base, "--engine", "name=b", "cmd="+self, "bogus=1")...)
	assert.Equal(t, exitBadInput, code, words)
	assert.Contains(t, words, `unknown key "bogus"`)
	_, quoted, code := runCLI(append(base, "--engine", "name=b cmd="+self+" bogus=1")...)
	assert.Equal(t, exitBadInput, code, quoted)
	assert.Contains(t, quoted, `unknown key "bogus"`)
	assert.NotContains(t, quoted, "no cmd= given")
	// A value with key=value words of its own stays one word.
	_, engines, err := extractEngines([]string{"--engine", "cmd=env FOO=1", "name=x"})
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"cmd=env FOO=1", "name=x"}}, engines)
}

// TestMatchPonderCommand: --ponder with one engine's ponder=false prints
// the pondering engine's hits over its ponder searches and "off" for the
// other; a bad ponder= value is bad input naming it.
func TestMatchPonderCommand(t *testing.T) {
	data := testfiles.Must(t)
	dir := t.TempDir()
	bin := buildDamka(t, dir)
	tsv := filepath.Join(data, "acf_3move_ballots.tsv")
	base := []string{"match", "--variant", "english", "--openings", tsv, "--shard", "1/156", "--movetime", "0.05",
		"--max-plies", "10", "--time-margin", "1", "--no-progress", "--log-level", "error", "--ponder"}
	out, errs, code := runCLI(append(base,
		"--engine", "name=A", "cmd="+bin, "option.threads=1", "option.book=false",
		"--engine", "name=B", "cmd="+bin, "option.threads=1", "ponder=false")...)
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	assert.Regexp(t, `(?m)^ponder hits: A \d+/[1-9]\d*, B off$`, out)
	assert.Contains(t, out, "faults of A: illegal=0 crash=0 hang=0 time=0")

	_, errs, code = runCLI(append(base, "--engine", "name=A", "cmd="+bin, "ponder=yes please", "--engine", "name=B", "cmd="+bin)...)
	assert.Equal(t, exitBadInput, code, errs)
	assert.Contains(t, errs, `ponder="yes please": want true or false`)

	// damka solve has no opponent to ponder on.
	suite := filepath.Join(dir, "suite.epd")
	require.NoError(t, os.WriteFile(suite, []byte("B:W21:B1 bm 1-5;\n"), 0o644))
	out, errs, code = runCLI("solve", suite, "--variant", "english", "--depth", "2", "--engine", "name=A", "cmd="+bin, "ponder=false")
	assert.Equal(t, exitBadInput, code, "%s\n%s", out, errs)
	assert.Contains(t, errs, "ponder= is for damka match")
}

// TestMatchSummaryNotEstimable: the summary says n/a and why where an Elo
// or its interval cannot be estimated.
func TestMatchSummaryNotEstimable(t *testing.T) {
	var b strings.Builder
	writeMatchSummary(&b, "a", "b", match.StatsFromCounts(0, 4, 0, [5]int{0, 0, 2, 0, 0}), [2]map[string]int{{}, {}}, map[string]int{"normal": 4})
	out := b.String()
	assert.Contains(t, out, "elo difference n/a (all draws), LOS n/a (no wins or losses)\n")
	assert.Contains(t, out, "normalized elo n/a (all draws)\n")
	assert.Contains(t, out, "over 2 pairs: elo n/a (fewer than 10 pairs)\n")
	b.Reset()
	writeMatchSummary(&b, "a", "b", match.StatsFromCounts(3, 1, 0, [5]int{0, 0, 0, 1, 1}), [2]map[string]int{{}, {}}, map[string]int{"normal": 4})
	assert.Contains(t, b.String(), "normalized elo n/a (fewer than 10 pairs)\n")
	assert.NotContains(t, b.String(), "inf")
}

// TestMatchMovetimeSeconds: --movetime is a number of seconds as in
// analyse, dxp and book: a float flag, "0.1" accepted, a bad value an
// error with exit status 2 that names the flag.
func TestMatchMovetimeSeconds(t *testing.T) {
	fl := newMatchCmd().Flags().Lookup("movetime")
	require.NotNil(t, fl)
	assert.Equal(t, "float64", fl.Value.Type())
	dir := t.TempDir()
	op := filepath.Join(dir, "o.fen")
	require.NoError(t, os.WriteFile(op, []byte("W:W21-32:B1-12\n"), 0o644))
	self, err := os.Executable()
	require.NoError(t, err)
	base := []string{"match", "--openings", op, "--no-progress", "--engine", "name=a", "cmd=" + self, "--engine", "name=b", "cmd=" + self}
	for _, c := range []struct{ value, msg string }{
		{"abc", `--movetime "abc": not a number (want a number)`},
		{"0", "--movetime 0 out of range"},
		{"-1", "--movetime -1 out of range"},
		{"NaN", "--movetime NaN out of range"},
	} {
		_, errs, code := runCLI(append(base, "--movetime", c.value)...)
		assert.Equal(t, exitBadInput, code, "%s: %s", c.value, errs)
		assert.Contains(t, errs, c.msg, c.value)
	}
	settings := &cobra.Command{}
	f := matchFlags{variant: addSetting(settings, player.SetVariant, ""), egdb: addSetting(settings, player.SetEGDBPath, ""), openings: op, movetime: 0.1, rounds: 1, concurrency: 1, maxPlies: match.DefaultMaxPlies,
		timeMargin: 1, hangTimeout: 1, handshakeTimeout: 1, progress: true}
	cfg, err := matchConfig(f, [][]string{{"name=a", "cmd=" + self}, {"name=b", "cmd=" + self}})
	require.NoError(t, err)
	assert.Equal(t, 100*time.Millisecond, cfg.Limits.MoveTime)
}

// TestMatchResume: `damka match --resume` run again on the --pdn file of a
// match cut off mid-game drops the torn game with a warning naming the
// file, plays the missing games and ends with the last line of the match
// played straight through; its summary tells the games this run played
// from those resumed from the file; the file of other engines is refused,
// naming the file; --resume needs --pdn.
func TestMatchResume(t *testing.T) {
	dir := t.TempDir()
	fake := buildPkg(t, dir, "fakeengine", "../../match/testdata/fakeengine")
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte("W:W21-32:B1-12\nB:W21-32:B1-12\nW:W21-32:B1-12\n"), 0o644))
	pdnFile := filepath.Join(dir, "m.pdn")
	args := func(b string, more ...string) []string {
		return append([]string{"match", "--variant", "english", "--engine", "name=a", "cmd=" + fake + " -seed 1",
			"--engine", "name=" + b, "cmd=" + fake + " -seed 2", "--openings", deck, "--depth", "1", "--seed", "3",
			"--concurrency", "2", "--pdn", pdnFile, "--no-progress", "--log-level", "error"}, more...)
	}
	lastLine := func(out string) string {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[len(lines)-1]
	}
	out, errs, code := runCLI(args("b")...)
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	straight := lastLine(out)
	assert.Contains(t, straight, "games=6 ")
	assert.Regexp(t, `(?m)^wall time \S+ for 6 of 6 games$`, out)

	data, err := os.ReadFile(pdnFile)
	require.NoError(t, err)
	second := strings.Index(string(data), "\n\n[Event") + 2
	third := second + strings.Index(string(data[second:]), "\n\n[Event") + 2
	require.Greater(t, third, second)
	require.NoError(t, os.WriteFile(pdnFile, data[:(second+third)/2], 0o644))

	out, errs, code = runCLI(args("c", "--resume")...)
	assert.Equal(t, exitBadInput, code, "%s\n%s", out, errs)
	assert.Contains(t, errs, "match: resume "+pdnFile+": game 1 (line 1, Round ")
	assert.Contains(t, errs, "different engines")

	out, errs, code = runCLI(args("b", "--resume")...)
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	assert.Contains(t, errs, "warning: "+pdnFile+": game 2 (line ")
	assert.Contains(t, out, "resuming "+pdnFile+": 1 of 6 games played, 5 to play\n")
	assert.Equal(t, 5, strings.Count(out, "\ngame "))
	assert.Regexp(t, `(?m)^wall time \S+ for 5 games played, 1 resumed from the file: 6 of 6 games$`, out)
	assert.Equal(t, straight, lastLine(out), "the resumed match ends as the straight one")

	out, errs, code = runCLI(args("b", "--resume")...)
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	assert.Equal(t, straight, lastLine(out), "a finished match resumed plays nothing and tells the same")
	assert.Equal(t, 0, strings.Count(out, "\ngame "))
	assert.Regexp(t, `(?m)^wall time \S+ for 0 games played, 6 resumed from the file: 6 of 6 games$`, out)
	cout, _, code := runCLI("pdn", "check", pdnFile)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=6 ok=6 bad=0\n", cout)

	_, errs, code = runCLI("match", "--variant", "english", "--engine", "name=a", "cmd="+fake,
		"--engine", "name=b", "cmd="+fake, "--openings", deck, "--depth", "1", "--resume")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errs, "--resume needs --pdn FILE")
}

// TestMatchDiskFullFault: `damka match --pdn` on a full disk, end to end
// in a real process: on /dev/full (no space at all) and on a file that
// hits a size limit (`ulimit -f`, the disk filling up mid-match). The
// match stops with an error naming the file and what failed, the games
// written before stay whole (`pdn check` reads them all), and --resume
// plays the rest once there is room.
func TestMatchDiskFullFault(t *testing.T) {
	dir := t.TempDir()
	bin := buildDamka(t, dir)
	fake := buildPkg(t, dir, "fakeengine", "../../match/testdata/fakeengine")
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte("W:W21-32:B1-12\nB:W21-32:B1-12\nW:W21-32:B1-12\n"), 0o644))
	args := func(pdnFile string, more ...string) []string {
		return append([]string{"match", "--variant", "english", "--engine", "name=a", "cmd=" + fake + " -seed 1",
			"--engine", "name=b", "cmd=" + fake + " -seed 2", "--openings", deck, "--depth", "1", "--seed", "3",
			"--pdn", pdnFile, "--no-progress", "--log-level", "error"}, more...)
	}
	run := func(limitKB int, a []string) (string, string, error) {
		cmd := exec.Command("/bin/sh", append([]string{"-c", fmt.Sprintf(`ulimit -f %d && exec "$@"`, limitKB), "sh", bin}, a...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}

	if _, err := os.Stat("/dev/full"); err == nil {
		out, errs, err := run(1<<20, args("/dev/full"))
		require.Error(t, err, out)
		assert.Contains(t, errs, "match: writing PDN file /dev/full: ")
		assert.Contains(t, errs, "no space left on device")
		assert.NotContains(t, errs, "panic")
	}

	pdnFile := filepath.Join(dir, "m.pdn")
	out, errs, err := run(2, args(pdnFile)) // 2 KiB: room for a game or two of six
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s\n%s", out, errs)
	assert.Equal(t, 1, exit.ExitCode(), errs)
	assert.Contains(t, errs, "match: writing PDN file "+pdnFile+": ")
	assert.Contains(t, errs, "file too large")
	assert.NotContains(t, errs, "panic")
	cout, _, code := runCLI("pdn", "check", pdnFile)
	assert.Equal(t, 0, code, cout)
	assert.Regexp(t, `^games=([1-5]) ok=([1-5]) bad=0\n$`, cout, "the games before the failed write, whole")
	// The summary counts what the file holds: no game after the failed
	// write, nor the game whose write failed.
	summary := regexp.MustCompile(`(?m)^games=(\d+) `).FindStringSubmatch(out)
	require.NotNil(t, summary, out)
	assert.Equal(t, "games="+summary[1]+" ok="+summary[1]+" bad=0\n", cout, out)

	out, errs, err = run(1<<20, args(pdnFile, "--resume"))
	require.NoError(t, err, "%s\n%s", out, errs)
	assert.Contains(t, out, "resuming "+pdnFile+": ")
	cout, _, code = runCLI("pdn", "check", pdnFile)
	assert.Equal(t, 0, code)
	assert.Equal(t, "games=6 ok=6 bad=0\n", cout)
}

// TestMatchDXPDamkaKeepsItsTime: damka's own DXP engine against damka over
// Hub at 0.05 s a move, the real programs: the DXP side moves first in
// half of the games, right after its GAMEACC, and its message gap (0.5 s
// by default) must not make it lose on time.
func TestMatchDXPDamkaKeepsItsTime(t *testing.T) {
	dir := t.TempDir()
	damka := buildDamka(t, dir)
	deck := filepath.Join(dir, "deck.txt")
	require.NoError(t, os.WriteFile(deck, []byte("W:W21-32:B1-12 ; start\nB:W18,21-24,26-32:B1-12 ; c3-d4\n"), 0o644))
	out, errs, code := runCLI("match", "--variant", "russian",
		"--engine", "name=hub", "cmd="+damka+" hub", "option.threads=1",
		"--engine", "name=dx", "proto=dxp", "cmd="+damka+" dxp --listen 127.0.0.1:{port} --variant russian --movetime 0.05 --threads 1",
		"--openings", deck, "--movetime", "0.05", "--max-plies", "60", "--no-progress", "--log-level", "error")
	require.Equal(t, 0, code, "%s\n%s", out, errs)
	assert.Equal(t, 4, strings.Count(out, "\ngame "), out)
	assert.Contains(t, out, "faults of dx: illegal=0 crash=0 hang=0 time=0", out)
	assert.Contains(t, out, "faults of hub: illegal=0 crash=0 hang=0 time=0", out)
}

// TestMatchWallTimeLine: the summary's wall time line counts the games of
// the run, and after --resume tells the games this run played from those
// resumed from the file.
func TestMatchWallTimeLine(t *testing.T) {
	sum := match.Summary{Wall: 1500 * time.Millisecond, Played: 40, Scheduled: 40}
	assert.Equal(t, "wall time 1.5s for 40 of 40 games", wallTimeLine(&sum))
	sum.Resumed = 15
	assert.Equal(t, "wall time 1.5s for 25 games played, 15 resumed from the file: 40 of 40 games", wallTimeLine(&sum))
	sum.Played, sum.Resumed = 16, 15
	assert.Equal(t, "wall time 1.5s for 1 game played, 15 resumed from the file: 16 of 40 games", wallTimeLine(&sum))
}
