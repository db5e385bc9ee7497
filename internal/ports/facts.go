package ports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/muthuishere/toolnexus-conformance/schema"
)

// FactsName is each port's facts file in its runners/ folder (schema/facts.schema.json).
const FactsName = "facts.json"

// Facts is what the runner knows of a port to judge it, each with the fact it rests on. They
// live in the port's folder, so a new port is one folder (SPEC.md §3).
type Facts struct {
	// Port is the port these facts are of (the reference has the go port's).
	Port     string `json:"-"`
	File     string `json:"-"` // runners/<port>/facts.json, for messages
	Deadline struct {
		Kind string `json:"kind"`
		Fact string `json:"fact"`
	} `json:"deadline"`
	// Cancel is what an external cancel of a run guarantees on the wire (upstream SPEC §7D's
	// cancellation table): "mid-request" or "between-attempts".
	Cancel        CancelFact `json:"cancel"`
	PreChangeKeys struct {
		Fact  string              `json:"fact"`
		Paths map[string][]string `json:"paths"`
	} `json:"preChangeKeys"`
}

// CancelFact is what an external cancel of a run guarantees on the wire, and, where the
// table's seam names them, the modes it covers (js: "AbortSignal on run/ask"; none: every mode).
type CancelFact struct {
	Guarantee string   `json:"guarantee"`
	Modes     []string `json:"modes,omitempty"`
	Fact      string   `json:"fact"`
}

// Covers says whether the guarantee holds for a run in mode ("run" or "stream").
func (c CancelFact) Covers(mode string) bool {
	return len(c.Modes) == 0 || slices.Contains(c.Modes, mode)
}

// LoadFacts reads and validates runners/<port>/facts.json under root. A missing file is an
// error wrapping fs.ErrNotExist; the scenarios that need a fact then say so.
func LoadFacts(root, port string) (*Facts, error) {
	rel := filepath.ToSlash(filepath.Join("runners", port, FactsName))
	b, err := os.ReadFile(filepath.Join(root, "runners", port, FactsName))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if err := schema.ValidateFacts(b); err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	f := &Facts{Port: port, File: rel}
	if err := json.Unmarshal(b, f); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return f, nil
}

// KeysFor is the sorted pre-change key set of a path ("anthropic run").
func (f *Facts) KeysFor(path string) ([]string, bool) {
	keys, ok := f.PreChangeKeys.Paths[path]
	if !ok {
		return nil, false
	}
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out, true
}
