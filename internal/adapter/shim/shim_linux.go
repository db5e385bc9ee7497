//go:build linux

package shim

import (
	"fmt"
	"os"
	"syscall"
)

func init() {
	if os.Getenv(Env) != "1" || len(os.Args) < 3 {
		return
	}
	_ = os.Unsetenv(Env)
	const prSetChildSubreaper = 36
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	err := syscall.Exec(os.Args[1], os.Args[2:], os.Environ())
	fmt.Fprintf(os.Stderr, "adapter shim: cannot run %s: %v\n", os.Args[1], err)
	os.Exit(127)
}
