package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/steps"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/muthuishere/toolnexus-conformance/internal/result"
	"github.com/muthuishere/toolnexus-conformance/internal/suite"
)

func cmdList(args []string) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	var c common
	c.registerRoot(fs)
	uncovered := fs.Bool("uncovered", false, "print only catalogue IDs that no scenario is tagged with (exit 1 if any)")
	format := fs.String("format", "text", "text, or json: one object per scenario (id, name, row, ids, level, source, …)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Errorf("list takes no arguments, got %q", fs.Arg(0)))
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
	features, err := suite.LoadFeatures(c.root, steps.Library().Names()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	switch *format {
	case "json":
		return listJSON(features)
	case "text":
	default:
		fmt.Fprintf(os.Stderr, "conformance: --format %q: want text or json\n", *format)
		return 2
	}
	levels := map[result.Level]int{}
	for _, s := range features.Scenarios {
		fmt.Printf("%-28s %-11s %-44s %-8s %s\n", s.Key.Feature, s.Level, s.Key.Stable(), strings.Join(catalogueTags(s.Tags), " "), s.Key.Name)
		levels[s.Level]++
	}
	fmt.Printf("%d scenarios (%d required, %d recommended)\n", len(features.Scenarios), levels[result.Required], levels[result.Recommended])
	return 0
}

// listed is one scenario as `list --format json` prints it.
type listed struct {
	ID      string         `json:"id"`
	Name    string         `json:"name"`
	Row     string         `json:"row,omitempty"`
	Feature string         `json:"feature"`
	Line    int            `json:"line"`
	IDs     []string       `json:"ids"`
	Level   result.Level   `json:"level"`
	Source  string         `json:"source"`
	Sources []suite.Source `json:"sources"`
	Replay  string         `json:"replay"`
}

func listJSON(features *suite.Features) int {
	out := []listed{}
	for _, s := range features.Scenarios {
		out = append(out, listed{ID: s.Key.ID, Name: s.Key.Name, Row: s.Key.Row, Feature: s.File, Line: s.Line,
			IDs: catalogueTags(s.Tags), Level: s.Level, Source: s.SourceText(), Sources: s.Sources,
			Replay: fmt.Sprintf("conformance run --tags '@id:%s'", s.Key.ID)})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 1
	}
	return 0
}

// catalogueTags are the catalogue IDs among a scenario's tags (G1.1, X.2 …).
func catalogueTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if catalogueID.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

var catalogueID = regexp.MustCompile(`^[A-Z][0-9]*\.[0-9]+$`)

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
