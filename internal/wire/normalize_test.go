package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNormalize(t *testing.T) {
	a := map[string]any{
		"temperature": 1.0,
		"messages": []any{map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"id": "call_7", "function": map[string]any{"name": "echo", "arguments": `{"text": "x"}`}}}}},
		"url": "http://127.0.0.1:4242/s/1",
	}
	b := map[string]any{
		"url":         "http://127.0.0.1:9999/s/8",
		"temperature": 1,
		"messages": []any{map[string]any{"tool_calls": []any{map[string]any{
			"function": map[string]any{"arguments": `{"text":"x"}`, "name": "echo"}, "id": "call_7"}}, "role": "assistant"}},
	}
	if d := cmp.Diff(Normalize(a), Normalize(b)); d != "" {
		t.Fatalf("equal bodies differ after normalising:\n%s", d)
	}
	b["temperature"] = 0.5
	if cmp.Equal(Normalize(a), Normalize(b)) {
		t.Fatal("a real difference was normalised away")
	}
	// The fake's tool-call ids are deterministic: another id is a real difference.
	b["temperature"] = 1
	b["messages"].([]any)[0].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["id"] = "call_99"
	if cmp.Equal(Normalize(a), Normalize(b)) {
		t.Fatal("a different tool-call id was normalised away")
	}
}

func TestNormalizeInventory(t *testing.T) {
	info := func(name string, schema map[string]any) map[string]any {
		return map[string]any{"name": name, "description": "tool " + name, "inputSchema": schema}
	}
	obj := map[string]any{"type": "object"}
	a := map[string]any{"tools": map[string]any{"s": []any{info("a", obj), info("b", obj)}}, "status": map[string]any{"s": "connected"}}
	b := map[string]any{"tools": map[string]any{"s": []any{info("b", obj), info("a", obj)}}, "status": map[string]any{"s": "connected"}}
	if d := cmp.Diff(NormalizeInventory(a), NormalizeInventory(b)); d != "" {
		t.Fatalf("listing order mattered:\n%s", d)
	}
	b["tools"].(map[string]any)["s"].([]any)[0].(map[string]any)["inputSchema"] = map[string]any{"type": "object", "additionalProperties": false}
	if cmp.Equal(NormalizeInventory(a), NormalizeInventory(b)) {
		t.Fatal("a schema difference was normalised away")
	}
}
