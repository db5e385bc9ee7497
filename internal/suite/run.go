// Package suite runs the Gherkin suite against each port's adapter and judges the results.
package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"toolnexus-conformance/fakes/llm"
	"toolnexus-conformance/internal/adapter"
	"toolnexus-conformance/internal/ports"
	"toolnexus-conformance/internal/safetext"
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
	mgr := &manager{cfg: adapter.Config{Port: port, Argv: ready.Argv, Env: o.AdapterEnv,
		CallTimeout: o.CallTimeout, Schema: proto}}
	defer mgr.close()
	hello, err := mgr.hello(ctx)
	if err != nil {
		res.Reason = "adapter would not start: " + err.Error()
		progress(o, "%-7s not present: %s", port, res.Reason)
		return res
	}
	res.Present, res.Identity = true, hello
	progress(o, "%-7s %v %v on %v", port, hello["library"], hello["version"], hello["runtime"])

	var mu sync.Mutex
	env := &steps.Env{
		Port: port, LLM: fake, StdioArgv: o.StdioArgv, Root: o.Root, UpdateGolden: o.UpdateGolden,
		ScenarioTimeout: o.ScenarioTimeout,
		Adapter:         func() (*adapter.Process, error) { return mgr.get(ctx) },
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
	suite := godog.TestSuite{
		Name:                port,
		ScenarioInitializer: steps.Register(env),
		Options: &godog.Options{
			Paths: []string{filepath.Join(o.Root, "features")}, Tags: o.Tags, Format: "cucumber",
			Output: cucumber, Strict: true, Concurrency: 1, NoColors: true, DefaultContext: ctx,
		},
	}
	suite.Run()
	if len(res.Scenarios) == 0 {
		res.HarnessErr = "no scenario ran (check --tags)"
	}
	// Processes the adapter left outside its process group are the implementation's leak.
	if leaks := mgr.close(); len(leaks) > 0 {
		res.HarnessErr = joinNonEmpty(res.HarnessErr, leakReport(leaks))
	}
	return res
}

func progress(o Options, format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// manager keeps one live adapter per port and replaces it when it breaks.
type manager struct {
	cfg   adapter.Config
	mu    sync.Mutex
	proc  *adapter.Process
	leaks []adapter.Leak // left by adapters shut down in order
}

func (m *manager) get(ctx context.Context) (*adapter.Process, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.proc != nil && !m.proc.IsBroken() {
		return m.proc, nil
	}
	if m.proc != nil {
		m.proc.Close()
		m.leaks = append(m.leaks, m.proc.Leaks()...)
	}
	p, err := adapter.Start(m.cfg)
	if err != nil {
		return nil, err
	}
	r, err := p.Call(ctx, "hello", nil)
	if err != nil {
		p.Close()
		return nil, err
	}
	if !r.OK {
		p.Close()
		return nil, fmt.Errorf("hello failed: %s", r.Error.Message)
	}
	m.proc = p
	return p, nil
}

func (m *manager) hello(ctx context.Context) (map[string]any, error) {
	p, err := m.get(ctx)
	if err != nil {
		return nil, err
	}
	r, err := p.Call(ctx, "hello", nil)
	if err != nil {
		return nil, err
	}
	// The identity is printed and reported: it must not carry the adapter's raw bytes.
	for k, v := range r.Result {
		if s, ok := v.(string); ok {
			r.Result[k] = safetext.Line(s)
		}
	}
	return r.Result, nil
}

// close shuts the adapter down (again is a no-op) and returns every leak seen.
func (m *manager) close() []adapter.Leak {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.proc != nil {
		m.proc.Close()
		m.leaks = append(m.leaks, m.proc.Leaks()...)
		m.proc = nil
	}
	leaks := m.leaks
	m.leaks = nil
	return leaks
}

func leakReport(leaks []adapter.Leak) string {
	var s []string
	for _, l := range leaks {
		s = append(s, l.String())
	}
	return fmt.Sprintf("adapter left %d process(es) running outside its process group after shutdown (killed): %s",
		len(leaks), strings.Join(s, ", "))
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
