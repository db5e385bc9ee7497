package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/ports"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// cmdBench runs the suite N times on the chosen implementations (all at once, as `run`
// does) and prints, per implementation, where the wall time went. Timing lives here,
// never in a pass/fail assertion.
//
//	wall        the implementation's whole run: prepare, adapter start-up, every scenario
//	Σ scenarios the scenario times added up (what a one-at-a-time run would spend in them)
//	floor       the waits no port can avoid (each scenario's declared cancel, deadline or
//	            server timeout), divided by the jobs, never less than the longest one
//	start-up    prepare + one adapter's start and hello (starts: processes started)
//	wall/floor  how far from the floor the run is (1.0 is unreachable: nothing is free)
//	jobs        scenarios run at once; "4-8" when several implementations shared a budget:
//	            4 while all ran, up to 8 once others were done (suite/budget.go)
//	settled     the longest a port took to end its children and connections after a call,
//	            among teardown checks it passed (the checks wait up to 5 s)
//	fail waits  what the port's own failures cost, spread over the jobs: each call cut at its
//	            bound (bound + margin) and each teardown check that ran out its 5 s grace
//	quick/retried  stall scenarios judged on their quick first attempt / judged as written
//	            because that attempt proved nothing (steps/quick.go)
//	retries     attempts beyond the first (a red or inconclusive attempt tried again)
//	replaced    processes started after the fill, each for one discarded (broken, cut at a
//	            bound, retired for a retry), with their mean start-up (start, hello, warm-up),
//	            their mean start-to-hello and their own mean CPU until hello
//	forked      processes a port's fork server made, of all started (the rest were runtime
//	            starts: no fork server, or it was off)
//	repl. wait  what scenarios waited for a process to start because none was free (count,
//	            total): what warm spares save
//	harness CPU the runner's own user+sys CPU per scenario (fakes, godog, schema checks,
//	            reports), and its children's (adapters and what they start, stdio fakes too,
//	            and prepare: a build that is not cached counts there)
func cmdBench(args []string) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var c common
	c.register(fs)
	runs := fs.Int("runs", 3, "how many times to run the suite; the table shows the median run")
	tags := fs.String("tags", "", "godog tag expression")
	top := fs.Int("top", 10, "how many of the slowest scenarios to list")
	timeline := fs.Bool("timeline", false, "print each progress line with its time since the run started")
	reportDir := fs.String("report-dir", "", "write each run's reports (results.json, report.md, …) into DIR/run-<n>, to compare verdicts across settings")
	var prof cpuProfile
	prof.register(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if c.portList == "" && c.toolnexus == "" {
		c.portList = ports.Reference // a checkout brings its ports: then all, as run does
	}
	if *runs <= 0 {
		return usageErr(fmt.Errorf("--runs %d: must be positive", *runs))
	}
	chosen, _, err := c.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	opts, err := c.options(chosen, *tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	stop, err := prof.start()
	if err != nil {
		return usageErr(err)
	}
	defer stop()
	rows := map[string][]benchRow{}
	per := map[string][]time.Duration{}
	var cpus []runCPU
	code := 0
	for i := 0; i < *runs; i++ {
		start := time.Now()
		if *timeline {
			opts.Progress = &stamped{start: start}
		}
		self0, children0 := cpuTimes()
		results, _, err := runImpls(context.Background(), &c, opts, "", *tags)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 2
		}
		self1, children1 := cpuTimes()
		cpu := runCPU{self: self1 - self0, children: children1 - children0}
		for _, r := range results {
			cpu.scenarios += len(r.Scenarios)
		}
		cpus = append(cpus, cpu)
		fmt.Printf("run %d: %s wall for %s; %s\n", i+1, time.Since(start).Round(time.Millisecond), strings.Join(chosen, ","), cpu)
		if *reportDir != "" {
			dir := filepath.Join(*reportDir, fmt.Sprintf("run-%d", i+1))
			if err := os.MkdirAll(dir, 0o755); err != nil || !writeReports(c.root, dir, results, false, time.Since(start)) {
				fmt.Fprintf(os.Stderr, "conformance: could not write the reports of run %d into %s: %v\n", i+1, dir, err)
			}
		}
		for _, r := range results {
			if r.Red() || !r.Present {
				code = 1
			}
			if !r.Present {
				fmt.Printf("  %-10s not present: %s\n", r.Port, r.Reason)
				continue
			}
			rows[r.Port] = append(rows[r.Port], newBenchRow(r))
			for _, o := range r.Scenarios {
				key := r.Port + " " + o.Scenario
				per[key] = append(per[key], o.Elapsed)
			}
		}
	}
	fmt.Printf("\n%-10s %8s %12s %8s %22s %10s %5s %9s %13s %8s %10s %7s %28s %16s %9s\n", "impl", "wall", "Σ scenarios", "floor", "start-up (prep+1 start)", "wall/floor", "jobs", "scenarios", "quick/retried", "settled", "fail waits", "retries", "replaced (start/hello/CPU)", "repl. wait", "forked")
	for _, port := range chosen {
		rs := rows[port]
		if len(rs) == 0 {
			continue
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].wall < rs[j].wall })
		m := rs[len(rs)/2]
		fmt.Printf("%-10s %8s %12s %8s %22s %10.2f %5s %9d %13s %8s %10s %7d %28s %16s %9s\n", port, ms(m.wall), ms(m.sum), ms(m.floor),
			fmt.Sprintf("%s+%s (%d starts)", ms(m.prepare), ms(m.start), m.starts), m.ratio(), m.jobsText(), m.n,
			fmt.Sprintf("%d/%d", m.quick, m.retried), ms(m.settled), ms(m.waited/time.Duration(max(m.jobs, 1))),
			m.retries, fmt.Sprintf("%d (%s/%s/%s)", m.replaced, ms(m.replaceStart), ms(m.replaceHello), ms(m.replaceCPU)), fmt.Sprintf("%d: %s", m.waits, ms(m.replaceWait)),
			fmt.Sprintf("%d/%d", m.forked, m.starts))
	}
	sort.Slice(cpus, func(i, j int) bool { return cpus[i].self < cpus[j].self })
	fmt.Printf("\nmedian run by CPU: %s\n", cpus[len(cpus)/2])
	type slow struct {
		name string
		mean time.Duration
	}
	var slowest []slow
	for k, ds := range per {
		var t time.Duration
		for _, d := range ds {
			t += d
		}
		slowest = append(slowest, slow{k, t / time.Duration(len(ds))})
	}
	sort.Slice(slowest, func(i, j int) bool { return slowest[i].mean > slowest[j].mean })
	fmt.Printf("\nmedian of %d runs; slowest scenarios (mean):\n", *runs)
	for i, r := range slowest {
		if i == *top {
			break
		}
		fmt.Printf("  %8s  %s\n", ms(r.mean), r.name)
	}
	return code
}

type benchRow struct {
	wall, sum, floor, prepare, start time.Duration
	starts, jobs, share, n           int
	quick, retried                   int // scenarios judged on a quick attempt / as written after a void one
	settled, waited                  time.Duration
	retries                          int // attempts beyond the first
	replaced, waits                  int
	replaceStart, replaceWait        time.Duration
	replaceHello, replaceCPU         time.Duration
	forked                           int
}

func newBenchRow(r *result.PortResult) benchRow {
	t := r.Timing
	b := benchRow{wall: t.Wall, prepare: t.Prepare, start: t.Start, starts: t.Starts, jobs: t.Jobs, share: t.Share, n: len(r.Scenarios),
		replaced: t.Replacements, replaceStart: t.ReplaceStart, waits: t.Waits, replaceWait: t.Waited,
		replaceHello: t.ReplaceHello, replaceCPU: t.ReplaceCPU, forked: t.Forked}
	for _, o := range r.Scenarios {
		b.retries += max(0, len(o.Attempts)-1)
		b.sum += o.Elapsed
		if o.Quick {
			b.quick++
		}
		if o.Retried != "" {
			b.retried++
		}
		b.settled = max(b.settled, o.Settled)
		b.waited += o.Waited
	}
	b.floor = suite.Floor(r.Scenarios, r.Timing.Jobs)
	return b
}

// jobsText is the jobs column: "4-8" when a shared budget let the share grow once other
// implementations were done.
func (b benchRow) jobsText() string {
	if b.share > 0 && b.share != b.jobs {
		return fmt.Sprintf("%d-%d", b.share, b.jobs)
	}
	return fmt.Sprint(b.jobs)
}

func (b benchRow) ratio() float64 {
	if b.floor <= 0 {
		return 0
	}
	return float64(b.wall) / float64(b.floor)
}

// runCPU is one run's CPU: the harness process's own and its children's.
type runCPU struct {
	self, children time.Duration
	scenarios      int
}

func (c runCPU) String() string {
	per := func(d time.Duration) string {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)/float64(max(c.scenarios, 1)))
	}
	return fmt.Sprintf("harness CPU %s (%s per scenario), children %s (%s per scenario)",
		ms(c.self), per(c.self), ms(c.children), per(c.children))
}

func ms(d time.Duration) string { return d.Round(time.Millisecond).String() }

// stamped writes progress lines to stderr prefixed with the time since start.
type stamped struct{ start time.Time }

func (s *stamped) Write(p []byte) (int, error) {
	fmt.Fprintf(os.Stderr, "%7.3fs %s", time.Since(s.start).Seconds(), p)
	return len(p), nil
}
