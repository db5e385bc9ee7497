package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// godog writes the cucumber report as the steps ran: the first attempt only, a known
// failure as "failed", an absolute uri. fixCucumber rewrites it after judging, so a cucumber
// consumer agrees with the run's exit code and JUnit: a scenario whose verdict is not red has
// no failed step (a pass is "passed"; known, advice, flaky and inconclusive are "skipped",
// with the verdict and its note as the message), an unexpected pass has a failed last step,
// and every uri is relative to the harness root.
func fixCucumber(path, root string, r *result.PortResult, f *Features) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc []map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	verdict := map[string]result.Judged{} // "<file>:<line>" -> judged
	for i, o := range r.Scenarios {
		if s, ok := f.Lookup(o.URI, o.Scenario, o.AstNodeIDs); ok && i < len(r.Judged) {
			verdict[fmt.Sprintf("%s:%d", s.File, s.Line)] = r.Judged[i]
		}
	}
	for _, feat := range doc {
		uri, _ := feat["uri"].(string)
		if rel, err := filepath.Rel(root, uri); err == nil && !strings.HasPrefix(rel, "..") {
			uri = rel
		}
		feat["uri"] = uri
		elements, _ := feat["elements"].([]any)
		for _, e := range elements {
			el, _ := e.(map[string]any)
			line, _ := el["line"].(float64)
			j, ok := verdict[fmt.Sprintf("%s:%d", uri, int(line))]
			if !ok {
				continue
			}
			fixElement(el, j)
		}
	}
	out, err := json.MarshalIndent(doc, "", "    ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, out)
}

func fixElement(el map[string]any, j result.Judged) {
	steps, _ := el["steps"].([]any)
	results := make([]map[string]any, 0, len(steps))
	for _, s := range steps {
		if st, ok := s.(map[string]any); ok {
			if res, ok := st["result"].(map[string]any); ok {
				results = append(results, res)
			}
		}
	}
	if len(results) == 0 {
		return
	}
	note := string(j.Verdict)
	if j.Note != "" {
		note += ": " + j.Note
	}
	switch {
	case j.Verdict == result.UnexpectedPass:
		last := results[len(results)-1]
		last["status"], last["error_message"] = "failed", note
	case !j.Verdict.Red():
		for _, res := range results {
			if res["status"] != "failed" {
				continue
			}
			if j.Verdict == result.Pass {
				// A later attempt passed (an earlier one proved nothing): the verdict is a pass.
				res["status"] = "passed"
				delete(res, "error_message")
				continue
			}
			msg, _ := res["error_message"].(string)
			res["status"], res["error_message"] = "skipped", note+"\n\n"+msg
		}
	}
}
