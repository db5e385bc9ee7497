// Package suite runs the Gherkin suite against each implementation's adapter and judges the
// results.
package suite

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cucumber/godog"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/errkind"
	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
	"github.com/muthuishere/toolnexus-conformance/schema"
)

// Options configure one run.
type Options struct {
	Root, Cache string
	// Ports are the implementation names to run, as the manifests (runners/*/port.json) name
	// them, or <name>@<release>.
	Ports           []string
	Tags            string
	CallTimeout     time.Duration
	ScenarioTimeout time.Duration
	PrepareTimeout  time.Duration
	ReportDir       string // cucumber JSON per implementation goes here when set
	UpdateGolden    bool
	// StdioArgv starts the fake stdio MCP server (this binary's fake-mcp-stdio command).
	StdioArgv []string
	Progress  io.Writer
	// AdapterEnv is extra environment for prepare and adapters (e.g. TOOLNEXUS_GO for a mutant).
	AdapterEnv []string
	// Required names implementations whose absence fails the run; the reference always does.
	Required []string
	// OnDone, when set, gets each implementation's judged result as soon as it finishes.
	OnDone func(*result.PortResult)
	// ImplEnv is extra environment for one implementation's prepare and adapter only (a
	// checkout's build, a release's version; see internal/checkout).
	ImplEnv map[string][]string
	// Baseline is the X.3 release comparison (see kernel.Baseline); zero: X.3 has no baseline.
	Baseline kernel.Baseline
	// Library is the step library: the areas cmd/conformance hands the engine.
	Library kernel.Library
	// Returned gives a scenario's X.4 values (nil: none).
	Returned kernel.Returned
	// Jobs is how many scenarios of one implementation run at once, each on its own
	// adapter process and fakes (0: AutoJobs of the number of implementations).
	Jobs int
	// AsWritten turns off the quick first attempt of stall scenarios (steps/quick.go): every
	// limit is used as the feature writes it.
	AsWritten bool
	// NoForkServer starts every adapter by exec, even for a port whose prepare names a fork
	// server (internal/adapter/fork_linux.go); so does CONFORMANCE_NO_FORK_SERVER=1.
	NoForkServer bool
	// Strict makes flaky and inconclusive verdicts fail the run.
	Strict bool
	// NoRetry runs every scenario once (attempts.go): a failure counts at once.
	NoRetry bool

	tempRoot string              // this run's temp dir (Run makes it)
	shared   *budget             // the jobs of all implementations together, when --jobs was not given (budget.go)
	facts    *schema.FactsSchema // the areas' facts schema, each port's facts.json is checked against (Run composes it)
}

// Run validates its input (implementation names, feature files, the tag expression, every
// expectations file), then runs every implementation in parallel; none blocks another. A
// stopped ctx (interrupt, run timeout: its cause is reported) ends every implementation
// promptly, the remaining scenarios "not run (interrupted)".
func Run(ctx context.Context, o Options) ([]*result.PortResult, error) {
	in, err := Validate(o)
	if err != nil {
		return nil, err
	}
	proto, err := o.Library.Protocol()
	if err != nil {
		return nil, err
	}
	if o.facts, err = o.Library.Facts(); err != nil {
		return nil, err
	}
	shared, closeShared, err := o.Library.Open()
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	defer closeShared()
	sweepDeadRuns()
	if o.ReportDir != "" {
		atomicfile.SweepDead(o.ReportDir) // reports a killed run left half-written
	}
	tempRoot, err := os.MkdirTemp("", fmt.Sprintf("conformance-run-%d-", os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("harness: temp dir: %w", err)
	}
	defer os.RemoveAll(tempRoot)
	defer adapter.ReleaseCgroups()
	o.tempRoot = tempRoot
	if n := in.running(o); o.Jobs <= 0 && n > 1 {
		o.shared = newBudget(AutoJobs(n) * n)
		progress(o, "jobs: %d scenarios at once in all, %d of each implementation while all run; the slots of one that is done go to the others (up to %d each)",
			o.shared.size, AutoJobs(n), DefaultJobs())
	}
	results := make([]*result.PortResult, len(o.Ports))
	var wg sync.WaitGroup
	for i := range in.impls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runImplementation(ctx, o, in, i, proto, shared)
			JudgeScenarios(r, in.features)
			r.Judge(in.ids)
			if o.ReportDir != "" && r.Present {
				path := filepath.Join(o.ReportDir, "cucumber-"+r.Port+".json")
				if err := fixCucumber(path, o.Root, r, in.features); err != nil && !os.IsNotExist(err) {
					r.HarnessErr = joinErr(r.HarnessErr, "cucumber report: "+err.Error())
				}
			}
			results[i] = r
			if o.OnDone != nil {
				o.OnDone(r)
			}
		}()
	}
	wg.Wait()
	// What no one adapter could be blamed for (an orphan of the runner forked while an adapter
	// that was no subreaper lived: a fork server's) is each candidate implementation's leak.
	for _, orphan := range adapter.SweepOrphans() {
		for _, r := range results {
			if slices.Contains(orphan.Ports, r.Port) {
				r.Leaked = joinErr(r.Leaked, fmt.Sprintf("%s was left running by an adapter of %s (forked while each ran; the harness cannot tell which) and was killed",
					orphan.Leak, strings.Join(orphan.Ports, " or ")))
			}
		}
	}
	if err := in.took.record(o.Cache, results); err != nil {
		progress(o, "harness: could not keep the feature times for the next run's order: %v", err)
	}
	return results, nil
}

// input is a run's checked input.
type input struct {
	ids          []string
	features     *Features
	selected     []Scenario
	impls        []ports.Implementation
	expectations []*expectFiles
	took         featureTimes // an earlier run's feature times: this run's order, kept up to date at its end
}

// Validate checks everything a run reads before anything starts, naming the flag or file:line.
func Validate(o Options) (*input, error) {
	in := &input{}
	var err error
	if in.ids, err = CatalogueIDs(o.Root); err != nil {
		return nil, err
	}
	if err := checkFixtures(o.Root); err != nil {
		return nil, err
	}
	in.took = readFeatureTimes(o.Cache)
	if in.features, err = loadFeatures(o.Root, in.took, o.Library.Names()); err != nil {
		return nil, err
	}
	if in.selected, err = in.features.Select(o.Tags); err != nil {
		return nil, err
	}
	if err := undefinedSteps(o.Library, in.selected); err != nil {
		return nil, err
	}
	if err := checkedSteps(o.Root, o.Library, in.selected); err != nil {
		return nil, err
	}
	if !o.UpdateGolden { // recording the golden copies writes them
		if err := missingGolden(o.Root, in.selected); err != nil {
			return nil, err
		}
	}
	if len(o.Ports) == 0 {
		return nil, errors.New("--ports: no implementation to run")
	}
	set, err := ports.Load(o.Root)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var errs []string
	for _, name := range o.Ports {
		if seen[name] {
			return nil, fmt.Errorf("--ports: %q is named twice", name)
		}
		seen[name] = true
		im, err := set.Resolve(name)
		if err != nil {
			errs = append(errs, "--ports: "+err.Error())
			continue
		}
		// Every file this column may be judged by is read now, so a bad one is bad input
		// before anything runs; hello's version picks among them.
		files, err := loadExpectFiles(o.Root, im, in.features)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		in.impls = append(in.impls, im)
		in.expectations = append(in.expectations, files)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--call-timeout", o.CallTimeout}, {"--scenario-timeout", o.ScenarioTimeout}, {"--prepare-timeout", o.PrepareTimeout}} {
		if d.v <= 0 {
			errs = append(errs, fmt.Sprintf("%s %s: must be positive", d.flag, d.v))
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return in, nil
}

// undefinedSteps names each selected scenario step that no definition matches (a typo in a
// feature file), as file:line: bad input, not a failure of any implementation.
func undefinedSteps(lib kernel.Library, selected []Scenario) error {
	var errs []string
	seen := map[string]bool{}
	for _, s := range selected {
		for _, text := range kernel.Undefined(lib, s.Steps) {
			if at := fmt.Sprintf("%s:%d: %q", s.File, s.Line, text); !seen[at] {
				seen[at] = true
				errs = append(errs, fmt.Sprintf("%s:%d: step %q has no definition (scenario %q)", s.File, s.Line, text, s.Key.Name))
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// sweepDeadRuns removes the temp dirs of runs that died without cleaning up (kill -9): each
// is named conformance-run-<pid>-…, and a pid that no longer runs left it.
func sweepDeadRuns() {
	// A run's temp root and its fork servers' socket dirs carry the runner's pid.
	for _, prefix := range []string{"conformance-run-", "conformance-fork-"} {
		dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*-*"))
		for _, d := range dirs {
			var pid int
			if _, err := fmt.Sscanf(strings.TrimPrefix(filepath.Base(d), prefix), "%d-", &pid); err != nil || pid <= 0 || pid == os.Getpid() {
				continue
			}
			if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
				_ = os.RemoveAll(d)
			}
		}
	}
}

// cause says why ctx ended, for reports: "interrupted (SIGINT)", "--run-timeout 30m0s reached".
func cause(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil {
		return c.Error()
	}
	return "stopped"
}

func runImplementation(ctx context.Context, o Options, in *input, i int, proto *schema.Protocol, shared kernel.Shared) *result.PortResult {
	im, name := in.impls[i], in.impls[i].Name
	res := &result.PortResult{Port: name, Expectations: in.expectations[i].before(), Strict: o.Strict,
		Required: im.Required || slices.Contains(o.Required, name)}
	began := time.Now()
	defer func() { res.Timing.Wall = time.Since(began) }()
	progress(o, "%-9s preparing the adapter…", name)
	// A checkout build (--toolnexus) brings this implementation's library in ImplEnv.
	extra := append(append([]string(nil), o.AdapterEnv...), o.ImplEnv[name]...)
	if im.Absent != "" && len(o.ImplEnv[name]) > 0 {
		im.Absent = ""
	}
	stopTicking := tick(o, name, "still preparing the adapter")
	ready, err := ports.PrepareImplementation(ctx, o.Root, o.Cache, im, o.PrepareTimeout, extra...)
	stopTicking()
	var np *ports.NotPresent
	var br *ports.Broken
	var st *ports.Stopped
	switch {
	case errors.As(err, &np):
		res.Reason = np.Reason
		progress(o, "%-9s not present: %s", name, np.Reason)
		return res
	case errors.As(err, &br):
		res.Broken, res.Reason, res.LogTail = true, br.Reason, br.LogTail
		progress(o, "%-9s BROKEN: %s", name, br.Reason)
		return res
	case errors.As(err, &st):
		res.Interrupted, res.Reason = cause(ctx), "prepare was stopped: "+cause(ctx)
		return res
	case err != nil:
		res.Broken, res.Reason = true, err.Error()
		return res
	}
	res.Timing.Prepare = time.Since(began)
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = AutoJobs(in.running(o))
		if o.shared != nil {
			res.Timing.Share = jobs
			jobs = DefaultJobs() // the run's budget keeps the total
		} else if m := im.Manifest.Jobs; m > jobs {
			jobs = m // alone: a port whose processes are cheap overlaps more waits
		}
	}
	res.Timing.Jobs = jobs
	env := append(append([]string(nil), im.Env...), extra...)
	// The adapters' TMPDIR is a folder of the run's temp dir, removed with it: what a runtime
	// leaves there when its process is killed (.NET's diagnostics sockets) goes with the run.
	if tmp := filepath.Join(o.tempRoot, "tmp-"+name); o.tempRoot != "" && os.Mkdir(tmp, 0o700) == nil {
		env = append(env, "TMPDIR="+tmp)
	}
	// The port's error table judges what its library raised (SPEC.md §3). A folder without
	// one has every port error judged "failed" (said once); a table that does not parse
	// cannot judge anything, so the implementation is broken.
	errFile := im.Manifest.ErrorTable()
	errTable, err := errkind.Load(filepath.Join(o.Root, "runners", im.Port, errFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		progress(o, "%-9s no runners/%s/%s: every error of the port is judged failed", name, im.Port, errFile)
	case err != nil:
		res.Broken, res.Reason = true, safetext.Line(err.Error())
		progress(o, "%-9s BROKEN: %s", name, res.Reason)
		return res
	}
	// The port's facts (runners/<port>/facts.json) decide what the scenarios that need one
	// judge; without them those scenarios say so, and a file that does not validate cannot
	// judge anything, so the implementation is broken.
	facts, factsErr := ports.LoadFacts(o.Root, im.Port, o.facts.Validate)
	switch {
	case errors.Is(factsErr, fs.ErrNotExist):
		progress(o, "%-9s no runners/%s/%s: the scenarios its facts decide are harness errors", name, im.Port, ports.FactsName)
	case factsErr != nil:
		res.Broken, res.Reason = true, safetext.Line(factsErr.Error())
		progress(o, "%-9s BROKEN: %s", name, res.Reason)
		return res
	}
	adapters := newPool(ctx, adapter.Config{Port: name, Argv: ready.Argv, Env: env,
		CallTimeout: o.CallTimeout, Schema: proto, Errors: errTable, Fork: forkServer(o, name, ready.ForkArgv, env)}, jobs, BreakerThreshold)
	adapters.warm = o.Library.Warm
	adapters.discarded = func(why string) {
		progress(o, "%-9s a spare adapter would not start and was discarded: %s", name, why)
	}
	defer adapters.close() // a second close is a no-op; the leaks were taken below
	hello, err := adapters.hello(ctx)
	if err != nil {
		if ctx.Err() != nil {
			res.Interrupted, res.Reason = cause(ctx), "stopped before hello: "+cause(ctx)
			return res
		}
		res.Broken, res.Reason = true, "adapter would not start or failed hello: "+firstLine(err.Error())
		res.LogTail = adapters.stderrTail()
		progress(o, "%-9s BROKEN: %s", name, res.Reason)
		return res
	}
	res.Present, res.Identity = true, hello
	version, _ := hello["version"].(string)
	progress(o, "%-9s %v %v on %v", name, hello["library"], version, hello["runtime"])
	// A git ref names a release "v0.16.0"; the library reports "0.16.0".
	if im.Release != "" && !strings.Contains(version, strings.TrimPrefix(im.Release, "v")) {
		res.Present, res.Broken = false, true
		res.Reason = fmt.Sprintf("asked for release %s, the adapter reports version %q", im.Release, version)
		return res
	}
	factsFile := "runners/" + im.Port + "/" + ports.FactsName
	if why := unexplained(hello, proto, facts.Unserved(), factsFile); why != "" {
		res.HarnessErr = joinErr(res.HarnessErr, why)
		progress(o, "%-9s HARNESS ERROR: %s", name, why)
	}
	res.Expectations, res.VersionWarning = in.expectations[i].choose(version)
	progress(o, "%-9s judged against %s", name, shortPath(res.Expectations.Path))
	if res.VersionWarning != "" {
		progress(o, "%-9s warning: %s", name, res.VersionWarning)
	}
	adapters.fill(ctx)

	var mu sync.Mutex
	notRun := map[result.Status]int{}
	share := o.shared.join(len(in.selected)) // left once godog is done, below
	senv := &kernel.Env{
		Port: name, PortFolder: im.Port, Family: strings.TrimSuffix(name, "@"+im.Release), Shared: shared, StdioArgv: o.StdioArgv, Root: o.Root, UpdateGolden: o.UpdateGolden,
		Facts: facts, FactsErr: factsErr,
		ScenarioTimeout: o.ScenarioTimeout, Baseline: o.Baseline, AsWritten: o.AsWritten, TempRoot: o.tempRoot,
		Adapters: adapters,
		Supports: supports(hello, proto),
	}
	senv.Hooks = kernel.Hooks{
		Admit: share.admitter(),
		Skip: func() (result.Status, string) {
			if ctx.Err() != nil {
				return result.StatusInterrupted, "not run: " + cause(ctx)
			}
			if why := adapters.unresponsive(); why != "" {
				return result.StatusUnresponsive, notRunUnresponsive(why)
			}
			return "", ""
		},
		Retry: func(out result.Outcome, attempts int) bool {
			if o.NoRetry || ctx.Err() != nil || adapters.unresponsive() != "" {
				return false // a tripped breaker: the retry would not run
			}
			s, ok := in.features.Lookup(out.URI, out.Scenario, out.AstNodeIDs)
			if !ok {
				return false
			}
			again := retry(s, out, res.Expectations.Find(s.Key), attempts)
			if again {
				progress(o, "%-9s     %-11s %s: attempt %d was %s, trying again on fresh fakes and a fresh adapter",
					name, "retry", out.Scenario, attempts, out.Status)
			}
			return again
		},
		Report: func(out result.Outcome) {
			if out.Status == result.StatusFail && ctx.Err() != nil {
				// Cut short by the stop, not judged: its failure is the interrupt's.
				out.Status, out.Message = result.StatusInterrupted, "interrupted while running ("+cause(ctx)+"): "+out.Message
			}
			mu.Lock()
			if out.Harness != "" {
				res.HarnessErr = joinErr(res.HarnessErr, misdeclared(in.features, out))
			}
			res.Scenarios = append(res.Scenarios, out)
			n := len(res.Scenarios)
			if out.Status == result.StatusInterrupted || out.Status == result.StatusUnresponsive {
				// Not run: counted, and said once when the run ends, not a line each.
				notRun[out.Status]++
				mu.Unlock()
				return
			}
			mu.Unlock()
			again := ""
			if out.Retried != "" {
				again = ", judged as written after a void quick attempt"
			}
			if n := len(out.Attempts); n > 0 {
				again += fmt.Sprintf(", %d attempts", n)
			}
			progress(o, "%-9s %3d %-11s %s (%s%s)", name, n, out.Status, out.Scenario, out.Elapsed.Round(time.Millisecond), again)
		},
	}
	format := silentFormat // nothing reads the cucumber JSON without a report dir: not built at all
	var cucumber io.Writer = io.Discard
	if o.ReportDir != "" {
		format = "cucumber"
		// Written beside its final name and renamed in when complete: a killed run leaves no
		// truncated report.
		f, err := atomicfile.Create(filepath.Join(o.ReportDir, "cucumber-"+name+".json"))
		if err != nil {
			res.HarnessErr = "cucumber report: " + err.Error()
		} else {
			// godog's formatter writes in small pieces: unbuffered, those writes were 40% of
			// the runner's own CPU in a five-port run.
			w := bufio.NewWriterSize(f, 1<<16)
			defer func() {
				err := w.Flush()
				if err == nil {
					err = f.Commit()
				} else {
					f.Abort()
				}
				if err != nil {
					res.HarnessErr = joinErr(res.HarnessErr, "cucumber report: "+err.Error())
				}
			}()
			cucumber = w
		}
	}
	features := in.features.order // the pickle ids LoadFeatures gave match this order only
	suite := godog.TestSuite{
		Name:                name,
		ScenarioInitializer: kernel.Scenarios(senv, o.Library, o.Returned),
		Options: &godog.Options{
			Paths: features.run, Tags: o.Tags, Format: format,
			// NoColors would strip escapes from godog's output one rune per write (a third of
			// the runner's CPU went there); the cucumber JSON has none to strip (json.Marshal
			// writes ESC as \u001b), so the writer is used as it is.
			Output: cucumber, Strict: true, Concurrency: jobs, NoColors: false, DefaultContext: ctx,
		},
	}
	ran := time.Now()
	// godog exits 1 when a scenario fails (our verdicts judge those) and 2 when it could not
	// run the features at all.
	status := suite.Run()
	share.leave() // its slots go to the implementations still running
	for _, st := range []result.Status{result.StatusInterrupted, result.StatusUnresponsive} {
		if n := notRun[st]; n > 0 {
			progress(o, "%-9s %d scenarios %s", name, n, notRunWords[st])
		}
	}
	if status > 1 {
		res.HarnessErr = joinErr(res.HarnessErr, fmt.Sprintf("godog could not run the features (status %d)", status))
	}
	res.Timing.Scenarios = time.Since(ran)
	res.Timing.Start, res.Timing.Starts = adapters.startCost()
	res.Timing.Replacements, res.Timing.ReplaceStart, res.Timing.Waits, res.Timing.Waited = adapters.replacements()
	res.Timing.ReplaceHello, res.Timing.ReplaceCPU, res.Timing.Forked = adapters.replaceCost()
	features.sortOutcomes(res.Scenarios)
	fillNotRun(ctx, res, in)
	if ctx.Err() != nil {
		res.Interrupted = cause(ctx)
	}
	if why := adapters.unresponsive(); why != "" {
		res.Unresponsive = why
	}
	// Processes the adapter left outside its process group are the implementation's leak:
	// its own failure, not the harness's.
	if leaks := adapters.close(); len(leaks) > 0 {
		res.Leaked = joinErr(res.Leaked, leakReport(leaks))
	}
	return res
}

// running counts the implementations that may run: not those already known to be absent
// before their prepare (no TOOLNEXUS_* variable and no checkout build for them).
func (in *input) running(o Options) int {
	n := 0
	for _, im := range in.impls {
		if im.Absent == "" || len(o.ImplEnv[im.Name]) > 0 {
			n++
		}
	}
	return n
}

// fillNotRun adds an outcome for each selected scenario godog never reported, so a stopped run
// still names every scenario it did not judge.
func fillNotRun(ctx context.Context, r *result.PortResult, in *input) {
	got := map[result.Key]bool{}
	for _, o := range r.Scenarios {
		if s, ok := in.features.Lookup(o.URI, o.Scenario, o.AstNodeIDs); ok {
			got[s.Key] = true
		}
	}
	var missing []string
	for _, s := range in.selected {
		if got[s.Key] {
			continue
		}
		if ctx.Err() == nil {
			missing = append(missing, s.Key.String())
			continue
		}
		r.Scenarios = append(r.Scenarios, result.Outcome{Scenario: s.Key.Name, URI: s.File, Tags: s.Tags,
			AstNodeIDs: strings.Split(s.astKey, "/"), Status: result.StatusInterrupted, Message: "not run: " + cause(ctx)})
	}
	if len(missing) > 0 {
		r.HarnessErr = joinErr(r.HarnessErr, fmt.Sprintf("%d selected scenarios never ran: %s", len(missing), strings.Join(missing, "; ")))
	}
}

// misdeclared is the harness error of a scenario at fault itself (its timing tags disagree
// with its steps, result.Outcome.Harness), named at its file:line so it can be fixed there.
func misdeclared(f *Features, out result.Outcome) string {
	where := out.URI
	if s, ok := f.Lookup(out.URI, out.Scenario, out.AstNodeIDs); ok {
		where = fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s: scenario %q: %s", where, out.Scenario, out.Harness)
}

func joinErr(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func progress(o Options, format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

func leakReport(leaks []adapter.Leak) string {
	var s []string
	for _, l := range leaks {
		s = append(s, l.String())
	}
	return fmt.Sprintf("adapter left %d process(es) running outside its process group after shutdown (killed): %s",
		len(leaks), strings.Join(s, ", "))
}

// releaseOf is a hello version without the build location adapters append in parentheses
// ("0.16.0 (/tmp/tn/js)" -> "0.16.0"): the same release built in another folder is the same
// version for the expectations.
func releaseOf(version string) string {
	v, _, _ := strings.Cut(version, " (")
	return strings.TrimSpace(v)
}

// supports is what the adapter's hello lists, for the kernel to find a call the adapter
// cannot serve before it is sent.
func supports(hello map[string]any, proto *schema.Protocol) *kernel.Supports {
	s := &kernel.Supports{Protocol: proto}
	s.Ops, s.Slots = adapter.HelloNames(hello, "ops"), adapter.HelloNames(hello, "slots")
	return s
}

// notRunWords say why scenarios were not run, for the one progress line that counts them.
var notRunWords = map[result.Status]string{
	result.StatusInterrupted:  "not run: the run was stopped",
	result.StatusUnresponsive: "not run: the adapter is unresponsive",
}

// progressEvery is how often a slow step says it is still at it.
var progressEvery = 15 * time.Second

// tick prints "<name> <what> (Ns)…" every progressEvery until stopped, so a cold venv or a
// Maven build is not minutes of silence.
func tick(o Options, name, what string) (stop func()) {
	if o.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	began := time.Now()
	go func() {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				progress(o, "%-9s %s (%s)…", name, what, time.Since(began).Round(time.Second))
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}
