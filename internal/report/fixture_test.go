package report

import (
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// testCatalogue is a small catalogue whose titles need escaping in every format.
var testCatalogue = [][2]string{
	{"G1.1", "RequestParams keys reach the top level of the body, four paths"},
	{"G1.2", "a RequestParams key wins over the client's own value (max_tokens 999 | not 4096)"},
	{"A4.1", "messages/tools/stream in RequestParams are stripped & a warning names <each>"},
	{"X.1", "the wire bodies match the Go reference's golden copy"},
}

// failMessage is a parity-style assertion: a go-cmp diff.
const failMessage = "LLM request 1: \"max_tokens\" differs (-want +got):\n  float64(\n-\t999,\n+\t4096,\n  )"

// failStderr is the adapter's stderr tail, with markup that must come out as text.
const failStderr = "adapter: sending anthropic body\n<script>alert('stderr')</script>\nadapter: done"

// syntheticRun is a judged run of two ports over testCatalogue: go, present, with one failing
// cell (G1.2, with bodies and stderr) and one unsupported; python, not present.
func syntheticRun() []*result.PortResult {
	goPort := &result.PortResult{
		Port: "go", Present: true,
		Identity: map[string]any{"port": "go", "library": "toolnexus", "version": "v1.4.0", "runtime": "go1.26.8"},
		Parity: &result.Parity{Golden: "fixtures/parity/golden/x4-returned.json", Compared: 3,
			Differ: []result.ParityDiff{{Key: "c4-rpc-error", Scenario: "a JSON-RPC error", Diff: "- a\n+ b"}}},
		Scenarios: []result.Outcome{
			{Scenario: "params reach the body on every path", URI: "features/request-shaping.feature",
				Tags: []string{"G1.1"}, Status: "pass", Elapsed: 120 * time.Millisecond,
				Bodies: []map[string]any{{"model": "gpt-x", "temperature": 0.2, "metadata": map[string]any{"trace": "a"}}}},
			{Scenario: "a RequestParams key wins over the client's own value", URI: "features/request-shaping.feature",
				Tags: []string{"G1.2", "anthropic"}, Status: "fail", Message: failMessage, Stderr: failStderr,
				Elapsed: 340 * time.Millisecond, Quick: true,
				Bodies: []map[string]any{
					{"model": "claude-x", "max_tokens": 4096.0, "messages": []any{map[string]any{"role": "user", "content": "hi </pre><b>"}}},
					{"model": "claude-x", "max_tokens": 4096.0, "stream": true},
				}},
			{Scenario: "reserved keys are stripped with a warning", URI: "features/request-shaping.feature",
				Tags: []string{"A4.1"}, Status: "unsupported", Message: "unsupported: client.create: warnings are not observable",
				Elapsed: 15 * time.Millisecond},
			{Scenario: "openai run matches the golden bodies", URI: "features/cross-port-parity.feature",
				Tags: []string{"X.1"}, Status: "pass", Elapsed: 80 * time.Millisecond,
				Bodies: []map[string]any{{"model": "gpt-x"}}},
		},
	}
	python := &result.PortResult{Port: "python", Reason: "no python3 >= 3.10 on PATH (found none)"}
	results := []*result.PortResult{goPort, python}
	judge(results)
	return results
}

// richRun adds a js port with a known failure and an unexpected pass to the synthetic run.
func richRun() []*result.PortResult {
	js := &result.PortResult{
		Port: "js", Present: true,
		Identity: map[string]any{"library": "toolnexus", "version": "0.16.0", "runtime": "node v22.3.0"},
		Expectations: &result.Expectations{Path: "expectations/js.txt", Entries: []*result.Entry{
			{Key: result.Key{Feature: "request-shaping.feature", Name: "params reach the body on every path"},
				Status: result.StatusFail, Fingerprint: result.Fingerprint(jsFailure), Evidence: jsFailure,
				Reason: "anthropic bodies carry \"system\": \"\"", Line: 4, File: "expectations/js.txt"},
			{Key: result.Key{Feature: "cross-port-parity.feature", Name: "openai run matches the golden bodies"},
				Status: result.StatusFail, Fingerprint: "0123456789", Evidence: "content null",
				Reason: "content null vs \"\"", Line: 11, File: "expectations/js.txt"},
		}},
		Scenarios: []result.Outcome{
			{Scenario: "params reach the body on every path", URI: "features/request-shaping.feature",
				Tags: []string{"G1.1"}, Status: "fail", Message: jsFailure, Elapsed: time.Second},
			{Scenario: "a RequestParams key wins over the client's own value", URI: "features/request-shaping.feature",
				Tags: []string{"G1.2"}, Status: "pass", Elapsed: time.Second},
			{Scenario: "reserved keys are stripped with a warning", URI: "features/request-shaping.feature",
				Tags: []string{"A4.1"}, Status: "pass", Elapsed: time.Second},
			{Scenario: "openai run matches the golden bodies", URI: "features/cross-port-parity.feature",
				Tags: []string{"X.1"}, Status: "pass", Elapsed: time.Second},
		},
	}
	results := append(syntheticRun(), js)
	judge(results)
	return results
}

// jsFailure is the js port's known failure.
const jsFailure = "LLM request 2 has a \"system\" key"

// judge gives every result its verdicts, as suite.Run does.
func judge(results []*result.PortResult) {
	ids := make([]string, len(testCatalogue))
	for i, e := range testCatalogue {
		ids[i] = e[0]
	}
	for _, r := range results {
		suite.JudgeScenarios(r, nil)
		r.Judge(ids)
	}
}

// Evidence texts of triageRun: three known failures and the one new failure.
const (
	knownParams  = "LLM request 1 lacks \"temperature\" (known-params)"
	knownRow     = "LLM request 2 lacks \"metadata\" (known-row)"
	knownStrip   = "no warning names \"stream\" (known-strip)"
	newStripping = "LLM request 1 still carries \"tools\" (new-stripping)"
)

// triageRun is one port, node, with three known failures and one new failure. The new one
// runs third and shares A4.1 with a known one, so run or catalogue order alone would put known
// evidence before it; the second known failure is an outline row.
func triageRun() []*result.PortResult { return triage(true) }

// allKnown is triageRun without its new failure.
func allKnown() []*result.PortResult { return triage(false) }

// triage builds triageRun, with or without its new failure.
func triage(withNew bool) []*result.PortResult {
	const file = "expectations/node.txt"
	sc := func(name string, tag, msg string) result.Outcome {
		status := result.StatusFail
		if msg == "" {
			status = result.StatusPass
		}
		return result.Outcome{Scenario: name, URI: "features/request-shaping.feature", Tags: []string{tag},
			Status: status, Message: msg, Elapsed: time.Second, AstNodeIDs: []string{name}}
	}
	entry := func(name, msg, reason string, line int) *result.Entry {
		return &result.Entry{Key: result.Key{Feature: "request-shaping.feature", Name: name}, Status: result.StatusFail,
			Fingerprint: result.Fingerprint(msg), Evidence: result.Evidence(msg), Reason: reason, Line: line, File: file}
	}
	node := &result.PortResult{
		Port: "node", Present: true,
		Identity: map[string]any{"library": "toolnexus", "version": "0.9.0", "runtime": "node v22"},
		Expectations: &result.Expectations{Path: file, Entries: []*result.Entry{
			entry("params reach the body on every path", knownParams, "reason-params: temperature is dropped", 3),
			entry("params reach the body (anthropic run)", knownRow, "reason-row: metadata is dropped", 10),
			entry("reserved keys are stripped with a warning", knownStrip, "reason-strip: no warnings", 17),
		}},
		Scenarios: []result.Outcome{
			sc("params reach the body on every path", "G1.1", knownParams),
			sc("params reach the body (anthropic run)", "G1.1", knownRow),
			sc("reserved keys are stripped from the body", "A4.1", newStripping),
			sc("reserved keys are stripped with a warning", "A4.1", knownStrip),
			sc("a key wins over the client's value", "G1.2", ""),
			sc("openai run matches the golden bodies", "X.1", ""),
		},
	}
	if !withNew {
		node.Scenarios = append(node.Scenarios[:2:2], node.Scenarios[3:]...)
	}
	results := []*result.PortResult{node}
	judge(results)
	// The row a feature lookup gives an outline's scenario (judge has no features to look in).
	node.Judged[1].Key.Row, node.Judged[1].Entry.Key.Row = "anthropic | run", "anthropic | run"
	return results
}
