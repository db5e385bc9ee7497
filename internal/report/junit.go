package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// junitSuites is the document root; it holds the one port's testsuite.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite is one port's run.
type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

// junitProperty is one name=value fact about the port (library, version, runtime).
type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitCase is one scenario (or, for a port that is not present, one catalogue ID).
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

// junitProblem is a failure, error or skip: a one-line message and the full text.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit writes one port's run as JUnit XML: a testsuite for the port, a testcase per scenario.
// like, when given, is a result that ran: a port that did not run gets one testcase for each
// of its scenarios, named the same, so a CI's test history keeps its names whether or not the
// port was there.
func JUnit(w io.Writer, result *result.PortResult) error {
	// classname is the feature file's base name; a failure carries the assertion, unsupported is
	// skipped, the adapter's stderr tail is system-err. A known failure is skipped and an
	// unexpected pass fails, so the XML agrees with the run's exit code. A port that is not
	// present has one testcase saying why (skipped; an error when it was required, broken or
	// cut short).
	s := junitSuite{Name: result.Port}
	for _, k := range []string{"library", "version", "runtime"} {
		if v := identity(result, k); v != "" {
			s.Properties = append(s.Properties, junitProperty{Name: k, Value: v})
		}
	}
	if result.Interrupted != "" {
		s.Properties = append(s.Properties, junitProperty{Name: "interrupted", Value: result.Interrupted})
	}
	if !result.Present {
		// One case says why the port did not run, instead of a skipped case per scenario: a
		// CI's test count stays the scenarios that ran.
		s.Properties = append(s.Properties, junitProperty{Name: "reason", Value: absence(result)})
		c := junitCase{Name: "not present", Classname: result.Port, Time: "0.000"}
		switch {
		case result.Broken:
			c.Name, c.Error = "broken", &junitProblem{Message: oneLine(absence(result)), Type: "broken", Text: result.Reason + "\n" + result.LogTail}
		case result.Interrupted != "" || result.Required:
			c.Name, c.Error = "not run", &junitProblem{Message: oneLine(absence(result)), Type: "not run", Text: absence(result)}
		default:
			c.Skipped = &junitProblem{Message: oneLine(absence(result))}
		}
		s.Cases = append(s.Cases, c)
	}
	if result.Unresponsive != "" {
		s.Cases = append(s.Cases, junitCase{Name: "adapter unresponsive", Classname: result.Port, Time: "0.000",
			Error: &junitProblem{Message: oneLine(result.Unresponsive), Type: "unresponsive", Text: result.Unresponsive}})
	}
	var total float64
	for _, o := range result.Scenarios {
		c := junitScenario(result, o)
		total += o.Elapsed.Seconds()
		s.Cases = append(s.Cases, c)
	}
	if result.HarnessErr != "" {
		s.Cases = append(s.Cases, junitCase{Name: "harness", Classname: result.Port, Time: "0.000",
			Error: &junitProblem{Message: oneLine(result.HarnessErr), Type: "harness", Text: result.HarnessErr}})
	}
	if result.Leaked != "" {
		s.Cases = append(s.Cases, junitCase{Name: "processes left after shutdown", Classname: result.Port, Time: "0.000",
			Failure: &junitProblem{Message: oneLine(result.Leaked), Type: "leaked", Text: result.Leaked}})
	}
	for _, c := range s.Cases {
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
	s.Time = seconds(total)
	doc := junitSuites{Name: "toolnexus conformance: " + result.Port, Tests: s.Tests, Failures: s.Failures,
		Errors: s.Errors, Skipped: s.Skipped, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitName is a scenario's testcase name: its catalogue IDs, title and, for an outline, the
// example row (two rows of one outline may share a title).
func junitName(r *result.PortResult, o result.Outcome) string {
	name := o.Scenario
	if ids := catalogueTags(r, o); len(ids) > 0 {
		name = "[" + strings.Join(ids, " ") + "] " + name
	}
	if row := judged(r, o).Key.Row; row != "" {
		name += " [" + row + "]"
	}
	return name
}

// junitScenario turns one scenario into its testcase.
func junitScenario(r *result.PortResult, o result.Outcome) junitCase {
	c := junitCase{Name: junitName(r, o), Classname: feature(o), Time: seconds(o.Elapsed.Seconds()), SystemErr: o.Stderr}
	// The scenario's own verdict decides: known is skipped (with its entry), every other
	// non-pass verdict fails or errors, so the XML agrees with the run's exit code.
	j := judged(r, o)
	switch j.Verdict {
	case result.Pass:
	case result.KnownFailure:
		c.Skipped = &junitProblem{Message: "known failure: " + oneLine(o.Message), Text: j.Note + "\n\n" + o.Message}
	case result.Advice:
		c.Skipped = &junitProblem{Message: "advice (a recommended rule, never a failure): " + oneLine(o.Message), Text: j.Note + "\n\n" + o.Message}
	case result.Flaky, result.Inconclusive:
		p := &junitProblem{Message: string(j.Verdict) + ": " + oneLine(j.Note), Type: string(j.Verdict), Text: j.Note + "\n\n" + o.Message}
		if r.Strict {
			c.Failure = p
		} else {
			c.Skipped = p
		}
	case result.UnexpectedPass:
		c.Failure = &junitProblem{Message: "unexpected pass", Type: "unexpected pass", Text: j.Note}
	case result.KnownDifferent:
		c.Failure = &junitProblem{Message: "known, different evidence: " + oneLine(o.Message), Type: "known, different evidence",
			Text: j.Note + "\n\n" + o.Message}
	case result.Unsupported:
		c.Failure = &junitProblem{Message: "unsupported (not listed in the expectations): " + oneLine(o.Message),
			Type: "unsupported", Text: o.Message}
	case result.Interrupted, result.Unresponsive:
		c.Error = &junitProblem{Message: string(j.Verdict) + ": " + oneLine(o.Message), Type: string(j.Verdict), Text: o.Message}
	default:
		c.Failure = &junitProblem{Message: oneLine(o.Message), Type: "assertion", Text: o.Message}
	}
	return c
}

// oneLine is the first line of s, clipped, for a message attribute.
func oneLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(first) > 300 {
		first = strings.ToValidUTF8(first[:300], "") + "…"
	}
	return first
}

// seconds formats a duration in seconds as JUnit's time attribute wants it.
func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
