package report

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"toolnexus-conformance/internal/suite"
	"toolnexus-conformance/steps"
)

// ReadResults reads a results.json document written by JSON.
func ReadResults(path string) (Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Results{}, err
	}
	var doc Results
	if err := json.Unmarshal(b, &doc); err != nil {
		return Results{}, fmt.Errorf("%s: not a results.json document: %w", path, err)
	}
	if doc.Version != ResultsVersion {
		return Results{}, fmt.Errorf("%s: results.json version %d, this harness reads version %d", path, doc.Version, ResultsVersion)
	}
	return doc, nil
}

// CatalogueOf is the document's catalogue as [ID, title] pairs, as suite.Catalogue returns it.
func (d Results) CatalogueOf() [][2]string {
	out := make([][2]string, len(d.Catalogue))
	for i, e := range d.Catalogue {
		out[i] = [2]string{e.ID, e.Title}
	}
	return out
}

// PortResult turns one port of a results.json back into the run's result, so every report can
// be rendered again from it (NewResults's inverse: keep the two in step when adding a field).
func (p PortResults) PortResult() *suite.PortResult {
	r := &suite.PortResult{Port: p.Port, Present: p.Present, Reason: p.Reason, HarnessErr: p.HarnessError,
		Cells: map[string]string{}, Expected: map[string]string{}}
	if p.Present {
		r.Identity = map[string]any{"library": p.Library, "version": p.Version, "runtime": p.Runtime}
	}
	for k, v := range p.Cells {
		r.Cells[k] = v
	}
	for k, v := range p.ExpectedFailures {
		r.Expected[k] = v
	}
	for _, s := range p.Scenarios {
		o := steps.Outcome{Scenario: s.Name, URI: s.URI, Tags: append([]string(nil), s.Tags...), Status: s.Status,
			Message: s.Message, Elapsed: time.Duration(s.ElapsedMs) * time.Millisecond, Stderr: s.Stderr}
		for _, b := range s.Bodies {
			o.Bodies = append(o.Bodies, b)
		}
		r.Scenarios = append(r.Scenarios, o)
	}
	return r
}
