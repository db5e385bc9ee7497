package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// textEvidence writes what is red in full under a heading that counts it, then the known
// failures: one line each, or in full when verbose.
func textEvidence(w io.Writer, results []*result.PortResult, color, verbose bool) {
	textKnown(w, results, verbose)
	textRed(w, results, color)
}

// textRed is what is new or changed: a headline counting it, then every red verdict's
// evidence. The run prints it last, above the summary, where the eye lands.
func textRed(w io.Writer, results []*result.PortResult, color bool) {
	var red strings.Builder
	count := map[result.Verdict]int{}
	for _, r := range results {
		textPortState(&red, r, count)
		for i := range r.Scenarios {
			if redScenario(r, i) {
				count[judgedAt(r, i).Verdict]++
				textBlock(&red, r, i)
			}
		}
	}
	n := 0
	for _, c := range count {
		n += c
	}
	io.WriteString(w, red.String())
	switch {
	case n > 0:
		fmt.Fprintf(w, "\n%s\n", paint(fmt.Sprintf("%d new or changed: %s (evidence above)", n, redTally(count)), result.Fail, color))
	case countKnown(results) > 0:
		fmt.Fprintf(w, "\n%s\n", paint("nothing new or changed: every failure is a known one", result.Pass, color))
	default:
		fmt.Fprintf(w, "\n%s\n", paint("nothing new or changed", result.Pass, color))
	}
}

// textKnown is the known failures: a count per implementation, or with verbose each one with
// its evidence. They are listed, explained and unchanged: not what a reader must act on.
func textKnown(w io.Writer, results []*result.PortResult, verbose bool) {
	known := countKnown(results)
	if known == 0 {
		return
	}
	if !verbose {
		var parts []string
		for _, r := range results {
			listed, advice := 0, 0 // advice: a recommended row no entry lists
			for i := range r.Scenarios {
				if knownScenario(r, i) && judgedAt(r, i).Entry != nil {
					listed++
				} else if knownScenario(r, i) {
					advice++
				}
			}
			if listed > 0 {
				part := fmt.Sprintf("%s %d", r.Port, listed)
				if f := expectationsFile(r); f != "" {
					part += " in " + f
				}
				parts = append(parts, part)
			}
			if advice > 0 {
				parts = append(parts, fmt.Sprintf("%s %d advice with no entry", r.Port, advice))
			}
		}
		fmt.Fprintf(w, "\n%s, as their expectations list them (%s; --verbose lists them with their evidence)\n",
			plural(known, "known failure", "known failures"), strings.Join(parts, ", "))
		return
	}
	fmt.Fprintf(w, "\n%s, as their expectations list them:\n", plural(known, "known failure", "known failures"))
	for _, r := range results {
		for i := range r.Scenarios {
			if knownScenario(r, i) {
				scenario, reason, fp := knownParts(r, i)
				fmt.Fprintf(w, "  %-9s %s — %s (%s)\n", r.Port, scenario, reason, fp)
				textBlock(w, r, i)
			}
		}
	}
}

// textUnconfirmed names each expectation entry whose scenario was inconclusive in every
// attempt: timing, or an entry whose failure the scenario can no longer reach (stale). Not red
// (inconclusive never is without --strict), but named, so a stale entry cannot hide.
func textUnconfirmed(w io.Writer, results []*result.PortResult) {
	var lines []string
	for _, r := range results {
		for i := range r.Scenarios {
			if j := judgedAt(r, i); j.Verdict == result.Inconclusive && j.Entry != nil {
				lines = append(lines, fmt.Sprintf("  %-9s %s %s (%s)", r.Port, j.Entry.Where(), j.Key, j.Entry.Status))
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s not confirmed: the scenario was inconclusive in every attempt (timing, or a stale entry):\n%s\n",
		plural(len(lines), "expectation entry", "expectation entries"), strings.Join(lines, "\n"))
}

// expectationsFile is the file that judged r, as expectations/<file> ("" when the results
// were read back from results.json, which does not name it).
func expectationsFile(r *result.PortResult) string {
	if r.Expectations == nil || r.Expectations.Path == "" {
		return ""
	}
	return filepath.Join("expectations", filepath.Base(r.Expectations.Path))
}

// textPortState writes what is red about an implementation as a whole: broken, absent though
// required, a harness error, scenarios the breaker or an interrupt kept from running.
func textPortState(w io.Writer, r *result.PortResult, count map[result.Verdict]int) {
	switch {
	case r.Broken:
		count[result.Broken]++
		fmt.Fprintf(w, "\n--- %s: BROKEN: %s\n", r.Port, r.Reason)
		if r.LogTail != "" {
			fmt.Fprintf(w, "    log tail:\n%s\n", indent(r.LogTail))
		}
		return
	case !r.Present && r.Interrupted != "":
		count[result.Interrupted]++
		fmt.Fprintf(w, "\n--- %s: not run: %s\n", r.Port, r.Interrupted)
		return
	case !r.Present:
		if r.Unexpected() > 0 {
			count[result.NotPresent]++
			fmt.Fprintf(w, "\n--- %s: %s\n", r.Port, absence(r))
		}
		return
	}
	if r.HarnessErr != "" {
		count["harness error"]++
		fmt.Fprintf(w, "\n--- %s: harness error: %s\n", r.Port, r.HarnessErr)
	}
	if r.Leaked != "" {
		count["leaked"]++
		fmt.Fprintf(w, "\n--- %s: LEAKED: %s\n", r.Port, r.Leaked)
	}
	notRun := map[result.Status]int{}
	for i, o := range r.Scenarios {
		if notRunStatus(o) && judgedAt(r, i).Verdict.Red() {
			notRun[o.Status]++
		}
	}
	for _, s := range []struct {
		status     result.Status
		v          result.Verdict
		state, why string
	}{{result.StatusUnresponsive, result.Unresponsive, "adapter unresponsive", r.Unresponsive},
		{result.StatusInterrupted, result.Interrupted, "interrupted", r.Interrupted}} {
		n := notRun[s.status]
		if n == 0 && s.why == "" {
			continue
		}
		count[s.v]++
		fmt.Fprintf(w, "\n--- %s: %s", r.Port, s.state)
		if n > 0 {
			fmt.Fprintf(w, ", %s not run", plural(n, "scenario", "scenarios"))
		}
		if s.why != "" {
			fmt.Fprintf(w, ": %s", s.why)
		}
		fmt.Fprintln(w)
	}
}

// textBlock is one scenario's full evidence: header, note, assertion, limits, stderr.
func textBlock(w io.Writer, r *result.PortResult, i int) {
	o, j := r.Scenarios[i], judgedAt(r, i)
	level := ""
	if j.Level != "" {
		level = ", " + string(j.Level)
	}
	fmt.Fprintf(w, "\n--- %s: %s [%s%s] %s\n", r.Port, o.Scenario, strings.Join(catalogueTags(r, o), " "), level, j.Verdict)
	if j.Source != "" {
		fmt.Fprintf(w, "    rule: %s\n", j.Source)
	}
	if j.Key.ID != "" {
		fmt.Fprintf(w, "    replay: conformance run --ports %s --tags '@id:%s'\n", r.Port, j.Key.ID)
	}
	if j.Note != "" {
		fmt.Fprintf(w, "%s\n", indent(j.Note))
	}
	if o.Message != "" {
		fmt.Fprintf(w, "%s\n", indent(o.Message))
	}
	if l := timing.LimitsNote(o.Quick, o.Retried); l != "" {
		fmt.Fprintf(w, "%s\n", indent(l))
	}
	if o.Stderr != "" {
		fmt.Fprintf(w, "    adapter stderr:\n%s\n", indent(o.Stderr))
	}
}
