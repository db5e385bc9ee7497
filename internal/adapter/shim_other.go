//go:build !linux

package adapter

import "os/exec"

// underShim: only Linux has child subreapers; elsewhere the adapter starts as it is.
func underShim(*exec.Cmd) bool { return false }
