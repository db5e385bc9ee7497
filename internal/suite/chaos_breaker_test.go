package suite

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// TestChaosBreakerAndBroken runs the reference beside an adapter that answers hello and then
// nothing, and one that dies at start: the first is cut off by the breaker (its remaining
// scenarios "not run: adapter unresponsive") after BreakerThreshold failed scenarios, with
// --jobs at the threshold costing about one call deadline of wall time, the second
// is broken (red), never "not present"; the reference's column is intact.
func TestChaosBreakerAndBroken(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	root, err := ports.Root()
	if err != nil {
		t.Fatal(err)
	}
	dir := chaosRoot(t, root, "hang", "exit-at-start")
	exe, _ := os.Executable()
	const deadline = 2 * time.Second
	var mu sync.Mutex
	finished := map[string]time.Duration{}
	began := time.Now()
	results, err := Run(context.Background(), Options{Library: steps.Library(), Returned: steps.Returned,
		Root: dir, Cache: filepath.Join(root, ".cache"), Ports: []string{"reference", "chaos-hang", "chaos-exit-at-start"},
		Tags: "@G1.1,@G1.3", CallTimeout: deadline, ScenarioTimeout: time.Minute, PrepareTimeout: 5 * time.Minute,
		// Several scenarios at once, each on its own process: the breaker counts across them.
		// No more than BreakerThreshold, or the first wave alone would fail more than that.
		Jobs:      BreakerThreshold,
		StdioArgv: []string{exe, "fake-mcp-stdio"},
		OnDone: func(r *result.PortResult) {
			mu.Lock()
			defer mu.Unlock()
			finished[r.Port] = time.Since(began)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*result.PortResult{}
	for _, r := range results {
		byName[r.Port] = r
	}
	if ref := byName["reference"]; !ref.Present || ref.Red() || len(ref.Scenarios) != 8 {
		t.Fatalf("reference column not intact: present %v, red %v, %d scenarios", ref.Present, ref.Red(), len(ref.Scenarios))
	}

	hang := byName["chaos-hang"]
	failed, skipped := 0, 0
	for _, o := range hang.Scenarios {
		switch o.Status {
		case result.StatusFail:
			failed++
		case result.StatusUnresponsive:
			skipped++
		default:
			t.Errorf("chaos-hang: %s: %s %q", o.Scenario, o.Status, o.Message)
		}
	}
	if failed != BreakerThreshold || skipped != 8-BreakerThreshold || hang.Unresponsive == "" || !hang.Red() {
		t.Errorf("chaos-hang: %d failed, %d not run, unresponsive %q, red %v; want %d failed then the breaker",
			failed, skipped, hang.Unresponsive, hang.Red(), BreakerThreshold)
	}
	// Cost: the breaker's deadlines plus start-up, not one deadline per scenario.
	if took := finished["chaos-hang"]; took > time.Duration(BreakerThreshold+2)*deadline+10*time.Second {
		t.Errorf("chaos-hang took %s to judge; the breaker should stop it after %d deadlines of %s", took, BreakerThreshold, deadline)
	}

	dead := byName["chaos-exit-at-start"]
	if !dead.Broken || !dead.Red() || dead.Reason == "" {
		t.Errorf("chaos-exit-at-start: broken %v, red %v, reason %q; an adapter that dies at start is broken and red",
			dead.Broken, dead.Red(), dead.Reason)
	}
	if left := adapterProcesses(); len(left) > 0 {
		t.Errorf("adapter processes left after the run: %v", left)
	}
}
