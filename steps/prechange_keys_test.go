package steps

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPreChangeKeysFixture(t *testing.T) {
	p, err := loadPreChangeKeys("..")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"openai run", "openai stream", "anthropic run", "anthropic stream"}
	for _, port := range []string{"go", "python", "js", "java", "csharp"} {
		for _, path := range paths {
			keys, fact, err := p.keysFor(port, path)
			if err != nil {
				t.Fatalf("%s %s: %v", port, path, err)
			}
			if fact == "" || len(keys) < 4 {
				t.Errorf("%s %s: keys %v, fact %q", port, path, keys, fact)
			}
		}
	}
	// The facts the fixture rests on: JS and Python always sent "system" on anthropic.
	for impl, want := range map[string][]string{
		"reference":     {"max_tokens", "messages", "model", "tools"},
		"go":            {"max_tokens", "messages", "model", "tools"},
		"python@0.15.0": {"max_tokens", "messages", "model", "system", "tools"},
		"js":            {"max_tokens", "messages", "model", "system", "tools"},
	} {
		got, _, err := p.keysFor(impl, "anthropic run")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s anthropic run (-want +got):\n%s", impl, d)
		}
	}
}

func TestPreChangeKeysUnknownIsAnError(t *testing.T) {
	p, err := loadPreChangeKeys("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.keysFor("rust@1.0", "openai run"); err == nil || !strings.Contains(err.Error(), `"rust"`) {
		t.Errorf("unknown port: err = %v; want an error naming \"rust\"", err)
	}
	if _, _, err := p.keysFor("go", "gemini run"); err == nil || !strings.Contains(err.Error(), `"gemini run"`) {
		t.Errorf("unknown path: err = %v; want an error naming the path", err)
	}
}

func TestNullResultIsNoSuccess(t *testing.T) {
	if err := nullResult("mcp.load", map[string]any{"tools": nil, "status": nil}); err == nil {
		t.Error("mcp.load with null tools passed")
	}
	if err := nullResult("client.run", map[string]any{"text": "hi", "turns": 1.0, "toolCalls": []any{}}); err != nil {
		t.Errorf("a full run report failed: %v", err)
	}
	if err := nullResult("client.run", map[string]any{"turns": 1.0, "toolCalls": []any{}}); err == nil {
		t.Error("a run report without text passed")
	}
}
