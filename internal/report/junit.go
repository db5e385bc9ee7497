package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"toolnexus-conformance/internal/suite"
	"toolnexus-conformance/steps"
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
func JUnit(w io.Writer, result *suite.PortResult) error {
	// classname is the feature file's base name; a failure carries the assertion, unsupported is
	// skipped, the adapter's stderr tail is system-err. A known failure is skipped and an
	// unexpected pass fails, so the XML agrees with the run's exit code. A port that is not
	// present has one skipped testcase per catalogue ID, with the reason.
	s := junitSuite{Name: result.Port}
	for _, k := range []string{"library", "version", "runtime"} {
		if v := identity(result, k); v != "" {
			s.Properties = append(s.Properties, junitProperty{Name: k, Value: v})
		}
	}
	if !result.Present {
		s.Properties = append(s.Properties, junitProperty{Name: "reason", Value: "not present: " + result.Reason})
		for _, id := range sortedKeys(result.Cells) {
			s.Cases = append(s.Cases, junitCase{Name: id, Classname: result.Port, Time: "0.000",
				Skipped: &junitProblem{Message: "not present: " + oneLine(result.Reason)}})
		}
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

// junitScenario turns one scenario into its testcase.
func junitScenario(r *suite.PortResult, o steps.Outcome) junitCase {
	ids := catalogueTags(r, o)
	name := o.Scenario
	if len(ids) > 0 {
		name = "[" + strings.Join(ids, " ") + "] " + name
	}
	c := junitCase{Name: name, Classname: feature(o), Time: seconds(o.Elapsed.Seconds()), SystemErr: o.Stderr}
	var unexpected, known, open []string
	for _, id := range ids {
		switch r.Cells[id] {
		case suite.UnexpectedPass:
			unexpected = append(unexpected, id)
		case suite.KnownFailure:
			known = append(known, id)
		default:
			open = append(open, id)
		}
	}
	switch o.Status {
	case "fail":
		if len(known) > 0 && len(open) == 0 {
			text := ""
			for _, id := range known {
				text += why(r, id, suite.KnownFailure) + "\n"
			}
			c.Skipped = &junitProblem{Message: "known failure (" + strings.Join(known, ", ") + "): " +
				oneLine(o.Message), Text: text + "\n" + o.Message}
			break
		}
		c.Failure = &junitProblem{Message: oneLine(o.Message), Type: "assertion", Text: o.Message}
	case "unsupported":
		c.Skipped = &junitProblem{Message: oneLine(o.Message), Text: o.Message}
	default:
		if len(unexpected) > 0 {
			var text []string
			for _, id := range unexpected {
				text = append(text, why(r, id, suite.UnexpectedPass))
			}
			c.Failure = &junitProblem{Message: "unexpected pass (" + strings.Join(unexpected, ", ") + ")",
				Type: "unexpected pass", Text: strings.Join(text, "\n")}
		}
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
