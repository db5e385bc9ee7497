package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

func cmdList(args []string) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	var c common
	c.register(fs)
	uncovered := fs.Bool("uncovered", false, "print only catalogue IDs that no scenario is tagged with (exit 1 if any)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if _, _, err := c.resolve(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	if *uncovered {
		ids, err := suite.Uncovered(c.root)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 2
		}
		for _, id := range ids {
			fmt.Println(id)
		}
		if len(ids) > 0 {
			return 1
		}
		return 0
	}
	files, _ := filepath.Glob(filepath.Join(c.root, "features", "*.feature"))
	total := 0
	for _, f := range files {
		pickles, err := picklesOf(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "conformance: %s: %v\n", f, err)
			return 2
		}
		for _, p := range pickles {
			var tags []string
			for _, t := range p.Tags {
				tags = append(tags, t.Name)
			}
			fmt.Printf("%-28s %-14s %s\n", filepath.Base(f), strings.Join(tags, " "), p.Name)
			total++
		}
	}
	fmt.Printf("%d scenarios\n", total)
	return 0
}

// picklesOf expands a feature file into scenarios, one per Examples row.
func picklesOf(path string) ([]*messages.Pickle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ids := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(f, ids)
	if err != nil {
		return nil, err
	}
	return gherkin.Pickles(*doc, path, ids), nil
}
