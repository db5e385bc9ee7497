package suite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
)

// BenchmarkBesideBrokenAdapter runs the reference beside one chaos implementation on three
// scenarios with a 5 s call deadline and reports the run's wall time, the reference's and
// the chaos column's time per scenario. Run: go test -run '^$' -bench BesideBroken -benchtime 1x
func BenchmarkBesideBrokenAdapter(b *testing.B) {
	root, err := ports.Root()
	if err != nil {
		b.Fatal(err)
	}
	exe, _ := os.Executable()
	for _, mode := range []string{"hang", "hang-hello", "closed-stdout", "huge", "escape-crash"} {
		b.Run(mode, func(b *testing.B) {
			dir := chaosRoot(b, root, mode)
			for i := 0; i < b.N; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				began := time.Now()
				results, err := Run(ctx, Options{Library: steps.Library(), Returned: steps.Returned,
					Root: dir, Cache: filepath.Join(root, ".cache"), Ports: []string{"reference", "chaos-" + mode},
					Tags: "@G1.2,@A5.1", CallTimeout: 5 * time.Second, ScenarioTimeout: time.Minute,
					PrepareTimeout: 5 * time.Minute, StdioArgv: []string{exe, "fake-mcp-stdio"},
				})
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(time.Since(began).Seconds(), "s/run")
				for _, r := range results {
					var sum time.Duration
					for _, o := range r.Scenarios {
						sum += o.Elapsed
					}
					name := "s/ref-scenario"
					if r.Port != "reference" {
						name = "s/chaos-scenario"
					}
					if n := len(r.Scenarios); n > 0 {
						b.ReportMetric(sum.Seconds()/float64(n), name)
					}
				}
			}
		})
	}
}
