package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockReportDir keeps two runs from writing one report directory at once: the second is
// told which run holds it. A lock left by a run that died (kill -9) is taken over.
func lockReportDir(dir string) (release func(), err error) {
	path := filepath.Join(dir, ".conformance.lock")
	for range 2 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		b, _ := os.ReadFile(path)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid > 0 && alive(pid) {
			return nil, fmt.Errorf("%s is in use by another run (pid %d); wait for it or choose another --report-dir", dir, pid)
		}
		_ = os.Remove(path) // its run is gone
	}
	return nil, fmt.Errorf("%s: could not take the report lock", dir)
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
