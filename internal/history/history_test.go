package history

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

func release(name string, present bool, outcomes ...result.Outcome) *result.PortResult {
	r := &result.PortResult{Port: name, Present: present, Scenarios: outcomes}
	suite.JudgeScenarios(r, nil)
	r.Judge([]string{"G1.1", "G3.1", "G5.1", "X.3"})
	return r
}

func o(id, status, msg string) result.Outcome {
	return result.Outcome{Scenario: id + " scenario", Tags: []string{id}, Status: result.Status(status), Message: msg}
}

func TestBuild(t *testing.T) {
	results := []*result.PortResult{
		release("python@0.21.0", true, o("G1.1", "pass", ""), o("G3.1", "fail", "took 5 s"), o("G5.1", "pass", ""), o("X.3", "pass", "")),
		release("reference", true, o("G1.1", "pass", "")),
		release("python@0.8.0", true,
			o("G1.1", "fail", "client.create failed: failed: TypeError: create_client() got an unexpected keyword argument 'request_params'"),
			o("G3.1", "fail", "mcp.load failed: failed: module 'toolnexus' has no attribute 'load_mcp_with_context'"),
			o("G5.1", "fail", "LLM request 1 has a tools key"), o("X.3", "pass", "")),
		release("python@0.10.0", true, o("G1.1", "pass", ""), o("G3.1", "unsupported", "unsupported: mcp.load"), o("G5.1", "pass", ""), o("X.3", "fail", "bodies differ")),
		release("python@0.9.0", false),
	}
	v := Build(results, "python", []string{"G1.1", "G3.1", "G5.1", "X.3", "A8.1"})
	if d := cmp.Diff([]string{"0.8.0", "0.9.0", "0.10.0", "0.21.0"}, v.Releases); d != "" {
		t.Fatalf("releases (-want +got):\n%s", d)
	}
	want := []Row{
		{ID: "G1.1", Cells: []result.Verdict{Absent, result.NotPresent, result.Pass, result.Pass}, From: "0.10.0"},
		{ID: "G3.1", Cells: []result.Verdict{Absent, result.NotPresent, Absent, result.Fail}},
		{ID: "G5.1", Cells: []result.Verdict{result.Fail, result.NotPresent, result.Pass, result.Pass}, From: "0.10.0"},
		{ID: "X.3", Cells: []result.Verdict{result.Pass, result.NotPresent, result.Fail, result.Pass}, From: "0.21.0"},
		{ID: "A8.1", Cells: []result.Verdict{"", result.NotPresent, "", ""}},
	}
	if d := cmp.Diff(want[:4], v.Rows); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	var b bytes.Buffer
	v.Text(&b)
	for _, s := range []string{"passes from", "G3.1   absent", "not in 0.21.0", "0.10.0"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text view lacks %q:\n%s", s, b.String())
		}
	}
}

func TestLess(t *testing.T) {
	for _, c := range [][2]string{{"0.9.0", "0.10.0"}, {"v0.15.0", "v0.16.0"}, {"golang/v0.9.5", "golang/v0.10.0"}, {"0.18.0", "0.18.1"}} {
		if !Less(c[0], c[1]) || Less(c[1], c[0]) {
			t.Errorf("Less(%s, %s) wrong", c[0], c[1])
		}
	}
}

// A port run as itself (not <port>@<release>) is shown under the release its adapter reported,
// without the build folder an adapter adds.
func TestBuildNamesAPlainColumnByItsRelease(t *testing.T) {
	r := release("js", true, o("G1.1", "pass", ""))
	r.Identity = map[string]any{"version": "0.16.0 (/tmp/tn/js)"}
	v := Build([]*result.PortResult{r}, "js", []string{"G1.1"})
	if d := cmp.Diff([]string{"0.16.0"}, v.Releases); d != "" || len(v.Rows) != 1 || v.Rows[0].From != "0.16.0" {
		t.Errorf("releases (-want +got):\n%s\nrows %+v", d, v.Rows)
	}
}
