package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"toolnexus-conformance/internal/ports"
	"toolnexus-conformance/internal/suite"
)

// cmdBench runs the suite on one port N times and prints wall time per run and per scenario.
// Timing lives here, never in a pass/fail assertion.
func cmdBench(args []string) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var c common
	c.register(fs)
	runs := fs.Int("runs", 3, "how many times to run the suite")
	tags := fs.String("tags", "", "godog tag expression")
	top := fs.Int("top", 15, "how many of the slowest scenarios to list")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if c.portList == "" {
		c.portList = ports.Reference
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
	per := map[string][]time.Duration{}
	var walls []time.Duration
	code := 0
	for i := 0; i < *runs; i++ {
		start := time.Now()
		results, err := suite.Run(context.Background(), opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 2
		}
		wall := time.Since(start)
		walls = append(walls, wall)
		n := 0
		for _, r := range results {
			if r.Red() || !r.Present {
				code = 1
			}
			for _, o := range r.Scenarios {
				key := r.Port + " " + o.Scenario
				per[key] = append(per[key], o.Elapsed)
				n++
			}
		}
		fmt.Printf("run %d: %s wall, %d scenarios\n", i+1, wall.Round(time.Millisecond), n)
	}
	type row struct {
		name string
		mean time.Duration
	}
	var rows []row
	var sum time.Duration
	for k, ds := range per {
		var t time.Duration
		for _, d := range ds {
			t += d
		}
		rows = append(rows, row{k, t / time.Duration(len(ds))})
		sum += t / time.Duration(len(ds))
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].mean > rows[j].mean })
	var mean time.Duration
	for _, w := range walls {
		mean += w
	}
	fmt.Printf("\nmean wall per run: %s (includes preparing the adapter); scenario time per run: %s\n",
		(mean / time.Duration(len(walls))).Round(time.Millisecond), sum.Round(time.Millisecond))
	fmt.Printf("slowest scenarios (mean of %d runs):\n", *runs)
	for i, r := range rows {
		if i == *top {
			break
		}
		fmt.Printf("  %8s  %s\n", r.mean.Round(time.Millisecond), r.name)
	}
	return code
}
