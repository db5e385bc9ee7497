package parity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

func port(name string, rows ...row) *result.PortResult {
	r := &result.PortResult{Port: name, Present: true}
	for _, x := range rows {
		r.Scenarios = append(r.Scenarios, result.Outcome{Scenario: x.id + " title", Returned: x.v})
		r.Judged = append(r.Judged, result.Judged{Key: result.Key{ID: x.id}, Verdict: x.verdict})
	}
	return r
}

type row struct {
	id      string
	verdict result.Verdict
	v       any
}

func vals(out string) any {
	return []any{map[string]any{"op": "tool.execute", "result": map[string]any{"output": out, "n": 1.5}}}
}

func root(t *testing.T) string {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "fixtures", "parity", "golden"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRecordKeepsOnlyPassesAndMergesNarrowRuns(t *testing.T) {
	dir := root(t)
	n, err := Record(dir, port("reference",
		row{"a", result.Pass, vals("A")},
		row{"b", result.Fail, vals("wrong")},
		row{"c", result.Pass, nil}))
	if err != nil || n != 1 {
		t.Fatalf("Record = %d, %v; want 1 value recorded", n, err)
	}
	// A narrower run (only b, now passing) keeps a's value and adds b's.
	if _, err := Record(dir, port("reference", row{"b", result.Pass, vals("B")})); err != nil {
		t.Fatal(err)
	}
	g, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 2 || g["a"] == nil || g["b"] == nil {
		t.Fatalf("golden = %v; want a and b", g)
	}
	// A scenario that stops passing on the reference loses its value.
	if _, err := Record(dir, port("reference", row{"a", result.Fail, vals("A")})); err != nil {
		t.Fatal(err)
	}
	if g, _ := Load(dir); g["a"] != nil {
		t.Fatalf("a failed on the reference but kept its golden value: %v", g["a"])
	}
}

func TestCompareShowsOnlyPassedScenariosThatDiffer(t *testing.T) {
	dir := root(t)
	if _, err := Record(dir, port("reference", row{"a", result.Pass, vals("A")}, row{"b", result.Pass, vals("B")}, row{"c", result.Pass, vals("C")})); err != nil {
		t.Fatal(err)
	}
	g, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := port("go",
		row{"a", result.Pass, vals("A")},           // equal (1.5 compares by its JSON text)
		row{"b", result.Pass, vals("B!")},          // differs
		row{"c", result.Fail, vals("C?")},          // its claim failed: that is the verdict, not X.4
		row{"new", result.Pass, vals("no golden")}) // nothing to compare with
	Compare(g, r)
	if r.Parity == nil || r.Parity.Compared != 2 || len(r.Parity.Differ) != 1 {
		t.Fatalf("parity = %+v; want 2 compared, 1 differing", r.Parity)
	}
	d := r.Parity.Differ[0]
	if d.Key != "b" || !strings.Contains(d.Diff, `"B!"`) || !strings.Contains(d.Diff, `"B"`) {
		t.Fatalf("diff = %+v; want b's values side by side", d)
	}
}

func TestCompareWithoutGoldenOrPortIsQuiet(t *testing.T) {
	g, err := Load(t.TempDir())
	if err != nil || g != nil {
		t.Fatalf("Load of a root without the file = %v, %v; want nil, nil", g, err)
	}
	r := port("go", row{"a", result.Pass, vals("A")})
	Compare(g, r)
	if r.Parity != nil {
		t.Fatalf("no golden copy, yet parity = %+v", r.Parity)
	}
}

func TestLoadRejectsAMalformedCopy(t *testing.T) {
	dir := root(t)
	if err := os.WriteFile(filepath.Join(dir, File), []byte(`[1,2]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), File) {
		t.Fatalf("Load = %v; want an error naming %s", err, File)
	}
}

// A whole recording holds this run's values only: a key of a scenario gone since is dropped.
func TestRerecordDropsKeysTheRunDidNotGive(t *testing.T) {
	dir := root(t)
	if _, err := Record(dir, port("reference", row{"gone", result.Pass, vals("G")}, row{"a", result.Pass, vals("A")})); err != nil {
		t.Fatal(err)
	}
	if _, err := Rerecord(dir, port("reference", row{"a", result.Pass, vals("A")})); err != nil {
		t.Fatal(err)
	}
	if g, _ := Load(dir); len(g) != 1 || g["a"] == nil {
		t.Fatalf("golden = %v; want a alone", g)
	}
}

// keyed is a port result whose scenarios carry rows: key "id|row" ("id|" for none).
func keyed(keys ...string) *result.PortResult {
	r := &result.PortResult{Port: "reference", Present: true}
	for _, k := range keys {
		id, rowName, _ := strings.Cut(k, "|")
		r.Scenarios = append(r.Scenarios, result.Outcome{Scenario: k, Returned: vals(k)})
		r.Judged = append(r.Judged, result.Judged{Key: result.Key{ID: id, Row: rowName}, Verdict: result.Pass})
	}
	return r
}

// TestNarrowRecordDropsTheOldShape: a scenario that became an outline, or stopped being one,
// leaves no value of its old shape behind in a run narrowed to it; its neighbours keep theirs.
func TestNarrowRecordDropsTheOldShape(t *testing.T) {
	dir := root(t)
	if _, err := Record(dir, keyed("a|", "ab|z", "b|")); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(dir, keyed("a|x", "a|y")); err != nil {
		t.Fatal(err)
	}
	g, _ := Load(dir)
	if g["a"] != nil || g["a [x]"] == nil || g["a [y]"] == nil || g["ab [z]"] == nil || g["b"] == nil {
		t.Fatalf("after a became an outline: keys %v; want a [x], a [y], ab [z] and b", keysOf(g))
	}
	// Only row x of the outline run again: row y is kept, since the run cannot tell it is gone.
	if _, err := Record(dir, keyed("a|x")); err != nil {
		t.Fatal(err)
	}
	if g, _ := Load(dir); g["a [y]"] == nil {
		t.Fatalf("a narrower run dropped a row it did not run: keys %v", keysOf(g))
	}
	if _, err := Record(dir, keyed("a|")); err != nil {
		t.Fatal(err)
	}
	g, _ = Load(dir)
	if g["a"] == nil || g["a [x]"] != nil || g["a [y]"] != nil || g["ab [z]"] == nil {
		t.Fatalf("after a became plain again: keys %v; want a, ab [z] and b", keysOf(g))
	}
}

func keysOf(g map[string]any) []string {
	var out []string
	for k := range g {
		out = append(out, k)
	}
	return out
}
