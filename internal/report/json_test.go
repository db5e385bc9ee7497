package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// resultsSchema compiles schema/results.schema.json, asserting formats (date-time) too.
func resultsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "schema", "results.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("compile %s: %v", path, err)
	}
	return s
}

func pinClock(t *testing.T) {
	t.Helper()
	saved := now
	now = func() time.Time { return time.Date(2026, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600)) }
	t.Cleanup(func() { now = saved })
}

func TestJSONMatchesSchema(t *testing.T) {
	pinClock(t)
	schema := resultsSchema(t)
	var buf bytes.Buffer
	if err := JSON(&buf, testCatalogue, richRun()); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("results.json does not match its schema: %v\n%s", err, buf.String())
	}

	var got Results
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Generated != "2026-03-01T11:30:00Z" {
		t.Errorf("version %d generated %q", got.Version, got.Generated)
	}
	if len(got.Catalogue) != 4 || got.Catalogue[1].ID != "G1.2" {
		t.Errorf("catalogue %+v", got.Catalogue)
	}
	wantCells := map[string]map[string]string{
		"go":     {"G1.1": "pass", "G1.2": "fail", "A4.1": "unsupported", "X.1": "pass"},
		"python": {"G1.1": "not present", "G1.2": "not present", "A4.1": "not present", "X.1": "not present"},
		"js":     {"G1.1": "known failure", "G1.2": "pass", "A4.1": "pass", "X.1": "unexpected pass"},
	}
	for _, p := range got.Ports {
		if d := cmp.Diff(wantCells[p.Port], p.Cells); d != "" {
			t.Errorf("%s cells (-want +got):\n%s", p.Port, d)
		}
	}
	g := got.Ports[0]
	if g.Parity == nil || g.Parity.Compared != 3 || len(g.Parity.Differ) != 1 || g.Parity.Differ[0].Key != "c4-rpc-error" {
		t.Errorf("go parity: %+v", g.Parity)
	}
	if got.Ports[1].Parity != nil {
		t.Errorf("a port with nothing compared has parity %+v", got.Ports[1].Parity)
	}
	if g.Library != "toolnexus" || g.Version != "v1.4.0" || g.Runtime != "go1.26.8" || !g.Present {
		t.Errorf("go identity: %+v", g)
	}
	f := g.Scenarios[1]
	if f.Status != "fail" || f.Message != failMessage || f.Stderr != failStderr || f.ElapsedMs != 340 ||
		len(f.Bodies) != 2 || f.Bodies[0]["max_tokens"] != 4096.0 || f.URI != "features/request-shaping.feature" {
		t.Errorf("failing scenario: %+v", f)
	}
	// Stable: empty collections are [] and {}, never null, and a second rendering is identical.
	if strings.Contains(buf.String(), ": null") {
		t.Errorf("null in results.json:\n%s", buf.String())
	}
	var again bytes.Buffer
	_ = JSON(&again, testCatalogue, richRun())
	if again.String() != buf.String() {
		t.Error("two renderings of the same run differ")
	}
}

// The schema is not vacuous: each of these breaks it.
func TestJSONSchemaRejects(t *testing.T) {
	pinClock(t)
	schema := resultsSchema(t)
	var buf bytes.Buffer
	if err := JSON(&buf, testCatalogue, syntheticRun()); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(m map[string]any){
		"unknown verdict": func(m map[string]any) { port(m, 0)["cells"].(map[string]any)["G1.1"] = "maybe" },
		"missing key":     func(m map[string]any) { delete(port(m, 0), "runtime") },
		"extra key":       func(m map[string]any) { port(m, 0)["colour"] = "red" },
		"bad status":      func(m map[string]any) { scenario(m, 0, 0)["status"] = "skipped" },
		"null bodies":     func(m map[string]any) { scenario(m, 0, 0)["bodies"] = nil },
		"bad id":          func(m map[string]any) { port(m, 0)["cells"].(map[string]any)["g1"] = "pass" },
		"bad date":        func(m map[string]any) { m["generated"] = "yesterday" },
		"version 1":       func(m map[string]any) { m["version"] = 1 },
		"bad verdict":     func(m map[string]any) { scenario(m, 0, 0)["verdict"] = "fine" },
		"absent, no why":  func(m map[string]any) { port(m, 1)["reason"] = "" },
		"absent, passing": func(m map[string]any) { port(m, 1)["cells"].(map[string]any)["G1.1"] = "pass" },
	} {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		if err := schema.Validate(m); err == nil {
			t.Errorf("%s: the schema accepted it", name)
		}
	}
}

func port(m map[string]any, i int) map[string]any {
	return m["ports"].([]any)[i].(map[string]any)
}

func scenario(m map[string]any, p, i int) map[string]any {
	return port(m, p)["scenarios"].([]any)[i].(map[string]any)
}

// The schema file itself declares draft 2020-12.
func TestSchemaDraft(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "schema", "results.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", m["$schema"])
	}
}
