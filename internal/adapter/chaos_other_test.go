//go:build !linux

package adapter

// leftovers needs /proc; elsewhere nothingLeft checks nothing.
func (p *Process) leftovers() []string { return nil }
