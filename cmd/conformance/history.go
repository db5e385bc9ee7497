package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/history"
	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// cmdHistory prints, per port, from which release each catalogue ID passes, read from the
// results.json of one run over several releases.
func cmdHistory(args []string) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	port := fs.String("port", "", "the port to show (default: every port with <port>@<release> results)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: conformance history [--port python] results.json\n"+
			"  (results.json of e.g. `conformance run --ports python@0.8.0,python@0.21.0 --report-dir D`)")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	doc, err := report.ReadResults(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance history:", err)
		return 2
	}
	var results []*result.PortResult
	var chosen []string
	for _, p := range doc.Ports {
		results = append(results, p.PortResult())
		if name, _, rel := strings.Cut(p.Port, "@"); rel && !slices.Contains(chosen, name) {
			chosen = append(chosen, name)
		}
	}
	if *port != "" {
		chosen = []string{*port}
	}
	if len(chosen) == 0 {
		fmt.Fprintf(os.Stderr, "conformance history: %s holds no <port>@<release> results\n", fs.Arg(0))
		return 2
	}
	ids := make([]string, len(doc.Catalogue))
	for i, e := range doc.Catalogue {
		ids[i] = e.ID
	}
	for i, p := range chosen {
		if i > 0 {
			fmt.Println()
		}
		fmt.Printf("%s: from which release does each ID pass?\n", p)
		history.Build(results, p, ids).Text(os.Stdout)
	}
	return 0
}
