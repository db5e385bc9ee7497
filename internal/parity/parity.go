// Package parity is catalogue X.4 over every contract scenario: what a port's library
// returned (tool lists, execute results, adapter JSON, a run's tool calls), against the
// reference's, scenario by scenario. The reference's values are a golden copy that
// `conformance golden` records; a run shows the scenarios that differ and never turns a
// difference into a verdict.
package parity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/muthuishere/toolnexus-conformance/internal/atomicfile"
	"github.com/muthuishere/toolnexus-conformance/internal/result"
)

// File is the golden copy, relative to the root.
const File = "fixtures/parity/golden/x4-returned.json"

// Record writes the reference's values of every contract scenario that passed there, keyed by
// stable key, and returns how many this run gave. A scenario that did not pass on the reference
// has no golden value: nothing a port returns is compared with a wrong answer.
// Scenarios this run did not include keep their values, so a run narrowed by --tags records
// only what it ran.
func Record(root string, r *result.PortResult) (int, error) {
	golden, err := Load(root)
	if err != nil {
		return 0, err
	}
	return record(root, golden, r)
}

// Rerecord writes the values of r alone: for a run of every contract scenario, where a key the
// run did not give belongs to a scenario that is gone or renamed.
func Rerecord(root string, r *result.PortResult) (int, error) { return record(root, nil, r) }

func record(root string, golden map[string]any, r *result.PortResult) (int, error) {
	if golden == nil {
		golden = map[string]any{}
	}
	// A scenario whose shape changed leaves no key of its old shape: an outline's rows replace
	// the plain scenario's value, and a plain value replaces every row. (A row renamed inside an
	// outline is only found by a full run, which Rerecord serves: the run cannot tell it from a
	// row it did not select.)
	for i := range r.Scenarios {
		if i >= len(r.Judged) {
			break
		}
		k := r.Judged[i].Key
		if k.Row != "" {
			k.Row = ""
			delete(golden, k.Stable())
			continue
		}
		for old := range golden {
			if strings.HasPrefix(old, k.Stable()+" [") {
				delete(golden, old)
			}
		}
	}
	n := 0
	for i, o := range r.Scenarios {
		if i >= len(r.Judged) {
			break
		}
		key := r.Judged[i].Key.Stable()
		delete(golden, key)
		if o.Returned != nil && r.Judged[i].Verdict == result.Pass {
			golden[key] = o.Returned
			n++
		}
	}
	b, err := json.MarshalIndent(golden, "", "  ")
	if err != nil {
		return 0, err
	}
	b = append(b, '\n')
	return n, atomicfile.Write(filepath.Join(root, File), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// Load reads the golden copy; a missing one is no error (nothing to compare yet).
func Load(root string) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(root, File))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	golden, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	m, ok := golden.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a JSON object keyed by scenario", File)
	}
	return m, nil
}

// Compare sets r.Parity: each scenario that passed on the port and has a golden value.
// Numbers compare by their JSON text and key order does not count; strings are byte-exact.
func Compare(golden map[string]any, r *result.PortResult) {
	if golden == nil || !r.Present {
		return
	}
	p := &result.Parity{Golden: File}
	for i, o := range r.Scenarios {
		if o.Returned == nil || i >= len(r.Judged) || r.Judged[i].Verdict != result.Pass {
			continue
		}
		key := r.Judged[i].Key.Stable()
		want, ok := golden[key]
		if !ok {
			continue
		}
		p.Compared++
		got, err := canonical(o.Returned)
		if err != nil {
			got = fmt.Sprint(o.Returned)
		}
		if d := cmp.Diff(want, got); d != "" {
			p.Differ = append(p.Differ, result.ParityDiff{Key: key, Scenario: o.Scenario, Diff: d})
		}
	}
	sort.Slice(p.Differ, func(i, j int) bool { return p.Differ[i].Key < p.Differ[j].Key })
	if p.Compared > 0 {
		r.Parity = p
	}
}

// canonical is v as JSON decodes it with json.Number, the form Load gives the golden side.
func canonical(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decode(b)
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
