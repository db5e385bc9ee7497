package kernel

import (
	"context"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/schema"
)

// An option reaches the op's sender; a key no fragment declares, or one set after the op was
// sealed, is a harness error rather than an option silently dropped.
func TestOptionsAreCheckedAndSealed(t *testing.T) {
	proto, err := schema.LoadTree("../..")
	if err != nil {
		t.Fatal(err)
	}
	s := scenarioOf(t, "Feature: f\n  Scenario: s\n    Given a bump\n")
	a, end, err := Detached(context.Background(), &Env{Supports: &Supports{Protocol: proto}}, testLib, s)
	if err != nil {
		t.Fatal(err)
	}
	defer end()
	if err := SetOption(a, "client.create", "retries", 2); err != nil {
		t.Fatal(err)
	}
	if got := OptionsOf(a, "client.create"); len(got) != 1 || got["retries"] != 2 {
		t.Errorf("OptionsOf = %v; want retries 2", got)
	}
	if err := SetOption(a, "client.create", "retrys", 2); err == nil || !strings.Contains(err.Error(), `"retrys" is no argument of client.create`) {
		t.Errorf("a misspelt option: %v", err)
	}
	if owner, _ := proto.ArgOwner("client.create", "retries"); owner != "resilience" {
		t.Errorf("retries is declared by %q; want resilience", owner)
	}
	Seal(a, "client.create")
	if err := SetOption(a, "client.create", "timeoutMs", 5); err == nil || !strings.Contains(err.Error(), "after client.create was sent") {
		t.Errorf("an option after the seal: %v", err)
	}
	if err := SetOption(a, "toolkit.create", "skillsDir", []any{"x"}); err != nil {
		t.Errorf("another op is not sealed: %v", err)
	}
}
