package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// captured runs f with *stream (os.Stdout or os.Stderr) going to a pipe and returns what it wrote.
func captured(t *testing.T, stream **os.File, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := *stream
	*stream = w
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	defer func() { *stream = saved }()
	f()
	w.Close()
	return <-done
}

// run knows --verbose: a bad --ports is what it rejects, not the flag.
func TestRunHasVerbose(t *testing.T) {
	out := captured(t, &os.Stderr, func() { cmdRun([]string{"--verbose", "--ports", "pyhton"}, false) })
	if strings.Contains(out, "not defined") || !strings.Contains(out, "pyhton") {
		t.Errorf("run --verbose: %s", out)
	}
}

// merge counts a known failure, and lists it with its evidence with --verbose.
func TestMergeVerbose(t *testing.T) {
	const msg = "LLM request 1 lacks \"temperature\""
	key := result.Key{Feature: "request-shaping.feature", Name: "params reach the body"}
	r := &result.PortResult{Port: "js", Present: true,
		Expectations: &result.Expectations{Entries: []*result.Entry{{Key: key, Status: result.StatusFail,
			Fingerprint: result.Fingerprint(msg), Reason: "temperature is dropped", File: "expectations/js.txt"}}},
		Scenarios: []result.Outcome{{Scenario: key.Name, URI: "features/" + key.Feature, Tags: []string{"G1.1"},
			Status: result.StatusFail, Message: msg}}}
	suite.JudgeScenarios(r, nil)
	r.Judge([]string{"G1.1"})
	dir := t.TempDir()
	if _, err := report.WriteFiles(dir, [][2]string{{"G1.1", "params"}}, []*result.PortResult{r}, false,
		result.Versions{Catalogue: "c", Suite: "s"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "results.json")
	short := captured(t, &os.Stdout, func() { cmdMerge([]string{path}) })
	if !strings.Contains(short, "1 known failure, as their expectations list them (js 1;") || strings.Contains(short, msg) {
		t.Errorf("merge: want the known failure counted, without its evidence:\n%s", short)
	}
	if long := captured(t, &os.Stdout, func() { cmdMerge([]string{"--verbose", path}) }); !strings.Contains(long, msg) ||
		!strings.Contains(long, "js        params reach the body — temperature is dropped (") {
		t.Errorf("merge --verbose: no evidence for the known failure:\n%s", long)
	}
}
