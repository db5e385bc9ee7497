package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
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
func (p PortResults) PortResult() *result.PortResult {
	r := &result.PortResult{Port: p.Port, Present: p.Present, Broken: p.Broken, Required: p.Required,
		Reason: p.Reason, LogTail: p.LogTail, HarnessErr: p.HarnessError, Interrupted: p.Interrupted,
		Unresponsive: p.Unresponsive, Leaked: p.Leaked, VersionWarning: p.VersionWarning, Strict: p.Strict, Cells: map[string]result.Verdict{},
		Expectations: &result.Expectations{Path: p.ExpectationsFile}, Parity: p.Parity}
	if p.Present {
		r.Identity = map[string]any{"library": p.Library, "version": p.Version, "runtime": p.Runtime}
	}
	for k, v := range p.Cells {
		r.Cells[k] = result.Verdict(v)
	}
	for _, x := range p.Expectations {
		feature, name, _ := strings.Cut(x.Scenario, ": ")
		r.Expectations.Entries = append(r.Expectations.Entries, &result.Entry{
			Key:    result.Key{ID: x.ID, Feature: feature, Name: name, Row: x.Row},
			Status: result.Status(x.Status), Fingerprint: x.Fingerprint, Evidence: x.Evidence, Reason: x.Reason, Line: x.Line,
			File: p.ExpectationsFile})
	}
	for i, s := range p.Scenarios {
		o := result.Outcome{Scenario: s.Name, URI: s.URI, Tags: append([]string(nil), s.Tags...), Status: result.Status(s.Status),
			Message: s.Message, Elapsed: time.Duration(s.ElapsedMs) * time.Millisecond, Stderr: s.Stderr,
			Quick: s.Quick, Retried: s.Retried,
			// The document keeps no gherkin node ids; any id unique to the scenario lets the
			// reports find its verdict (the rows of one outline share a name and a file).
			AstNodeIDs: []string{strconv.Itoa(i)}}
		for _, b := range s.Bodies {
			o.Bodies = append(o.Bodies, b)
		}
		for _, a := range s.Attempts {
			o.Attempts = append(o.Attempts, result.Attempt{Status: result.Status(a.Status), Message: a.Message,
				Elapsed: time.Duration(a.ElapsedMs) * time.Millisecond})
		}
		r.Scenarios = append(r.Scenarios, o)
		key := result.Key{ID: s.ID, Feature: filepath.Base(s.URI), Name: s.Name, Row: s.Row}
		r.Judged = append(r.Judged, result.Judged{Key: key, Status: o.Status, Verdict: result.Verdict(s.Verdict),
			Level: result.Level(s.Level), Source: s.Source, Attempts: o.Attempts,
			Fingerprint: s.Fingerprint, Evidence: evidenceOf(o), Entry: r.Expectations.Find(key), Note: s.Note})
	}
	return r
}

// evidenceOf is what judging put in Judged.Evidence: none for a pass, interrupt or breaker.
func evidenceOf(o result.Outcome) string {
	switch o.Status {
	case result.StatusPass, result.StatusInterrupted, result.StatusUnresponsive:
		return ""
	}
	return result.Evidence(o.Message)
}
