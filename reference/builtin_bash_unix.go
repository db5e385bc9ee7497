//go:build unix

package toolnexus

import (
	"errors"
	"os/exec"
	"syscall"
)

// newProcessGroup makes the shell lead a group of its own, so one signal reaches every
// process the command starts (a pipeline, a background job), not just the shell.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup sends SIGKILL to the shell's whole group; a group already gone is fine.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
