// Package common holds what several areas' steps use: small helpers on decoded JSON and
// text, and the judgements on a call's outcome every area makes.
package common

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/kernel"
)

func KeysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.Trim(strings.TrimSpace(p), `"`)
		if p != "" && p != "none" {
			out = append(out, p)
		}
	}
	return out
}

func DeepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// MessageText flattens a message's content (a string or a list of blocks) to text.
func MessageText(msg any) string {
	m, _ := msg.(map[string]any)
	switch c := m["content"].(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, b := range c {
			bm, _ := b.(map[string]any)
			if s, ok := bm["text"].(string); ok {
				parts = append(parts, s)
			} else {
				parts = append(parts, JSONString(b))
			}
		}
		return strings.Join(parts, "")
	}
	return ""
}

func JSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func ClipString(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// InOrder checks that each wanted text occurs in a later message than the one before.
func InOrder(texts, wants []string, what string) error {
	at := 0
	for _, want := range wants {
		found := false
		for at < len(texts) {
			at++
			if strings.Contains(texts[at-1], want) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s does not carry %q in order; its messages: %q", what, want, texts)
		}
	}
	return nil
}

// QuotedList returns the "quoted" items of a step argument, in order.
func QuotedList(s string) []string {
	var vals []string
	for i, p := range strings.Split(s, `"`) {
		if i%2 == 1 {
			vals = append(vals, p)
		}
	}
	return vals
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

func ReadFixture(root, name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(root, "fixtures", name))
	if err != nil {
		return nil, fmt.Errorf("harness: fixture %s: %w", name, err)
	}
	return b, nil
}

func ReadPID(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err != nil {
		return 0, fmt.Errorf("pid file %s holds %q", path, b)
	}
	return pid, nil
}

func WaitFor(grace time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(grace)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func SortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// NullResult fails an ok call whose library result was null: ok with nothing is no success.
func NullResult(op string, r map[string]any) error {
	for _, k := range resultFields[op] {
		if v, ok := r[k]; !ok || v == nil {
			return fmt.Errorf("%s reported ok, but the library returned no result (%q is null)", op, k)
		}
	}
	return nil
}

// resultFields are the fields an op's result fills from what the library returned; the
// adapter reports null there when the library returned nothing (SPEC.md §3).
var resultFields = map[string][]string{
	"client.run":     {"text", "turns", "toolCalls"},
	"client.ask":     {"text", "turns", "toolCalls"},
	"toolkit.create": {"tools", "status"},
	"mcp.load":       {"tools", "status"},
	"mcp.list":       {"tools", "status"},
}

// Dedup is list with each entry once, in first-seen order.
func Dedup(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
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

// ContentText is a message's or block's content as text: a string as is, text blocks joined
// (Anthropic allows either for a tool_result).
func ContentText(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			if blk, _ := p.(map[string]any); blk["type"] == "text" {
				s, _ := blk["text"].(string)
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "")
	}
	return CompactJSON(v)
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
