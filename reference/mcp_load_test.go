package toolnexus

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadStreamableToolsAndExecute(t *testing.T) {
	f := startStreamable(t, "a", "structured", "boom", "multi")
	src := loadOK(t, map[string]any{"mcpServers": map[string]any{"srv": httpServer(f.URL(), nil)}})
	sameStrings(t, "tools", namesOf(src.Tools), []string{"srv_a", "srv_boom", "srv_multi", "srv_structured"})
	if src.Status["srv"] != StatusConnected {
		t.Fatalf("status %v", src.Status)
	}
	a := src.Tools[0]
	if a.Name != "srv_a" || a.Source != SourceMCP || a.Description != "tool a" {
		t.Fatalf("tool a: %+v", a)
	}
	want := `{"additionalProperties":false,"properties":{"x":{"type":"string"}},"required":["x"],"type":"object"}`
	if got := mustJSON(t, a.InputSchema); got != want {
		t.Fatalf("schema %s, want %s", got, want)
	}
	byName := map[string]Tool{}
	for _, tool := range src.Tools {
		byName[tool.Name] = tool
	}
	cases := map[string]ToolResult{
		"srv_a":          {Output: `a:{"x":"1"}`},
		"srv_structured": {Output: `{"n":1}`},
		"srv_boom":       {Output: "bad\n\nworse", IsError: true},
		"srv_multi":      {Output: "x\ny"},
	}
	for name, want := range cases {
		got, err := byName[name].Execute(map[string]any{"x": "1"}, &ToolContext{Ctx: context.Background(), Timeout: 5000})
		if err != nil || got.Output != want.Output || got.IsError != want.IsError || got.Metadata["server"] != "srv" {
			t.Errorf("%s: got %+v, %v; want %+v", name, got, err, want)
		}
	}
	// Execute with a nil ToolContext and nil args still works.
	if got, err := byName["srv_multi"].Execute(nil, nil); err != nil || got.Output != "x\ny" {
		t.Errorf("nil ctx: %+v %v", got, err)
	}
}

func TestLoadSendsExpandedHeadersOnEveryRequest(t *testing.T) {
	t.Setenv("TN_TEST_TOKEN", "tok-123")
	f := startStreamable(t, "a")
	loadOK(t, map[string]any{"srv": httpServer(f.URL(), map[string]any{
		"headers": map[string]any{"Authorization": "Bearer ${TN_TEST_TOKEN}", "X-Extra": "1"},
	})})
	reqs := f.seen()
	if len(reqs) == 0 {
		t.Fatal("no requests")
	}
	for _, r := range reqs {
		if r.Header.Get("Authorization") != "Bearer tok-123" || r.Header.Get("X-Extra") != "1" {
			t.Fatalf("%s %s lacks headers: %v", r.Method, r.URL, r.Header)
		}
	}
}

func TestLoadSSEOnlyServerThroughFallback(t *testing.T) { // G3.6
	f := startSSEOnly(t, "a", "b")
	src := loadOK(t, map[string]any{"old": httpServer(f.URL(), map[string]any{"headers": map[string]any{"X-K": "v"}})})
	sameStrings(t, "tools", namesOf(src.Tools), []string{"old_a", "old_b"})
	if src.Status["old"] != StatusConnected || !f.sawMethod(http.MethodGet) {
		t.Fatalf("status %v, GET seen %v", src.Status, f.sawMethod(http.MethodGet))
	}
	for _, r := range f.seen() {
		if r.Header.Get("X-K") != "v" {
			t.Fatalf("SSE request %s lacks the header", r.Method)
		}
	}
	res, err := src.Tools[0].Execute(map[string]any{"x": "q"}, nil)
	if err != nil || res.Output != `a:{"x":"q"}` {
		t.Fatalf("execute over SSE: %+v %v", res, err)
	}
	// type "sse" skips the streamable attempt altogether.
	before := len(f.seen())
	src2 := loadOK(t, map[string]any{"old": map[string]any{"type": "sse", "url": f.URL()}})
	if src2.Status["old"] != StatusConnected || f.seen()[before].Method != http.MethodGet {
		t.Fatalf("type sse: status %v, first request %s", src2.Status, f.seen()[before].Method)
	}
}

func TestLoadIsolatesAFailedServer(t *testing.T) {
	warns := recordMcpWarnings(t)
	good := startStreamable(t, "a")
	src := loadOK(t, map[string]any{"good": httpServer(good.URL(), nil), "bad": httpServer(closedURL(t), map[string]any{"timeout": 2000})})
	if src.Status["good"] != StatusConnected || src.Status["bad"] != StatusFailed {
		t.Fatalf("status %v", src.Status)
	}
	sameStrings(t, "tools", namesOf(src.Tools), []string{"good_a"})
	if warningsContaining(warns(), `[toolnexus] MCP server "bad" failed: `) != 1 {
		t.Fatalf("warnings %q", warns())
	}
}

func TestLoadDisabledMakesNoConnection(t *testing.T) { // G6.3 for the loader
	f := startStreamable(t, "a")
	src := loadOK(t, map[string]any{
		"off1": httpServer(f.URL(), map[string]any{"enabled": false}),
		"off2": httpServer(f.URL(), map[string]any{"disabled": true}),
		"off3": map[string]any{"command": "/no/such/binary", "enabled": false},
	})
	for _, name := range []string{"off1", "off2", "off3"} {
		if src.Status[name] != StatusDisabled {
			t.Fatalf("status %v", src.Status)
		}
	}
	if len(src.Tools) != 0 || f.conns.Load() != 0 {
		t.Fatalf("tools %v, connections %d", namesOf(src.Tools), f.conns.Load())
	}
}

func TestLoadMcpWithoutContext(t *testing.T) { // G3.4 shape: LoadMcp delegates
	f := startStreamable(t, "a", "b")
	src, err := LoadMcp([]byte(`{"mcpServers":{"s":{"type":"remote","url":"` + f.URL() + `","timeout":30000}}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	sameStrings(t, "tools", namesOf(src.Tools), []string{"s_a", "s_b"})
}

func TestLoadConfigErrorIsReturned(t *testing.T) {
	_, err := LoadMcp([]byte(`{"s":{"url":"http://127.0.0.1:1","tools":{"a":"yes"}}}`))
	if err == nil || !strings.Contains(err.Error(), `server "s"`) {
		t.Fatalf("got %v", err)
	}
	_, err = ListMcpTools(context.Background(), filepath.Join(t.TempDir(), "missing.json"))
	if err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("got %v", err)
	}
}

func TestCloseDisconnectsAndIsIdempotent(t *testing.T) {
	f := startStreamable(t, "a")
	src, err := LoadMcp(map[string]any{"srv": httpServer(f.URL(), nil)})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	src.Close()
	src.Close()
	if time.Since(start) > 3*time.Second {
		t.Fatalf("close took %v", time.Since(start))
	}
	if !f.sawMethod(http.MethodDelete) {
		t.Fatal("no session DELETE on close")
	}
	eventually(t, 2*time.Second, "connections closed", func() bool { return f.open.Load() == 0 })
	res, err := src.Tools[0].Execute(map[string]any{"x": "1"}, nil)
	if err != nil || !res.IsError {
		t.Fatalf("execute after close: %+v %v", res, err)
	}
	var nilSrc *McpSource
	nilSrc.Close()
}

func TestCreateToolkitLoadsMcp(t *testing.T) {
	f := startStreamable(t, "a", "b")
	tk, err := CreateToolkit(context.Background(), Options{McpConfig: map[string]any{"srv": httpServer(f.URL(), map[string]any{"tools": map[string]any{"b": false}})}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	sameStrings(t, "tools", namesOf(tk.Tools()), []string{"srv_a"})
	if tk.McpStatus()["srv"] != StatusConnected {
		t.Fatalf("status %v", tk.McpStatus())
	}
}

func writeConfig(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
