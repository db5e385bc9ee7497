package toolnexus

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestLoadStreamableToolsAndExecute(t *testing.T) {
	f := startStreamable(t, "a", "structured", "boom", "multi")
	src := loadMcpOK(t, map[string]any{"mcpServers": map[string]any{"srv": mcpHTTPEntry(f.URL(), nil)}})
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"srv_a", "srv_boom", "srv_multi", "srv_structured"})
	if src.Status["srv"] != StatusConnected {
		t.Fatalf("status %v", src.Status)
	}
	a := src.Tools[0]
	if a.Name != "srv_a" || a.Source != SourceMCP || a.Description != "tool a" {
		t.Fatalf("tool a: %+v", a)
	}
	want := `{"additionalProperties":false,"properties":{"x":{"type":"string"}},"required":["x"],"type":"object"}`
	if got := mcpJSON(t, a.InputSchema); got != want {
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
	loadMcpOK(t, map[string]any{"srv": mcpHTTPEntry(f.URL(), map[string]any{
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
	src := loadMcpOK(t, map[string]any{"old": mcpHTTPEntry(f.URL(), map[string]any{"headers": map[string]any{"X-K": "v"}})})
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"old_a", "old_b"})
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
	src2 := loadMcpOK(t, map[string]any{"old": map[string]any{"type": "sse", "url": f.URL()}})
	if src2.Status["old"] != StatusConnected || f.seen()[before].Method != http.MethodGet {
		t.Fatalf("type sse: status %v, first request %s", src2.Status, f.seen()[before].Method)
	}
}

func TestLoadIsolatesAFailedServer(t *testing.T) {
	warns := recordMcpWarnings(t)
	good := startStreamable(t, "a")
	src := loadMcpOK(t, map[string]any{"good": mcpHTTPEntry(good.URL(), nil), "bad": mcpHTTPEntry(closedMcpURL(t), map[string]any{"timeout": 2000})})
	if src.Status["good"] != StatusConnected || src.Status["bad"] != StatusFailed {
		t.Fatalf("status %v", src.Status)
	}
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"good_a"})
	if countMcpWarnings(warns(), `[toolnexus] MCP server "bad" failed: `) != 1 {
		t.Fatalf("warnings %q", warns())
	}
}

func TestLoadDisabledMakesNoConnection(t *testing.T) { // G6.3 for the loader
	f := startStreamable(t, "a")
	src := loadMcpOK(t, map[string]any{
		"off1": mcpHTTPEntry(f.URL(), map[string]any{"enabled": false}),
		"off2": mcpHTTPEntry(f.URL(), map[string]any{"disabled": true}),
		"off3": map[string]any{"command": "/no/such/binary", "enabled": false},
	})
	for _, name := range []string{"off1", "off2", "off3"} {
		if src.Status[name] != StatusDisabled {
			t.Fatalf("status %v", src.Status)
		}
	}
	if len(src.Tools) != 0 || f.conns.Load() != 0 {
		t.Fatalf("tools %v, connections %d", mcpToolNames(src.Tools), f.conns.Load())
	}
}

func TestLoadMcpWithoutContext(t *testing.T) { // G3.4 shape: LoadMcp delegates
	f := startStreamable(t, "a", "b")
	src, err := LoadMcp([]byte(`{"mcpServers":{"s":{"type":"remote","url":"` + f.URL() + `","timeout":30000}}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"s_a", "s_b"})
}

func TestLoadConfigErrorIsReturned(t *testing.T) {
	_, err := LoadMcp([]byte(`{"mcpServers":{"s":`))
	if err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Fatalf("got %v", err)
	}
	_, err = ListMcpTools(context.Background(), filepath.Join(t.TempDir(), "missing.json"))
	if err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("got %v", err)
	}
}

func TestCloseDisconnectsAndIsIdempotent(t *testing.T) {
	f := startStreamable(t, "a")
	src, err := LoadMcp(map[string]any{"srv": mcpHTTPEntry(f.URL(), nil)})
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
	mcpEventually(t, 2*time.Second, "connections closed", func() bool { return f.open.Load() == 0 })
	res, err := src.Tools[0].Execute(map[string]any{"x": "1"}, nil)
	if err != nil || !res.IsError {
		t.Fatalf("execute after close: %+v %v", res, err)
	}
	var nilSrc *McpSource
	nilSrc.Close()
}

func TestCreateToolkitLoadsMcp(t *testing.T) {
	f := startStreamable(t, "a", "b")
	tk, err := CreateToolkit(context.Background(), Options{Builtins: false, McpConfig: map[string]any{"srv": mcpHTTPEntry(f.URL(), map[string]any{"tools": map[string]any{"b": false}})}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	sameMcpNames(t, "tools", mcpToolNames(tk.Tools()), []string{"srv_a"})
	if tk.McpStatus()["srv"] != StatusConnected {
		t.Fatalf("status %v", tk.McpStatus())
	}
}

func writeMcpConfig(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// mcpCountingTransport counts what passes through the process-wide default transport.
type mcpCountingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *mcpCountingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

func TestMcpTrafficAvoidsDefaultTransport(t *testing.T) { // A5.1: MCP has its own client
	ct := &mcpCountingTransport{base: http.DefaultTransport}
	http.DefaultTransport = ct
	t.Cleanup(func() { http.DefaultTransport = ct.base })
	f := startStreamable(t, "a")
	sse := startSSEOnly(t, "a")
	cfg := map[string]any{"s": mcpHTTPEntry(f.URL(), nil), "old": mcpHTTPEntry(sse.URL(), nil)}
	src := loadMcpOK(t, cfg)
	if _, err := src.Tools[0].Execute(map[string]any{"x": "1"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ListMcpTools(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	src.Close()
	if n := ct.n.Load(); n != 0 {
		t.Fatalf("%d MCP requests went through http.DefaultTransport", n)
	}
}

func TestExecuteHonoursCallerContext(t *testing.T) {
	f := startStreamable(t, "a")
	src := loadMcpOK(t, map[string]any{"s": mcpHTTPEntry(f.URL(), nil)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := src.Tools[0].Execute(map[string]any{"x": "1"}, &ToolContext{Ctx: ctx})
	if err != nil || !res.IsError || !strings.Contains(res.Output, "canceled") {
		t.Fatalf("got %+v %v", res, err)
	}
}
