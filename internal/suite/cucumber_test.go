package suite

import (
	"slices"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// The cucumber report agrees with the verdicts: only a red one leaves a failed step.
func TestCucumberStepsFollowTheVerdict(t *testing.T) {
	element := func(statuses ...string) map[string]any {
		var steps []any
		for _, s := range statuses {
			steps = append(steps, map[string]any{"result": map[string]any{"status": s, "error_message": "boom"}})
		}
		return map[string]any{"steps": steps}
	}
	status := func(el map[string]any) []string {
		var out []string
		for _, s := range el["steps"].([]any) {
			out = append(out, s.(map[string]any)["result"].(map[string]any)["status"].(string))
		}
		return out
	}
	for _, c := range []struct {
		v    result.Verdict
		in   []string
		want []string
	}{
		{result.KnownFailure, []string{"passed", "failed", "skipped"}, []string{"passed", "skipped", "skipped"}},
		{result.Advice, []string{"failed", "skipped"}, []string{"skipped", "skipped"}},
		{result.Flaky, []string{"passed", "failed"}, []string{"passed", "skipped"}},
		{result.Pass, []string{"failed", "skipped"}, []string{"passed", "skipped"}}, // a later attempt passed
		{result.Fail, []string{"passed", "failed"}, []string{"passed", "failed"}},
		{result.UnexpectedPass, []string{"passed", "passed"}, []string{"passed", "failed"}},
	} {
		el := element(c.in...)
		fixElement(el, result.Judged{Verdict: c.v, Note: "n"})
		if got := status(el); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v -> %v, want %v", c.v, c.in, got, c.want)
		}
	}
}
