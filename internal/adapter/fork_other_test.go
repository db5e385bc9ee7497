//go:build !linux

package adapter

func fakeForkMain() bool { return false }
