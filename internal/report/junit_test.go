package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// parsedSuites mirrors the JUnit document for reading it back.
type parsedSuites struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Failures   int    `xml:"failures,attr"`
		Skipped    int    `xml:"skipped,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemErr string `xml:"system-err"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func junitOf(t *testing.T, port string) (parsedSuites, string) {
	t.Helper()
	for _, r := range richRun() {
		if r.Port != port {
			continue
		}
		var buf bytes.Buffer
		if err := JUnit(&buf, r); err != nil {
			t.Fatal(err)
		}
		var doc parsedSuites
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("not XML: %v\n%s", err, buf.String())
		}
		return doc, buf.String()
	}
	t.Fatalf("no port %s", port)
	return parsedSuites{}, ""
}

func TestJUnitPresentPort(t *testing.T) {
	doc, raw := junitOf(t, "go")
	if !strings.HasPrefix(raw, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML header: %.60s", raw)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "go" {
		t.Fatalf("want one testsuite named go: %+v", doc.Suites)
	}
	s := doc.Suites[0]
	// An unsupported scenario not listed in the expectations is red: a failure, not a skip.
	if s.Tests != 4 || s.Failures != 2 || s.Skipped != 0 || doc.Tests != 4 || doc.Failures != 2 {
		t.Errorf("counts: suites %+v suite tests=%d failures=%d skipped=%d", doc, s.Tests, s.Failures, s.Skipped)
	}
	if len(s.Properties) != 3 || s.Properties[1].Name != "version" || s.Properties[1].Value != "v1.4.0" {
		t.Errorf("properties %+v", s.Properties)
	}
	c := s.Cases[1]
	if c.Classname != "request-shaping" || c.Name != "[G1.2] a RequestParams key wins over the client's own value" || c.Time != "0.340" {
		t.Errorf("testcase %q classname %q time %q", c.Name, c.Classname, c.Time)
	}
	if c.Failure == nil || c.Failure.Text != failMessage || c.Failure.Message != `LLM request 1: "max_tokens" differs (-want +got):` {
		t.Errorf("failure %+v", c.Failure)
	}
	if c.SystemErr != failStderr {
		t.Errorf("system-err %q", c.SystemErr)
	}
	if u := s.Cases[2]; u.Failure == nil || !strings.Contains(u.Failure.Message, "warnings are not observable") || u.Skipped != nil {
		t.Errorf("unsupported scenario: %+v", u)
	}
	if x := s.Cases[3]; x.Classname != "cross-port-parity" || x.Failure != nil || x.Skipped != nil {
		t.Errorf("passing scenario: %+v", x)
	}
}

func TestJUnitNotPresent(t *testing.T) {
	doc, _ := junitOf(t, "python")
	s := doc.Suites[0]
	// One case says why, not a skipped case per scenario.
	if s.Tests != 1 || s.Skipped != 1 || s.Failures != 0 {
		t.Errorf("counts tests=%d skipped=%d failures=%d", s.Tests, s.Skipped, s.Failures)
	}
	if c := s.Cases[0]; c.Name != "not present" || c.Skipped == nil || c.Skipped.Message != "not present: no python3 >= 3.10 on PATH (found none)" {
		t.Errorf("%s: %+v", c.Name, c.Skipped)
	}
}

// A known failure does not fail the XML and an unexpected pass does, as the exit code says.
func TestJUnitExpectedFailures(t *testing.T) {
	doc, _ := junitOf(t, "js")
	s := doc.Suites[0]
	if s.Failures != 1 || s.Skipped != 1 {
		t.Errorf("failures=%d skipped=%d, want 1 and 1", s.Failures, s.Skipped)
	}
	if k := s.Cases[0]; k.Skipped == nil || !strings.HasPrefix(k.Skipped.Message, "known failure:") {
		t.Errorf("known failure: %+v", k)
	}
	if u := s.Cases[3]; u.Failure == nil || u.Failure.Message != "unexpected pass" ||
		!strings.Contains(u.Failure.Text, "remove the entry") {
		t.Errorf("unexpected pass: %+v", u)
	}
}

// Text XML cannot carry (terminal escapes in stderr) is replaced, not written raw.
func TestJUnitControlCharacters(t *testing.T) {
	r := syntheticRun()[0]
	r.Scenarios[1].Stderr = "\x1b[31mred\x1b[0m & <done>"
	var buf bytes.Buffer
	if err := JUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(buf.String(), 0x1b) {
		t.Error("raw ESC in the XML")
	}
	var doc parsedSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
}
