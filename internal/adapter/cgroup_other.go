//go:build !linux

package adapter

// Elsewhere there are no cgroups to start an adapter in.

func newCgroup() (string, int, bool) { return "", -1, false }

func removeCgroup(string) {}

// ReleaseCgroups has nothing to release here.
func ReleaseCgroups() {}
