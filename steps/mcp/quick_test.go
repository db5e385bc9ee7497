package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"

	mcpfake "github.com/muthuishere/toolnexus-conformance/fakes/mcp"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// detached is an attempt outside any run, for the states' own tests.
func detached(t *testing.T) *World {
	t.Helper()
	s := &godog.Scenario{}
	a, end, err := kernel.Detached(context.Background(), &kernel.Env{TempRoot: t.TempDir()}, kernel.Library{Area()}, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(end)
	return kernel.Get[World](a)
}

// A quick attempt stands only if every server that does not stall had been listed: a cancel
// that lands while "good" is still connecting would test another situation.
func TestQuickPremiseNeedsEveryOtherServerListed(t *testing.T) {
	good, err := mcpfake.StartStreamable()
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	dir := t.TempDir()
	w := detached(t)
	w.stallsFor("stuck", timing.Forever)
	w.mcp().HTTP["good"] = good
	w.mcp().Servers["good"] = map[string]any{"url": good.URL()}
	w.mcp().Servers["stuck"] = map[string]any{"url": "http://127.0.0.1:1/mcp"} // stalls: not asked to be listed
	w.mcp().Servers["off"] = map[string]any{"url": "http://127.0.0.1:1/mcp", "enabled": false}
	w.mcp().PIDFiles["local"] = filepath.Join(dir, "local.pid")
	w.mcp().Servers["local"] = map[string]any{"command": []any{"x"}}

	if why := w.stalls().Unreached(); !strings.Contains(why, `"good" had not been listed`) {
		t.Fatalf("unlisted streamable server: %q", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: good.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if why := w.stalls().Unreached(); !strings.Contains(why, `"local" had not been listed`) {
		t.Fatalf("unlisted stdio server: %q", why)
	}
	if err := os.WriteFile(mcpfake.ListedFile(w.mcp().PIDFiles["local"]), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if why := w.stalls().Unreached(); why != "" {
		t.Errorf("every other server listed, yet: %q", why)
	}
}

// The premise of a quick attempt is every stall its steps registered: a stall the client did
// not reach makes the attempt void.
func TestQuickPremiseNeedsEveryRegisteredStallReached(t *testing.T) {
	stuck, err := mcpfake.StartStreamableStalling("tools/list")
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	w := detached(t)
	w.mcp().HTTP["stuck"] = stuck
	w.mcp().Servers["stuck"] = map[string]any{"url": stuck.URL()}
	w.stallsIn("stuck", "tools/list", timing.Forever)
	if why := w.stalls().Unreached(); !strings.Contains(why, "never received tools/list") {
		t.Fatalf("stall not reached: %q", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: stuck.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	listCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _, _ = cs.ListTools(listCtx, nil) }()
	for stuck.Stalls() == 0 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	if why := w.stalls().Unreached(); why != "" {
		t.Errorf("the stall was reached, yet: %q", why)
	}
}

// An SSE-only stall that no GET ever opened is blocked by the missing fallback (a failure
// naming g3-sse-only-fallback), not inconclusive; once the client holds an SSE session and
// still has not reached the phase, it is a timing question again.
func TestSSEOnlyStallNeverOpenedIsBlocked(t *testing.T) {
	stuck, err := mcpfake.StartSSEStalling("tools/list")
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	w := detached(t)
	w.mcp().HTTP["stuck"] = stuck
	var blocked *kernel.Blocked
	if err := w.sawPhase("stuck", "tools/list"); !errors.As(err, &blocked) || blocked.By != "g3-sse-only-fallback" {
		t.Fatalf("no GET /sse: %v; want blocked by g3-sse-only-fallback", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.SSEClientTransport{Endpoint: stuck.URL()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var inconclusive *kernel.Inconclusive
	if err := w.sawPhase("stuck", "tools/list"); !errors.As(err, &inconclusive) {
		t.Errorf("an SSE session held, tools/list not yet sent: %v; want inconclusive", err)
	}
}
