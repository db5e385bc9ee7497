package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestListGoodAndUnreachable(t *testing.T) { // G6.1
	warns := recordMcpWarnings(t)
	good := startStreamable(t, "a", "b")
	inv, err := ListMcpTools(context.Background(), map[string]any{
		"good": mcpHTTPEntry(good.URL(), nil),
		"bad":  mcpHTTPEntry(closedMcpURL(t), map[string]any{"timeout": 2000}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Status["good"] != StatusConnected || inv.Status["bad"] != StatusFailed || len(inv.Status) != 2 {
		t.Fatalf("status %v", inv.Status)
	}
	sameMcpNames(t, "good tools", mcpInfoNames(inv.Tools["good"]), []string{"a", "b"})
	if _, ok := inv.Tools["bad"]; ok {
		t.Fatal("a failed server has no tool list")
	}
	want := `{"properties":{"x":{"type":"string"}},"required":["x"],"type":"object"}`
	for _, info := range inv.Tools["good"] {
		if got := mcpJSON(t, info.InputSchema); got != want || info.Description != "tool "+info.Name {
			t.Fatalf("%s: schema %s description %q", info.Name, got, info.Description)
		}
	}
	if countMcpWarnings(warns(), `MCP server "bad" failed`) != 1 {
		t.Fatalf("warnings %q", warns())
	}
	mcpEventually(t, 2*time.Second, "list-only connections to close", func() bool { return good.open.Load() == 0 })
	if !good.sawMethod("DELETE") {
		t.Fatal("the list-only session was not ended")
	}
}

func TestListJSONShape(t *testing.T) {
	good := startStreamable(t, "a")
	inv, err := ListMcpTools(context.Background(), map[string]any{"s": mcpHTTPEntry(good.URL(), nil), "off": map[string]any{"enabled": false}})
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(mcpJSON(t, inv)), &back); err != nil {
		t.Fatal(err)
	}
	if string(back["status"]["off"]) != `"disabled"` || !strings.Contains(string(back["tools"]["s"]), `"inputSchema"`) {
		t.Fatalf("json %s", mcpJSON(t, inv))
	}
}

func TestListDisabledMakesNoConnection(t *testing.T) { // G6.3
	f := startStreamable(t, "a")
	inv, err := ListMcpTools(context.Background(), map[string]any{"off": mcpHTTPEntry(f.URL(), map[string]any{"enabled": false})})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Status["off"] != StatusDisabled || len(inv.Tools) != 0 || f.conns.Load() != 0 {
		t.Fatalf("status %v tools %v connections %d", inv.Status, inv.Tools, f.conns.Load())
	}
}

func TestListCancelledMidList(t *testing.T) { // G6.4
	url, _ := startTCPHang(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	inv, err := ListMcpTools(ctx, map[string]any{"hang": map[string]any{"url": url}})
	if !errors.Is(err, context.Canceled) || inv != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("got %v, %v after %v", inv, err, time.Since(start))
	}
}

func TestListIgnoresToolsFilter(t *testing.T) { // G6.5
	warns := recordMcpWarnings(t)
	f := startStreamable(t, "a", "get.balance", "c")
	inv, err := ListMcpTools(context.Background(), map[string]any{
		"my.srv": mcpHTTPEntry(f.URL(), map[string]any{"tools": map[string]any{"a": true, "nope": true}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	sameMcpNames(t, "tools", mcpInfoNames(inv.Tools["my.srv"]), []string{"a", "c", "get.balance"})
	if len(warns()) != 0 {
		t.Fatalf("list-only must not warn about filters: %q", warns())
	}
}
