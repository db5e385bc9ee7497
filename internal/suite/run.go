// Package suite runs the Gherkin suite against each port's adapter and judges the results.
package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"toolnexus-conformance/fakes/llm"
	"toolnexus-conformance/internal/adapter"
	"toolnexus-conformance/internal/ports"
	"toolnexus-conformance/schema"
	"toolnexus-conformance/steps"
)

// Options configure one run.
type Options struct {
	Root, Cache     string
	Ports           []string
	Tags            string
	CallTimeout     time.Duration
	ScenarioTimeout time.Duration
	PrepareTimeout  time.Duration
	ReportDir       string // cucumber JSON per port goes here when set
	UpdateGolden    bool
	// StdioArgv starts the fake stdio MCP server (this binary's fake-mcp-stdio command).
	StdioArgv []string
	Progress  io.Writer
	// AdapterEnv is extra environment for adapters (e.g. TOOLNEXUS_GO for a mutant).
	AdapterEnv []string
	// Jobs is how many scenarios of one implementation run at once, each on its own
	// adapter process and fakes (0: DefaultJobs()).
	Jobs int
}

// Run runs every requested port in parallel; ports never block each other.
func Run(ctx context.Context, o Options) ([]*PortResult, error) {
	proto, err := schema.Load()
	if err != nil {
		return nil, err
	}
	fake, err := llm.Start()
	if err != nil {
		return nil, fmt.Errorf("harness: fake LLM would not start: %w", err)
	}
	defer fake.Close()
	ids, err := CatalogueIDs(o.Root)
	if err != nil {
		return nil, err
	}
	results := make([]*PortResult, len(o.Ports))
	var wg sync.WaitGroup
	for i, port := range o.Ports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runPort(ctx, o, port, proto, fake)
			results[i].Judge(ids)
		}()
	}
	wg.Wait()
	return results, nil
}

func runPort(ctx context.Context, o Options, port string, proto *schema.Protocol, fake *llm.Server) *PortResult {
	res := &PortResult{Port: port}
	began := time.Now()
	defer func() { res.Timing.Wall = time.Since(began) }()
	expected, err := Expected(filepath.Join(o.Root, "runners", port, "expected-failures.txt"))
	if err != nil {
		res.Reason = "bad expected-failures.txt: " + err.Error()
		return res
	}
	res.Expected = expected
	progress(o, "%-7s preparing the adapter…", port)
	ready, err := ports.Prepare(ctx, o.Root, o.Cache, port, o.PrepareTimeout, o.AdapterEnv...)
	var np *ports.NotPresent
	if errors.As(err, &np) {
		res.Reason = np.Reason
		progress(o, "%-7s not present: %s", port, np.Reason)
		return res
	}
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	res.Timing.Prepare = time.Since(began)
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs()
	}
	res.Timing.Jobs = jobs
	adapters := newPool(ctx, adapter.Config{Port: port, Argv: ready.Argv, Env: o.AdapterEnv,
		CallTimeout: o.CallTimeout, Schema: proto}, jobs)
	defer adapters.close()
	hello, err := adapters.hello(ctx)
	if err != nil {
		res.Reason = "adapter would not start: " + err.Error()
		progress(o, "%-7s not present: %s", port, res.Reason)
		return res
	}
	res.Present, res.Identity = true, hello
	adapters.fill(ctx)
	progress(o, "%-7s %v %v on %v", port, hello["library"], hello["version"], hello["runtime"])

	var mu sync.Mutex
	env := &steps.Env{
		Port: port, LLM: fake, StdioArgv: o.StdioArgv, Root: o.Root, UpdateGolden: o.UpdateGolden,
		ScenarioTimeout: o.ScenarioTimeout,
		Adapters:        adapters,
		Report: func(out steps.Outcome) {
			mu.Lock()
			res.Scenarios = append(res.Scenarios, out)
			n := len(res.Scenarios)
			mu.Unlock()
			progress(o, "%-7s %3d %-11s %s (%s)", port, n, out.Status, out.Scenario, out.Elapsed.Round(time.Millisecond))
		},
	}
	cucumber := io.Discard
	if o.ReportDir != "" {
		if f, err := os.Create(filepath.Join(o.ReportDir, "cucumber-"+port+".json")); err == nil {
			defer f.Close()
			cucumber = f
		}
	}
	features, err := orderFeatures(filepath.Join(o.Root, "features"))
	if err != nil {
		res.HarnessErr = "cannot read the features: " + err.Error()
		return res
	}
	suite := godog.TestSuite{
		Name:                port,
		ScenarioInitializer: steps.Register(env),
		Options: &godog.Options{
			Paths: features.run, Tags: o.Tags, Format: "cucumber",
			Output: cucumber, Strict: true, Concurrency: jobs, NoColors: true, DefaultContext: ctx,
		},
	}
	ran := time.Now()
	suite.Run()
	res.Timing.Scenarios = time.Since(ran)
	res.Timing.Start, res.Timing.Starts = adapters.startCost()
	features.sortOutcomes(res.Scenarios)
	if len(res.Scenarios) == 0 {
		res.HarnessErr = "no scenario ran (check --tags)"
	}
	return res
}

func progress(o Options, format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}
