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
			"function": map[string]any{"arguments": `{"text":"x"}`, "name": "echo"}, "id": "call_99"}}, "role": "assistant"}},
	}
	if d := cmp.Diff(Normalize(a), Normalize(b)); d != "" {
		t.Fatalf("equal bodies differ after normalising:\n%s", d)
	}
	b["temperature"] = 0.5
	if cmp.Equal(Normalize(a), Normalize(b)) {
		t.Fatal("a real difference was normalised away")
	}
}
