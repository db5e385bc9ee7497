package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/checkout"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// releaseFlags are the flags that bring a maintainer's own tree and releases: --toolnexus and
// (run only) --baseline.
type releaseFlags struct {
	toolnexus string
}

func (r *releaseFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.toolnexus, "toolnexus", os.Getenv("TOOLNEXUS_ROOT"),
		"a toolnexus checkout: build each of its ports into the cache and judge them (default $TOOLNEXUS_ROOT; per-port TOOLNEXUS_* variables still win)")
}

// plan is what a checkout (and the releases asked for) gave each implementation.
type plan struct {
	env    map[string][]string
	preset map[string]*result.PortResult // absent or broken before the run: no adapter is started
	tree   *checkout.Tree
}

// buildImpls builds what --toolnexus and <port>@<release> entries need, one progress line per
// step, all implementations at once.
func (c *common) buildImpls(ctx context.Context, impls []string) (*plan, error) {
	p := &plan{env: map[string][]string{}, preset: map[string]*result.PortResult{}}
	if c.toolnexus != "" {
		t, err := checkout.Find(c.toolnexus, c.set)
		if err != nil {
			return nil, err
		}
		p.tree = t
		fmt.Fprintf(os.Stderr, "toolnexus checkout %s: ports %s", t.Root, strings.Join(sortedKeys(t.Ports), ", "))
		if len(t.Unadapted) > 0 {
			fmt.Fprintf(os.Stderr, "; no adapter here for %s", strings.Join(t.Unadapted, ", "))
		}
		fmt.Fprintln(os.Stderr)
	}
	if p.tree == nil && !slices.ContainsFunc(impls, func(s string) bool { return strings.Contains(s, "@") }) {
		return p, nil
	}
	var mu sync.Mutex
	b := &checkout.Builder{Root: c.root, Ports: c.set, Cache: c.cache, Timeout: c.prepareTimeout, Progress: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(os.Stderr, f+"\n", a...)
	}}
	outs := make([]checkout.Outcome, len(impls))
	var wg sync.WaitGroup
	for i, impl := range impls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = b.Build(ctx, p.tree, impl)
		}()
	}
	wg.Wait()
	for _, o := range outs {
		switch {
		case o.Absent != "":
			p.preset[o.Impl] = &result.PortResult{Port: o.Impl, Reason: o.Absent}
		case o.Broken != "":
			// There but failing to build: broken (red), like a failing prepare.
			p.preset[o.Impl] = &result.PortResult{Port: o.Impl, Broken: true, Reason: o.Broken, LogTail: o.LogTail}
		default:
			p.env[o.Impl] = o.Env
		}
	}
	return p, nil
}

// toRun is the implementations that still need a run (the rest are preset).
func (p *plan) toRun(impls []string) []string {
	var out []string
	for _, i := range impls {
		if p.preset[i] == nil {
			out = append(out, i)
		}
	}
	return out
}

// join puts the preset results back in --ports order, judged like the rest: a required one
// (the reference, or named in --ports) that is absent fails the run, a broken one always does.
func (p *plan) join(o suite.Options, set *ports.Set, ran []*result.PortResult, ids []string) ([]*result.PortResult, error) {
	byName := map[string]*result.PortResult{}
	for _, r := range ran {
		byName[r.Port] = r
	}
	var features *suite.Features
	var out []*result.PortResult
	for _, i := range o.Ports {
		r := p.preset[i]
		if r == nil {
			if r = byName[i]; r != nil {
				out = append(out, r)
			}
			continue
		}
		if features == nil {
			var err error
			if features, err = suite.LoadFeatures(o.Root, steps.Library().Names()...); err != nil {
				return nil, err
			}
		}
		im, err := set.Resolve(i)
		if err != nil {
			return nil, err
		}
		ex, err := suite.ExpectationsOf(o.Root, im, features)
		if err != nil {
			return nil, err
		}
		r.Expectations, r.Required = ex, im.Required || slices.Contains(o.Required, i)
		suite.JudgeScenarios(r, features)
		r.Judge(ids)
		if o.OnDone != nil {
			o.OnDone(r)
		}
		out = append(out, r)
	}
	return out, nil
}

// baseline records the X.3 baseline release's bodies (a run of @X.3 on it alone) and returns
// what the main run compares with. With no --baseline, X.3 is left out of the run and the
// user is told why.
func recordBaseline(ctx context.Context, o suite.Options, impl string, p *plan) (kernel.Baseline, error) {
	dir := filepath.Join(o.Cache, "baseline", strings.ReplaceAll(impl, "/", "_"))
	if err := os.RemoveAll(dir); err != nil {
		return kernel.Baseline{}, err
	}
	rec := o
	rec.Ports, rec.Tags, rec.ReportDir, rec.UpdateGolden = []string{impl}, "@X.3", "", false
	rec.Baseline = kernel.Baseline{Impl: impl, Port: baselinePort(o.Root, impl), Dir: dir, Record: true}
	rec.Required, rec.OnDone = nil, nil // the baseline's absence is said below, not judged
	fmt.Fprintf(os.Stderr, "X.3: recording the baseline %s's bodies\n", impl)
	start := time.Now()
	if r := p.preset[impl]; r != nil {
		fmt.Fprintf(os.Stderr, "X.3: the baseline %s is not available: %s\n", impl, r.Reason)
	} else if res, err := suite.Run(ctx, rec); err != nil {
		return kernel.Baseline{}, err
	} else if !res[0].Present {
		fmt.Fprintf(os.Stderr, "X.3: the baseline %s is not present: %s\n", impl, res[0].Reason)
	} else {
		fmt.Fprintf(os.Stderr, "X.3: baseline %s recorded in %s (%s)\n", impl, dir, time.Since(start).Round(time.Millisecond))
	}
	return kernel.Baseline{Impl: impl, Port: baselinePort(o.Root, impl), Dir: dir}, nil
}

// withoutX3 leaves X.3 out of a tag expression (godog: "," is or, "&&" is and, "~" is not).
func withoutX3(tags string) string {
	if tags == "" {
		return "~@X.3"
	}
	return tags + " && ~@X.3"
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// runImpls is suite.Run with what --toolnexus, <port>@<release> and --baseline add: builds
// first, the baseline's bodies next, then the run; absent and broken builds join the results.
// X.3 runs only with a baseline; c.options leaves it out otherwise, tags is the user's own.
func runImpls(ctx context.Context, c *common, opts suite.Options, baseline, tags string) ([]*result.PortResult, []string, error) {
	ids, err := suite.CatalogueIDs(c.root)
	if err != nil {
		return nil, nil, err
	}
	// Everything the run reads is checked before any build starts, with the tags the run
	// will use: the user's own with a baseline, without X.3 otherwise.
	if baseline != "" {
		opts.Tags = tags
	}
	if _, err := suite.Validate(opts); err != nil {
		with := opts
		with.Tags = tags
		if _, err2 := suite.Validate(with); baseline == "" && err2 == nil {
			return nil, nil, fmt.Errorf("--tags %q selects only X.3 scenarios, which need --baseline <port>@<release>", tags)
		}
		return nil, nil, err
	}
	all := opts.Ports
	impls := all
	if baseline != "" {
		if !strings.Contains(baseline, "@") {
			return nil, nil, fmt.Errorf("--baseline %q: name a release, <port>@<release>", baseline)
		}
		if _, err := c.set.Resolve(baseline); err != nil {
			return nil, nil, fmt.Errorf("--baseline: %w", err)
		}
		if !slices.Contains(impls, baseline) {
			impls = append(slices.Clone(impls), baseline)
		}
	}
	p, err := c.buildImpls(ctx, impls)
	if err != nil {
		return nil, nil, err
	}
	opts.ImplEnv = p.env
	if baseline != "" {
		if opts.Baseline, err = recordBaseline(ctx, opts, baseline, p); err != nil {
			return nil, nil, err
		}
		opts.Tags = tags
	} else {
		fmt.Fprintln(os.Stderr, "X.3 not run: no baseline (name an earlier release with --baseline <port>@<release>)")
	}
	run := opts
	run.Ports = p.toRun(all)
	var ran []*result.PortResult
	if len(run.Ports) > 0 {
		if ran, err = suite.Run(ctx, run); err != nil {
			return nil, nil, err
		}
	}
	results, err := p.join(opts, c.set, ran, ids)
	return results, ids, err
}

// baselinePort is the port a baseline release belongs to, as the manifests say.
func baselinePort(root, impl string) string {
	im, _ := ports.ResolveIn(root, impl)
	return im.Port
}
