package steps

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

var update = flag.Bool("update", false, "rewrite schema/facts.schema.json from the areas' facts fragments")

// schema/facts.schema.json (the runners' facts.json point editors at it) is what the areas'
// facts fragments compose to.
func TestFactsSchemaFile(t *testing.T) {
	s, err := Library().Facts()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "schema", "facts.schema.json")
	if *update {
		if err := os.WriteFile(path, s.Doc(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, s.Doc()) {
		t.Errorf("schema/facts.schema.json is not what steps/*/facts.json compose to: go test ./steps -run TestFactsSchemaFile -update")
	}
}

// Every port folder's facts.json holds every fact some area reads, and nothing else.
func TestEveryPortsFactsValidate(t *testing.T) {
	s, err := Library().Facts()
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "runners", "*", ports.FactsName))
	if len(dirs) < 5 {
		t.Fatalf("found %d facts files", len(dirs))
	}
	for _, d := range dirs {
		port := filepath.Base(filepath.Dir(d))
		if _, err := ports.LoadFacts("..", port, s.Validate); err != nil {
			t.Error(err)
		}
	}
	for body, want := range map[string]string{
		`{}`: "missing properties",
		`{"deadline": {"kind": "soon", "fact": "x"}}`: "/deadline/kind",
		`{"deadline": {"kind": "deadline", "fact": "x"}, "cancel": {"guarantee": "mid-request", "fact": "x"}, "preChangeKeys": {"fact": "x", "paths": {}}, "extra": 1}`: "extra",
	} {
		if err := s.Validate([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", body, err, want)
		}
	}
}

// One area owns each fact: a key two fragments declare is refused, naming both.
func TestAFactHasOneOwner(t *testing.T) {
	frag := []byte(`{"deadline": {"type": "object"}}`)
	_, err := schema.ComposeFacts([]schema.FactsFragment{{Area: "calls", Doc: frag}, {Area: "llm", Doc: frag}})
	if err == nil || !strings.Contains(err.Error(), "steps/llm/facts.json") || !strings.Contains(err.Error(), "steps/calls") {
		t.Errorf("a fact two areas declare: %v", err)
	}
}
