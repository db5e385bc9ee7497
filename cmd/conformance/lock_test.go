package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestReportDirLock(t *testing.T) {
	dir := t.TempDir()
	release, err := lockReportDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockReportDir(dir); err == nil || !strings.Contains(err.Error(), "in use by another run (pid "+strconv.Itoa(os.Getpid())+")") {
		t.Errorf("second lock: %v; want it refused, naming the holder", err)
	}
	release()
	// A lock left by a run that is gone is taken over.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".conformance.lock"), []byte(strconv.Itoa(dead.Process.Pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	release, err = lockReportDir(dir)
	if err != nil {
		t.Errorf("stale lock not taken over: %v", err)
	} else {
		release()
	}
}
