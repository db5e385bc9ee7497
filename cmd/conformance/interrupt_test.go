package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// envCLI makes this test binary the conformance CLI (its "run" command), so a test can send
// it real signals.
const envCLI = "CONFORMANCE_TEST_CLI"

func init() {
	if os.Getenv(envCLI) != "" {
		os.Exit(cmdRun(os.Args[1:], false))
	}
}

// hangRoot is a harness root (the real one, linked) whose only runner is "hang": the suite's
// scripted adapter that answers hello and then nothing (and offers no mcp.list, so no
// warm-up waits on it).
func hangRoot(t *testing.T) string {
	t.Helper()
	real := harnessRoot(t)
	dir := t.TempDir()
	entries, err := os.ReadDir(real)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "runners" && e.Name() != ".cache" {
			if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	argv, _ := json.Marshal([]string{"/usr/bin/env", "FAKE_MODE=hang", filepath.Join(real, "internal", "suite", "testdata", "scripted-adapter")})
	runner := filepath.Join(dir, "runners", "hang")
	if err := os.MkdirAll(runner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runner, "prepare"), []byte("#!/usr/bin/env bash\necho '"+string(argv)+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"name": "hang", "language": "Go", "implementations": [{"name": "hang"}]}`
	if err := os.WriteFile(filepath.Join(runner, ports.ManifestName), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// interrupted starts a run on a hung adapter, sends it n SIGINTs gap apart once its
// scenarios are waiting, and returns its exit code, stdout, and how long it took to exit
// after the last signal. No adapter of the run may outlive it.
func interrupted(t *testing.T, n int, gap time.Duration, reports string) (int, string, time.Duration) {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "--root", hangRoot(t), "--cache", t.TempDir(), "--ports", "hang", "--tags", "@G1.1",
		"--call-timeout", "1m", "--report-dir", reports)
	cmd.Env = append(os.Environ(), envCLI+"=1", "GORACE=atexit_sleep_ms=0")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	ready := make(chan struct{})
	var errOut bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			errOut.WriteString(sc.Text() + "\n")
			if !said && strings.Contains(sc.Text(), "judged against") {
				said = true
				close(ready)
			}
		}
		exited <- cmd.Wait()
	}()
	select {
	case <-ready:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("the run never said hello:\n%s", errOut.String())
	}
	time.Sleep(time.Second) // its scenarios are in their hung calls
	var last time.Time
	for i := range n {
		if i > 0 {
			time.Sleep(gap)
		}
		_ = cmd.Process.Signal(syscall.SIGINT)
		last = time.Now()
	}
	var code int
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("the run did not end 30 s after %d SIGINTs", n)
	}
	took := time.Since(last)
	t.Logf("exit %d, %s after the last of %d SIGINTs\nstderr:\n%s", code, took.Round(time.Millisecond), n, errOut.String())
	token := []byte(adapter.EnvToken + "=" + strconv.Itoa(cmd.Process.Pid) + "-")
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left := processesWith(token)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Errorf("adapter processes outlived the run: %v", left)
			break
		}
	}
	return code, stdout.String(), took
}

// processesWith lists the processes whose environment holds env.
func processesWith(env []byte) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ")); err == nil && bytes.Contains(b, env) {
			out = append(out, pid)
		}
	}
	return out
}

// After one Ctrl-C the run ends promptly with the reports of what ran, and prints the summary
// and where the reports are, not the whole matrix.
func TestOneInterruptPrintsTheSummaryNotTheMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the CLI")
	}
	reports := t.TempDir()
	code, out, _ := interrupted(t, 1, 0, reports)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if strings.Contains(out, "\nID ") || strings.Contains(out, "G1.1   ") {
		t.Errorf("the matrix was printed after an interrupt:\n%s", out)
	}
	if !strings.Contains(out, "4 not run (interrupted)") || !strings.Contains(out, filepath.Join(reports, "report.md")) {
		t.Errorf("stdout lacks the summary or where the reports are:\n%s", out)
	}
	if n := strings.Count(out, "\n"); n > 12 {
		t.Errorf("%d lines after an interrupt:\n%s", n, out)
	}
	checkReports(t, reports)
}

// Two Ctrl-C 0.3 s apart quit soon, yet the reports of what ran are written as after one, and
// neither the lock nor an unfinished report is left.
func TestTwoInterruptsStillWriteTheReports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the CLI")
	}
	reports := t.TempDir()
	code, _, took := interrupted(t, 2, 300*time.Millisecond, reports)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if took > quitGrace+2*time.Second {
		t.Errorf("the run took %s to quit after the second SIGINT", took)
	}
	checkReports(t, reports)
}

// A third Ctrl-C quits at once, reports or not, and still leaves no lock, no unfinished
// report and no adapter behind.
func TestThirdInterruptQuitsClean(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the CLI")
	}
	reports := t.TempDir()
	code, _, took := interrupted(t, 3, 50*time.Millisecond, reports)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if took > time.Second {
		t.Errorf("the run took %s to quit after the third SIGINT", took)
	}
	checkLeftovers(t, reports)
}

// checkReports: results.json and report.md are there, and no lock or unfinished file is left.
func checkReports(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"results.json", "report.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("no %s after the interrupt: %v", name, err)
		}
	}
	checkLeftovers(t, dir)
}

func checkLeftovers(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if _, err := os.Stat(filepath.Join(dir, ".conformance.lock")); err == nil {
		left = append(left, ".conformance.lock")
	}
	if len(left) > 0 {
		t.Errorf("left in the report dir: %v", left)
	}
}
