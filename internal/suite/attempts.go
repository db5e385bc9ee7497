package suite

import (
	"fmt"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// MaxAttempts is how many times a scenario runs at most (SPEC.md §2 "Retries"): a red first
// attempt of a required scenario, or an inconclusive one, is tried again on fresh fakes and a
// fresh adapter, as Chromium's and WPT's runners retry a failure before it counts.
const MaxAttempts = 3

// retry is the runner's policy for one scenario after `attempts` attempts: run it again
// while the attempts are inconclusive, or while a required scenario's verdict would be red
// (a new or different failure, an unexpected pass). A known failure, a pass and a
// deterministic "unsupported" are final at once; a recommended failure is only advice. A
// scenario at fault itself (result.Outcome.Harness) would fail the same way again.
func retry(s Scenario, o result.Outcome, e *result.Entry, attempts int) bool {
	if attempts >= MaxAttempts || o.Harness != "" {
		return false
	}
	if o.Status == result.StatusInconclusive || o.Final {
		return !o.Final // a blocked failure is final too: no attempt can change it
	}
	if s.Level == result.Recommended || o.Status == result.StatusUnsupported {
		return false
	}
	switch judgeOne(s.Key, o, e).Verdict {
	case result.Fail, result.KnownDifferent, result.UnexpectedPass:
		return true
	}
	return false
}

// judge is one scenario's verdict: over its attempts, then by its level.
func judge(s Scenario, o result.Outcome, e *result.Entry) result.Judged {
	j := judgeAttempts(s.Key, o, e)
	j.Level, j.Source = s.Level, s.SourceText()
	if s.Level == result.Recommended {
		switch j.Verdict {
		case result.Fail, result.KnownDifferent, result.Unsupported, result.KnownFailure:
			// Our reading, not the ADR's: always shown as advice, in its own count (an
			// entry only adds its reason), never the port's failure.
			note := "recommended (" + string(j.Verdict) + ")"
			if j.Note != "" {
				note += ": " + j.Note
			}
			j.Verdict, j.Note = result.Advice, note
		case result.UnexpectedPass:
			j.Verdict = result.Pass // the advice was taken; the stale entry is only noted
		}
	}
	return j
}

// judgeAttempts folds a scenario's attempts into one verdict. Inconclusive attempts prove
// nothing and are set aside; if none is left the verdict is inconclusive. Conclusive
// attempts that all passed, or all failed, give that verdict (a failure that matches the
// expectations in any attempt is that known failure); attempts that disagree are flaky,
// unless the expectations list the scenario as flaky with this failure.
func judgeAttempts(key result.Key, o result.Outcome, e *result.Entry) result.Judged {
	if len(o.Attempts) == 0 {
		return judgeOne(key, o, e)
	}
	var passed, failed []result.Judged
	for _, a := range o.Attempts {
		oa := o
		oa.Status, oa.Message, oa.Stable = a.Status, a.Message, a.Stable
		j := judgeOne(key, oa, e)
		switch a.Status {
		case result.StatusInconclusive:
		case result.StatusPass:
			passed = append(passed, j)
		default:
			failed = append(failed, j)
		}
	}
	last := judgeOne(key, o, e)
	last.Attempts = o.Attempts
	n := len(o.Attempts)
	switch {
	case len(passed) == 0 && len(failed) == 0:
		last.Note = joinNote(fmt.Sprintf("inconclusive in all %d attempts", n), last.Note)
	case len(failed) == 0:
		j := passed[len(passed)-1]
		j.Attempts, j.Note = o.Attempts, joinNote(j.Note, attemptsNote(o.Attempts))
		return j
	case len(passed) == 0:
		j := failed[len(failed)-1]
		for _, f := range failed {
			if f.Verdict == result.KnownFailure {
				j = f
				break
			}
		}
		j.Attempts, j.Note = o.Attempts, joinNote(j.Note, attemptsNote(o.Attempts))
		return j
	default:
		j := failed[len(failed)-1]
		known := e != nil && e.Flaky != ""
		for _, f := range failed {
			known = known && f.Verdict == result.KnownFailure
		}
		j.Attempts = o.Attempts
		if known {
			j.Status, j.Verdict = result.StatusPass, result.Pass
			j.Note = "listed as flaky in " + e.Where() + " (" + e.Flaky + "); " + attemptsNote(o.Attempts)
			return j
		}
		j.Verdict = result.Flaky
		j.Note = fmt.Sprintf("flaky: %d of %d attempts passed, %d failed; %s", len(passed), n, len(failed), attemptsNote(o.Attempts))
		return j
	}
	return last
}

// attemptsNote lists each attempt's status and, for a failure, its evidence.
func attemptsNote(as []result.Attempt) string {
	var parts []string
	for i, a := range as {
		p := fmt.Sprintf("attempt %d: %s", i+1, a.Status)
		if a.Status != result.StatusPass {
			p += " (" + result.Evidence(a.Message) + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
