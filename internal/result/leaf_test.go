package result

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/muthuishere/toolnexus-conformance/"

type listed struct {
	ImportPath string
	Standard   bool
}

// deps is `go list -deps` of pkgs: every package they link, themselves included.
func deps(t *testing.T, pkgs ...string) []listed {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list packages with")
	}
	out, err := exec.Command(gobin, append([]string{"list", "-deps", "-json"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var all []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		all = append(all, p)
	}
	return all
}

// The stages after a run read the typed model only: the reports, history and merge of
// results.json link neither godog nor the MCP SDK (nor the steps and suite that use them).
func TestReportsLinkNoScenarioRunner(t *testing.T) {
	for _, p := range deps(t, module+"internal/report", module+"internal/history", module+"internal/merge") {
		for _, banned := range []string{"github.com/cucumber/", "github.com/modelcontextprotocol/", module + "steps", module + "internal/suite"} {
			if strings.HasPrefix(p.ImportPath, banned) {
				t.Errorf("report, history or merge links %s", p.ImportPath)
			}
		}
	}
}

// result and timing are leaves: the standard library only.
func TestLeavesImportOnlyTheStandardLibrary(t *testing.T) {
	for _, leaf := range []string{module + "internal/result", module + "internal/timing"} {
		for _, p := range deps(t, leaf) {
			if !p.Standard && p.ImportPath != leaf {
				t.Errorf("%s links %s", leaf, p.ImportPath)
			}
		}
	}
}
