package llm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// Every port names its four pre-change key sets; JS and Python always sent "system" on
// anthropic before ADR 0001, Go did not (SPEC.md §1).
func TestEveryPortsPreChangeKeys(t *testing.T) {
	anthropicRun := map[string][]string{
		"go":     {"max_tokens", "messages", "model", "tools"},
		"python": {"max_tokens", "messages", "model", "system", "tools"},
		"js":     {"max_tokens", "messages", "model", "system", "tools"},
	}
	for _, port := range []string{"go", "js", "python", "java", "csharp"} {
		f, err := ports.LoadFacts("../..", port, func([]byte) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		var p preChangeKeys
		if err := f.Decode("preChangeKeys", &p); err != nil || p.Fact == "" {
			t.Fatalf("%s: %v (fact %q)", port, err, p.Fact)
		}
		for _, path := range []string{"openai run", "openai stream", "anthropic run", "anthropic stream"} {
			if keys, ok := p.keysFor(path); !ok || len(keys) < 4 {
				t.Errorf("%s %s: %v", port, path, keys)
			}
		}
		if want, ok := anthropicRun[port]; ok {
			got, _ := p.keysFor("anthropic run")
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s anthropic run (-want +got):\n%s", port, d)
			}
		}
		if _, ok := p.keysFor("gemini run"); ok {
			t.Errorf("%s: an unknown path has keys", port)
		}
	}
}
