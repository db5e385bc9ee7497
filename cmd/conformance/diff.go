package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/steps"

	"github.com/muthuishere/toolnexus-conformance/internal/parity"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

const diffUsage = `usage: conformance diff [flags] <golden-name> <port>
  Runs the scenarios that compare with one golden copy of the reference
  (fixtures/<area>/golden/<golden-name>.json) on one port and prints the port's difference
  (-reference +port), or that it is equal; x4-returned compares what every contract scenario
  returned (X.4). Exit 0 equal, 1 different or failed, 2 bad input.`

// cmdDiff runs the scenarios that compare against one golden copy of the Go reference on one
// port and prints its difference from it.
func cmdDiff(args []string) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	var c common
	c.registerRoot(fs)
	c.registerPrepareTimeout(fs) // diff prepares the port it runs
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), diffUsage)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fs.Usage()
		if _, _, err := c.resolve(); err == nil {
			fmt.Fprintf(os.Stderr, "golden names: %s\n", strings.Join(goldenNames(c.root), ", "))
		}
		return 2
	}
	name, port := fs.Arg(0), fs.Arg(1)
	c.portList = port
	chosen, _, err := c.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	if names := goldenNames(c.root); !slices.Contains(names, name) {
		fmt.Fprintf(os.Stderr, "conformance: no golden copy %q; the golden copies are: %s\n", name, strings.Join(names, ", "))
		return 2
	}
	if name == x4Returned {
		return diffReturned(&c, chosen, port)
	}
	features, err := suite.LoadFeatures(c.root, steps.Library().Names()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	var ids []string
	for _, s := range features.Scenarios {
		if comparesWith(s, name) && !slices.Contains(ids, "@id:"+s.Key.ID) {
			ids = append(ids, "@id:"+s.Key.ID)
		}
	}
	if len(ids) == 0 {
		fmt.Fprintf(os.Stderr, "conformance: no scenario compares against %q\n", name)
		return 2
	}
	r, code := diffRun(&c, chosen, strings.Join(ids, ","), port)
	if r == nil {
		return code
	}
	code, found := 0, 0
	for _, o := range r.Scenarios {
		if s, ok := features.Lookup(o.URI, o.Scenario, o.AstNodeIDs); !ok || !comparesWith(s, name) {
			continue
		}
		found++
		if o.Status == result.StatusPass {
			fmt.Printf("%s: %s: equal to the reference's golden copy %q\n", port, o.Scenario, name)
			continue
		}
		fmt.Printf("%s: %s\n%s\n", port, o.Scenario, o.Message)
		code = 1
	}
	if found == 0 {
		fmt.Printf("%s: no scenario that compares with %q ran\n", port, name)
		return 1
	}
	return code
}

// x4Returned is the golden copy no step names: what every contract scenario returned (X.4).
var x4Returned = strings.TrimSuffix(filepath.Base(parity.File), ".json")

// diffReturned runs every contract scenario on the port and prints each whose returned values
// differ from the reference's (X.4).
func diffReturned(c *common, chosen []string, port string) int {
	golden, err := parity.Load(c.root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	r, code := diffRun(c, chosen, "@contract", port)
	if r == nil {
		return code
	}
	parity.Compare(golden, r)
	if r.Parity == nil {
		fmt.Printf("%s: no contract scenario passed that the reference's golden copy %q holds: nothing to compare\n", port, x4Returned)
		return 1
	}
	for _, d := range r.Parity.Differ {
		fmt.Printf("%s: %s (-reference +%s):\n%s\n", port, d.Scenario, port, d.Diff)
	}
	fmt.Printf("%s: %d of %d contract scenarios returned other values than the reference's golden copy %q\n",
		port, len(r.Parity.Differ), r.Parity.Compared, x4Returned)
	if len(r.Parity.Differ) > 0 {
		return 1
	}
	return 0
}

// diffRun runs the scenarios tags selects on the one implementation chosen; a nil result
// means stop with code.
func diffRun(c *common, chosen []string, tags, port string) (*result.PortResult, int) {
	opts, err := c.options(chosen, tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return nil, 2
	}
	results, err := suite.Run(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return nil, 2
	}
	r := results[0]
	switch {
	case !r.Present:
		fmt.Printf("%s: not present: %s\n", port, r.Reason)
		return nil, 1
	case r.Broken:
		fmt.Printf("%s: BROKEN: %s\n%s\n", port, r.Reason, r.LogTail)
		return nil, 1
	}
	return r, 0
}

// comparesWith says whether one of the scenario's steps compares with the golden copy name.
func comparesWith(s suite.Scenario, name string) bool {
	return slices.ContainsFunc(s.Steps, func(text string) bool { return strings.Contains(text, `golden copy "`+name+`"`) })
}

// goldenNames are the golden copies under root, fixtures/<area>/golden/<name>.json, sorted.
func goldenNames(root string) []string {
	paths, _ := filepath.Glob(filepath.Join(root, "fixtures", "*", "golden", "*.json"))
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".json"))
	}
	slices.Sort(names)
	return slices.Compact(names)
}
