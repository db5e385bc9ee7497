package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/merge"
	"github.com/muthuishere/toolnexus-conformance/internal/report"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// cmdMerge joins the results.json of separate runs (e.g. one CI job per port) and writes the
// reports one combined run would have written; it exits as that run would have.
func cmdMerge(args []string) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	var c common
	c.registerRoot(fs) // the manifests give the columns' order
	reportDir := fs.String("report-dir", "", "write report.md, results.json, junit-<port>.xml and report.html here")
	quiet := fs.Bool("quiet", false, "no matrix on stdout")
	verbose := fs.Bool("verbose", false, verboseUsage)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: conformance merge [--report-dir DIR] [--verbose] results.json...")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "conformance merge: name at least one results.json")
		return 2
	}
	if _, _, err := c.resolve(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance merge:", err)
		return 2
	}
	var in []merge.Input
	for _, path := range fs.Args() {
		doc, err := report.ReadResults(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance merge:", err)
			return 2
		}
		in = append(in, merge.Input{Path: path, Doc: doc})
	}
	m, err := merge.Merge(in, c.set)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance", err)
		return 2
	}
	ok := true
	if *reportDir != "" {
		if err := os.MkdirAll(*reportDir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "conformance merge:", err)
			return 2
		}
		// Each part's cucumber reports come along: they cannot be made again from results.json.
		for _, path := range fs.Args() {
			copyCucumber(filepath.Dir(path), *reportDir)
		}
		ok = publish(*reportDir, m.Catalogue, m.Results, m.Versions, *verbose)
	}
	if !*quiet {
		ids := make([]string, len(m.Catalogue))
		for i, e := range m.Catalogue {
			ids[i] = e[0]
		}
		report.Matrix(os.Stdout, ids, m.Results, isTerminal(os.Stdout), *verbose)
	}
	code := 0
	for _, r := range m.Results {
		if r.Unexpected() > 0 {
			code = 1
		}
	}
	if !ok && code == 0 {
		code = 2
	}
	return code
}

// copyCucumber copies the cucumber-<impl>.json files of one run's report dir into dir.
func copyCucumber(from, dir string) {
	paths, _ := filepath.Glob(filepath.Join(from, "cucumber-*.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && filepath.Clean(from) != filepath.Clean(dir) {
			_ = os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// publish writes the reports into dir and, under GitHub Actions, appends report.md to the
// step summary; it says on stderr what it could not write and reports whether all went.
func publish(dir string, cat [][2]string, results []*result.PortResult, v result.Versions, verbose bool) bool {
	ok := true
	paths, err := report.WriteFiles(dir, cat, results, verbose, v)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		ok = false
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	// The run wrote a cucumber report per implementation beside the others.
	for _, r := range results {
		if name := "cucumber-" + r.Port + ".json"; fileExists(filepath.Join(dir, name)) {
			names = append(names, name)
		}
	}
	fmt.Fprintf(os.Stderr, "conformance: reports in %s: %s\n", dir, strings.Join(names, ", "))
	if summary := os.Getenv("GITHUB_STEP_SUMMARY"); summary != "" {
		if err := report.AppendFile(summary, filepath.Join(dir, "report.md")); err != nil {
			fmt.Fprintln(os.Stderr, "conformance: step summary:", err)
			ok = false
		}
	}
	return ok
}
