package suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/mutant"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

func speedOptions(t *testing.T, tags string, jobs int) Options {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	return Options{
		Library: steps.Library(), Returned: steps.Returned,
		Root: root, Cache: filepath.Join(root, ".cache"), Ports: []string{ports.Reference}, Tags: tags,
		CallTimeout: 15 * time.Second, ScenarioTimeout: time.Minute, PrepareTimeout: 5 * time.Minute,
		StdioArgv: []string{exe, "fake-mcp-stdio"}, Jobs: jobs,
		NoRetry: true, // these tests time single attempts; retries have tests of their own
	}
}

func runOne(t *testing.T, o Options) *result.PortResult {
	t.Helper()
	results, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if !r.Present {
		t.Fatalf("reference not present: %s", r.Reason)
	}
	return r
}

// TestParallelRunReportsLikeASequentialOne runs the same scenarios one at a time and four
// at a time: the outcomes must come back in the same (feature) order with the same verdicts,
// and the parallel run must really have used several adapter processes.
func TestParallelRunReportsLikeASequentialOne(t *testing.T) {
	// A slow scenario early in the files (G3.5) and quick ones after it, in two features.
	tags := "@G3.5,@G3.1,@G3.6,@G6.2,@G6.3,@G5.1,@A1.1,@G1.1"
	seq := runOne(t, speedOptions(t, tags, 1))
	par := runOne(t, speedOptions(t, tags, 4))
	if par.Timing.Starts < 3 {
		t.Errorf("the parallel run started %d adapter processes; want several", par.Timing.Starts)
	}
	// One job and its warm spare; the reference breaks nothing, so nothing is replaced.
	if seq.Timing.Starts != 2 || seq.Timing.Replacements != 0 || seq.Timing.Waits != 0 {
		t.Errorf("the sequential run started %d adapter processes, %d replacements, %d waits; want 2, 0, 0",
			seq.Timing.Starts, seq.Timing.Replacements, seq.Timing.Waits)
	}
	key := func(o result.Outcome) string {
		return o.URI + " | " + o.Scenario + " | " + string(o.Status) + " | " + strings.Join(o.Tags, " ")
	}
	if len(seq.Scenarios) != len(par.Scenarios) || len(seq.Scenarios) < 10 {
		t.Fatalf("sequential ran %d scenarios, parallel %d", len(seq.Scenarios), len(par.Scenarios))
	}
	for i := range seq.Scenarios {
		if a, b := key(seq.Scenarios[i]), key(par.Scenarios[i]); a != b {
			t.Errorf("outcome %d: sequential %q, parallel %q", i, a, b)
		}
		if seq.Scenarios[i].Status != "pass" {
			t.Errorf("%s: %s %s", seq.Scenarios[i].Scenario, seq.Scenarios[i].Status, seq.Scenarios[i].Message)
		}
	}
}

// TestHungCallIsJudgedAtItsBound runs G3.1 and G3.5 against a reference whose connect ignores
// the caller's cancel, with a call deadline far beyond the bounds: each scenario must fail at
// its pinned bound (2 s for a "returns within 2000 ms", cancel + 2 s otherwise) plus the margin,
// say what the fakes saw, and leave no adapter or stdio child behind.
func TestHungCallIsJudgedAtItsBound(t *testing.T) {
	o := speedOptions(t, "@G3.1,@G3.5", 2)
	o.CallTimeout = 2 * time.Minute // if the bound did not cut the call, the message would say so
	// A cache of its own: the leak check below then sees this run's adapters alone, not those
	// other tests start from the shared cache at the same time.
	o.Cache = t.TempDir()
	ms, err := mutant.Load(filepath.Join(o.Root, "mutants"))
	if err != nil {
		t.Fatal(err)
	}
	var m *mutant.Mutant
	for i := range ms {
		if ms[i].Name == "g3-connect-ignores-caller" {
			m = &ms[i]
		}
	}
	if m == nil {
		t.Fatal("mutant g3-connect-ignores-caller is missing")
	}
	dir := t.TempDir()
	if err := m.Apply(filepath.Join(o.Root, "reference"), dir); err != nil {
		t.Fatal(err)
	}
	o.AdapterEnv = []string{"TOOLNEXUS_GO=" + dir}
	exe, _ := os.Executable()
	before := processes()
	r := runOne(t, o)
	if len(r.Scenarios) != 3 {
		t.Fatalf("%d scenarios ran; want 3", len(r.Scenarios))
	}
	for _, sc := range r.Scenarios {
		want := "no answer within 2.5s (the pinned bound 2s + margin 500ms)"
		if strings.Contains(sc.Scenario, "cancel mid-load") {
			want = "no answer within 9.2s (the pinned bound 8.7s + margin 500ms)"
		}
		if sc.Status != "fail" || !strings.Contains(sc.Message, want) {
			t.Errorf("%s: %s %q; want a failure saying %q", sc.Scenario, sc.Status, sc.Message, want)
		}
		if !strings.Contains(sc.Message, `"stuck" accepted 1 connections`) {
			t.Errorf("%s: the failure does not say what the hung fake saw: %q", sc.Scenario, sc.Message)
		}
	}
	// Each killed process is replaced; the last one's replacement may be cut short by the
	// run's end (the spare served the third scenario).
	if r.Timing.Replacements < 2 {
		t.Errorf("%d adapter processes replaced; each killed one must be", r.Timing.Replacements)
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		var leaked []string
		for _, p := range newProcesses(before, processes(), exe, o.Cache) {
			// Only ours: other runs on this machine may have adapters of their own.
			if strings.Contains(p, o.Cache) || strings.Contains(p, exe) {
				leaked = append(leaked, p)
			}
		}
		if len(leaked) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after the run: %v", leaked)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
