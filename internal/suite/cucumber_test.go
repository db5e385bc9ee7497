package suite

import (
	"slices"
	"testing"
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
		v    Verdict
		in   []string
		want []string
	}{
		{KnownFailure, []string{"passed", "failed", "skipped"}, []string{"passed", "skipped", "skipped"}},
		{Advice, []string{"failed", "skipped"}, []string{"skipped", "skipped"}},
		{Flaky, []string{"passed", "failed"}, []string{"passed", "skipped"}},
		{Pass, []string{"failed", "skipped"}, []string{"passed", "skipped"}}, // a later attempt passed
		{Fail, []string{"passed", "failed"}, []string{"passed", "failed"}},
		{UnexpectedPass, []string{"passed", "passed"}, []string{"passed", "failed"}},
	} {
		el := element(c.in...)
		fixElement(el, Judged{Verdict: c.v, Note: "n"})
		if got := status(el); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v -> %v, want %v", c.v, c.in, got, c.want)
		}
	}
}
