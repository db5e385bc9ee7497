// Package shim starts an adapter as a child subreaper (Linux): the runner starts its own
// executable with Env set, and this package's init, which runs before any other package's
// of that program but its own dependencies', makes the process a subreaper and execs the
// adapter in its place (the flag survives execve). Whatever the adapter's descendants orphan
// (a daemon that double-forks, sets up its own session and empties its environment) is then
// reparented to the adapter, where the runner's parent links find it, instead of to the
// runner, where nothing tells which adapter it came from (SPEC.md §3).
package shim

// Env marks a process started as a shim; Exe is what the runner starts (its own program,
// even if the file was replaced since). The shim's arguments are the adapter's program
// (resolved) and then its argv, argv[0] included.
const (
	Env = "CONFORMANCE_ADAPTER_SHIM"
	Exe = "/proc/self/exe"
)
