package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// historyOf runs history on a results.json holding results (judged here), returning its exit
// code and what it printed.
func historyOf(t *testing.T, args []string, results ...*result.PortResult) (int, string) {
	t.Helper()
	for _, r := range results {
		suite.JudgeScenarios(r, nil)
		r.Judge([]string{"G1.1"})
	}
	path := filepath.Join(t.TempDir(), "results.json")
	b, err := json.Marshal(report.NewResults([][2]string{{"G1.1", "RequestParams reach the body"}}, results))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var errOut string
	out := captured(t, &os.Stdout, func() {
		errOut = captured(t, &os.Stderr, func() { code = cmdHistory(append(args, path)) })
	})
	return code, out + errOut
}

func ran(port, version string, status result.Status) *result.PortResult {
	return &result.PortResult{Port: port, Present: true, Identity: map[string]any{"version": version},
		Scenarios: []result.Outcome{{Scenario: "g1 scenario", Tags: []string{"G1.1"}, Status: status}}}
}

// README: history reads reports/results.json; a plain run's shows each port under the
// release it ran, the reference (no releases) and a port that did not run aside.
func TestHistoryReadsAPlainRunsResults(t *testing.T) {
	code, out := historyOf(t, nil,
		ran(result.Reference, "reference (harness v0.3.0)", result.StatusPass),
		ran("python", "0.21.0", result.StatusPass),
		ran("js", "0.16.0 (/tmp/tn/js)", result.StatusFail),
		&result.PortResult{Port: "csharp", Reason: "no dotnet"})
	if code != 0 {
		t.Fatalf("history of a plain run: exit %d\n%s", code, out)
	}
	for _, want := range []string{"python: from which release", "js: from which release", "0.21.0", "not in 0.16.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	for _, not := range []string{"reference:", "csharp:"} {
		if strings.Contains(out, not) {
			t.Errorf("want no %q in:\n%s", not, out)
		}
	}
	if code, out := historyOf(t, nil, ran(result.Reference, "reference (harness v0.3.0)", result.StatusPass)); code != 2 || !strings.Contains(out, "only the reference") {
		t.Errorf("history of a reference-only run: exit %d\n%s", code, out)
	}
}
