package toolnexus

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCancelDuringHangingConnect(t *testing.T) { // G3.1
	url, accepted := startTCPHang(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	src, err := LoadMcpWithContext(ctx, map[string]any{"hang": map[string]any{"url": url}}) // default 30 s timeout
	elapsed := time.Since(start)
	if !errors.Is(err, context.Canceled) || err != context.Canceled || src != nil {
		t.Fatalf("got %v, %v; want context.Canceled itself", src, err)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("took %v after a 100 ms cancel", elapsed)
	}
	if accepted.Load() == 0 {
		t.Fatal("the hang server saw no connection: the test proves nothing")
	}
}

func TestCancelThroughCreateToolkit(t *testing.T) {
	url, _ := startTCPHang(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	tk, err := CreateToolkit(ctx, Options{Builtins: false, McpConfig: map[string]any{"hang": map[string]any{"url": url}}})
	if !errors.Is(err, context.Canceled) || tk != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("got %v, %v after %v", tk, err, time.Since(start))
	}
}

func TestSSEFallbackThenHangEndsWithinServerTimeout(t *testing.T) { // G3.2
	warns := recordMcpWarnings(t)
	f := startRefuseThenHang(t)
	good := startStreamable(t, "a")
	start := time.Now()
	src := loadMcpOK(t, map[string]any{
		"fallback": mcpHTTPEntry(f.URL(), map[string]any{"timeout": 500}),
		"good":     mcpHTTPEntry(good.URL(), nil),
	})
	elapsed := time.Since(start)
	if src.Status["fallback"] != StatusFailed || src.Status["good"] != StatusConnected {
		t.Fatalf("status %v", src.Status)
	}
	if !f.sawMethod(http.MethodPost) || !f.sawMethod(http.MethodGet) {
		t.Fatal("the client never reached the SSE endpoint (no GET after the refused POST)")
	}
	if elapsed < 400*time.Millisecond || elapsed > 2*time.Second {
		t.Fatalf("load took %v, want about the 500 ms server timeout", elapsed)
	}
	if countMcpWarnings(warns(), `MCP server "fallback" failed: connect timed out after 500ms`) != 1 {
		t.Fatalf("warnings %q", warns())
	}
}

func TestDeadlineBeatsSlowServer(t *testing.T) { // G3.3
	f := startSlowMcp(t, 5*time.Second, "a")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := LoadMcpWithContext(ctx, map[string]any{"slow": mcpHTTPEntry(f.URL(), nil)})
	if err != context.DeadlineExceeded || time.Since(start) > 2*time.Second {
		t.Fatalf("got %v after %v; want context.DeadlineExceeded promptly", err, time.Since(start))
	}
}

func TestServerTimeoutIsolatedWithinBudget(t *testing.T) { // A1.1
	warns := recordMcpWarnings(t)
	slow := startSlowMcp(t, 5*time.Second, "a")
	good := startStreamable(t, "a", "b")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	src, err := LoadMcpWithContext(ctx, map[string]any{
		"slow": mcpHTTPEntry(slow.URL(), map[string]any{"timeout": 200}),
		"good": mcpHTTPEntry(good.URL(), nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Status["slow"] != StatusFailed || src.Status["good"] != StatusConnected {
		t.Fatalf("status %v", src.Status)
	}
	sameMcpNames(t, "tools", mcpToolNames(src.Tools), []string{"good_a", "good_b"})
	if time.Since(start) > 2*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
	if countMcpWarnings(warns(), `MCP server "slow" failed: `) != 1 {
		t.Fatalf("warnings %q", warns())
	}
}

func TestCancelClosesServersAlreadyConnected(t *testing.T) { // G3.5 (HTTP side)
	good := startStreamable(t, "a")
	url, _ := startTCPHang(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the good server has been reached, while the hang server still blocks.
		for good.conns.Load() == 0 || len(good.seen()) < 3 {
			if ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := LoadMcpWithContext(ctx, map[string]any{"good": mcpHTTPEntry(good.URL(), nil), "hang": map[string]any{"url": url}})
	if err != context.Canceled || time.Since(start) > 5*time.Second {
		t.Fatalf("got %v after %v", err, time.Since(start))
	}
	mcpEventually(t, 2*time.Second, "the good server's connections to close", func() bool { return good.open.Load() == 0 })
}

func TestAlreadyCancelledContext(t *testing.T) {
	f := startStreamable(t, "a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadMcpWithContext(ctx, map[string]any{"s": mcpHTTPEntry(f.URL(), nil)}); err != context.Canceled {
		t.Fatalf("load: %v", err)
	}
	if _, err := ListMcpTools(ctx, map[string]any{"s": mcpHTTPEntry(f.URL(), nil)}); err != context.Canceled {
		t.Fatalf("list: %v", err)
	}
	if f.conns.Load() != 0 {
		t.Fatal("a cancelled load still connected")
	}
}

func TestUnreachableFailsFastWithReason(t *testing.T) {
	warns := recordMcpWarnings(t)
	start := time.Now()
	src := loadMcpOK(t, map[string]any{"gone": map[string]any{"url": closedMcpURL(t)}})
	if src.Status["gone"] != StatusFailed || time.Since(start) > 5*time.Second {
		t.Fatalf("status %v after %v", src.Status, time.Since(start))
	}
	w := warns()
	if len(w) != 1 || !strings.Contains(w[0], "streamable HTTP") || !strings.Contains(w[0], "SSE fallback") {
		t.Fatalf("warnings %q", w)
	}
}
