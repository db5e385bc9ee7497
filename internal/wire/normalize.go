// Package wire normalises captured LLM request bodies so two ports' bodies can be compared.
package wire

import (
	"encoding/json"
	"sort"
	"strings"
)

// Normalize returns a comparable copy of a decoded body:
//   - key order never matters (bodies are maps);
//   - numbers are float64, so 1, 1.0 and 1e0 compare equal;
//   - ids are kept: the fake LLM numbers tool calls per route, so a port that sends another
//     id (or drops the link between a call and its result) differs;
//   - openai tool-call "arguments" (a JSON string whose spacing varies by port) are parsed;
//   - the fake's loopback URLs become "<fake-url>".
func Normalize(body map[string]any) map[string]any {
	out, _ := normalize(roundTrip(body), "").(map[string]any)
	return out
}

// NormalizeAll normalises a list of bodies.
func NormalizeAll(bodies []map[string]any) []map[string]any {
	out := make([]map[string]any, len(bodies))
	for i, b := range bodies {
		out[i] = Normalize(b)
	}
	return out
}

func roundTrip(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func normalize(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			t[k] = normalize(child, k)
		}
		return t
	case []any:
		for i, child := range t {
			t[i] = normalize(child, "")
		}
		return t
	case string:
		switch {
		case key == "arguments":
			var parsed any
			if json.Unmarshal([]byte(t), &parsed) == nil {
				return normalize(parsed, "")
			}
		case strings.HasPrefix(t, "http://127.0.0.1:"):
			return "<fake-url>"
		}
	}
	return v
}

// NormalizeInventory returns a comparable copy of a list-only result {tools, status}: the
// Normalize rules, plus each server's tool list sorted by name (listing order is not pinned).
func NormalizeInventory(inv map[string]any) map[string]any {
	out := Normalize(inv)
	tools, _ := out["tools"].(map[string]any)
	for server, v := range tools {
		list, _ := v.([]any)
		sort.SliceStable(list, func(i, j int) bool { return toolInfoName(list[i]) < toolInfoName(list[j]) })
		tools[server] = list
	}
	return out
}

func toolInfoName(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["name"].(string)
	return s
}
