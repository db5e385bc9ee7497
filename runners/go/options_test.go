package main

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestClientOptionsFromTwoAreas: the llm area's BeforeLLM and the hooks area's AfterLLM share
// the port's Hooks; neither area's option may drop the other's.
func TestClientOptionsFromTwoAreas(t *testing.T) {
	srv := httptest.NewServer(&fakeLLM{})
	defer srv.Close()
	f := &fakeRunner{}
	a := newTestAdapter(t, f)
	mustOK(t, call(t, a, "client.create", map[string]any{"handle": "c", "baseUrl": srv.URL, "style": "openai", "model": "m",
		"apiKey": "k", "beforeLLM": true, "afterLLM": true, "httpClient": "recording"}))
	mustOK(t, call(t, a, "client.run", map[string]any{"client": "c", "prompt": "p"}))
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, slot := range []string{slotBeforeLLM, slotAfterLLM, slotHTTP} {
		if !slices.Contains(f.calls, slot) {
			t.Errorf("%s was not called back; calls %v", slot, f.calls)
		}
	}
}

// TestToolkitOptionsAfterOwn: toolkit.create's own extra tools come first, then the
// suspension area's, in the order given.
func TestToolkitOptionsAfterOwn(t *testing.T) {
	a := newTestAdapter(t, nil)
	schema := map[string]any{"type": "object"}
	mustOK(t, call(t, a, "toolkit.create", map[string]any{"handle": "t",
		"extraTools":      []any{map[string]any{"kind": "host", "name": "own", "description": "d", "inputSchema": schema}},
		"suspendingTools": []any{map[string]any{"name": "waits", "description": "d", "inputSchema": schema}}}))
	res := mustOK(t, call(t, a, "toolkit.describe", map[string]any{"toolkit": "t"}))
	var names []any
	for _, tool := range res["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"])
	}
	if fmt.Sprint(names) != "[own waits]" {
		t.Errorf("tools %v, want [own waits]", names)
	}
	mustOK(t, call(t, a, "toolkit.close", map[string]any{"toolkit": "t"}))
	if e := mustFail(t, call(t, a, "toolkit.describe", map[string]any{"toolkit": "t"})); e["kind"] != "failed" {
		t.Errorf("a closed toolkit answered %v", e)
	}
}
