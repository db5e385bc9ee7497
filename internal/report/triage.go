package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// The text reports put what is new or changed (red) first, in full, and give each known
// failure one line: a run's one new failure must not hide among a hundred known ones.

// failed reports whether the scenario has failure evidence (an assertion or an unsupported op).
func failed(o result.Outcome) bool {
	return o.Status == result.StatusFail || o.Status == result.StatusUnsupported
}

// notRunStatus: the scenario never ran (interrupted, or the breaker gave up on the adapter);
// the port's state says why, so these are counted per port, not shown one by one.
func notRunStatus(o result.Outcome) bool {
	return o.Status == result.StatusInterrupted || o.Status == result.StatusUnresponsive
}

// judgedAt is the verdict of r's i-th scenario; an unjudged failure counts as fail.
func judgedAt(r *result.PortResult, i int) result.Judged {
	if i < len(r.Judged) && r.Judged[i].Verdict != "" {
		return r.Judged[i]
	}
	j := result.Judged{Status: r.Scenarios[i].Status, Verdict: result.Pass}
	if failed(r.Scenarios[i]) {
		j.Verdict = result.Fail
	}
	return j
}

// redScenario: a red verdict on a scenario that ran, shown in full; a flaky one too, with
// every attempt's evidence, so a flip is never hidden among the known failures.
func redScenario(r *result.PortResult, i int) bool {
	v := judgedAt(r, i).Verdict
	return (v.Red() || v == result.Flaky) && !notRunStatus(r.Scenarios[i])
}

// knownScenario: a failure whose verdict is not red (a known failure), one line by default.
func knownScenario(r *result.PortResult, i int) bool {
	return failed(r.Scenarios[i]) && !redScenario(r, i) && !judgedAt(r, i).Verdict.Red()
}

// countKnown is how many known scenarios the results hold.
func countKnown(results []*result.PortResult) int {
	n := 0
	for _, r := range results {
		for i := range r.Scenarios {
			if knownScenario(r, i) {
				n++
			}
		}
	}
	return n
}

// knownParts is a known failure's scenario (with its outline row), why it is listed and its
// fingerprint, each on one line.
func knownParts(r *result.PortResult, i int) (scenario, reason, fp string) {
	j := judgedAt(r, i)
	scenario = r.Scenarios[i].Scenario
	if j.Key.Row != "" {
		scenario += " [" + j.Key.Row + "]"
	}
	switch {
	case j.Entry != nil && j.Entry.Reason != "":
		reason = j.Entry.Reason
	case j.Note != "":
		reason = j.Note
	default:
		reason = j.Evidence
	}
	if j.Verdict != result.KnownFailure {
		reason = string(j.Verdict) + ": " + reason
	}
	return safetext.Line(scenario), safetext.Line(reason), j.Fingerprint
}

// redTally counts red verdicts as "1 fail, 2 unexpected pass": tally order, then any others.
func redTally(count map[result.Verdict]int) string {
	order := append([]result.Verdict(nil), verdicts...)
	for _, v := range slices.Sorted(maps.Keys(count)) {
		if !slices.Contains(order, v) {
			order = append(order, v)
		}
	}
	var parts []string
	for _, v := range order {
		if count[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

// plural is "1 known failure" or "3 known failures".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// redCell: a catalogue cell that fails the run (NotRun is the report's own and never red).
func redCell(v result.Verdict) bool { return v != NotRun && v.Red() }
