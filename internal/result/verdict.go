package result

import (
	"fmt"
	"sort"
	"strings"
)

// Reference is the name of our Go reference implementation (ports.Reference, which this leaf
// package may not import; a test in internal/suite keeps the two equal): it is always
// required.
const Reference = "reference"

// Verdict is the judgement of one scenario, or of one catalogue ID (the worst of its
// scenarios), on one implementation.
type Verdict string

// Verdicts. Red ones make the run fail (see Red).
const (
	Pass        Verdict = "pass"
	Fail        Verdict = "fail"
	Unsupported Verdict = "unsupported"
	NotPresent  Verdict = "not present"
	// KnownFailure: the implementation's expectations list the scenario with this very
	// failure (same status, same fingerprint).
	KnownFailure Verdict = "known failure"
	// KnownDifferent: listed, but it failed differently than the entry recorded.
	KnownDifferent Verdict = "known, different evidence"
	// UnexpectedPass: listed, but it passed; the entry must go.
	UnexpectedPass Verdict = "unexpected pass"
	// Broken: the implementation is there but could not run (prepare failed, the adapter
	// would not start or failed hello).
	Broken       Verdict = "broken"
	Interrupted  Verdict = "not run (interrupted)"
	Unresponsive Verdict = "not run (adapter unresponsive)"
	// Advice: a recommended scenario (our reading, not the ADR's) did not pass; shown, never
	// a port's failure.
	Advice Verdict = "advice"
	// Flaky: the scenario's attempts disagreed (one passed, one failed); every attempt's
	// evidence is kept. Red only with --strict.
	Flaky Verdict = "flaky"
	// Inconclusive: no attempt reached the situation the scenario is about (a child that
	// never started, a stall never entered). Red only with --strict.
	Inconclusive Verdict = "inconclusive"
)

// Red reports whether the verdict fails a run (without --strict; see PortResult.Strict).
func (v Verdict) Red() bool {
	switch v {
	case Pass, KnownFailure, NotPresent, Advice, Flaky, Inconclusive, "":
		return false
	}
	return true
}

// redFor is Red, with --strict making flaky and inconclusive verdicts red too.
func (v Verdict) redFor(strict bool) bool {
	return v.Red() || strict && (v == Flaky || v == Inconclusive)
}

// severity orders verdicts so an ID's cell is the worst of its scenarios'.
var severity = map[Verdict]int{Pass: 0, Advice: 1, Inconclusive: 2, KnownFailure: 3, Flaky: 4,
	UnexpectedPass: 5, Unsupported: 6, KnownDifferent: 7, Fail: 8, Unresponsive: 9, Interrupted: 10,
	Broken: 11, NotPresent: 12}

// Verdicts lists every verdict in tally order.
var Verdicts = []Verdict{Pass, Fail, KnownDifferent, UnexpectedPass, KnownFailure, Unsupported,
	Flaky, Inconclusive, Advice, Broken, Unresponsive, Interrupted, NotPresent}

// Judged is one scenario's verdict with what it was judged on; it is parallel to
// PortResult.Scenarios.
type Judged struct {
	Key         Key     `json:"key"`
	Status      Status  `json:"status"`
	Verdict     Verdict `json:"verdict"`
	Level       Level   `json:"level,omitempty"`
	Source      string  `json:"source,omitempty"`
	Fingerprint string  `json:"fingerprint,omitempty"`
	Evidence    string  `json:"evidence,omitempty"`
	// Attempts is every attempt's status and evidence when the scenario ran more than once.
	Attempts []Attempt `json:"attempts,omitempty"`
	// Entry is the expectation that listed this scenario, if any.
	Entry *Entry `json:"-"`
	// Note explains a known, unexpected or differently-evidenced verdict in one line.
	Note string `json:"note,omitempty"`
}

// PortResult is everything one implementation's run produced.
type PortResult struct {
	// Port is the implementation's name (the result column): reference, go, python, …
	Port    string `json:"port"`
	Present bool   `json:"present"`
	// Reason says why it is not present, or what broke it.
	Reason string `json:"reason,omitempty"`
	// Broken is set when the implementation exists but could not run; LogTail is the end of
	// its prepare or adapter output.
	Broken  bool   `json:"broken,omitempty"`
	LogTail string `json:"logTail,omitempty"`
	// Required: being absent is a failure (the reference always, others when named).
	Required bool `json:"required,omitempty"`
	// Strict: flaky and inconclusive verdicts fail the run too (--strict).
	Strict     bool               `json:"strict,omitempty"`
	Identity   map[string]any     `json:"identity,omitempty"`
	Scenarios  []Outcome          `json:"scenarios"`
	Judged     []Judged           `json:"judged"`
	Cells      map[string]Verdict `json:"cells"`
	HarnessErr string             `json:"harnessError,omitempty"`
	// Interrupted says the run was stopped (SIGINT, SIGTERM, --run-timeout) before this
	// implementation finished: the cause.
	Interrupted string `json:"interrupted,omitempty"`
	// Unresponsive says the breaker gave up on the adapter, and why.
	Unresponsive string `json:"unresponsive,omitempty"`
	// Leaked names the processes its adapters left running after they were shut down (the
	// runner killed them): the implementation's own failure, whatever its cells say.
	Leaked string `json:"leaked,omitempty"`
	// Expectations is the implementation's expectations file as the run read it.
	Expectations *Expectations `json:"-"`
	// VersionWarning says the expectations were written against another version.
	VersionWarning string `json:"versionWarning,omitempty"`
	// Timing is where the wall time went (bench; cost.go).
	Timing Timing `json:"-"`
	// Parity is X.4 over every contract scenario: which returned other values than the
	// reference's golden copy (nil when there was nothing to compare).
	Parity *Parity `json:"parity,omitempty"`
}

// Version is the implementation's hello version, "" when it did not say hello.
func (r *PortResult) Version() string {
	if v, ok := r.Identity["version"].(string); ok {
		return v
	}
	return ""
}

// Judge folds the scenario verdicts into one verdict per catalogue ID: the worst of the
// scenarios tagged with it. An implementation that did not run gets one verdict everywhere.
func (r *PortResult) Judge(ids []string) {
	r.Cells = map[string]Verdict{}
	if !r.Present {
		v := NotPresent
		switch {
		case r.Broken:
			v = Broken
		case r.Interrupted != "":
			v = Interrupted
		}
		for _, id := range ids {
			r.Cells[id] = v
		}
		return
	}
	for _, id := range ids {
		cell, seen := Verdict(""), false
		for i, o := range r.Scenarios {
			if !hasTag(o.Tags, id) || i >= len(r.Judged) {
				continue
			}
			v := r.Judged[i].Verdict
			if !seen || severity[v] > severity[cell] {
				cell = v
			}
			seen = true
		}
		if seen {
			r.Cells[id] = cell
		}
	}
}

// Red reports whether this implementation's result fails the run.
func (r *PortResult) Red() bool { return r.Unexpected() > 0 }

// Unexpected counts what fails the run: red cells, a harness error, an unresponsive adapter,
// leaked processes, an interrupted run, a broken implementation, and a required one that is
// not present.
func (r *PortResult) Unexpected() int {
	n := 0
	for _, v := range r.Cells {
		if v.redFor(r.Strict) {
			n++
		}
	}
	if r.HarnessErr != "" || r.Unresponsive != "" || r.Interrupted != "" {
		n++
	}
	if r.Leaked != "" {
		n++
	}
	if !r.Present && (r.Broken || r.Required || r.Port == Reference) && n == 0 {
		n++
	}
	return n
}

// Summary is the implementation's one-line tally.
func (r *PortResult) Summary() string {
	switch {
	case r.Broken:
		return fmt.Sprintf("%-9s BROKEN: %s", r.Port, r.Reason)
	case !r.Present && r.Interrupted != "":
		return fmt.Sprintf("%-9s not run: %s", r.Port, r.Interrupted)
	case !r.Present && (r.Required || r.Port == Reference):
		return fmt.Sprintf("%-9s NOT PRESENT (required): %s", r.Port, r.Reason)
	case !r.Present:
		return fmt.Sprintf("%-9s not present: %s", r.Port, r.Reason)
	}
	count := map[Verdict]int{}
	for _, v := range r.Cells {
		count[v]++
	}
	var parts []string
	for _, k := range Verdicts {
		if count[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[k], k))
		}
	}
	line := fmt.Sprintf("%-9s %s (IDs); scenarios: %s", r.Port, strings.Join(parts, ", "), r.ScenarioTally())
	if r.Unresponsive != "" {
		line += "; adapter unresponsive: " + r.Unresponsive
	}
	if r.Leaked != "" {
		line += "; LEAKED: " + r.Leaked
	}
	if r.Interrupted != "" {
		line += "; interrupted: " + r.Interrupted
	}
	if r.HarnessErr != "" {
		line += "; harness error: " + r.HarnessErr
	}
	return line
}

// ScenarioTally counts scenarios by status: "12 passed, 1 failed, …".
func (r *PortResult) ScenarioTally() string {
	sc := map[Status]int{}
	for _, o := range r.Scenarios {
		sc[o.Status]++
	}
	s := fmt.Sprintf("%d passed, %d failed, %d unsupported", sc[StatusPass], sc[StatusFail], sc[StatusUnsupported])
	if n := sc[StatusInconclusive]; n > 0 {
		s += fmt.Sprintf(", %d inconclusive", n)
	}
	verdicts := map[Verdict]int{}
	retried := 0
	for _, j := range r.Judged {
		verdicts[j.Verdict]++
		if len(j.Attempts) > 0 {
			retried++
		}
	}
	for _, v := range []Verdict{Advice, Flaky, Inconclusive} {
		if verdicts[v] > 0 {
			s += fmt.Sprintf("; %d %s", verdicts[v], v)
		}
	}
	if retried > 0 {
		s += fmt.Sprintf("; %d retried", retried)
	}
	if n := sc[StatusInterrupted]; n > 0 {
		s += fmt.Sprintf(", %d not run (interrupted)", n)
	}
	if n := sc[StatusUnresponsive]; n > 0 {
		s += fmt.Sprintf(", %d not run (adapter unresponsive)", n)
	}
	return s
}

func hasTag(tags []string, id string) bool {
	for _, t := range tags {
		if t == id {
			return true
		}
	}
	return false
}

// SortedIDs orders catalogue IDs as the catalogue does (G1 … A8, X last).
func SortedIDs(ids []string) []string {
	out := append([]string(nil), ids...)
	sort.SliceStable(out, func(i, j int) bool { return idKey(out[i]) < idKey(out[j]) })
	return out
}

func idKey(id string) string {
	prefix, num, _ := strings.Cut(id, ".")
	order := map[string]string{"G1": "01", "A4": "02", "G2": "03", "A5": "04", "G3": "05", "A1": "06",
		"G7": "07", "G5": "08", "G6": "09", "G4": "10", "A8": "11", "X": "99"}
	o, ok := order[prefix]
	if !ok {
		o = "50" + prefix
	}
	return fmt.Sprintf("%s-%04s", o, num)
}
