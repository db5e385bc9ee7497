package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// ResultsVersion is the results.json layout's version, the one schema/results.schema.json pins.
const ResultsVersion = 2

// now is the clock behind "generated"; tests pin it.
var now = time.Now

// Results is the results.json document: the catalogue, then each implementation's verdicts
// and evidence.
type Results struct {
	Version   int    `json:"version"`
	Generated string `json:"generated"`
	// CatalogueVersion and SuiteVersion (suite.SuiteVersions) let `conformance merge` refuse
	// results that were judged against a different catalogue or suite.
	CatalogueVersion string `json:"catalogueVersion"`
	SuiteVersion     string `json:"suiteVersion"`
	// HarnessVersion, Command and DurationMs say how the run was made.
	HarnessVersion string `json:"harnessVersion,omitempty"`
	Command        string `json:"command,omitempty"`
	DurationMs     int64  `json:"durationMs,omitempty"`
	// Interrupted is why the run was stopped early; empty when it finished.
	Interrupted string           `json:"interrupted"`
	Catalogue   []CatalogueEntry `json:"catalogue"`
	Ports       []PortResults    `json:"ports"`
}

// CatalogueEntry is one catalogue ID and what it checks.
type CatalogueEntry struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// PortResults is one implementation's identity, state, verdict per catalogue ID and scenarios.
type PortResults struct {
	Port     string `json:"port"`
	Present  bool   `json:"present"`
	Broken   bool   `json:"broken"`
	Required bool   `json:"required"`
	Reason   string `json:"reason"`
	LogTail  string `json:"logTail"`
	Library  string `json:"library"`
	Version  string `json:"version"`
	Runtime  string `json:"runtime"`
	// HarnessError is set when the harness itself failed this implementation's run.
	HarnessError string `json:"harnessError"`
	Interrupted  string `json:"interrupted"`
	Unresponsive string `json:"unresponsive"`
	// Leaked: processes the adapters left running after shutdown (the port's failure).
	Leaked         string `json:"leaked,omitempty"`
	VersionWarning string `json:"versionWarning"`
	// Strict: flaky and inconclusive verdicts counted as red (--strict).
	Strict bool `json:"strict,omitempty"`
	// ExpectationsFile is the file that judged the implementation (expectations/<file>);
	// Expectations its entries as the run read them.
	ExpectationsFile string             `json:"expectationsFile,omitempty"`
	Expectations     []ExpectationEntry `json:"expectations"`
	Cells            map[string]string  `json:"cells"`
	Scenarios        []ScenarioResult   `json:"scenarios"`
	// Parity is X.4 over every contract scenario that passed (shown, never a verdict).
	Parity *result.Parity `json:"parity,omitempty"`
}

// ExpectationEntry is one expectation as results.json writes it.
type ExpectationEntry struct {
	ID          string `json:"id"`
	Scenario    string `json:"scenario"`
	Row         string `json:"row"`
	Status      string `json:"status"`
	Fingerprint string `json:"fingerprint"`
	Evidence    string `json:"evidence"`
	Reason      string `json:"reason"`
	Line        int    `json:"line"`
}

// ScenarioResult is one scenario's outcome, verdict and evidence.
type ScenarioResult struct {
	ID          string           `json:"id"`
	Level       string           `json:"level"`
	Source      string           `json:"source"`
	Name        string           `json:"name"`
	URI         string           `json:"uri"`
	Row         string           `json:"row"`
	Tags        []string         `json:"tags"`
	Status      string           `json:"status"`
	Verdict     string           `json:"verdict"`
	Fingerprint string           `json:"fingerprint"`
	Note        string           `json:"note"`
	Message     string           `json:"message"`
	ElapsedMs   int64            `json:"elapsedMs"`
	Bodies      []map[string]any `json:"bodies"`
	Stderr      string           `json:"stderr"`
	// Quick: judged on the quick first attempt (limits cut, SPEC.md §3); Retried: why that
	// attempt proved nothing, so the scenario was judged as written.
	Quick   bool   `json:"quick,omitempty"`
	Retried string `json:"retried,omitempty"`
	// Attempts is every attempt's status and message when the scenario ran more than once.
	Attempts []AttemptResult `json:"attempts,omitempty"`
}

// AttemptResult is one attempt of a scenario that was tried more than once.
type AttemptResult struct {
	Status    string `json:"status"`
	Message   string `json:"message"`
	ElapsedMs int64  `json:"elapsedMs"`
}

// NewResults builds the results.json document; empty lists and maps are present, never null.
// The optional versions are the run's suite.SuiteVersions.
func NewResults(cat [][2]string, results []*result.PortResult, v ...result.Versions) Results {
	doc := Results{Version: ResultsVersion, Generated: now().UTC().Format(time.RFC3339),
		Interrupted: stopped(results), Catalogue: []CatalogueEntry{}, Ports: []PortResults{}}
	if len(v) > 0 {
		doc.CatalogueVersion, doc.SuiteVersion = v[0].Catalogue, v[0].Suite
		doc.HarnessVersion, doc.Command, doc.DurationMs = v[0].Harness, v[0].Command, v[0].Duration.Milliseconds()
	}
	for _, e := range cat {
		doc.Catalogue = append(doc.Catalogue, CatalogueEntry{ID: e[0], Title: e[1]})
	}
	for _, r := range results {
		p := PortResults{Port: r.Port, Present: r.Present, Broken: r.Broken, Required: r.Required,
			Reason: r.Reason, LogTail: r.LogTail,
			Library: identity(r, "library"), Version: identity(r, "version"), Runtime: identity(r, "runtime"),
			HarnessError: r.HarnessErr, Interrupted: r.Interrupted, Unresponsive: r.Unresponsive, Leaked: r.Leaked,
			VersionWarning: r.VersionWarning, Strict: r.Strict, Expectations: []ExpectationEntry{}, Cells: map[string]string{},
			Scenarios: []ScenarioResult{}, Parity: r.Parity}
		if r.Expectations != nil {
			p.ExpectationsFile = expectationsFile(r)
			for _, x := range r.Expectations.Entries {
				p.Expectations = append(p.Expectations, ExpectationEntry{ID: x.Key.ID, Scenario: x.Key.Feature + ": " + x.Key.Name,
					Row: x.Key.Row, Status: string(x.Status), Fingerprint: x.Fingerprint, Evidence: x.Evidence,
					Reason: x.Reason, Line: x.Line})
			}
		}
		for k, v := range r.Cells {
			p.Cells[k] = string(v)
		}
		for _, o := range r.Scenarios {
			j := judged(r, o)
			s := ScenarioResult{ID: j.Key.ID, Level: string(j.Level), Source: j.Source,
				Name: o.Scenario, URI: o.URI, Row: j.Key.Row, Tags: append([]string{}, o.Tags...),
				Status: string(o.Status), Verdict: string(j.Verdict), Fingerprint: j.Fingerprint, Note: j.Note,
				Message: o.Message, ElapsedMs: o.Elapsed.Milliseconds(),
				Bodies: append([]map[string]any{}, o.Bodies...), Stderr: o.Stderr, Quick: o.Quick, Retried: o.Retried}
			if s.Verdict == "" {
				s.Verdict = string(result.Pass)
				if o.Status != result.StatusPass {
					s.Verdict = string(result.Fail)
				}
			}
			for _, a := range o.Attempts {
				s.Attempts = append(s.Attempts, AttemptResult{Status: string(a.Status), Message: a.Message, ElapsedMs: a.Elapsed.Milliseconds()})
			}
			for i, b := range s.Bodies {
				if b == nil {
					s.Bodies[i] = map[string]any{}
				}
			}
			p.Scenarios = append(p.Scenarios, s)
		}
		doc.Ports = append(doc.Ports, p)
	}
	return doc
}

// JSON writes the results.json document (see schema/results.schema.json), indented.
func JSON(w io.Writer, cat [][2]string, results []*result.PortResult, v ...result.Versions) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewResults(cat, results, v...))
}
