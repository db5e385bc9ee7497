package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
	"time"
)

// cpuProfile is the hidden --cpuprofile flag of run and bench: a pprof CPU profile of the
// harness process itself (not its adapters), for work on the harness's own cost. It is left
// out of -h: users never need it.
type cpuProfile struct{ path string }

func (c *cpuProfile) register(fs *flag.FlagSet) {
	fs.StringVar(&c.path, "cpuprofile", "", "write a CPU profile of the harness to this file")
	hideFlag(fs, "cpuprofile")
}

// start begins the profile when the flag was given; stop ends it and closes the file.
func (c *cpuProfile) start() (stop func(), err error) {
	if c.path == "" {
		return func() {}, nil
	}
	f, err := os.Create(c.path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "conformance: --cpuprofile:", err)
		}
	}, nil
}

// hideFlag keeps name out of fs's usage; the flag still parses.
func hideFlag(fs *flag.FlagSet, name string) {
	fs.Usage = func() {
		shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		shown.SetOutput(fs.Output())
		fs.VisitAll(func(f *flag.Flag) {
			if f.Name != name {
				shown.Var(f.Value, f.Name, f.Usage)
			}
		})
		fmt.Fprintf(fs.Output(), "Usage of %s:\n", fs.Name())
		shown.PrintDefaults()
	}
}

// cpuTimes is the CPU (user+sys) this process has used so far, and that of its waited-for
// descendants: adapters, and the stdio fakes and other children they started (the runner is
// their subreaper, so orphans count too once reaped).
func cpuTimes() (self, children time.Duration) {
	var s, c syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	tv := func(t syscall.Timeval) time.Duration {
		return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
	}
	return tv(s.Utime) + tv(s.Stime), tv(c.Utime) + tv(c.Stime)
}
