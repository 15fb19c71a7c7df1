//go:build unix

package childproc

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the child in a process group of its own (Setpgid).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}
