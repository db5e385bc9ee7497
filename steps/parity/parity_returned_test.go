package parity

import (
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"

	"github.com/google/go-cmp/cmp"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

func TestScrubRunMakesRunsComparable(t *testing.T) {
	v := []any{map[string]any{
		"output": `Get "http://127.0.0.1:40123/x": dial tcp [::1]:9: refused; localhost:8080`,
		"path":   "/tmp/conf-77/a/b.txt",
		"cwd":    `{"cwd":"/home/me/clone"}`,
		"n":      "2.5",
	}}
	got := scrubRun(v, "/tmp/conf-77", "/home/me/clone")
	want := []any{map[string]any{
		"output": `Get "http://127.0.0.1:<port>/x": dial tcp [::1]:<port>: refused; localhost:<port>`,
		"path":   "<tmp>/a/b.txt",
		"cwd":    `{"cwd":"<cwd>"}`,
		"n":      "2.5",
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("scrubRun (-want +got):\n%s", d)
	}
}

func TestParityValuesOnlyForContractScenarios(t *testing.T) {
	responses := []kernel.Response{{Op: "sanitize", Resp: &adapter.Response{OK: true, Result: map[string]any{"value": "/tmp/d1/x"}}}}
	values := func(tags []string) any { return parityOf(tags, responses, "/tmp/d1") }
	if v := values([]string{"G1.1"}); v != nil {
		t.Fatalf("an ADR scenario got X.4 values: %v", v)
	}
	if v := values([]string{"contract", "X.4"}); v != nil {
		t.Fatalf("X.4's own scenario got values twice: %v", v)
	}
	want := []any{map[string]any{"op": "sanitize", "result": map[string]any{"value": "<tmp>/x"}}}
	if d := cmp.Diff(want, values([]string{"contract", "C2.1"})); d != "" {
		t.Fatalf("a contract scenario's values (-want +got):\n%s", d)
	}
}

func TestToolsByNameSortsEveryToolList(t *testing.T) {
	describe := map[string]any{"tools": []any{map[string]any{"name": "b"}, map[string]any{"name": "a"}}, "status": map[string]any{}}
	got := toolsByName("toolkit.describe", describe)
	want := map[string]any{"tools": []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}}, "status": map[string]any{}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("describe (-want +got):\n%s", d)
	}
	if describe["tools"].([]any)[0].(map[string]any)["name"] != "b" {
		t.Errorf("the response itself was reordered; other steps read it as the port sent it")
	}
	adapters := map[string]any{
		"openai":    []any{map[string]any{"function": map[string]any{"name": "z"}}, map[string]any{"function": map[string]any{"name": "y"}}},
		"anthropic": []any{map[string]any{"name": "z"}, map[string]any{"name": "y"}},
		"gemini":    []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "z"}, map[string]any{"name": "y"}}}},
	}
	wantA := map[string]any{
		"openai":    []any{map[string]any{"function": map[string]any{"name": "y"}}, map[string]any{"function": map[string]any{"name": "z"}}},
		"anthropic": []any{map[string]any{"name": "y"}, map[string]any{"name": "z"}},
		"gemini":    []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "y"}, map[string]any{"name": "z"}}}},
	}
	if d := cmp.Diff(wantA, toolsByName("adapters", adapters)); d != "" {
		t.Errorf("adapters (-want +got):\n%s", d)
	}
	exec := map[string]any{"output": "x"}
	if d := cmp.Diff(exec, toolsByName("tool.execute", exec)); d != "" {
		t.Errorf("execute result changed:\n%s", d)
	}
}
