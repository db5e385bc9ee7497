package mcpfake

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// child is this test binary, set to serve stdio (see TestMain).
func child(t *testing.T, env ...string) *exec.Cmd {
	cmd := quickExit(exec.Command(os.Args[0], "-test.run=^$"))
	cmd.Env = append(cmd.Env, envChild+"=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestStdio(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "fake.pid")
	cmd := child(t, envPIDFile+"="+pidFile)
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	if _, err := os.Stat(ListedFile(pidFile)); err == nil {
		t.Fatal("listed before any tools/list")
	}
	checkTools(t, cs)
	if _, err := os.Stat(ListedFile(pidFile)); err != nil {
		t.Errorf("a tools/list left no listed marker: %v", err)
	}

	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid != cmd.Process.Pid {
		t.Fatalf("pid file holds %q, the child is %d", b, cmd.Process.Pid)
	}
	if ProcessGone(pid) {
		t.Fatal("ProcessGone while the server runs")
	}
	// Closing the session closes the child's stdin; the server must exit.
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if !cmd.ProcessState.Exited() || !cmd.ProcessState.Success() {
		t.Errorf("child ended with %v", cmd.ProcessState)
	}
	if !ProcessGone(pid) {
		t.Error("ProcessGone false after the child was reaped")
	}
}

// ServeStdio must return when its context ends even though stdin stays open.
func TestStdioContextEnds(t *testing.T) {
	cmd := child(t, envCancelMS+"=100ms")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("child: %v", err)
		}
	case <-time.After(3 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("ServeStdio did not return after its context ended")
	}
}

func TestProcessGone(t *testing.T) {
	if ProcessGone(os.Getpid()) {
		t.Error("this process is gone?")
	}
	for _, pid := range []int{0, -1, 1 << 30} {
		if !ProcessGone(pid) {
			t.Errorf("ProcessGone(%d) = false", pid)
		}
	}
	// An exited child that is not yet reaped is a zombie: gone for teardown.
	cmd := quickExit(exec.Command(os.Args[0], "-test.run=^$"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the child to become a zombie", func() bool { return ProcessGone(cmd.Process.Pid) })
	_ = cmd.Wait()
	if !ProcessGone(cmd.Process.Pid) {
		t.Error("reaped child not gone")
	}
}

// quickExit stops a -race child from sleeping a second before it exits (the
// race runtime's atexit_sleep_ms), which would only slow the tests down.
func quickExit(cmd *exec.Cmd) *exec.Cmd {
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	return cmd
}
