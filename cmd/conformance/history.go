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
// results.json of a run: one over several releases shows them side by side, a plain run each
// port's one release.
func cmdHistory(args []string) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	port := fs.String("port", "", "the port to show (default: every port the results hold, the reference aside)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: conformance history [--port python] results.json\n"+
			"  (results.json of any run, e.g. `conformance run --ports python@0.8.0,python@0.21.0 --report-dir D`\n"+
			"  for releases side by side, or a plain run's reports/results.json for each port's release)")
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
		// The reference has no releases; a port none of whose builds ran has no verdicts.
		if name, _, _ := strings.Cut(p.Port, "@"); name != result.Reference && p.Present && !slices.Contains(chosen, name) {
			chosen = append(chosen, name)
		}
	}
	if *port != "" {
		chosen = []string{*port}
	}
	if len(chosen) == 0 {
		fmt.Fprintf(os.Stderr, "conformance history: %s holds no port's results, only the reference's (--port reference shows it)\n", fs.Arg(0))
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
