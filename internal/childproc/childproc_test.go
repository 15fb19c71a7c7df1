//go:build linux

package childproc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary play the parent of TestTieKillsTheChild:
// with DAMKA_CHILDPROC_PARENT set it starts `sleep 300` tied by Tie, prints
// the child's pid and waits to be killed.
func TestMain(m *testing.M) {
	if os.Getenv("DAMKA_CHILDPROC_PARENT") != "" {
		cmd := exec.Command("sleep", "300")
		Tie(cmd)
		if err := cmd.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
		select {}
	}
	os.Exit(m.Run())
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

// TestTieKillsTheChild: a parent killed with SIGKILL, which can close
// nothing, leaves no tied child running.
func TestTieKillsTheChild(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	parent := exec.Command(self, "-test.run=^$")
	parent.Env = append(os.Environ(), "DAMKA_CHILDPROC_PARENT=1")
	out, err := parent.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, parent.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err, "the parent printed %q", line)
	require.True(t, alive(pid), "the child runs while its parent does")
	require.NoError(t, parent.Process.Kill())
	_ = parent.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("child %d still runs after its parent was killed", pid)
	}
}

// TestTieKeepsSysProcAttr: Tie adds to the attributes already set.
func TestTieKeepsSysProcAttr(t *testing.T) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	Tie(cmd)
	require.True(t, cmd.SysProcAttr.Setpgid)
	require.Equal(t, syscall.SIGKILL, cmd.SysProcAttr.Pdeathsig)
}
