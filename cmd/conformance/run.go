package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
	"github.com/muthuishere/toolnexus-conformance/internal/timing"
)

// common holds the flags run, golden, info, bench, diff and mutants share.
type common struct {
	root, cache, portList string
	set                   *ports.Set // the root's port manifests, loaded by resolve
	prepareTimeout        time.Duration
	jobs                  int
	asWritten             bool
	noForkServer          bool
	strict, noRetry       bool
	prepares              bool // the command prepares implementations (registerPorts)
	releaseFlags
}

// register adds the flags of a command that runs scenarios; registerPorts those of one that
// only prepares implementations (info); registerRoot those of one that only reads the harness
// (list, diff). A command shows only flags it uses.
func (c *common) register(fs *flag.FlagSet) {
	c.registerPorts(fs)
	fs.IntVar(&c.jobs, "jobs", 0, fmt.Sprintf("scenarios run at once per implementation, each on its own adapter process (1: one after another; 0: up to %d, implementations run together share 4 each, and the slots of one that is done go to those still running)", suite.DefaultJobs()))
	fs.BoolVar(&c.asWritten, "as-written", false, "run stall scenarios only with their limits as written (no quick first attempt at "+timing.QuickLimit.String()+", SPEC.md §3)")
	fs.BoolVar(&c.noForkServer, "no-fork-server", false, "start every adapter as a program of its own, never by a port's fork server (also CONFORMANCE_NO_FORK_SERVER=1)")
	fs.BoolVar(&c.strict, "strict", false, "flaky and inconclusive verdicts fail the run too (SPEC.md §2)")
	fs.BoolVar(&c.noRetry, "no-retry", false, fmt.Sprintf("run every scenario once: a red first attempt counts at once (default: tried up to %d times, SPEC.md §2)", suite.MaxAttempts))
}

func (c *common) registerRoot(fs *flag.FlagSet) {
	fs.StringVar(&c.root, "root", "", "harness root (default: found from the working directory)")
	fs.StringVar(&c.cache, "cache", "", "cache for built adapters, venvs and checkout copies (default $CONFORMANCE_CACHE, else <root>/.cache)")
}

func (c *common) registerPorts(fs *flag.FlagSet) {
	c.registerRoot(fs)
	c.prepares = true
	fs.StringVar(&c.portList, "ports", "", "comma-separated implementations (default: those the manifests, runners/*/port.json, put on the default run"+
		"; absent ones are reported as not present, a required one never may be); naming one makes it required")
	c.registerPrepareTimeout(fs)
	c.releaseFlags.register(fs)
}

// registerPrepareTimeout is for every command that prepares an implementation's adapter.
func (c *common) registerPrepareTimeout(fs *flag.FlagSet) {
	fs.DurationVar(&c.prepareTimeout, "prepare-timeout", 10*time.Minute, "deadline for building or installing one implementation's adapter")
}

// options are the suite settings every command starts from; the stdio fake is this binary.
func (c *common) options(impls []string, tags string) (suite.Options, error) {
	exe, err := os.Executable()
	if err != nil {
		return suite.Options{}, fmt.Errorf("cannot find my own executable for the stdio fake: %w", err)
	}
	return suite.Options{
		Root: c.root, Cache: c.cache, Ports: impls, Tags: withoutX3(tags), CallTimeout: 15 * time.Second,
		ScenarioTimeout: time.Minute, PrepareTimeout: c.prepareTimeout,
		StdioArgv: stdioArgv(exe), Jobs: c.jobs, AsWritten: c.asWritten, NoForkServer: c.noForkServer,
		Strict: c.strict, NoRetry: c.noRetry,
		Library: steps.Library(), Returned: steps.Returned, // the engine is handed the areas
	}, nil
}

// resolve checks the shared flags, fills in the root and cache and returns the chosen
// implementations and whether the user named them.
func (c *common) resolve() ([]string, bool, error) {
	if c.prepares && c.prepareTimeout <= 0 {
		return nil, false, fmt.Errorf("--prepare-timeout %s: must be positive", c.prepareTimeout)
	}
	if c.jobs > maxJobs {
		// Each job is an adapter process with its fakes: far more than the cores starve the
		// timing-bound scenarios, and a verdict must not depend on that.
		return nil, false, fmt.Errorf("--jobs %d: at most %d scenarios run at once per implementation", c.jobs, maxJobs)
	}
	if c.jobs < 0 {
		return nil, false, fmt.Errorf("--jobs %d: must be positive (0: the default, %d shared between the implementations)", c.jobs, suite.DefaultJobs())
	}
	if c.root == "" {
		r, err := ports.Root()
		if err != nil {
			// Outside a clone: the harness built into this binary (see installed.go).
			if r, err = c.unpack(); err != nil {
				return nil, false, err
			}
		}
		c.root = r
	}
	if abs, err := filepath.Abs(c.root); err == nil {
		c.root = abs
	}
	if c.cache == "" {
		// CONFORMANCE_CACHE names the cache for every build and copy (the prepare scripts
		// read it too); else the clone's own .cache.
		c.cache = os.Getenv("CONFORMANCE_CACHE")
	}
	if c.cache == "" {
		c.cache = filepath.Join(c.root, ".cache")
	}
	if abs, err := filepath.Abs(c.cache); err == nil {
		c.cache = abs
	}
	if err := os.MkdirAll(c.cache, 0o755); err != nil {
		return nil, false, fmt.Errorf("--cache: %w", err)
	}
	set, err := ports.Load(c.root)
	if err != nil {
		return nil, false, err
	}
	c.set = set
	// For the prepare scripts: the Go one names the harness version in the reference's hello.
	os.Setenv(harnessVersionEnv, harnessVersion())
	if strings.TrimSpace(c.portList) == "" {
		return set.Default(), false, nil
	}
	var chosen []string
	for _, p := range strings.Split(c.portList, ",") {
		p = strings.TrimSpace(p)
		if port, rel, at := strings.Cut(p, "@"); at && rel == "" {
			return nil, false, fmt.Errorf("--ports %q: no release after @ (want e.g. %s@0.15.0)", p, port)
		}
		if _, err := set.Resolve(p); err != nil {
			return nil, false, fmt.Errorf("--ports: %w", err)
		}
		if slices.Contains(chosen, p) {
			return nil, false, fmt.Errorf("--ports: %q is named twice", p)
		}
		chosen = append(chosen, p)
	}
	return chosen, true, nil
}

// verboseUsage is the help of --verbose on run and merge.
const verboseUsage = "print the evidence of known failures too, as for new ones (default: new or changed failures in full, first, then one line per known failure), on the terminal and in report.md"

// maxJobs bounds --jobs.
const maxJobs = 32

// Exit codes: 0 all green, 1 red, 2 bad input or harness error, 130 interrupted.
const exitInterrupted = 130

func cmdRun(args []string, golden bool) int {
	name := "run"
	if golden {
		name = "golden"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var c common
	c.register(fs)
	tags := fs.String("tags", "", "godog tag expression, e.g. '@G1.1', '@G1.1,@G1.2' (or), '@G3 && ~@G3.5' (and, not)")
	format := fs.String("format", "text", "text (matrix) or json (results on stdout)")
	callTimeout := fs.Duration("call-timeout", 15*time.Second, "deadline for one adapter call")
	scenarioTimeout := fs.Duration("scenario-timeout", 60*time.Second, "deadline for one scenario")
	runTimeout := fs.Duration("run-timeout", 30*time.Minute, "deadline for the whole run")
	reportDir := fs.String("report-dir", "", "write report.md, results.json, junit-<impl>.xml, report.html and cucumber-<impl>.json here")
	quiet := fs.Bool("quiet", false, "no per-scenario progress lines")
	verbose := fs.Bool("verbose", false, verboseUsage)
	update := fs.Bool("update-expected", false, "rewrite expectations/<impl>.txt for the scenarios this run selected")
	baseline := fs.String("baseline", "", "X.3: compare each implementation of this port with this earlier release, e.g. python@0.8.0 (without it X.3 is not run)")
	var prof cpuProfile
	prof.register(fs)
	if golden {
		fs.Usage = func() {
			fmt.Fprintln(fs.Output(), goldenUsage)
			fs.PrintDefaults()
		}
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	stopProfile, err := prof.start()
	if err != nil {
		return usageErr(err)
	}
	defer stopProfile()
	if fs.NArg() > 0 {
		return usageErr(fmt.Errorf("unexpected argument %q (flags come before nothing else)", fs.Arg(0)))
	}
	if *format != "text" && *format != "json" {
		return usageErr(fmt.Errorf("--format %q: must be text or json", *format))
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--call-timeout", *callTimeout}, {"--scenario-timeout", *scenarioTimeout}, {"--run-timeout", *runTimeout}} {
		if d.v <= 0 {
			return usageErr(fmt.Errorf("%s %s: must be positive", d.flag, d.v))
		}
	}
	chosen, explicit, err := c.resolve()
	if err != nil {
		return usageErr(err)
	}
	if golden && (len(chosen) != 1 || chosen[0] != ports.Reference) {
		return usageErr(fmt.Errorf("golden records only from the reference, not from %s", strings.Join(chosen, ",")))
	}
	opts, err := c.options(chosen, *tags)
	if err != nil {
		return usageErr(err)
	}
	if err := checkTags(c.root, *tags); err != nil {
		return usageErr(err)
	}
	releaseLock := func() {}
	if *reportDir != "" {
		if err := writableDir(*reportDir); err != nil {
			return usageErr(fmt.Errorf("--report-dir: %w", err))
		}
		release, err := lockReportDir(*reportDir)
		if err != nil {
			return usageErr(fmt.Errorf("--report-dir: %w", err))
		}
		releaseLock = sync.OnceFunc(release) // here, or by a second signal's quit
		defer releaseLock()
	}
	if explicit {
		opts.Required = chosen
	}
	ctx, stop := stopContext(*runTimeout, func() {
		adapter.KillAll()
		atomicfile.AbortPending()
		releaseLock()
	})
	defer stop()
	opts.CallTimeout, opts.ScenarioTimeout = *callTimeout, *scenarioTimeout
	opts.ReportDir, opts.UpdateGolden, opts.Progress = *reportDir, golden, os.Stderr
	if *quiet {
		opts.Progress = nil
	}
	start := time.Now()
	var doneMu sync.Mutex
	opts.OnDone = func(r *result.PortResult) {
		// Each implementation's result as soon as it is known, not after the slowest one.
		doneMu.Lock()
		defer doneMu.Unlock()
		fmt.Fprintf(os.Stderr, "== finished after %s: %s\n", time.Since(start).Round(time.Millisecond), r.Summary())
	}
	results, ids, err := runImpls(ctx, &c, opts, *baseline, *tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	if err := x4Parity(c.root, results, golden, golden && *tags == goldenTags); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	reportsOK := true
	if *reportDir != "" {
		reportsOK = writeReports(c.root, *reportDir, results, *verbose, time.Since(start))
	}
	switch *format {
	case "json":
		// The results document, as results.json holds it (schema/results.schema.json).
		cat, v, err := documentHead(c.root, time.Since(start))
		if err == nil {
			err = report.JSON(os.Stdout, cat, results, v)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			reportsOK = false
		}
	default:
		if errors.Is(context.Cause(ctx), errInterrupted) {
			stoppedSummary(os.Stdout, results, *reportDir, reportsOK)
		} else {
			report.Matrix(os.Stdout, ids, results, isTerminal(os.Stdout), *verbose)
		}
	}
	// With --format json stdout carries the results document and nothing else.
	summary := os.Stdout
	if *format == "json" {
		summary = os.Stderr
	}
	fmt.Fprintf(summary, "run took %s\n", time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "conformance: the run was stopped:", context.Cause(ctx))
		if errors.Is(context.Cause(ctx), errInterrupted) {
			return exitInterrupted
		}
		return 1
	}
	code := 0
	for _, r := range results {
		if r.Unexpected() > 0 {
			code = 1
		}
	}
	if *update {
		for _, r := range results {
			if !r.Present {
				continue
			}
			added, changed, dropped, err := suite.UpdateExpectations(r.Expectations, r)
			if err != nil {
				fmt.Fprintln(os.Stderr, "conformance:", err)
				return 2
			}
			fmt.Fprintf(summary, "%s: %s rewritten (added %d, changed %d, dropped %d)\n", r.Port,
				shortName(r.Expectations.Path), len(added), len(changed), len(dropped))
			for _, k := range added {
				fmt.Fprintf(summary, "  + %s\n", k)
			}
			for _, k := range changed {
				fmt.Fprintf(summary, "  ~ %s\n", k)
			}
			for _, k := range dropped {
				fmt.Fprintf(summary, "  - %s\n", k)
			}
		}
		return 0
	}
	if !reportsOK && code == 0 {
		code = 2
	}
	if golden && code == 0 {
		fmt.Println("golden copies recorded in fixtures/<area>/golden; review the diff before committing")
	}
	return code
}

// stoppedSummary is what an interrupted run prints instead of the matrix, which would be
// hundreds of "not run" rows: why it stopped, each implementation's summary, and where the
// reports of what ran are.
func stoppedSummary(w io.Writer, results []*result.PortResult, dir string, written bool) {
	why := ""
	for _, r := range results {
		if r.Interrupted != "" {
			why = r.Interrupted
			break
		}
	}
	fmt.Fprintf(w, "\nRUN STOPPED (%s): scenarios after the stop are \"not run\"; this is not a verdict\n", why)
	for _, r := range results {
		fmt.Fprintln(w, r.Summary())
	}
	switch {
	case dir == "":
		fmt.Fprintln(w, "no --report-dir: the results of what ran were not kept")
	case !written:
		fmt.Fprintf(w, "the reports in %s could not all be written (above)\n", dir)
	default:
		fmt.Fprintf(w, "what ran, with its evidence: %s (%s)\n", filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html"))
	}
}

// quitGrace is how long a second signal lets the run write the reports of what ran before it
// quits without them: the stop itself ends the run within about 2 s, on a loaded machine more.
const quitGrace = 5 * time.Second

// errInterrupted is the run context's cause after SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted")

// stopContext ends on SIGINT/SIGTERM (cause errInterrupted, naming the signal) or after the
// run timeout (cause says --run-timeout). A second signal quits once the reports are written,
// or after quitGrace, or at a third signal: then quit cleans up (kills the adapters, removes
// unfinished reports and the lock) and the process exits, since its own defers will not run.
func stopContext(runTimeout time.Duration, quit func()) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 3)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		fmt.Fprintf(os.Stderr, "\nconformance: %v: stopping (again to quit sooner)\n", sig)
		name := map[os.Signal]string{os.Interrupt: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
		cancel(fmt.Errorf("%w by %s", errInterrupted, name))
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		fmt.Fprintf(os.Stderr, "conformance: %v again: quitting once the reports of what ran are written, at most %s (again: at once, without them)\n", sig, quitGrace)
		select {
		case <-sigs:
		case <-time.After(quitGrace):
		case <-done:
			return
		}
		quit()
		fmt.Fprintln(os.Stderr, "conformance: quit before the reports were written")
		os.Exit(exitInterrupted)
	}()
	tctx, tcancel := context.WithTimeoutCause(ctx, runTimeout, fmt.Errorf("--run-timeout %s reached", runTimeout))
	var once sync.Once
	return tctx, func() {
		once.Do(func() {
			close(done)
			signal.Stop(sigs)
			tcancel()
			cancel(nil)
		})
	}
}

// writableDir makes dir and proves a file can be created in it, before the run starts.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".writable-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// commandLine is how this run was started, quoted where a shell would need it (escaped:
// it lands in reports).
func commandLine() string {
	parts := []string{"conformance"}
	for _, a := range os.Args[1:] {
		if a == "" || strings.ContainsAny(a, " '\"$&|;<>*?()[]{}~`\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return safetext.Line(strings.Join(parts, " "))
}

// checkTags reports a bad --tags expression as the user wrote it, before the run adds its
// own terms to it (~@X.3 without a baseline).
func checkTags(root, tags string) error {
	if tags == "" {
		return nil
	}
	features, err := suite.LoadFeatures(root, steps.Library().Names()...)
	if err != nil {
		return err
	}
	_, err = features.Select(tags)
	return err
}

// shortName is "expectations/<file>" for messages.
func shortName(path string) string {
	return filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
}

func usageErr(err error) int {
	fmt.Fprintln(os.Stderr, "conformance:", err)
	return 2
}

// writeReports writes the run's reports into dir and, under GitHub Actions, appends report.md
// to the step summary; it says on stderr what it could not write and reports whether all went.
func writeReports(root, dir string, results []*result.PortResult, verbose bool, took time.Duration) bool {
	cat, v, err := documentHead(root, took)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance: reports:", err)
		return false
	}
	return publish(dir, cat, results, v, verbose)
}

// documentHead is what every results document starts with: the catalogue, and the versions of
// the suite, the catalogue and the harness, with the command and its duration.
func documentHead(root string, took time.Duration) ([][2]string, result.Versions, error) {
	cat, err := suite.Catalogue(root)
	if err == nil && len(cat) == 0 {
		err = errors.New("fixtures/catalogue.txt lists no ID")
	}
	if err != nil {
		return nil, result.Versions{}, err
	}
	v, err := suite.SuiteVersions(root)
	if err != nil {
		return nil, result.Versions{}, err
	}
	v.Harness, v.Command, v.Duration = harnessVersion(), commandLine(), took
	return cat, v, nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("NO_COLOR") == ""
}
