package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"toolnexus-conformance/internal/ports"
	"toolnexus-conformance/internal/report"
	"toolnexus-conformance/internal/suite"
)

// common holds the flags run, golden and info share.
type common struct {
	root, cache, portList string
	prepareTimeout        time.Duration
	releaseFlags
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.root, "root", "", "harness root (default: found from the working directory)")
	fs.StringVar(&c.cache, "cache", "", "cache for built adapters and venvs (default <root>/.cache)")
	fs.StringVar(&c.portList, "ports", "", "comma-separated ports (default: all of "+strings.Join(ports.All, ",")+"; absent ones are reported as not present)")
	fs.DurationVar(&c.prepareTimeout, "prepare-timeout", 10*time.Minute, "deadline for building or installing one port's adapter")
	c.releaseFlags.register(fs)
}

// options are the suite settings every command starts from; the stdio fake is this binary.
func (c *common) options(ports []string, tags string) (suite.Options, error) {
	exe, err := os.Executable()
	if err != nil {
		return suite.Options{}, fmt.Errorf("cannot find my own executable for the stdio fake: %w", err)
	}
	return suite.Options{
		Root: c.root, Cache: c.cache, Ports: ports, Tags: withoutX3(tags), CallTimeout: 15 * time.Second,
		ScenarioTimeout: time.Minute, PrepareTimeout: c.prepareTimeout,
		StdioArgv: []string{exe, "fake-mcp-stdio"},
	}, nil
}

// resolve fills in the root and cache and returns the chosen ports and whether the user named them.
func (c *common) resolve() ([]string, bool, error) {
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
		c.cache = filepath.Join(c.root, ".cache")
	}
	if err := os.MkdirAll(c.cache, 0o755); err != nil {
		return nil, false, err
	}
	if c.portList == "" {
		return ports.All, false, nil
	}
	var chosen []string
	for _, p := range strings.Split(c.portList, ",") {
		p = strings.TrimSpace(p)
		if err := implementation(p); err != nil {
			return nil, false, err
		}
		chosen = append(chosen, p)
	}
	return chosen, true, nil
}

func cmdRun(args []string, golden bool) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var c common
	c.register(fs)
	tags := fs.String("tags", "", "godog tag expression, e.g. '@G1.1' or '~@X.1'")
	format := fs.String("format", "text", "text (matrix) or json (results on stdout)")
	callTimeout := fs.Duration("call-timeout", 15*time.Second, "deadline for one adapter call")
	scenarioTimeout := fs.Duration("scenario-timeout", 60*time.Second, "deadline for one scenario")
	runTimeout := fs.Duration("run-timeout", 30*time.Minute, "deadline for the whole run")
	reportDir := fs.String("report-dir", "", "write report.md, results.json, junit-<port>.xml, report.html and cucumber-<port>.json here")
	quiet := fs.Bool("quiet", false, "no per-scenario progress lines")
	update := fs.Bool("update-expected", false, "rewrite runners/<port>/expected-failures.txt to match this run")
	baseline := fs.String("baseline", "", "X.3: compare each implementation of this port with this earlier release, e.g. python@0.8.0 (without it X.3 is not run)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	chosen, explicit, err := c.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	opts, err := c.options(chosen, *tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	if *reportDir != "" {
		if err := os.MkdirAll(*reportDir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *runTimeout)
	defer cancel()
	opts.CallTimeout, opts.ScenarioTimeout = *callTimeout, *scenarioTimeout
	opts.ReportDir, opts.UpdateGolden, opts.Progress = *reportDir, golden, os.Stderr
	if *quiet {
		opts.Progress = nil
	}
	start := time.Now()
	results, ids, err := runImpls(ctx, &c, opts, *baseline, *tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	reportsOK := true
	if *reportDir != "" {
		reportsOK = writeReports(c.root, *reportDir, results)
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(results)
	default:
		report.Matrix(os.Stdout, ids, results, isTerminal(os.Stdout))
	}
	fmt.Fprintf(os.Stdout, "run took %s\n", time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "conformance: the run was stopped:", ctx.Err())
		return 1
	}
	if *update {
		for _, r := range results {
			if !r.Present {
				continue
			}
			path := filepath.Join(c.root, "runners", r.Port, "expected-failures.txt")
			added, dropped, err := suite.RewriteExpected(path, r, ids)
			if err != nil {
				fmt.Fprintln(os.Stderr, "conformance:", err)
				return 2
			}
			fmt.Printf("%s: expected failures rewritten (added %v, dropped %v)\n", r.Port, added, dropped)
		}
		return 0
	}
	code := 0
	for _, r := range results {
		if r.Unexpected() > 0 {
			code = 1
		}
		if !r.Present && explicit {
			code = 1
		}
	}
	if !reportsOK && code == 0 {
		code = 2
	}
	if golden && code == 0 {
		fmt.Println("golden copies recorded in fixtures/golden; review the diff before committing")
	}
	return code
}

// writeReports writes the run's reports into dir (see publish).
func writeReports(root, dir string, results []*suite.PortResult) bool {
	cat, err := suite.Catalogue(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance: reports:", err)
		return false
	}
	v, err := suite.Fingerprint(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance: reports:", err)
		return false
	}
	return publish(dir, cat, results, v)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("NO_COLOR") == ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
