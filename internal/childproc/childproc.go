// Package childproc ties an engine's process to damka's: on Linux a child
// started with Tie is killed (SIGKILL) when the damka process that started
// it dies, even when damka itself is killed and cannot close it (a match or
// a damka gui ended by kill -9 or by a crash leaves no engine running). On
// other systems Tie does nothing; there the engines end on their own when
// their input closes (a Hub engine) or are left as they were. OwnGroup
// keeps a terminal's Ctrl-C from reaching a child: damka ends it instead.
package childproc

import "os/exec"

// Tie sets cmd, before its Start, to be killed when the process starting
// it dies (Linux; a no-op elsewhere). It keeps the rest of
// cmd.SysProcAttr.
func Tie(cmd *exec.Cmd) { tie(cmd) }

// OwnGroup sets cmd, before its Start, to run in a process group of its
// own (Unix; a no-op elsewhere), so that the signals a terminal sends to
// its foreground group (Ctrl-C's SIGINT, Ctrl-\'s SIGQUIT) reach the damka
// process alone, which then ends the child itself, instead of killing the
// child at the same moment. It keeps the rest of cmd.SysProcAttr; Tie
// still kills the child when damka dies.
func OwnGroup(cmd *exec.Cmd) { ownGroup(cmd) }
