package suite

import (
	"fmt"
	"path/filepath"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// JudgeScenarios fills r.Judged from r.Scenarios and r.Expectations.
func JudgeScenarios(r *result.PortResult, features *Features) {
	r.Judged = make([]result.Judged, len(r.Scenarios))
	for i, o := range r.Scenarios {
		s := Scenario{Key: result.Key{Feature: filepath.Base(o.URI), Name: o.Scenario}, Level: result.Required}
		if features != nil {
			if found, ok := features.Lookup(o.URI, o.Scenario, o.AstNodeIDs); ok {
				s = found
			}
		}
		r.Judged[i] = judge(s, o, r.Expectations.Find(s.Key))
	}
}

// judgeOne is one scenario's verdict against its expectation entry (nil when not listed).
func judgeOne(key result.Key, o result.Outcome, e *result.Entry) result.Judged {
	j := result.Judged{Key: key, Status: o.Status, Entry: e}
	switch o.Status {
	case result.StatusInterrupted:
		j.Verdict = result.Interrupted
		return j
	case result.StatusUnresponsive:
		j.Verdict = result.Unresponsive
		return j
	case result.StatusInconclusive:
		j.Verdict, j.Evidence = result.Inconclusive, result.Evidence(o.Message)
		if e != nil {
			// Timing, or an entry whose failure this scenario can no longer reach: say which.
			j.Note = fmt.Sprintf("the entry at %s (%s) was not confirmed: the scenario never reached its situation", e.Where(), e.Status)
		}
		return j
	case result.StatusPass:
		j.Verdict = result.Pass
		if e != nil && e.Flaky != "" {
			j.Note = "listed as flaky in " + e.Where() + " (" + e.Flaky + "); it passed this time"
		} else if e != nil {
			j.Verdict = result.UnexpectedPass
			j.Note = "listed in " + e.Where() + " (" + e.Reason + ") but it passed; remove the entry"
		}
		return j
	}
	j.Fingerprint, j.Evidence = result.Fingerprint(o.FingerprintText()), result.Evidence(o.Message)
	switch {
	case e == nil && o.Status == result.StatusUnsupported:
		j.Verdict = result.Unsupported
	case e == nil:
		j.Verdict = result.Fail
	case e.Status == o.Status && e.Matches(j.Fingerprint):
		j.Verdict = result.KnownFailure
		j.Note = "known, listed in " + e.Where() + ": " + e.Reason
	case e.Status != o.Status:
		// The entry's status is one this scenario no longer ends with: the entry is stale.
		j.Verdict = result.KnownDifferent
		j.Note = fmt.Sprintf("stale entry at %s: it says %s, the scenario now ends %s [%s] %q; re-record it (--update-expected) and check its reason",
			e.Where(), e.Status, o.Status, j.Fingerprint, j.Evidence)
	default:
		j.Verdict = result.KnownDifferent
		j.Note = fmt.Sprintf("listed in %s as %s [%s] %q but now %s [%s] %q",
			e.Where(), e.Status, e.Fingerprint, e.Evidence, o.Status, j.Fingerprint, j.Evidence)
	}
	return j
}
