package ports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// FactsName is each port's facts file in its runners/ folder (schema/facts.schema.json).
const FactsName = "facts.json"

// Facts is what the runner knows of a port to judge it, each with the fact it rests on. They
// live in the port's folder, so a new port is one folder (SPEC.md §3). Each key is one
// area's (steps/<area>/facts.json declares it), and the area decodes it: this package knows
// no fact's shape.
type Facts struct {
	// Port is the port these facts are of (the reference has the go port's).
	Port string
	File string // runners/<port>/facts.json, for messages
	keys map[string]json.RawMessage
}

// LoadFacts reads runners/<port>/facts.json under root and checks it with validate (the
// areas' composed facts schema). A missing file is an error wrapping fs.ErrNotExist; the
// scenarios that need a fact then say so.
func LoadFacts(root, port string, validate func([]byte) error) (*Facts, error) {
	rel := filepath.ToSlash(filepath.Join("runners", port, FactsName))
	b, err := os.ReadFile(filepath.Join(root, "runners", port, FactsName))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if err := validate(b); err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	f := &Facts{Port: port, File: rel}
	if err := json.Unmarshal(b, &f.keys); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return f, nil
}

// Decode reads the fact key into v (the owning area's type).
func (f *Facts) Decode(key string, v any) error {
	raw, ok := f.keys[key]
	if !ok {
		return fmt.Errorf("%s has no %q", f.File, key)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %s: %w", f.File, key, err)
	}
	return nil
}

// Unserved are the ops and slots the port's adapter does not serve, each with why; nil when
// the facts name none.
func (f *Facts) Unserved() map[string]string {
	var m map[string]string
	if f != nil && f.keys["unserved"] != nil {
		_ = json.Unmarshal(f.keys["unserved"], &m) // the schema checked its shape
	}
	return m
}
