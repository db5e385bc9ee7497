// Package schema holds the adapter protocol's envelope schema, composes it with the areas'
// fragments (steps/<area>/protocol.json) and validates lines against the result.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed protocol.schema.json
var envelopeSchema []byte

const schemaURL = "https://toolnexus-conformance.invalid/protocol.schema.json"

// Fragment is one area's part of the protocol: its ops (arguments and result), the option
// keys it adds to another area's op, the slots (host functions, "<area>.<name>") it answers,
// which argument needs which slot, and its own definitions.
type Fragment struct {
	Area string `json:"area"`
	Ops  map[string]struct {
		Args   json.RawMessage `json:"args"`
		Result json.RawMessage `json:"result"`
		Smoke  json.RawMessage `json:"smoke"` // SmokeOp: what `conformance smoke` sends
	} `json:"ops"`
	Options map[string]map[string]json.RawMessage `json:"options"`
	// Needs maps an op's argument ("bodyTransform", or "httpClient=recording" for one value)
	// to the slot the adapter must install for it.
	Needs map[string]map[string]string `json:"needs"`
	Slots map[string]struct {
		Args  json.RawMessage `json:"args"`
		Smoke json.RawMessage `json:"smoke"` // SmokeSlot: how `conformance smoke` triggers it
	} `json:"slots"`
	Defs map[string]json.RawMessage `json:"$defs"`
}

// ParseFragment decodes one area's protocol.json; name is for messages.
func ParseFragment(name string, b []byte) (Fragment, error) {
	var f Fragment
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("protocol fragment %s: %w", name, err)
	}
	return f, nil
}

// Protocol validates requests, responses and per-op results against the composed schema.
type Protocol struct {
	request    *jsonschema.Schema
	response   *jsonschema.Schema
	results    map[string]*jsonschema.Schema
	callback   *jsonschema.Schema
	answer     *jsonschema.Schema
	ops        []string
	slots      []string
	needs      map[string]map[string]string
	argOwner   map[string]map[string]string // op -> argument key -> the area that declares it
	smokeOps   map[string]SmokeOp
	smokeSlots map[string]SmokeSlot
}

// Envelope ops every adapter has, whatever its areas.
var envelopeOps = []string{"hello", "shutdown"}

// Load composes the envelope with the fragments (one per area, each op, option, slot and
// definition named once across all) and compiles it.
func Load(fragments ...Fragment) (*Protocol, error) {
	doc, p, err := compose(fragments)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("protocol schema: %w", err)
	}
	compile := func(def string) (*jsonschema.Schema, error) {
		s, err := c.Compile(schemaURL + "#/$defs/" + def)
		if err != nil {
			return nil, fmt.Errorf("protocol schema %s: %w", def, err)
		}
		return s, nil
	}
	if p.request, err = compile("request"); err != nil {
		return nil, err
	}
	if p.response, err = compile("response"); err != nil {
		return nil, err
	}
	if p.callback, err = compile("callback"); err != nil {
		return nil, err
	}
	if p.answer, err = compile("callbackAnswer"); err != nil {
		return nil, err
	}
	p.results = map[string]*jsonschema.Schema{}
	for _, op := range append([]string{"hello"}, p.ops...) { // shutdown's result is empty
		if p.results[op], err = compile("result." + op); err != nil {
			return nil, err
		}
	}
	if p.results[""], err = compile("result.empty"); err != nil {
		return nil, err
	}
	return p, nil
}

// Ops are the ops of the composed protocol, sorted (the envelope's not included).
func (p *Protocol) Ops() []string { return p.ops }

// ArgOwner is the area whose fragment declares key among op's arguments: the op's own area
// for its base arguments, the adding area for an option; false when op has no such argument.
func (p *Protocol) ArgOwner(op, key string) (string, bool) {
	area, ok := p.argOwner[op][key]
	return area, ok
}

// Slots are the slots of the composed protocol, sorted.
func (p *Protocol) Slots() []string { return p.slots }

// SlotsNeeded are the slots an adapter must install to serve op with args, sorted.
func (p *Protocol) SlotsNeeded(op string, args map[string]any) []string {
	var out []string
	for key, slot := range p.needs[op] {
		name, value, one := strings.Cut(key, "=")
		v, ok := args[name]
		if !ok || v == nil || v == false || (one && fmt.Sprint(v) != value) {
			continue
		}
		out = append(out, slot)
	}
	sort.Strings(out)
	return out
}

// ValidateCallback checks one host-function callback line from an adapter.
func (p *Protocol) ValidateCallback(line []byte) error { return validate(p.callback, line) }

// ValidateAnswer checks the runner's answer to a callback.
func (p *Protocol) ValidateAnswer(line []byte) error { return validate(p.answer, line) }

// ValidateRequest checks one request line.
func (p *Protocol) ValidateRequest(line []byte) error { return validate(p.request, line) }

// ValidateResponse checks one response line and, when it is a success, its result for op.
func (p *Protocol) ValidateResponse(op string, line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := p.response.Validate(v); err != nil {
		return fmt.Errorf("%s", flatten(err))
	}
	m, _ := v.(map[string]any)
	if ok, _ := m["ok"].(bool); !ok {
		return nil
	}
	s := p.results[op]
	if s == nil {
		s = p.results[""]
	}
	if err := s.Validate(m["result"]); err != nil {
		return fmt.Errorf("result of %s: %s", op, flatten(err))
	}
	return nil
}

func validate(s *jsonschema.Schema, line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("%s", flatten(err))
	}
	return nil
}

// flatten turns the validator's tree into one line fit for a report.
func flatten(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// LoadTree composes the envelope with every steps/*/protocol.json under root: for tests and
// tools that read a harness tree rather than the library compiled in.
func LoadTree(root string) (*Protocol, error) {
	paths, err := filepath.Glob(filepath.Join(root, "steps", "*", "protocol.json"))
	if err != nil {
		return nil, err
	}
	var frags []Fragment
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := ParseFragment(p, b)
		if err != nil {
			return nil, err
		}
		frags = append(frags, f)
	}
	return Load(frags...)
}
