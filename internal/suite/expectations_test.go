package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

func realFeatures(t *testing.T) *Features {
	t.Helper()
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFeatures(root)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Two G1.4 rows: the anthropic run row is listed; the openai run row now fails too.
const (
	g14Feature   = "request-shaping.feature"
	g14Name      = "with no shaping option the body keeps this port's pre-change keys"
	knownMessage = "LLM request 1 key set differs (-want +got):\n  []string{\"max_tokens\", + \"system\"}"
)

func g14(f *Features, t *testing.T, style, mode string) Scenario {
	t.Helper()
	for _, s := range f.Scenarios {
		if s.Key.Feature == g14Feature && s.Key.Name == g14Name+" ("+style+" "+mode+")" {
			return s
		}
	}
	t.Fatalf("no G1.4 %s %s scenario", style, mode)
	return Scenario{}
}

func outcomeOf(s Scenario, status result.Status, msg string) result.Outcome {
	return result.Outcome{Scenario: s.Key.Name, URI: "features/" + s.Key.Feature, Tags: s.Tags,
		AstNodeIDs: strings.Split(s.astKey, "/"), Status: status, Message: msg}
}

func listed(s Scenario, status result.Status, msg string) *result.Expectations {
	return &result.Expectations{Entries: []*result.Entry{{Key: s.Key, Status: status, Fingerprint: result.Fingerprint(msg),
		Evidence: result.Evidence(msg), Reason: "anthropic body carries system", Line: 3, File: "expectations/js.txt"}}}
}

func judged(f *Features, ex *result.Expectations, outs ...result.Outcome) *result.PortResult {
	r := &result.PortResult{Port: "js", Present: true, Scenarios: outs, Expectations: ex}
	JudgeScenarios(r, f)
	r.Judge([]string{"G1.4"})
	return r
}

func TestNewFailureInsideAListedIDIsRed(t *testing.T) {
	f := realFeatures(t)
	known, other := g14(f, t, "anthropic", "run"), g14(f, t, "openai", "run")
	r := judged(f, listed(known, result.StatusFail, knownMessage),
		outcomeOf(known, result.StatusFail, knownMessage),
		outcomeOf(other, result.StatusFail, "LLM request 1 key set differs: + \"tool_choice\""))
	if r.Judged[0].Verdict != result.KnownFailure || r.Judged[1].Verdict != result.Fail {
		t.Fatalf("verdicts %s, %s: want known failure, fail", r.Judged[0].Verdict, r.Judged[1].Verdict)
	}
	if r.Cells["G1.4"] != result.Fail || !r.Red() {
		t.Errorf("G1.4 = %s: a new failure under a listed ID must be red", r.Cells["G1.4"])
	}
	// The listed one alone is known and the run green.
	r = judged(f, listed(known, result.StatusFail, knownMessage), outcomeOf(known, result.StatusFail, knownMessage),
		outcomeOf(other, result.StatusPass, ""))
	if r.Cells["G1.4"] != result.KnownFailure || r.Red() {
		t.Errorf("G1.4 = %s, red %v: want a green known failure", r.Cells["G1.4"], r.Red())
	}
}

func TestListedScenarioFailingDifferentlyIsRed(t *testing.T) {
	f := realFeatures(t)
	known := g14(f, t, "anthropic", "run")
	now := "anthropic run: call failed: failed: connection refused"
	r := judged(f, listed(known, result.StatusFail, knownMessage), outcomeOf(known, result.StatusFail, now))
	j := r.Judged[0]
	if j.Verdict != result.KnownDifferent || r.Cells["G1.4"] != result.KnownDifferent || !r.Red() {
		t.Fatalf("verdict %s cell %s: want known, different evidence (red)", j.Verdict, r.Cells["G1.4"])
	}
	if !strings.Contains(j.Note, "connection refused") || !strings.Contains(j.Note, "max_tokens") ||
		!strings.Contains(j.Note, "expectations/js.txt:3") {
		t.Errorf("the note must carry both texts and the entry's place: %s", j.Note)
	}
	// A listed scenario that passes is an unexpected pass, red.
	r = judged(f, listed(known, result.StatusFail, knownMessage), outcomeOf(known, result.StatusPass, ""))
	if r.Cells["G1.4"] != result.UnexpectedPass || !r.Red() {
		t.Errorf("cell %s: want unexpected pass", r.Cells["G1.4"])
	}
}

func writeExpectations(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "expectations", "js.txt")
	writeFile(t, path, text)
	return path
}

func TestExpectationFileErrorsNameFileAndLine(t *testing.T) {
	f := realFeatures(t)
	good := "id: g1-pre-change-keys\nrow: anthropic | run\n" +
		"status: fail\nfingerprint: abc\nevidence: x\nreason: y\n"
	for name, c := range map[string]struct{ text, want string }{
		"unknown scenario": {"version: 1\n\nid: no-such-scenario\nstatus: fail\nfingerprint: a\nreason: r\n",
			"js.txt:3: no-such-scenario matches no scenario in features/ (no scenario has @id:no-such-scenario)"},
		"unknown row": {"id: g1-pre-change-keys\nrow: anthropic | walk\nstatus: fail\nfingerprint: a\nreason: r\n",
			"js.txt:1: g1-pre-change-keys [anthropic | walk] matches no scenario in features/ (that scenario's rows: "},
		"not an id":      {"id: Some Title\nstatus: fail\nfingerprint: a\nreason: r\n", "js.txt:1: id: must be a scenario's @id: tag"},
		"before any id":  {"scenario: " + g14Feature + ": " + g14Name + "\nstatus: fail\n", "js.txt:1: scenario: before any id:"},
		"duplicate":      {good + "\n" + good, "js.txt:8: g1-pre-change-keys [anthropic | run] is listed twice (first at line 1)"},
		"missing reason": {strings.Replace(good, "reason: y\n", "", 1), "js.txt:1: " + g14Feature + ": " + g14Name + " (anthropic run) [anthropic | run] has no reason"},
		"unknown field":  {good + "colour: red\n", "js.txt:7: unknown field \"colour\""},
		"bad status":     {strings.Replace(good, "status: fail", "status: flaky", 1), "js.txt:3: status \"flaky\""},
	} {
		_, err := LoadExpectations(writeExpectations(t, c.text), f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", name, err, c.want)
		}
	}
	ex, err := LoadExpectations(writeExpectations(t, "version: 1\n\n"+good), f)
	if err != nil {
		t.Fatalf("a good file: %v", err)
	}
	// The entry is matched by id and row, and shows today's title: a reworded title keeps it.
	if k := ex.Entries[0].Key; k.Name != g14Name+" (anthropic run)" || k.Feature != g14Feature {
		t.Errorf("entry key %+v does not carry the scenario's title", k)
	}
}

// --update-expected rewrites only the scenarios the run selected; the rest stay as written.
func TestUpdateKeepsWhatTheRunDidNotSelect(t *testing.T) {
	f := realFeatures(t)
	ar, as, or := g14(f, t, "anthropic", "run"), g14(f, t, "anthropic", "stream"), g14(f, t, "openai", "run")
	path := writeExpectations(t, "version: 0.1\n")
	ex := &result.Expectations{Path: path, Version: "0.1", Entries: []*result.Entry{
		{Key: ar.Key, Status: result.StatusFail, Fingerprint: result.Fingerprint(knownMessage), Evidence: "e", Reason: "kept: not selected", Line: 1},
		{Key: as.Key, Status: result.StatusFail, Fingerprint: "old", Evidence: "old text", Reason: "stream reason", Line: 2},
	}}
	r := &result.PortResult{Port: "js", Present: true, Expectations: ex, Identity: map[string]any{"version": "0.2"},
		Scenarios: []result.Outcome{outcomeOf(as, result.StatusFail, knownMessage), outcomeOf(or, result.StatusFail, "new failure")}}
	JudgeScenarios(r, f)
	added, changed, dropped, err := UpdateExpectations(ex, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 1 || len(changed) != 1 || len(dropped) != 0 {
		t.Errorf("added %v changed %v dropped %v", added, changed, dropped)
	}
	back, err := LoadExpectations(path, f)
	if err != nil {
		t.Fatalf("the rewritten file does not load: %v", err)
	}
	if back.Version != "0.2" || len(back.Entries) != 3 {
		t.Fatalf("version %q, %d entries", back.Version, len(back.Entries))
	}
	if e := back.Find(ar.Key); e == nil || e.Reason != "kept: not selected" {
		t.Errorf("the unselected entry was not kept: %+v", e)
	}
	if e := back.Find(as.Key); e == nil || e.Fingerprint != result.Fingerprint(knownMessage) || !strings.HasPrefix(e.Reason, "UNVERIFIED") {
		t.Errorf("the changed entry: %+v", e)
	}
}

func TestFeatureSyntaxErrorNamesFileAndLine(t *testing.T) {
	root := scriptedRoot(t, "")
	writeFile(t, filepath.Join(root, "features", "broken.feature"), "Feature: x\n  Scenario: y\n    Given a step\n  Examples oops\n    | a |\n")
	_, err := LoadFeatures(root)
	if err == nil || !strings.Contains(err.Error(), "features/broken.feature:4:") || !strings.Contains(err.Error(), "Gherkin syntax error") {
		t.Fatalf("error %v: want features/broken.feature:4: Gherkin syntax error", err)
	}
	// The whole run refuses to start rather than silently running nothing.
	if _, err := Validate(Options{Root: root, Ports: []string{"python"}, CallTimeout: 1, ScenarioTimeout: 1, PrepareTimeout: 1}); err == nil {
		t.Error("Validate accepted a broken feature file")
	}
	if err := os.Remove(filepath.Join(root, "features", "broken.feature")); err != nil {
		t.Fatal(err)
	}
}

func TestTagsAreValidated(t *testing.T) {
	f := realFeatures(t)
	for expr, want := range map[string]string{
		"@G1.4 and @G1.1": "is not a tag term",
		"@G9.9":           "no scenario is tagged @G9.9",
		"@G1.4 && ~@G1.4": "selects no scenario",
		"@G1.4,":          "is not a tag term",
	} {
		if _, err := f.Select(expr); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--tags %q: %v, want %q", expr, err, want)
		}
	}
	sel, err := f.Select("@id:g1-pre-change-keys,@id:g1-params-top-level && ~@id:g1-pre-change-keys")
	if err != nil || len(sel) != 8 {
		t.Errorf("got %d scenarios (%v), want 8", len(sel), err)
	}
}

// One defect under two messages (a call just past its bound, or cut at bound + margin) is
// listed with both fingerprints; a third message is still "known, different evidence".
func TestSeveralFingerprintsOfOneDefect(t *testing.T) {
	f := realFeatures(t)
	known := g14(f, t, "anthropic", "run")
	late, cut := "mcp.load took 2.3s; the ADR bound is 2s", "mcp.load: no answer within 2.5s (the pinned bound 2s + margin 500ms)"
	ex := listed(known, result.StatusFail, late)
	ex.Entries[0].Fingerprint += ", " + result.Fingerprint(cut)
	for msg, want := range map[string]result.Verdict{late: result.KnownFailure, cut: result.KnownFailure, "connection refused": result.KnownDifferent} {
		if got := judged(f, ex, outcomeOf(known, result.StatusFail, msg)).Judged[0].Verdict; got != want {
			t.Errorf("%q: %s, want %s", msg, got, want)
		}
	}
}

// A flaky entry lets the scenario pass (green, with a note) but a failure must still match.
func TestFlakyEntry(t *testing.T) {
	f := realFeatures(t)
	known := g14(f, t, "anthropic", "run")
	ex := listed(known, result.StatusFail, knownMessage)
	ex.Entries[0].Flaky = "passes when the SSE connect wins the race"
	r := judged(f, ex, outcomeOf(known, result.StatusPass, ""))
	if j := r.Judged[0]; j.Verdict != result.Pass || r.Red() || !strings.Contains(j.Note, "flaky") {
		t.Errorf("a flaky entry that passed: %s (red %v, note %q), want a green pass with a note", j.Verdict, r.Red(), j.Note)
	}
	if r := judged(f, ex, outcomeOf(known, result.StatusFail, "connection refused")); !r.Red() {
		t.Errorf("a flaky entry failing with other evidence must stay red")
	}
	// Update keeps a flaky entry whose scenario passed.
	dir := t.TempDir()
	ex.Path = filepath.Join(dir, "js.txt")
	r = judged(f, ex, outcomeOf(known, result.StatusPass, ""))
	if _, _, dropped, err := UpdateExpectations(ex, r); err != nil || len(dropped) != 0 || len(ex.Entries) != 1 {
		t.Errorf("update dropped a flaky entry that passed: dropped %v, entries %d, err %v", dropped, len(ex.Entries), err)
	}
	back, err := LoadExpectations(ex.Path, f)
	if err != nil || len(back.Entries) != 1 || back.Entries[0].Flaky == "" {
		t.Fatalf("flaky: did not survive a write and read: %v %+v", err, back)
	}
}

func TestLongExpectationsLineNamesFileAndLine(t *testing.T) {
	f := realFeatures(t)
	path := writeExpectations(t, "version: 1\n\nid: g1-pre-change-keys\nevidence: "+strings.Repeat("x", 2<<20)+"\n")
	_, err := LoadExpectations(path, f)
	if err == nil || !strings.Contains(err.Error(), "js.txt:4: a line longer than 1 MiB") {
		t.Errorf("error %v; want js.txt:4 named", err)
	}
}

// Timing tags are checked when the features load, each problem at its scenario's file:line.
func TestTimingTagsAreValidatedAtLoad(t *testing.T) {
	root := scriptedRoot(t, "")
	path := filepath.Join(root, "features", "mcp", "list-only.feature")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "@within:2000", "@within:2s", 1)
	text = strings.Replace(text, "  @quick\n", "  @quick @within:3000\n", 1)
	writeFile(t, path, text)
	_, err = LoadFeatures(root)
	for _, want := range []string{
		`list-only.feature:39: scenario "a cancel ends a listing stuck on a hung server": @within:2s: want a whole number of ms above 0`,
		`: @quick with @within: a bound in absolute ms would not move with the cut limits`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v; want it to contain %q", err, want)
		}
	}
}

// A scenario whose step disagrees with its declared bound is the run's harness error, named
// at the scenario's file:line.
func TestMisdeclaredScenarioIsNamedAtItsLine(t *testing.T) {
	f := realFeatures(t)
	var s Scenario
	for _, x := range f.Scenarios {
		if x.Key.ID == "g6-cancel-hung-listing" {
			s = x
		}
	}
	if s.File == "" {
		t.Fatal("no scenario g6-cancel-hung-listing")
	}
	out := outcomeOf(s, result.StatusFail, "harness: disagrees")
	out.AstNodeIDs = strings.Split(s.astKey, "/")
	out.Harness = "the step asserts a bound of 2100 ms, but the scenario declares @within:2000"
	if got, want := misdeclared(f, out), fmt.Sprintf("%s:%d: scenario %q: the step asserts", s.File, s.Line, s.Key.Name); !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start with %q", got, want)
	}
}

// An entry whose status the scenario no longer ends with is stale: red, and named as such at
// its file:line; an entry whose scenario was inconclusive is named as not confirmed.
func TestStaleEntriesAreNamed(t *testing.T) {
	f := realFeatures(t)
	known := g14(f, t, "anthropic", "run")
	r := judged(f, listed(known, result.StatusUnsupported, "no such op"), outcomeOf(known, result.StatusFail, knownMessage))
	if j := r.Judged[0]; j.Verdict != result.KnownDifferent || !r.Red() ||
		!strings.Contains(j.Note, "stale entry at expectations/js.txt:3: it says unsupported, the scenario now ends fail") {
		t.Errorf("verdict %s, red %v, note %q: want a red stale entry named at its line", j.Verdict, r.Red(), j.Note)
	}
	r = judged(f, listed(known, result.StatusFail, knownMessage), outcomeOf(known, result.StatusInconclusive, "the stall was never entered"))
	if j := r.Judged[0]; j.Verdict != result.Inconclusive || r.Red() ||
		!strings.Contains(j.Note, "the entry at expectations/js.txt:3 (fail) was not confirmed") {
		t.Errorf("verdict %s, red %v, note %q: want inconclusive naming the unconfirmed entry", j.Verdict, r.Red(), j.Note)
	}
}
