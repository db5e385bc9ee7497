package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compose builds the whole protocol schema: the envelope's definitions, every fragment's, an
// "args.<op>" and "result.<op>" per op (an op's args gaining the option keys other areas add),
// and the request's and callback's per-op and per-slot rules. A name defined twice, an option
// for an op nobody has, or a key two areas claim is an error: nothing is kept twice.
func compose(fragments []Fragment) (any, *Protocol, error) {
	var env map[string]any
	if err := json.Unmarshal(envelopeSchema, &env); err != nil {
		return nil, nil, fmt.Errorf("protocol envelope: %w", err)
	}
	defs := env["$defs"].(map[string]any)
	p := &Protocol{needs: map[string]map[string]string{}, argOwner: map[string]map[string]string{},
		smokeOps: map[string]SmokeOp{}, smokeSlots: map[string]SmokeSlot{}}
	own := func(op, key, area string) {
		if p.argOwner[op] == nil {
			p.argOwner[op] = map[string]string{}
		}
		p.argOwner[op][key] = area
	}
	add := func(name string, v any, area string) error {
		if _, dup := defs[name]; dup {
			return fmt.Errorf("protocol fragment %s: %q is defined twice", area, name)
		}
		defs[name] = v
		return nil
	}
	raw := func(b json.RawMessage) (any, error) {
		var v any
		err := json.Unmarshal(b, &v)
		return v, err
	}
	args := map[string]map[string]any{}
	for _, f := range fragments {
		for name, d := range f.Defs {
			v, err := raw(d)
			if err != nil {
				return nil, nil, fmt.Errorf("protocol fragment %s: %s: %w", f.Area, name, err)
			}
			if err := add(name, v, f.Area); err != nil {
				return nil, nil, err
			}
		}
		for op, o := range f.Ops {
			a, err := raw(o.Args)
			if err != nil {
				return nil, nil, fmt.Errorf("protocol fragment %s: %s args: %w", f.Area, op, err)
			}
			if err := add("args."+op, a, f.Area); err != nil {
				return nil, nil, err
			}
			args[op], _ = a.(map[string]any)
			props, _ := args[op]["properties"].(map[string]any)
			for key := range props {
				own(op, key, f.Area)
			}
			var r any = map[string]any{"$ref": "#/$defs/result.empty"}
			if len(o.Result) > 0 {
				if r, err = raw(o.Result); err != nil {
					return nil, nil, fmt.Errorf("protocol fragment %s: %s result: %w", f.Area, op, err)
				}
			}
			if err := add("result."+op, r, f.Area); err != nil {
				return nil, nil, err
			}
			p.ops = append(p.ops, op)
			if len(o.Smoke) > 0 {
				var sm SmokeOp
				if err := strictSmoke(f.Area+" "+op, o.Smoke, &sm); err != nil {
					return nil, nil, err
				}
				p.smokeOps[op] = sm
			}
		}
		for slot := range f.Slots {
			if !strings.HasPrefix(slot, f.Area+".") {
				return nil, nil, fmt.Errorf("protocol fragment %s: slot %q is not named %s.<name>", f.Area, slot, f.Area)
			}
			p.slots = append(p.slots, slot)
			if len(f.Slots[slot].Smoke) > 0 {
				var sm SmokeSlot
				if err := strictSmoke(f.Area+" "+slot, f.Slots[slot].Smoke, &sm); err != nil {
					return nil, nil, err
				}
				p.smokeSlots[slot] = sm
			}
		}
	}
	for _, f := range fragments {
		for op, opts := range f.Options {
			a := args[op]
			props, _ := a["properties"].(map[string]any)
			if props == nil {
				return nil, nil, fmt.Errorf("protocol fragment %s: options for %q, which no area defines with inline arguments", f.Area, op)
			}
			for key, schema := range opts {
				if _, dup := props[key]; dup {
					return nil, nil, fmt.Errorf("protocol fragment %s: option %s.%s is defined twice", f.Area, op, key)
				}
				v, err := raw(schema)
				if err != nil {
					return nil, nil, fmt.Errorf("protocol fragment %s: option %s.%s: %w", f.Area, op, key, err)
				}
				props[key] = v
				own(op, key, f.Area)
			}
		}
		for op, keys := range f.Needs {
			if p.needs[op] == nil {
				p.needs[op] = map[string]string{}
			}
			for k, slot := range keys {
				p.needs[op][k] = slot
			}
		}
	}
	sort.Strings(p.ops)
	sort.Strings(p.slots)
	if err := rules(defs, fragments, p); err != nil {
		return nil, nil, err
	}
	// The compiler takes the document as its own decoder gives it (numbers as json.Number).
	b, _ := json.Marshal(env)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("protocol schema: %w", err)
	}
	return doc, p, nil
}

// rules fills the request's op list and per-op arguments, and the callback's slot list and
// per-slot arguments.
func rules(defs map[string]any, fragments []Fragment, p *Protocol) error {
	req := defs["request"].(map[string]any)
	props := req["properties"].(map[string]any)
	props["op"] = map[string]any{"enum": toAny(append(append([]string(nil), envelopeOps...), p.ops...))}
	var allOf []any
	for _, op := range p.ops {
		allOf = append(allOf, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"op": map[string]any{"const": op}}},
			"then": map[string]any{"properties": map[string]any{"args": map[string]any{"$ref": "#/$defs/args." + op}}, "required": []any{"args"}},
		})
	}
	if len(allOf) > 0 {
		req["allOf"] = allOf
	}
	cb := defs["callback"].(map[string]any)
	cb["properties"].(map[string]any)["fn"] = map[string]any{"enum": toAny(p.slots)}
	var slotRules []any
	for _, f := range fragments {
		for name, s := range f.Slots {
			var a any
			if err := json.Unmarshal(s.Args, &a); err != nil {
				return fmt.Errorf("protocol fragment %s: slot %s: %w", f.Area, name, err)
			}
			slotRules = append(slotRules, map[string]any{
				"if":   map[string]any{"properties": map[string]any{"fn": map[string]any{"const": name}}},
				"then": map[string]any{"properties": map[string]any{"args": a}},
			})
		}
	}
	if len(slotRules) > 0 {
		cb["allOf"] = slotRules
	}
	for _, f := range fragments {
		for op, keys := range f.Needs {
			for _, slot := range keys {
				if _, ok := f.Slots[slot]; !ok {
					return fmt.Errorf("protocol fragment %s: %s needs slot %q, which it does not define", f.Area, op, slot)
				}
			}
		}
	}
	return nil
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
