//go:build unix

package toolnexus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stdioFake is a server entry that re-runs this test binary as an MCP server.
func stdioFake(t *testing.T, mode string, extra map[string]any) (map[string]any, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	// GORACE: a -race child otherwise sleeps a second at exit, which would hide slow closes.
	env := map[string]any{stdioModeEnv: mode, stdioPIDEnv: pidFile, "GORACE": "atexit_sleep_ms=0"}
	entry := map[string]any{"command": exe, "env": env}
	for k, v := range extra {
		entry[k] = v
	}
	return entry, pidFile
}

func mcpChildPID(t *testing.T, pidFile string) int {
	t.Helper()
	var pid int
	mcpEventually(t, 10*time.Second, "the child's PID file", func() bool {
		data, err := os.ReadFile(pidFile)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil && pid > 0
	})
	return pid
}

// mcpChildGone is true once the process no longer exists at all (killed AND reaped: a zombie still exists).
func mcpChildGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestStdioLoadExecuteAndClose(t *testing.T) {
	dir := t.TempDir()
	entry, pidFile := stdioFake(t, "serve", map[string]any{"cwd": dir, "tools": map[string]any{"env": true, "a": true}})
	entry["env"].(map[string]any)["FAKE_ENV"] = "hello"
	src, err := LoadMcp(map[string]any{"mcpServers": map[string]any{"local": entry}})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"local_a", "local_env"})
	pid := mcpChildPID(t, pidFile)
	for _, tool := range src.Tools {
		res, err := tool.Execute(map[string]any{"x": "1"}, nil)
		want := `a:{"x":"1"}`
		if tool.Name == "local_env" {
			resolved, _ := filepath.EvalSymlinks(dir)
			want = "hello|" + resolved
		}
		if err != nil || res.Output != want {
			t.Fatalf("%s: %+v %v, want %q", tool.Name, res, err, want)
		}
	}
	src.Close()
	if !mcpChildGone(pid) {
		t.Fatalf("child %d still exists after Close", pid)
	}
}

func TestStdioCancelMidLoadKillsAndReapsChild(t *testing.T) { // G3.5
	entry, pidFile := stdioFake(t, "hang", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		err error
		at  time.Time
	}
	done := make(chan result, 1)
	go func() {
		_, err := LoadMcpWithContext(ctx, map[string]any{"local": entry})
		done <- result{err, time.Now()}
	}()
	pid := mcpChildPID(t, pidFile)
	time.Sleep(50 * time.Millisecond)
	cancelled := time.Now()
	cancel()
	select {
	case r := <-done:
		if r.err != context.Canceled || r.at.Sub(cancelled) > 2*time.Second {
			t.Fatalf("got %v, %v after cancel", r.err, r.at.Sub(cancelled))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("load did not return after cancel")
	}
	if !mcpChildGone(pid) {
		t.Fatalf("child %d still exists when the load returned", pid)
	}
}

func TestStdioServerTimeoutKillsChild(t *testing.T) {
	warns := recordMcpWarnings(t)
	// 1.5 s leaves a loaded machine time to start the child before the timeout kills it.
	entry, pidFile := stdioFake(t, "hang", map[string]any{"timeout": 1500})
	start := time.Now()
	src := loadMcpOK(t, map[string]any{"local": entry})
	if src.Status["local"] != StatusFailed || time.Since(start) > 4*time.Second {
		t.Fatalf("status %v after %v", src.Status, time.Since(start))
	}
	if !mcpChildGone(mcpChildPID(t, pidFile)) {
		t.Fatal("timed-out child still exists")
	}
	if countMcpWarnings(warns(), `MCP server "local" failed: connect timed out after 1500ms`) != 1 {
		t.Fatalf("warnings %q", warns())
	}
}

func TestStdioListOnlyReapsChild(t *testing.T) { // G6.2
	entry, pidFile := stdioFake(t, "serve", nil)
	inv, err := ListMcpTools(context.Background(), map[string]any{"local": entry})
	if err != nil {
		t.Fatal(err)
	}
	sameMcpNames(t, "tools", mcpInfoNames(inv.Tools["local"]), []string{"a", "b", "c", "env"})
	if pid := mcpChildPID(t, pidFile); !mcpChildGone(pid) {
		t.Fatalf("child %d still exists after ListMcpTools returned", pid)
	}
}

func TestStdioMissingCommandFails(t *testing.T) {
	recordMcpWarnings(t)
	src := loadMcpOK(t, map[string]any{"local": map[string]any{"command": "/definitely/not/here"}})
	if src.Status["local"] != StatusFailed {
		t.Fatalf("status %v", src.Status)
	}
}
