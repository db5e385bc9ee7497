package suite

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// byID is the first declared scenario with that stable id.
func byID(t *testing.T, f *Features, id string) Scenario {
	t.Helper()
	for _, s := range f.Scenarios {
		if s.Key.ID == id {
			return s
		}
	}
	t.Fatalf("no scenario has @id:%s", id)
	return Scenario{}
}

func withAttempts(o result.Outcome, as ...result.Attempt) result.Outcome {
	last := as[len(as)-1]
	o.Status, o.Message, o.Attempts = last.Status, last.Message, as
	return o
}

func TestAttemptsThatDisagreeAreFlakyWithEveryText(t *testing.T) {
	f := realFeatures(t)
	s := g14(f, t, "openai", "run")
	o := withAttempts(outcomeOf(s, result.StatusPass, ""),
		result.Attempt{Status: result.StatusFail, Message: "first attempt: the call returned after 2.6 s"},
		result.Attempt{Status: result.StatusPass})
	r := judged(f, nil, o)
	j := r.Judged[0]
	if j.Verdict != result.Flaky || !strings.Contains(j.Note, "first attempt: the call returned after") ||
		!strings.Contains(j.Note, "attempt 2: pass") || len(j.Attempts) != 2 {
		t.Fatalf("verdict %s, note %q, %d attempts; want flaky naming both attempts", j.Verdict, j.Note, len(j.Attempts))
	}
	if r.Red() {
		t.Error("a flaky scenario failed the run without --strict")
	}
	r.Strict = true
	if !r.Red() {
		t.Error("with --strict a flaky scenario must fail the run")
	}
}

func TestInconclusiveAttemptsAreSetAside(t *testing.T) {
	f := realFeatures(t)
	s := g14(f, t, "openai", "run")
	inc := result.Attempt{Status: result.StatusInconclusive, Message: "inconclusive: the stdio server of \"x\" was never started"}
	// An inconclusive first attempt and a pass: a pass, not flaky, never the port's failure.
	r := judged(f, nil, withAttempts(outcomeOf(s, result.StatusPass, ""), inc, result.Attempt{Status: result.StatusPass}))
	if j := r.Judged[0]; j.Verdict != result.Pass || r.Red() {
		t.Errorf("inconclusive then pass: %s (%s); want pass", j.Verdict, j.Note)
	}
	// Inconclusive every time: inconclusive, red only with --strict.
	r = judged(f, nil, withAttempts(outcomeOf(s, result.StatusPass, ""), inc, inc, inc))
	if j := r.Judged[0]; j.Verdict != result.Inconclusive || r.Red() || r.Cells["G1.4"] != result.Inconclusive {
		t.Errorf("inconclusive thrice: %s, cell %s, red %v; want inconclusive, not red", j.Verdict, r.Cells["G1.4"], r.Red())
	}
}

func TestAKnownFailureInAnyAttemptIsThatKnownFailure(t *testing.T) {
	f := realFeatures(t)
	s := g14(f, t, "anthropic", "run")
	cut := "mcp.load: no answer within 2.5s (the pinned bound 2s + margin 500ms)"
	r := judged(f, listed(s, result.StatusFail, knownMessage), withAttempts(outcomeOf(s, result.StatusFail, knownMessage),
		result.Attempt{Status: result.StatusFail, Message: cut}, result.Attempt{Status: result.StatusFail, Message: knownMessage}))
	if j := r.Judged[0]; j.Verdict != result.KnownFailure || !strings.Contains(j.Note, "no answer within") {
		t.Errorf("verdict %s, note %q; want the known failure, naming the other attempt", j.Verdict, j.Note)
	}
}

func TestRecommendedFailureIsAdviceAndRequiredIsRed(t *testing.T) {
	f := realFeatures(t)
	rec := byID(t, f, "g5-caller-tool-params-warned")
	req := byID(t, f, "g5-caller-tool-params-sent")
	if rec.Level != result.Recommended || req.Level != result.Required {
		t.Fatalf("levels: %s %s", rec.Level, req.Level)
	}
	r := judged(f, nil, outcomeOf(rec, result.StatusFail, `no warning names "tool_choice"`))
	r.Judge([]string{"G5.5"})
	if j := r.Judged[0]; j.Verdict != result.Advice || j.Level != result.Recommended || !strings.Contains(j.Source, "SPEC.md §1") {
		t.Errorf("recommended failure: verdict %s, level %s, source %q; want advice citing SPEC.md §1", j.Verdict, j.Level, j.Source)
	}
	if r.Red() || r.Unexpected() != 0 || r.Cells["G5.5"] != result.Advice {
		t.Errorf("a recommended failure turned the run red (cell %s)", r.Cells["G5.5"])
	}
	// Listed with its reason, a recommended failure is still advice, in its own count.
	msg := `no warning names "tool_choice"`
	r = judged(f, listed(rec, result.StatusFail, msg), outcomeOf(rec, result.StatusFail, msg))
	if j := r.Judged[0]; j.Verdict != result.Advice || !strings.Contains(j.Note, "anthropic body carries system") {
		t.Errorf("listed recommended failure: %s %q; want advice with the entry's reason", j.Verdict, j.Note)
	}
	r = judged(f, nil, outcomeOf(req, result.StatusFail, `LLM request 1 has no "tool_choice"`))
	r.Judge([]string{"G5.5"})
	if j := r.Judged[0]; j.Verdict != result.Fail || !strings.Contains(j.Source, "ADR 0001") || !r.Red() {
		t.Errorf("required failure: verdict %s, source %q, red %v; want a red fail citing the ADR", j.Verdict, j.Source, r.Red())
	}
}

func TestRetryPolicy(t *testing.T) {
	f := realFeatures(t)
	s := g14(f, t, "anthropic", "run")
	rec := byID(t, f, "g5-caller-tool-params-warned")
	known := listed(s, result.StatusFail, knownMessage)
	misdeclared := outcomeOf(s, result.StatusFail, "harness: x")
	misdeclared.Harness = "x"
	finalInconclusive := outcomeOf(s, result.StatusInconclusive, "cut at the hang guard")
	finalInconclusive.Final = true
	blocked := outcomeOf(s, result.StatusFail, "blocked by g3-sse-only-fallback: no GET")
	blocked.Final = true
	for _, c := range []struct {
		name     string
		s        Scenario
		o        result.Outcome
		e        *result.Entry
		attempts int
		want     bool
	}{
		{"new failure", s, outcomeOf(s, result.StatusFail, "other"), nil, 1, true},
		{"new failure, last attempt", s, outcomeOf(s, result.StatusFail, "other"), nil, MaxAttempts, false},
		{"known failure", s, outcomeOf(s, result.StatusFail, knownMessage), known.Entries[0], 1, false},
		{"different evidence", s, outcomeOf(s, result.StatusFail, "other"), known.Entries[0], 1, true},
		{"unexpected pass", s, outcomeOf(s, result.StatusPass, ""), known.Entries[0], 1, true},
		{"pass", s, outcomeOf(s, result.StatusPass, ""), nil, 1, false},
		{"unsupported", s, outcomeOf(s, result.StatusUnsupported, "x"), nil, 1, false},
		{"inconclusive", s, outcomeOf(s, result.StatusInconclusive, "x"), nil, 2, true},
		{"recommended failure", rec, outcomeOf(rec, result.StatusFail, "x"), nil, 1, false},
		{"recommended inconclusive", rec, outcomeOf(rec, result.StatusInconclusive, "x"), nil, 1, true},
		{"the scenario's own fault", s, misdeclared, nil, 1, false},
		{"inconclusive, and no attempt can change it", s, finalInconclusive, nil, 1, false},
		{"blocked by a missing feature", s, blocked, nil, 1, false},
	} {
		if got := retry(c.s, c.o, c.e, c.attempts); got != c.want {
			t.Errorf("%s: retry %v, want %v", c.name, got, c.want)
		}
	}
}

// Every scenario declares a stable id, one level and a known source of that level.
func TestEveryScenarioDeclaresLevelAndSource(t *testing.T) {
	f := realFeatures(t)
	for _, s := range f.Scenarios {
		if s.Key.ID == "" || s.Level == "" || len(s.Sources) == 0 {
			t.Errorf("%s: id %q level %q sources %d", s.Key, s.Key.ID, s.Level, len(s.Sources))
		}
	}
}

func TestUndeclaredLevelIsAnError(t *testing.T) {
	root := scriptedRoot(t, "")
	path := filepath.Join(root, "features", "store", "conversation-store.feature")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "@id:g4-accessor-identity @required", "@id:g4-accessor-identity", 1)
	writeFile(t, path, strings.Replace(text, "@src:adr-g4-default", "@src:no-such-rule", 1))
	_, err = LoadFeatures(root)
	for _, want := range []string{
		"conversation-store.feature:7: scenario \"the accessor returns the very store passed in the options\" wants exactly one of @required, @recommended",
		"@src:no-such-rule cites no rule of fixtures/sources.txt",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v; want it to contain %q", err, want)
		}
	}
}

// A step no definition matches is bad input named by file:line, not a reference failure.
func TestUndefinedStepIsBadInput(t *testing.T) {
	root := scriptedRoot(t, "")
	path := filepath.Join(root, "features", "store", "conversation-store.feature")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, strings.Replace(string(b), "Then the store accessor returns the host-supplied store",
		"Then the store accessor returns the host-suplied store", 1))
	_, err = Validate(Options{Root: root, Ports: []string{"reference"}, CallTimeout: 1, ScenarioTimeout: 1, PrepareTimeout: 1})
	want := `conversation-store.feature:7: step "the store accessor returns the host-suplied store" has no definition`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v; want it to contain %q", err, want)
	}
}

// A run killed with -9 leaves its temp dir; the next run removes it, and only it.
func TestDeadRunsTempDirsAreSwept(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadDir := filepath.Join(tmp, fmt.Sprintf("conformance-run-%d-abc", dead.Process.Pid))
	liveDir := filepath.Join(tmp, fmt.Sprintf("conformance-run-%d-abc", os.Getppid()))
	deadFork := filepath.Join(tmp, fmt.Sprintf("conformance-fork-%d-abc", dead.Process.Pid))
	liveFork := filepath.Join(tmp, fmt.Sprintf("conformance-fork-%d-abc", os.Getppid()))
	for _, d := range []string{deadDir, liveDir, deadFork, liveFork} {
		if err := os.MkdirAll(filepath.Join(d, "conformance-scenario-1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweepDeadRuns()
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Errorf("a dead run's temp dir is still there: %v", err)
	}
	if _, err := os.Stat(liveDir); err != nil {
		t.Errorf("a live run's temp dir was removed: %v", err)
	}
	if _, err := os.Stat(deadFork); !os.IsNotExist(err) {
		t.Errorf("a dead run's fork socket dir is still there: %v", err)
	}
	if _, err := os.Stat(liveFork); err != nil {
		t.Errorf("a live run's fork socket dir was removed: %v", err)
	}
}

// go-cmp renders one diff differently from one process to the next (steps/mismatch.go): a
// known failure must still be known when only the rendering moved.
func TestAKnownFailureIsMatchedOnItsStableTextNotItsRendering(t *testing.T) {
	f := realFeatures(t)
	s := g14(f, t, "anthropic", "run")
	stable := "LLM request 1 differs (-want +got):\nwant 100\ngot 100.0"
	ex := listed(s, result.StatusFail, stable)
	for _, rendering := range []string{`"10", + "0.", "0,"`, `"100", + ".0", ","`} {
		o := outcomeOf(s, result.StatusFail, "LLM request 1 differs (-want +got):\n"+rendering)
		o.Stable = stable
		if j := judged(f, ex, o).Judged[0]; j.Verdict != result.KnownFailure {
			t.Errorf("rendering %s: verdict %s (%s); want the known failure", rendering, j.Verdict, j.Note)
		}
		retried := withAttempts(o, result.Attempt{Status: result.StatusFail, Message: o.Message, Stable: stable},
			result.Attempt{Status: result.StatusFail, Message: o.Message, Stable: stable})
		retried.Stable = stable
		if j := judged(f, ex, retried).Judged[0]; j.Verdict != result.KnownFailure {
			t.Errorf("rendering %s, two attempts: verdict %s (%s)", rendering, j.Verdict, j.Note)
		}
	}
}
