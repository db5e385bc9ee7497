//go:build !linux

package adapter

import (
	"errors"
	"os"
)

// ForkServer is Linux only (SOCK_SEQPACKET, /proc, cgroups): elsewhere every start is plain.
type ForkServer struct{}

// StartForkServer says there is none here.
func StartForkServer(string, []string, []string, string, func(string)) (*ForkServer, error) {
	return nil, errors.New("fork servers need Linux")
}

func (s *ForkServer) Forked() int    { return 0 }
func (s *ForkServer) Close()         {}
func (s *ForkServer) disable(string) {}
func (p *Process) startForked(*ForkServer, []string, [4]*os.File) error {
	return errors.New("fork servers need Linux")
}
