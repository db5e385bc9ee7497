package steps

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// preChangeKeysFile holds each port's own pre-ADR body key sets (G1.4). A port is judged
// against the keys it sent before the change, not against another port's.
const preChangeKeysFile = "pre-change-keys.json"

// preChangeKeys is the decoded fixtures/pre-change-keys.json.
type preChangeKeys struct {
	Note string `json:"note"`
	// Implementations maps an implementation name that is not a port (the reference) to
	// the port whose key sets it keeps.
	Implementations map[string]string `json:"implementations"`
	Ports           map[string]struct {
		Fact  string              `json:"fact"`
		Paths map[string][]string `json:"paths"`
	} `json:"ports"`
}

// portOf maps an implementation name to its port: "python@0.15.0" -> "python",
// "reference" -> whatever the fixture says, a plain port name -> itself.
func (p *preChangeKeys) portOf(impl string) string {
	if port, ok := p.Implementations[impl]; ok {
		return port
	}
	if i := strings.IndexByte(impl, '@'); i >= 0 {
		return impl[:i]
	}
	return impl
}

// keysFor returns the sorted key set of impl's port on path ("anthropic run"), and the fact
// it rests on. An implementation or path the fixture does not know is a harness error
// naming both, never a silent pass.
func (p *preChangeKeys) keysFor(impl, path string) ([]string, string, error) {
	port := p.portOf(impl)
	row, ok := p.Ports[port]
	if !ok {
		known := make([]string, 0, len(p.Ports))
		for k := range p.Ports {
			known = append(known, k)
		}
		sort.Strings(known)
		return nil, "", fmt.Errorf("harness: fixtures/%s has no key sets for port %q (implementation %q); known ports: %s",
			preChangeKeysFile, port, impl, strings.Join(known, ", "))
	}
	keys, ok := row.Paths[path]
	if !ok {
		return nil, "", fmt.Errorf("harness: fixtures/%s has no %q path for port %q", preChangeKeysFile, path, port)
	}
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out, row.Fact, nil
}

// loadPreChangeKeys reads and decodes the fixture under root.
func loadPreChangeKeys(root string) (*preChangeKeys, error) {
	b, err := readFixture(root, preChangeKeysFile)
	if err != nil {
		return nil, err
	}
	var p preChangeKeys
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("harness: fixtures/%s: %w", preChangeKeysFile, err)
	}
	return &p, nil
}

// exactPreChangeKeys checks every recorded body against this port's own pre-change key
// set for path, e.g. "anthropic stream".
func (w *World) exactPreChangeKeys(path string) error {
	p, err := loadPreChangeKeys(w.env.Root)
	if err != nil {
		return err
	}
	want, fact, err := p.keysFor(w.env.Port, path)
	if err != nil {
		return err
	}
	bodies, err := w.bodies()
	if err != nil {
		return err
	}
	for i, b := range bodies {
		if d := diffOf(want, keysOf(b)); d != nil {
			return fmt.Errorf("LLM request %d key set differs from %s's pre-change %s keys (%s) (-want +got):\n%w",
				i+1, p.portOf(w.env.Port), path, fact, d)
		}
	}
	return nil
}
