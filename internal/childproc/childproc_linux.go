package childproc

import (
	"os/exec"
	"syscall"
)

// tie sets the parent-death signal. Linux sends it when the thread that
// started the child ends; Go ends a thread only with a goroutine that
// locked it and ended without unlocking, which damka never does.
func tie(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
