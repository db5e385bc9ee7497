//go:build !unix

package toolnexus

import (
	"errors"
	"os"
	"os/exec"
)

// Without process groups only the shell itself can be stopped.
func newProcessGroup(*exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}
