//go:build unix

package toolnexus

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestBashTool(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name    string
		args    map[string]any
		tc      *ToolContext
		isError bool
		output  string // exact, or a part when prefixed with "~"
	}{
		{"stdout", map[string]any{"command": "printf hi"}, nil, false, "hi"},
		{"stdout and stderr in one stream", map[string]any{"command": "echo out; echo err >&2; echo out2"}, nil, false, "out\nerr\nout2\n"},
		{"workdir", map[string]any{"command": "pwd", "workdir": dir}, nil, false, dir + "\n"},
		{"non-zero exit", map[string]any{"command": "echo nope; exit 3"}, nil, true, "nope\nbash: command failed with exit code 3"},
		{"non-zero exit without output", map[string]any{"command": "exit 7"}, nil, true, "bash: command failed with exit code 7"},
		{"a missing workdir", map[string]any{"command": "true", "workdir": filepath.Join(dir, "none")}, nil, true, "~no such file"},
		{"timeout in ms", map[string]any{"command": "echo started; sleep 5", "timeout": 200.0}, nil, true, "started\nbash: command timed out after 200 ms"},
		{"timeout as json.Number", map[string]any{"command": "sleep 5", "timeout": json.Number("150")}, nil, true, "bash: command timed out after 150 ms"},
		{"ToolContext timeout when the args name none", map[string]any{"command": "sleep 5"}, &ToolContext{Timeout: 120}, true, "bash: command timed out after 120 ms"},
		{"the args' timeout wins over the context's", map[string]any{"command": "sleep 0.2; echo ok", "timeout": 5000.0}, &ToolContext{Timeout: 50}, false, "ok\n"},
		{"empty command", map[string]any{"command": "  "}, nil, true, `bash: "command" is empty`},
		{"a zero timeout", map[string]any{"command": "true", "timeout": 0.0}, nil, true, `bash: "timeout" must be a positive number, got 0`},
		{"stdin is empty", map[string]any{"command": "cat; echo done"}, nil, false, "done\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			res := runBuiltin(t, "bash", c.args, c.tc)
			wantBuiltinResult(t, res, c.isError, c.output)
			if time.Since(start) > 4*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
		})
	}
	if res := runBuiltin(t, "bash", map[string]any{"command": "exit 4"}, nil); res.Metadata["exitCode"] != 4 {
		t.Fatalf("metadata = %v", res.Metadata)
	}
}

// processGone is true once pid no longer runs; a zombie nobody reaped yet counts as gone.
func processGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false // no /proc: only the signal probe can tell, and it said alive
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

func TestBashLeavesNoChildBehind(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	backgroundPid := func() int {
		t.Helper()
		data, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		return pid
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cases := []struct {
		name string
		args map[string]any
		tc   *ToolContext
		arm  func()
	}{
		{"on timeout", map[string]any{"command": "sleep 30 & echo $! > " + pidFile + "; wait", "timeout": 300.0}, nil, nil},
		{"after a normal exit", map[string]any{"command": "sleep 30 > /dev/null 2>&1 & echo $! > " + pidFile}, nil, nil},
		{"after a normal exit that kept the output open", map[string]any{"command": "sleep 30 & echo $! > " + pidFile}, nil, nil},
		{"on cancellation", map[string]any{"command": "sleep 30 & echo $! > " + pidFile + "; wait"}, &ToolContext{Ctx: cancelled},
			func() { time.AfterFunc(300*time.Millisecond, cancel) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(pidFile)
			if c.arm != nil {
				c.arm()
			}
			start := time.Now()
			res := runBuiltin(t, "bash", c.args, c.tc)
			if time.Since(start) > 5*time.Second {
				t.Fatalf("the call took %v: %+v", time.Since(start), res)
			}
			if c.tc != nil && (!res.IsError || !strings.Contains(res.Output, "bash: command cancelled")) {
				t.Fatalf("cancel: %+v", res)
			}
			pid := backgroundPid()
			mcpEventually(t, 3*time.Second, "the background sleep to be killed", func() bool { return processGone(pid) })
		})
	}
}
