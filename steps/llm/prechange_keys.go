package llm

import (
	_ "embed"
	"fmt"
	"sort"

	"github.com/muthuishere/toolnexus-conformance/steps/common"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// facts is the area's part of a port's facts.json: "preChangeKeys".
//
//go:embed facts.json
var facts []byte

// preChangeKeys are the port's top-level LLM body keys before ADR 0001, with no system prompt
// and a non-empty toolkit, per path ("anthropic run"), with where they come from (G1.4).
type preChangeKeys struct {
	Fact  string              `json:"fact"`
	Paths map[string][]string `json:"paths"`
}

// keysFor is the sorted key set of a path.
func (p preChangeKeys) keysFor(path string) ([]string, bool) {
	keys, ok := p.Paths[path]
	if !ok {
		return nil, false
	}
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out, true
}

// exactPreChangeKeys checks every recorded body against this port's own pre-change key set
// for path, e.g. "anthropic stream" (G1.4): a port is judged against the keys it sent before
// the change, not against another port's.
func (w *World) exactPreChangeKeys(path string) error {
	var p preChangeKeys
	f, err := common.Fact(w.A, "preChangeKeys", &p)
	if err != nil {
		return err
	}
	want, ok := p.keysFor(path)
	if !ok {
		return fmt.Errorf("harness: %s has no %q path", f.File, path)
	}
	bodies, err := w.Bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		if d := kernel.DiffOf(want, common.KeysOf(b)); d != nil {
			return fmt.Errorf("LLM request %d key set differs from %s's pre-change %s keys (%s) (-want +got):\n%w",
				i+1, f.Port, path, p.Fact, d)
		}
	}
	return nil
}
