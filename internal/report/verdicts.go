package report

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// NotRun is how a report shows an ID a present implementation did not select; it is never a
// verdict.
const NotRun result.Verdict = "not run"

// verdicts lists every verdict in the order tallies print them.
var verdicts = result.Verdicts

// symbol is the glyph the Markdown table shows before each verdict's word.
var symbol = map[result.Verdict]string{
	result.Pass: "✅", result.Fail: "❌", result.UnexpectedPass: "❗", result.KnownFailure: "⚠️",
	result.KnownDifferent: "‼️", result.Unsupported: "➖", result.NotPresent: "⬜", result.Broken: "💥",
	result.Advice: "💡", result.Flaky: "🔀", result.Inconclusive: "❔",
	result.Interrupted: "⏹️", result.Unresponsive: "⏳", NotRun: "·",
}

// verdictOf is a port's verdict for one ID, NotRun when it has none.
func verdictOf(r *result.PortResult, id string) result.Verdict {
	if v := r.Cells[id]; v != "" {
		return v
	}
	return NotRun
}

// failing reports whether a verdict is one a reader must look at: the failures, the expected
// ones and the passes that should have been failures.
func failing(v result.Verdict) bool {
	return v != result.NotPresent && v != NotRun && (v.Red() || v == result.KnownFailure)
}

// shownIDs is the catalogue rows worth a line: those some present port ran, or every row when
// no port is present (so a run with nothing present still shows the whole catalogue).
func shownIDs(cat [][2]string, results []*result.PortResult) [][2]string {
	anyPresent := false
	for _, r := range results {
		anyPresent = anyPresent || r.Present
	}
	if !anyPresent {
		return cat
	}
	var out [][2]string
	for _, e := range cat {
		for _, r := range results {
			if r.Present && r.Cells[e[0]] != "" {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// identity reads one hello field ("library", "version", "runtime") as a string.
func identity(r *result.PortResult, key string) string {
	v, ok := r.Identity[key]
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// describe is the port's identity on one line: "toolnexus 1.2.0 on go1.26", or why it is absent.
func describe(r *result.PortResult) string {
	if !r.Present {
		return absence(r)
	}
	s := strings.TrimSpace(identity(r, "library") + " " + identity(r, "version"))
	if rt := identity(r, "runtime"); rt != "" {
		if s != "" {
			s += " on "
		}
		s += rt
	}
	return s
}

// tally counts a port's verdicts as "12 pass, 1 fail", in the order of verdicts.
func tally(r *result.PortResult) string {
	count := map[result.Verdict]int{}
	for _, v := range r.Cells {
		count[v]++
	}
	var parts []string
	for _, v := range verdicts {
		if count[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[v], v))
		}
	}
	if len(parts) == 0 {
		return "no IDs run"
	}
	return strings.Join(parts, ", ")
}

// scenarioTally counts a port's scenarios by status.
func scenarioTally(r *result.PortResult) string {
	return fmt.Sprintf("%d scenarios: %s", len(r.Scenarios), r.ScenarioTally())
}

// absence says why an implementation has no scenarios: broken, stopped or not present.
func absence(r *result.PortResult) string {
	switch {
	case r.Broken:
		return "broken: " + r.Reason
	case r.Interrupted != "":
		return "not run: " + r.Interrupted
	case r.Required:
		return "not present (required, so the run fails): " + r.Reason
	}
	return "not present: " + r.Reason
}

// stopped is the cause when the run was interrupted or cut by its timeout, else "".
func stopped(results []*result.PortResult) string {
	for _, r := range results {
		if r.Interrupted != "" {
			return r.Interrupted
		}
	}
	return ""
}

// judged is the verdict of the i-th scenario of r.
func judged(r *result.PortResult, o result.Outcome) result.Judged {
	for i := range r.Scenarios {
		if i < len(r.Judged) && r.Scenarios[i].Scenario == o.Scenario && sameIDs(r.Scenarios[i].AstNodeIDs, o.AstNodeIDs) &&
			r.Scenarios[i].URI == o.URI {
			return r.Judged[i]
		}
	}
	return result.Judged{Status: o.Status}
}

func sameIDs(a, b []string) bool {
	return strings.Join(a, "/") == strings.Join(b, "/")
}

// feature is the base name of a scenario's feature file without its extension.
func feature(o result.Outcome) string {
	if o.URI == "" {
		return "unknown"
	}
	return strings.TrimSuffix(filepath.Base(o.URI), filepath.Ext(o.URI))
}

// catalogueTags is the scenario's tags that name catalogue IDs the port was judged on, sorted.
func catalogueTags(r *result.PortResult, o result.Outcome) []string {
	var out []string
	for _, t := range o.Tags {
		if _, ok := r.Cells[t]; ok {
			out = append(out, t)
		}
	}
	return result.SortedIDs(out)
}

// runLine says how the run was made: harness version, wall time, command line ("" when the
// caller gave none of it).
func runLine(v ...result.Versions) string {
	if len(v) == 0 {
		return ""
	}
	var parts []string
	if v[0].Harness != "" {
		parts = append(parts, "harness "+v[0].Harness)
	}
	if v[0].Duration > 0 {
		parts = append(parts, "took "+v[0].Duration.Round(time.Millisecond).String())
	}
	if v[0].Command != "" {
		parts = append(parts, "command: "+v[0].Command)
	}
	return strings.Join(parts, " · ")
}

// replayScenario is the command that reruns one scenario (every row of an outline); "" when
// the result carries no stable id.
func replayScenario(port, id string) string {
	if id == "" {
		return ""
	}
	return fmt.Sprintf("./bin/conformance run --ports %s --tags '@id:%s'", port, id)
}

// replay is the one command that reruns just one cell.
func replay(port, id string) string {
	return fmt.Sprintf("./bin/conformance run --ports %s --tags '@%s'", port, id)
}

// why explains a cell from the implementation's state or else from the notes of those of its
// scenarios keep accepts (expectation entries: known, different evidence, unexpected pass),
// one line per scenario.
func why(r *result.PortResult, id string, verdict result.Verdict, keep func(i int) bool) string {
	switch verdict {
	case result.Broken, result.NotPresent:
		return absence(r)
	case result.Unresponsive:
		return "adapter unresponsive: " + r.Unresponsive
	}
	var lines []string
	for i, o := range r.Scenarios {
		if !hasTag(o.Tags, id) || i >= len(r.Judged) || r.Judged[i].Note == "" || !keep(i) {
			continue
		}
		lines = append(lines, o.Scenario+": "+r.Judged[i].Note)
	}
	return strings.Join(lines, "\n")
}

func hasTag(tags []string, id string) bool {
	for _, t := range tags {
		if t == id {
			return true
		}
	}
	return false
}

// sortedKeys is a map's keys in catalogue order.
func sortedKeys(m map[string]result.Verdict) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return result.SortedIDs(keys)
}
