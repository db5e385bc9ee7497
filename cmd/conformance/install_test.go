package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// referenceImpl is the Go reference's implementation name on --ports.
const referenceImpl = "reference"

// TestInstalledOutsideClone installs the CLI into an empty GOBIN, as `go install
// …/cmd/conformance@<version>` would, and runs it from a directory outside the clone: it must
// find the harness built into it, list the scenarios and judge the reference on one scenario.
func TestInstalledOutsideClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the installed CLI")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	gobin, outside, cache := t.TempDir(), t.TempDir(), t.TempDir()
	install := exec.CommandContext(ctx, "go", "install", "./cmd/conformance")
	install.Dir = filepath.Join("..", "..")
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-mod=mod")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	bin := filepath.Join(gobin, "conformance")
	run := func(args ...string) (string, string, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = outside
		cmd.Env = append(os.Environ(), "CONFORMANCE_CACHE="+cache, "TOOLNEXUS_ROOT=", "TOOLNEXUS_GO=")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
	out, errOut, err := run("list", "--uncovered")
	if err != nil {
		t.Fatalf("list --uncovered outside the clone: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if !strings.Contains(errOut, "built-in harness") {
		t.Errorf("the installed CLI did not say it uses its built-in harness; stderr:\n%s", errOut)
	}
	out, errOut, err = run("run", "--quiet", "--ports", referenceImpl, "--tags", "@G5.1")
	if err != nil {
		t.Fatalf("run outside the clone: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "G5.1   pass") {
		t.Errorf("G5.1 did not pass on the reference from the installed CLI:\n%s\n%s", out, errOut)
	}
}
