//go:build !linux

package adapter

import "time"

// Elsewhere only the process group is killed: finding escaped descendants needs /proc.

func becomeSubreaper() {}

type procInfo struct{}

func (p *Process) descendants() map[int]procInfo { return nil }

func startTime(int) uint64 { return 0 }

func nowTicks() uint64 { return 0 }

// SweepOrphans finds nothing without /proc.
func SweepOrphans() []Orphan { return nil }

func (p *Process) sweep(map[int]procInfo) []Leak { return nil }

// CPU cannot be read without /proc.
func (p *Process) CPU() time.Duration { return 0 }

func (l *liveSet) reserve(*Process, map[int]procInfo) {}

func (l *liveSet) release(*Process) {}
