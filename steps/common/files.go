package common

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Helpers on files the fakes leave (fixtures, PID files) and waiting for them.

func ReadFixture(root, name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(root, "fixtures", name))
	if err != nil {
		return nil, fmt.Errorf("harness: fixture %s: %w", name, err)
	}
	return b, nil
}

func ReadPID(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err != nil {
		return 0, fmt.Errorf("pid file %s holds %q", path, b)
	}
	return pid, nil
}

func WaitFor(grace time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(grace)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}
