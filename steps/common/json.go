package common

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

// Helpers on decoded JSON: copies, keys, comparisons and renderings of values a call returned.

func KeysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func DeepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func JSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// NumbersAsText re-decodes v with json.Number, so values decoded as float64 compare with an
// expectation written in JSON.
func NumbersAsText(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	_ = dec.Decode(&out)
	return out
}

// CompactJSON renders v for a message.
func CompactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// SameJSON compares got with the JSON text want (a feature's, its ⟨…⟩ notation expanded),
// numbers by their value as JSON text (so 1 and 1.0 differ, as they do on a wire).
func SameJSON(what, want string, got any) error {
	want, err := CodePoints(want) // the feature's ⟨…⟩ notation, edge values included
	if err != nil {
		return err
	}
	var w any
	dec := json.NewDecoder(strings.NewReader(want))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("harness: %s: expected value %s is not JSON: %v", what, want, err)
	}
	g := NumbersAsText(got)
	if d := kernel.DiffOf(w, g); d != nil {
		return fmt.Errorf("%s differs (-want +got):\n%w", what, d)
	}
	return nil
}

func ExactKeys(what string, m map[string]any, want ...string) error {
	got := KeysOf(m)
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		return fmt.Errorf("%s has the keys %v; want exactly %v", what, got, want)
	}
	return nil
}

// Includes reports where got fails to include want ("" when it does): an object must hold
// each of want's keys with an including value (more keys may be there); an array must have
// exactly want's length, each item including; anything else must be equal as JSON.
func Includes(want, got any) string {
	return includes(want, got, "$")
}

func includes(want, got any, at string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return at
		}
		for _, k := range SortedNames(w) {
			if _, present := g[k]; !present {
				return at + "." + k
			}
			if p := includes(w[k], g[k], at+"."+k); p != "" {
				return p
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return at
		}
		for i := range w {
			if p := includes(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); p != "" {
				return p
			}
		}
		return ""
	default:
		if CompactJSON(want) != CompactJSON(got) {
			return at
		}
		return ""
	}
}

// HasFields compares the fields raw (a JSON object) names with r's, each exactly; r's other
// fields are not looked at.
func HasFields(what, raw string, r map[string]any) error {
	var want map[string]any
	if err := StepJSON(raw, &want); err != nil {
		return fmt.Errorf("harness: %s is not a JSON object: %w", raw, err)
	}
	got := map[string]any{}
	for k := range want {
		got[k] = r[k]
	}
	b, _ := json.Marshal(want)
	return SameJSON(fmt.Sprintf("%s's %d fields", what, len(want)), string(b), got)
}
