package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Every subcommand's -h and --help print its usage and exit 0: asking is not bad input.
func TestEverySubcommandHelpExitsZero(t *testing.T) {
	cmds := map[string]func([]string) int{
		"run": func(a []string) int { return cmdRun(a, false) }, "merge": cmdMerge, "history": cmdHistory,
		"list": cmdList, "info": cmdInfo, "smoke": cmdSmoke, "ci-matrix": cmdCIMatrix, "diff": cmdDiff,
		"bench": cmdBench, "mutants": cmdMutants, "version": cmdVersion, "fake-mcp-stdio": cmdFakeStdio,
	}
	for name, cmd := range cmds {
		for _, flag := range []string{"-h", "--help"} {
			var code int
			out := captured(t, &os.Stderr, func() {
				captured(t, &os.Stdout, func() { code = cmd([]string{flag}) })
			})
			if code != 0 {
				t.Errorf("%s %s: exit %d\n%s", name, flag, code, out)
			}
		}
	}
	if !strings.Contains(usage, "conformance smoke") {
		t.Error("the usage does not name smoke")
	}
}

// diff runs the scenarios that compare with one golden copy and prints the port's difference:
// the reference equals its own copy, for every kind of copy (X.1 and X.5 bodies, X.2
// inventories, X.4 values, C5.7 adapters, X.4 over every contract scenario); a name that is
// no golden copy is bad input.
func TestDiffComparesWithAGoldenCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	var code int
	for _, name := range []string{"plain-openai-run", "x5-example-anthropic-run", "inventory-mixed", "x4-loop-calls-openai", "c5-adapters", "x4-returned"} {
		out := captured(t, &os.Stdout, func() {
			captured(t, &os.Stderr, func() { code = cmdDiff([]string{name, "reference"}) })
		})
		if code != 0 || !strings.Contains(out, `the reference's golden copy "`+name+`"`) {
			t.Errorf("diff %s reference: exit %d\n%s", name, code, out)
		}
	}
	errOut := captured(t, &os.Stderr, func() {
		captured(t, &os.Stdout, func() { code = cmdDiff([]string{"no-such-copy", "reference"}) })
	})
	if code != 2 || !strings.Contains(errOut, `"no-such-copy"`) {
		t.Errorf("diff of an unknown copy: exit %d\n%s", code, errOut)
	}
}

// run --format json prints the results document results.json holds, valid against
// schema/results.schema.json, and nothing else on stdout.
func TestRunFormatJSONIsTheResultsDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go adapter")
	}
	var code int
	out := captured(t, &os.Stdout, func() {
		captured(t, &os.Stderr, func() {
			code = cmdRun([]string{"--ports", "reference", "--tags", "@G1.1", "--format", "json", "--quiet"}, false)
		})
	})
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	c := jsonschema.NewCompiler()
	s, err := c.Compile(filepath.Join(harnessRoot(t), "schema", "results.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("stdout breaks schema/results.schema.json: %v", err)
	}
}
