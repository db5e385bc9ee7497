package report

import (
	"encoding/json"
	"io"
	"time"

	"toolnexus-conformance/internal/suite"
)

// ResultsVersion is the results.json layout's version, the one schema/results.schema.json pins.
const ResultsVersion = 1

// now is the clock behind "generated"; tests pin it.
var now = time.Now

// Results is the results.json document: the catalogue, then each port's verdicts and evidence.
type Results struct {
	Version   int    `json:"version"`
	Generated string `json:"generated"`
	// CatalogueVersion and SuiteVersion (suite.Fingerprint) let `conformance merge` refuse
	// results that were judged against a different catalogue or suite.
	CatalogueVersion string           `json:"catalogueVersion"`
	SuiteVersion     string           `json:"suiteVersion"`
	Catalogue        []CatalogueEntry `json:"catalogue"`
	Ports            []PortResults    `json:"ports"`
}

// CatalogueEntry is one catalogue ID and what it checks.
type CatalogueEntry struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// PortResults is one port's identity, verdict per catalogue ID and scenarios.
type PortResults struct {
	Port    string `json:"port"`
	Present bool   `json:"present"`
	Reason  string `json:"reason"`
	Library string `json:"library"`
	Version string `json:"version"`
	Runtime string `json:"runtime"`
	// HarnessError is set when the harness itself failed this port's run.
	HarnessError string `json:"harnessError"`
	// ExpectedFailures is runners/<port>/expected-failures.txt: ID to reason.
	ExpectedFailures map[string]string `json:"expectedFailures"`
	Cells            map[string]string `json:"cells"`
	Scenarios        []ScenarioResult  `json:"scenarios"`
}

// ScenarioResult is one scenario's outcome and evidence.
type ScenarioResult struct {
	Name      string           `json:"name"`
	URI       string           `json:"uri"`
	Tags      []string         `json:"tags"`
	Status    string           `json:"status"`
	Message   string           `json:"message"`
	ElapsedMs int64            `json:"elapsedMs"`
	Bodies    []map[string]any `json:"bodies"`
	Stderr    string           `json:"stderr"`
}

// NewResults builds the results.json document; empty lists and maps are present, never null.
// The optional versions are the run's suite.Fingerprint.
func NewResults(cat [][2]string, results []*suite.PortResult, v ...suite.Versions) Results {
	doc := Results{Version: ResultsVersion, Generated: now().UTC().Format(time.RFC3339),
		Catalogue: []CatalogueEntry{}, Ports: []PortResults{}}
	if len(v) > 0 {
		doc.CatalogueVersion, doc.SuiteVersion = v[0].Catalogue, v[0].Suite
	}
	for _, e := range cat {
		doc.Catalogue = append(doc.Catalogue, CatalogueEntry{ID: e[0], Title: e[1]})
	}
	for _, r := range results {
		p := PortResults{Port: r.Port, Present: r.Present, Reason: r.Reason,
			Library: identity(r, "library"), Version: identity(r, "version"), Runtime: identity(r, "runtime"),
			HarnessError: r.HarnessErr, ExpectedFailures: map[string]string{}, Cells: map[string]string{},
			Scenarios: []ScenarioResult{}}
		for k, v := range r.Expected {
			p.ExpectedFailures[k] = v
		}
		for k, v := range r.Cells {
			p.Cells[k] = v
		}
		for _, o := range r.Scenarios {
			s := ScenarioResult{Name: o.Scenario, URI: o.URI, Tags: append([]string{}, o.Tags...),
				Status: o.Status, Message: o.Message, ElapsedMs: o.Elapsed.Milliseconds(),
				Bodies: append([]map[string]any{}, o.Bodies...), Stderr: o.Stderr}
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
func JSON(w io.Writer, cat [][2]string, results []*suite.PortResult, v ...suite.Versions) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewResults(cat, results, v...))
}
