package adapter

import (
	"os/exec"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter/shim"
)

// underShim makes cmd start the adapter as a child subreaper (package shim): this program
// first, which execs the adapter in its place. A command that cannot be found is left as it
// is, so Start still fails at once, naming it.
func underShim(cmd *exec.Cmd) bool {
	if cmd.Err != nil {
		return false
	}
	cmd.Args = append([]string{shim.Exe, cmd.Path}, cmd.Args...)
	cmd.Path = shim.Exe
	cmd.Env = append(cmd.Env, shim.Env+"=1")
	return true
}
