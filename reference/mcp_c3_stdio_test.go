//go:build unix

package toolnexus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

type childEnvReport struct {
	Foo    string `json:"TNX_FOO"`
	FooSet bool   `json:"fooSet"`
	Parent string `json:"TNX_PARENT"`
	Cwd    string `json:"cwd"`
	N      string `json:"N"`
}

func childReport(t *testing.T, tools []Tool, server string) childEnvReport {
	t.Helper()
	res := executeByName(t, tools, server+"_env", nil)
	var r childEnvReport
	if res.IsError || json.Unmarshal([]byte(res.Output), &r) != nil {
		t.Fatalf("%s: env tool gave %+v", server, res)
	}
	return r
}

func TestStdioEnvironmentAndCwd(t *testing.T) { // C3.10, C3.11, C3.17-C3.20
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The mode comes from the process env here, so an entry whose own env is ignored still
	// runs the fake and not this test binary's tests.
	t.Setenv(stdioModeEnv, "raw")
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	t.Setenv("TNX_PARENT", "1")
	t.Setenv("TNX_FOO", "")
	os.Unsetenv("TNX_FOO")
	dir := t.TempDir()
	resolved, _ := filepath.EvalSymlinks(dir)
	cmd := []any{exe}
	cfg := map[string]any{
		"environment": map[string]any{"command": cmd, "environment": map[string]any{"TNX_FOO": "bar"}},
		"env-alias":   map[string]any{"command": cmd, "env": map[string]any{"TNX_FOO": "bar"}},
		"both":        map[string]any{"command": cmd, "environment": map[string]any{"TNX_FOO": "a"}, "env": map[string]any{"TNX_FOO": "b"}},
		"empty":       map[string]any{"command": cmd, "environment": map[string]any{}, "env": map[string]any{"TNX_FOO": "b"}},
		"number":      map[string]any{"command": cmd, "environment": map[string]any{"TNX_NUM": 42}},
		"cwd":         map[string]any{"command": cmd, "cwd": dir},
		"desktop":     map[string]any{"command": exe, "args": []any{"--stdio"}, "env": map[string]any{"TNX_FOO": "cd"}},
		"badcwd":      map[string]any{"command": cmd, "cwd": filepath.Join(dir, "no", "such")},
	}
	recordMcpWarnings(t)
	src := loadMcpOK(t, map[string]any{"mcpServers": cfg})
	for name := range cfg {
		want := StatusConnected
		if name == "badcwd" {
			want = StatusFailed
		}
		if src.Status[name] != want {
			t.Fatalf("%s: status %v", name, src.Status)
		}
	}
	check := func(server, foo string, fooSet bool) childEnvReport {
		t.Helper()
		r := childReport(t, src.Tools, server)
		if r.Foo != foo || r.FooSet != fooSet || r.Parent != "1" {
			t.Errorf("%s: child saw TNX_FOO=%q (set %v) TNX_PARENT=%q, want %q (set %v) and 1", server, r.Foo, r.FooSet, r.Parent, foo, fooSet)
		}
		return r
	}
	check("environment", "bar", true)
	check("env-alias", "bar", true)
	check("both", "a", true)
	check("empty", "", false) // environment {} is given, so env is not read
	check("desktop", "cd", true)
	if r := check("number", "", false); r.N != "42" {
		t.Errorf("a number in environment reached the child as %q, want its JSON text 42", r.N)
	}
	if r := check("cwd", "", false); r.Cwd != resolved && r.Cwd != dir {
		t.Errorf("cwd %q, want %q", r.Cwd, resolved)
	}
}

func TestURLBeatsCommandWithoutType(t *testing.T) { // C3.4, C3.5
	f := startStreamable(t, "a")
	entry, pidFile := stdioFake(t, "serve", map[string]any{"url": f.URL()})
	src := loadMcpOK(t, map[string]any{"both": entry})
	if src.Status["both"] != StatusConnected || !f.sawMethod("POST") {
		t.Fatalf("status %v, HTTP fake reached %v", src.Status, f.sawMethod("POST"))
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Fatalf("a child was started for an entry with a url: %v", err)
	}
	// Only a command: the child starts (its PID file appears).
	local, localPID := stdioFake(t, "serve", nil)
	src2 := loadMcpOK(t, map[string]any{"local": local})
	if src2.Status["local"] != StatusConnected || mcpChildPID(t, localPID) <= 0 {
		t.Fatalf("status %v", src2.Status)
	}
}
