package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// FactsFragment is one area's part of runners/<port>/facts.json (steps/<area>/facts.json):
// each key it reads, with that key's schema. "$comment" is the fragment's own note.
type FactsFragment struct {
	Area string
	Doc  []byte
}

// FactsSchema validates a port's facts.json against what the areas' fragments declare.
type FactsSchema struct {
	doc []byte
	s   *folderSchema
}

// ComposeFacts builds the facts schema from the areas' fragments: an object that holds every
// key some area reads, each required, and nothing else. A key two areas claim is an error:
// one area owns each fact.
func ComposeFacts(frags []FactsFragment) (*FactsSchema, error) {
	props := map[string]any{"$schema": map[string]any{"type": "string"}, "unserved": unservedSchema}
	owner := map[string]string{}
	var required []string
	for _, f := range frags {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(f.Doc, &keys); err != nil {
			return nil, fmt.Errorf("steps/%s/facts.json: %w", f.Area, err)
		}
		for k, raw := range keys {
			if k == "$comment" {
				continue
			}
			if prev, dup := owner[k]; dup {
				return nil, fmt.Errorf("steps/%s/facts.json: the fact %q is already steps/%s's", f.Area, k, prev)
			}
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("steps/%s/facts.json: %s: %w", f.Area, k, err)
			}
			owner[k], props[k] = f.Area, v
			required = append(required, k)
		}
	}
	sort.Strings(required)
	var areas []string
	for _, f := range frags {
		areas = append(areas, "steps/"+f.Area+"/facts.json")
	}
	doc := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id":     factsURL,
		"title":   "runners/<port>/facts.json",
		"description": "What the runner needs to know of a port to judge it, besides its error table: each fact with where it comes from. " +
			"A port's facts live in its folder, so adding a port adds a folder (SPEC.md §3 'A port is one folder'). " +
			"Composed from the areas' fragments (" + strings.Join(areas, ", ") + "); do not edit: `go test ./steps -run TestFactsSchemaFile -update` writes it.",
		"type": "object", "additionalProperties": false, "required": required, "properties": props,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return &FactsSchema{doc: b, s: &folderSchema{name: "facts", url: factsURL, doc: b}}, nil
}

// unservedSchema is the one fact no area owns: the ops and slots of the composed protocol the
// port's adapter does not serve, each with why (the port's library has no such thing). The
// runner holds every adapter's hello to the protocol less these (SPEC.md §3 "hello").
var unservedSchema = map[string]any{
	"description":          "Ops and slots of the protocol this port's adapter does not serve, each with why (what the port's library lacks). Without an entry, an op or slot hello does not list is a harness error (SPEC.md §3).",
	"type":                 "object",
	"propertyNames":        map[string]any{"pattern": "^[a-z]+\\.[A-Za-z.]+$"},
	"additionalProperties": map[string]any{"type": "string", "minLength": 1},
}

const factsURL = "https://toolnexus-conformance.invalid/facts.schema.json"

// Validate checks one port's facts.json bytes, reported as ValidatePort reports.
func (f *FactsSchema) Validate(b []byte) error { return f.s.validate(b) }

// Doc is the composed schema as written to schema/facts.schema.json (for editors' $schema).
func (f *FactsSchema) Doc() []byte { return f.doc }
