package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

// cmdDiff runs the parity scenarios on one port and prints its wire-body diff against one
// golden copy of the Go reference.
func cmdDiff(args []string) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	var c common
	c.registerRoot(fs)
	c.registerPrepareTimeout(fs) // diff prepares the port it runs
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: conformance diff <golden-name> <port>   (golden names: fixtures/<area>/golden/*.json)")
		return 2
	}
	name, port := fs.Arg(0), fs.Arg(1)
	c.portList = port
	chosen, _, err := c.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	opts, err := c.options(chosen, "@X.1")
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	results, err := suite.Run(context.Background(), opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	r := results[0]
	if !r.Present {
		fmt.Printf("%s: not present: %s\n", port, r.Reason)
		return 1
	}
	for _, o := range r.Scenarios {
		if o.Golden != name {
			continue
		}
		if o.Status == result.StatusPass {
			fmt.Printf("%s: %s: the wire bodies equal the reference's golden copy %q\n", port, o.Scenario, name)
			return 0
		}
		fmt.Printf("%s: %s\n%s\n", port, o.Scenario, o.Message)
		return 1
	}
	fmt.Fprintf(os.Stderr, "conformance: no parity scenario compares against %q\n", name)
	return 2
}
