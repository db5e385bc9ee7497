package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio fake is this test binary run again with these variables set.
const (
	stdioModeEnv = "TOOLNEXUS_MCP_TEST_STDIO" // serve | hang | raw
	stdioPIDEnv  = "TOOLNEXUS_MCP_TEST_PIDFILE"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(stdioModeEnv); mode != "" {
		os.Exit(runStdioFake(mode))
	}
	os.Exit(m.Run())
}

func runStdioFake(mode string) int {
	if path := os.Getenv(stdioPIDEnv); path != "" {
		_ = os.WriteFile(path+".tmp", []byte(fmt.Sprint(os.Getpid())), 0o600)
		_ = os.Rename(path+".tmp", path)
	}
	// A fake must never outlive a broken test run.
	go func() { time.Sleep(60 * time.Second); os.Exit(3) }()
	switch mode {
	case "hang":
		select {}
	case "raw":
		return serveRawStdio()
	}
	_ = newFakeMcpServer("a", "b", "c", "env").Run(context.Background(), &mcp.StdioTransport{})
	return 0
}

var fakeMcpSchema = map[string]any{
	"type":       "object",
	"properties": map[string]any{"x": map[string]any{"type": "string"}},
	"required":   []any{"x"},
}

// newFakeMcpServer serves the named tools; a few names have special results.
func newFakeMcpServer(names ...string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	for _, name := range names {
		s.AddTool(&mcp.Tool{Name: name, Description: "tool " + name, InputSchema: fakeMcpSchema}, fakeMcpHandler(name))
	}
	return s
}

func fakeMcpHandler(name string) mcp.ToolHandler {
	return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		text := func(parts ...string) []mcp.Content {
			var out []mcp.Content
			for _, p := range parts {
				out = append(out, &mcp.TextContent{Text: p})
			}
			return out
		}
		switch name {
		case "structured":
			return &mcp.CallToolResult{Content: text("ignored"), StructuredContent: map[string]any{"n": 1}}, nil
		case "boom":
			return &mcp.CallToolResult{Content: text("bad", "  ", "worse"), IsError: true}, nil
		case "multi":
			return &mcp.CallToolResult{Content: text("x", "y")}, nil
		case "env":
			wd, _ := os.Getwd()
			return &mcp.CallToolResult{Content: text(os.Getenv("FAKE_ENV") + "|" + wd)}, nil
		}
		return &mcp.CallToolResult{Content: text(name + ":" + string(req.Params.Arguments))}, nil
	}
}

// fakeMcpHTTP is a loopback HTTP fake that records requests and counts connections.
type fakeMcpHTTP struct {
	srv      *httptest.Server
	quit     chan struct{}
	conns    atomic.Int64 // ever accepted
	open     atomic.Int64 // currently open
	mu       sync.Mutex
	requests []*http.Request
}

func (f *fakeMcpHTTP) URL() string { return f.srv.URL }

// startFakeMcpHTTP builds the handler (which may use the fake) before the server starts.
func startFakeMcpHTTP(t *testing.T, mk func(f *fakeMcpHTTP) http.Handler) *fakeMcpHTTP {
	t.Helper()
	f := &fakeMcpHTTP{quit: make(chan struct{})}
	h := mk(f)
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, r.Clone(context.Background()))
		f.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	f.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			f.conns.Add(1)
			f.open.Add(1)
		case http.StateClosed, http.StateHijacked:
			f.open.Add(-1)
		}
	}
	f.srv.Start()
	t.Cleanup(func() {
		close(f.quit)
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

func (f *fakeMcpHTTP) seen() []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*http.Request(nil), f.requests...)
}

func (f *fakeMcpHTTP) sawMethod(method string) bool {
	for _, r := range f.seen() {
		if r.Method == method {
			return true
		}
	}
	return false
}

// hold blocks a handler until the client or the test goes away.
func (f *fakeMcpHTTP) hold(r *http.Request, d time.Duration) {
	select {
	case <-r.Context().Done():
	case <-f.quit:
	case <-time.After(d):
	}
}

func startStreamable(t *testing.T, names ...string) *fakeMcpHTTP {
	s := newFakeMcpServer(names...)
	return startFakeMcpHTTP(t, func(*fakeMcpHTTP) http.Handler {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	})
}

func startSSEOnly(t *testing.T, names ...string) *fakeMcpHTTP {
	s := newFakeMcpServer(names...)
	return startFakeMcpHTTP(t, func(*fakeMcpHTTP) http.Handler {
		return mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	})
}

// startSlowMcp answers like a streamable server, but only after delay.
func startSlowMcp(t *testing.T, delay time.Duration, names ...string) *fakeMcpHTTP {
	s := newFakeMcpServer(names...)
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	return startFakeMcpHTTP(t, func(f *fakeMcpHTTP) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			f.hold(r, delay)
			if r.Context().Err() == nil {
				inner.ServeHTTP(w, r)
			}
		})
	})
}

// startRefuseThenHang refuses streamable HTTP (405 on POST) and hangs its SSE GET.
func startRefuseThenHang(t *testing.T) *fakeMcpHTTP {
	return startFakeMcpHTTP(t, func(f *fakeMcpHTTP) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				http.Error(w, "no streamable HTTP here", http.StatusMethodNotAllowed)
				return
			}
			f.hold(r, time.Minute)
		})
	})
}

// startTCPHang accepts connections and never answers; it returns the URL and accept count.
func startTCPHang(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int64
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/mcp", &accepted
}

// closedMcpURL names a loopback port nothing listens on.
func closedMcpURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/mcp"
}

// recordMcpWarnings swaps Warnf for the test's duration and returns a reader.
func recordMcpWarnings(t *testing.T) func() []string {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	old := Warnf
	Warnf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	t.Cleanup(func() { Warnf = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

func countMcpWarnings(lines []string, part string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, part) {
			n++
		}
	}
	return n
}

func mcpToolNames(tools []Tool) []string {
	out := make([]string, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

func mcpInfoNames(infos []ToolInfo) []string {
	out := make([]string, 0, len(infos))
	for _, i := range infos {
		out = append(out, i.Name)
	}
	sort.Strings(out)
	return out
}

func mcpHTTPEntry(url string, extra map[string]any) map[string]any {
	m := map[string]any{"url": url}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func loadMcpOK(t *testing.T, cfg any) *McpSource {
	t.Helper()
	src, err := LoadMcpWithContext(context.Background(), cfg)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	t.Cleanup(src.Close)
	return src
}

func sameMcpNames(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s: got %q, want %q", what, got, want)
	}
}

func mcpJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// mcpEventually polls cond until it holds or d passes.
func mcpEventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
