package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/steps"
)

// A fixture or golden copy that does not parse stops the run before anything runs, named with
// file:line:column: bad input, never a verdict.
func TestBrokenFixtureIsBadInput(t *testing.T) {
	root := scriptedRoot(t, "")
	golden := filepath.Join(root, "fixtures", "parity", "golden", "plain-openai-run.json")
	if err := os.WriteFile(golden, []byte("[\n  {\"model\": \"m\",\n  }\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "fixtures", "mcp", "two.json"), []byte("{} {}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Validate(Options{Root: root, Ports: []string{"python"}, CallTimeout: 1, ScenarioTimeout: 1, PrepareTimeout: 1, Library: steps.Library()})
	if err == nil {
		t.Fatal("a broken golden copy was accepted")
	}
	for _, want := range []string{"fixtures/parity/golden/plain-openai-run.json:3:3: not valid JSON: invalid character '}'",
		"fixtures/mcp/two.json:1:4: not valid JSON: more than one JSON value"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
}

// The harness's own fixtures all parse.
func TestTheFixturesParse(t *testing.T) {
	if err := checkFixtures(realRoot(t)); err != nil {
		t.Fatal(err)
	}
}

// A scenario comparing with a golden copy its area does not have is bad input at its
// file:line, before anything runs; recording the copies (UpdateGolden) is not.
func TestMissingGoldenCopyIsBadInput(t *testing.T) {
	root := scriptedRoot(t, "")
	if err := os.Remove(filepath.Join(root, "fixtures", "parity", "golden", "plain-anthropic-stream.json")); err != nil {
		t.Fatal(err)
	}
	o := Options{Root: root, Ports: []string{"python"}, CallTimeout: 1, ScenarioTimeout: 1, PrepareTimeout: 1, Library: steps.Library()}
	_, err := Validate(o)
	if err == nil || !strings.Contains(err.Error(), "features/parity/cross-port-parity.feature:") ||
		!strings.Contains(err.Error(), "no golden copy fixtures/parity/golden/plain-anthropic-stream.json") {
		t.Fatalf("a missing golden copy: %v", err)
	}
	o.UpdateGolden = true
	if _, err := Validate(o); err != nil && strings.Contains(err.Error(), "golden") {
		t.Errorf("recording the golden copies refused a missing one: %v", err)
	}
}
