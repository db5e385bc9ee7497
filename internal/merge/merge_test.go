package merge

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

var cat = [][2]string{
	{"G1.1", "RequestParams keys reach the top level"},
	{"G1.4", "pre-change key sets & <escaping>"},
	{"G3.1", "a cancel ends a hung load"},
	{"X.1", "parity with the reference"},
}

// manifests are the harness's own port manifests: they give the merged columns' order.
func manifests(t *testing.T) *ports.Set {
	t.Helper()
	_, set, err := ports.Harness()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

var versions = result.Versions{Catalogue: "cat0001", Suite: "suite0001"}

// run is a judged run of five implementations: a clean, required reference; python with
// expectations (a known failure, one that failed differently, an unexpected pass), an outline's
// two rows, bodies and stderr, an unresponsive adapter and a version warning; js not present;
// java broken with a log tail; csharp required and not present.
func run() []*result.PortResult {
	ids := []string{"G1.1", "G1.4", "G3.1", "X.1"}
	ref := &result.PortResult{Port: "reference", Present: true, Required: true,
		Identity: map[string]any{"library": "toolnexus", "version": "reference", "runtime": "go1.26"},
		Scenarios: []result.Outcome{
			{Scenario: "params on every path", URI: "features/request-shaping.feature", Tags: []string{"G1.1"},
				Status: "pass", Elapsed: 12 * time.Millisecond, Bodies: []map[string]any{{"model": "m", "temperature": 0.42}}},
			{Scenario: "key sets", URI: "features/request-shaping.feature", Tags: []string{"G1.4"}, Status: "pass", Elapsed: 3 * time.Millisecond},
			{Scenario: "cancel", URI: "features/load-context.feature", Tags: []string{"G3.1"}, Status: "pass", Elapsed: 101 * time.Millisecond, Quick: true},
		},
	}
	keySets := result.Key{Feature: "request-shaping.feature", Name: "key sets"}
	parity := result.Key{Feature: "cross-port-parity.feature", Name: "parity"}
	params := result.Key{Feature: "request-shaping.feature", Name: "params on every path"}
	py := &result.PortResult{Port: "python", Present: true, Required: true,
		Identity:       map[string]any{"library": "toolnexus", "version": "0.21.0", "runtime": "CPython 3.13"},
		Unresponsive:   "3 calls in a row timed out",
		VersionWarning: "expectations/python.txt was written against version \"0.20.0\"",
		Parity: &result.Parity{Golden: "fixtures/parity/golden/x4-returned.json", Compared: 2,
			Differ: []result.ParityDiff{{Key: "c4-rpc-error", Scenario: "rpc error", Diff: "- a\n+ b"}}},
		Expectations: &result.Expectations{Path: "expectations/python.txt", Version: "0.20.0", Entries: []*result.Entry{
			{Key: keySets, Status: result.StatusFail, Fingerprint: result.Fingerprint("key set differs"), Evidence: "key set differs",
				Reason: "anthropic adds system", Line: 3, File: "expectations/python.txt"},
			{Key: parity, Status: result.StatusFail, Fingerprint: "0123456789", Evidence: "content null",
				Reason: "content null", Line: 9, File: "expectations/python.txt"},
			{Key: result.Key{Feature: params.Feature, Name: params.Name, Row: "anthropic"}, Status: result.StatusFail,
				Fingerprint: "abcdefabcd", Evidence: "old", Reason: "differs on anthropic", Line: 15, File: "expectations/python.txt"},
		}},
		Scenarios: []result.Outcome{
			{Scenario: "params on every path", URI: "features/request-shaping.feature", Tags: []string{"G1.1"}, AstNodeIDs: []string{"7", "8"},
				Status: "fail", Message: "LLM request 1 differs (-want +got):\n- 999\n+ 4096", Stderr: "<script>x</script>\ntrace",
				Elapsed: 40 * time.Millisecond, Bodies: []map[string]any{{"model": "m", "max_tokens": 4096.0, "messages": []any{map[string]any{"role": "user"}}}}},
			{Scenario: "params on every path", URI: "features/request-shaping.feature", Tags: []string{"G1.1", "anthropic"}, AstNodeIDs: []string{"7", "9"},
				Status: "fail", Message: "LLM request 2 differs", Elapsed: 41 * time.Millisecond,
				Retried: "a first attempt with limits cut to 150ms proved nothing (it never reached tools/list); judged as written"},
			{Scenario: "key sets", URI: "features/request-shaping.feature", Tags: []string{"G1.4", "anthropic"}, Status: "fail", Message: "key set differs", Elapsed: time.Millisecond},
			{Scenario: "cancel", URI: "features/load-context.feature", Tags: []string{"G3.1"}, Status: "unresponsive", Message: "not run: adapter unresponsive"},
			{Scenario: "parity", URI: "features/cross-port-parity.feature", Tags: []string{"X.1"}, Status: "pass", Elapsed: 7 * time.Millisecond},
		},
	}
	java := &result.PortResult{Port: "java", Broken: true, Required: true, Reason: "prepare failed (exit 1)", LogTail: "[ERROR] javac: <boom>"}
	js := &result.PortResult{Port: "js", Reason: "node is not on PATH"}
	cs := &result.PortResult{Port: "csharp", Required: true, Reason: "no dotnet on PATH"}
	out := []*result.PortResult{ref, py, js, java, cs}
	for _, r := range out {
		suite.JudgeScenarios(r, nil)
		r.Judge(ids)
	}
	// Rows of one outline: the second row's key, as judging with the features would give.
	py.Judged[0].Key.Row, py.Judged[1].Key.Row = "openai", "anthropic"
	py.Judged[1] = result.Judged{Key: py.Judged[1].Key, Status: "fail", Verdict: result.KnownDifferent,
		Fingerprint: result.Fingerprint("LLM request 2 differs"), Evidence: "LLM request 2 differs",
		Entry: py.Expectations.Entries[2], Note: "listed in expectations/python.txt:15 as fail [abcdefabcd] \"old\""}
	return out
}

// generated is the one line that differs between two writes: the clock.
var generated = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = generated.ReplaceAllString(string(b), "<generated>")
	}
	return out
}

// TestMergeEqualsCombinedRun writes each implementation's results.json from a separate "run",
// merges them and checks every report file and the terminal matrix against one combined run.
func TestMergeEqualsCombinedRun(t *testing.T) {
	combined := t.TempDir()
	if _, err := report.WriteFiles(combined, cat, run(), false, versions); err != nil {
		t.Fatal(err)
	}
	var in []Input
	parts := run()
	slices.Reverse(parts)
	for i, r := range parts {
		dir := t.TempDir()
		if _, err := report.WriteFiles(dir, cat, []*result.PortResult{r}, false, versions); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "results.json")
		doc, err := report.ReadResults(path)
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		in = append(in, Input{Path: path, Doc: doc})
	}
	m, err := Merge(in, manifests(t))
	if err != nil {
		t.Fatal(err)
	}
	merged := t.TempDir()
	if _, err := report.WriteFiles(merged, m.Catalogue, m.Results, false, m.Versions); err != nil {
		t.Fatal(err)
	}
	want, got := readAll(t, combined), readAll(t, merged)
	if len(want) < 5 {
		t.Fatalf("combined run wrote only %v", want)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merged reports differ from the combined run's (-combined +merged):\n%s", d)
	}
	ids := []string{"G1.1", "G1.4", "G3.1", "X.1"}
	var wm, gm bytes.Buffer
	report.Matrix(&wm, ids, run(), false, false)
	report.Matrix(&gm, ids, m.Results, false, false)
	if d := cmp.Diff(wm.String(), gm.String()); d != "" {
		t.Errorf("merged matrix differs (-combined +merged):\n%s", d)
	}
	for _, field := range []string{`"suiteVersion": "suite0001"`, `"broken": true`, `"required": true`,
		`"unresponsive": "3 calls`, `"row": "anthropic"`, `"verdict": "known, different evidence"`, `"verdict": "known failure"`,
		`"verdict": "unexpected pass"`, `"fingerprint": "0123456789"`, `"versionWarning": "expectations/python.txt`, `"key": "c4-rpc-error"`} {
		if !strings.Contains(got["results.json"], field) {
			t.Errorf("merged results.json lacks %s", field)
		}
	}
	for _, r := range m.Results {
		if want := map[string]bool{"reference": false, "python": true, "java": true, "js": false, "csharp": true}[r.Port]; r.Red() != want {
			t.Errorf("merged %s: red = %v, want %v", r.Port, r.Red(), want)
		}
	}
}

func doc(t *testing.T, v result.Versions, ports ...string) report.Results {
	t.Helper()
	var rs []*result.PortResult
	for _, p := range ports {
		rs = append(rs, &result.PortResult{Port: p, Reason: "absent"})
	}
	return report.NewResults(cat, rs, v)
}

func TestMergeRefuses(t *testing.T) {
	other := result.Versions{Catalogue: versions.Catalogue, Suite: "suite0002"}
	cases := []struct {
		name string
		in   []Input
		want string
	}{
		{"suite version", []Input{{"a.json", doc(t, versions, "reference")}, {"b.json", doc(t, other, "python")}}, "b.json was judged by suite suite0002"},
		{"catalogue version", []Input{{"a.json", doc(t, versions, "reference")}, {"b.json", doc(t, result.Versions{Catalogue: "cat9", Suite: "suite0001"}, "python")}}, "catalogue cat9"},
		{"no versions", []Input{{"old.json", doc(t, result.Versions{}, "go")}}, "old.json has no catalogue or suite version"},
		{"duplicate", []Input{{"a.json", doc(t, versions, "reference")}, {"b.json", doc(t, versions, "reference")}}, "reference is in both a.json and b.json"},
		{"nothing", nil, "no results.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Merge(c.in, manifests(t))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Merge error = %v, want one containing %q", err, c.want)
			}
		})
	}
}
