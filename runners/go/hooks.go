package main

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"

	toolnexus "github.com/muthuishere/toolnexus/golang"
)

// transformArgs is client.create's bodyTransform instruction.
type transformArgs struct {
	Delete           []string        `json:"delete"`
	Set              json.RawMessage `json:"set"`
	AppendToLastUser *string         `json:"appendToLastUser"`
	SetNested        json.RawMessage `json:"setNested"`
	InPlace          bool            `json:"inPlace"`
	ReturnNull       bool            `json:"returnNull"`
}

// hookArgs is client.create's beforeLLM instruction. Tools stays raw so an
// absent field (no override) differs from [] (override with no tools).
type hookArgs struct {
	SetLastUserContent *string         `json:"setLastUserContent"`
	Tools              json.RawMessage `json:"tools"`
}

// hookSeen is what the BeforeLLM hook observed on one turn.
type hookSeen struct {
	Turn         int `json:"turn"`
	MessageCount int `json:"messageCount"`
	ToolCount    int `json:"toolCount"`
}

// recorder collects what a client's hooks and transport saw. The library may
// call them from its own goroutines (streaming), hence the lock and atomic.
type recorder struct {
	mu           sync.Mutex
	transformSaw []any
	hookSaw      []hookSeen
	requests     atomic.Int64
}

// reset starts a new request's recording and returns the request counter
// baseline, so httpRequests counts only this request's traffic.
func (r *recorder) reset() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.transformSaw = []any{}
	r.hookSaw = []hookSeen{}
	return r.requests.Load()
}

// snapshot returns copies of what was recorded since reset.
func (r *recorder) snapshot() ([]any, []hookSeen) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]any{}, r.transformSaw...), append([]hookSeen{}, r.hookSaw...)
}

// bodyTransform builds the transform SPEC.md §3 describes. By default it edits a shallow
// copy of the body and of the touched message, so the library's own transcript is never
// changed behind its back; with inPlace it edits the very objects it was given (a host's
// in-place rewrite, ADR A4/A6) and returns the same map.
func (r *recorder) bodyTransform(t transformArgs) func(map[string]any) map[string]any {
	return func(body map[string]any) map[string]any {
		r.mu.Lock()
		r.transformSaw = append(r.transformSaw, jsonCopy(body))
		r.mu.Unlock()
		if t.ReturnNull {
			return nil
		}
		if t.InPlace {
			editInPlace(body, t)
			return body
		}
		out := make(map[string]any, len(body))
		for k, v := range body {
			out[k] = v
		}
		for _, k := range t.Delete {
			delete(out, k)
		}
		if len(t.Set) > 0 {
			// Decoded afresh each call so no two bodies share a value.
			var set map[string]any
			if err := json.Unmarshal(t.Set, &set); err == nil {
				for k, v := range set {
					out[k] = v
				}
			}
		}
		for k, sub := range nestedSets(t.SetNested) {
			obj := map[string]any{}
			if old, ok := out[k].(map[string]any); ok {
				for kk, vv := range old {
					obj[kk] = vv
				}
			}
			for kk, vv := range sub {
				obj[kk] = vv
			}
			out[k] = obj
		}
		if t.AppendToLastUser != nil {
			if msgs, ok := out["messages"]; ok {
				out["messages"] = editLastUser(msgs, func(content any) any {
					if s, ok := content.(string); ok {
						return s + *t.AppendToLastUser
					}
					return content // only string content is appended to
				})
			}
		}
		return out
	}
}

// editInPlace applies t to body itself: keys deleted and set on it, setNested written into
// the object already at that key, the suffix appended to the last user message's own map.
func editInPlace(body map[string]any, t transformArgs) {
	for _, k := range t.Delete {
		delete(body, k)
	}
	if len(t.Set) > 0 {
		var set map[string]any
		if err := json.Unmarshal(t.Set, &set); err == nil {
			for k, v := range set {
				body[k] = v
			}
		}
	}
	for k, sub := range nestedSets(t.SetNested) {
		obj, ok := body[k].(map[string]any)
		if !ok {
			obj = map[string]any{}
			body[k] = obj
		}
		for kk, vv := range sub {
			obj[kk] = vv
		}
	}
	if t.AppendToLastUser == nil {
		return
	}
	appendTo := func(m map[string]any) {
		if s, ok := m["content"].(string); ok {
			m["content"] = s + *t.AppendToLastUser
		}
	}
	switch list := body["messages"].(type) {
	case []any:
		for i := len(list) - 1; i >= 0; i-- {
			if m, ok := list[i].(map[string]any); ok && m["role"] == "user" {
				appendTo(m)
				return
			}
		}
	case []map[string]any:
		for i := len(list) - 1; i >= 0; i-- {
			if list[i]["role"] == "user" {
				appendTo(list[i])
				return
			}
		}
	}
}

// nestedSets decodes setNested afresh (so no two bodies share a value); nil when absent.
func nestedSets(raw json.RawMessage) map[string]map[string]any {
	if len(raw) == 0 {
		return nil
	}
	var out map[string]map[string]any
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// beforeLLM builds the hook SPEC.md §3 describes: record, then override.
func (r *recorder) beforeLLM(h hookArgs) (func(context.Context, toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error), error) {
	var tools []any
	if len(h.Tools) > 0 {
		tools = []any{} // present, even if empty: replace the tool list
		if err := json.Unmarshal(h.Tools, &tools); err != nil {
			return nil, &opError{kind: kindFailed, msg: "adapter: beforeLLM.tools: " + err.Error()}
		}
		if tools == nil {
			tools = []any{}
		}
	}
	return func(ctx context.Context, ev toolnexus.BeforeLLMEvent) (*toolnexus.LLMOverride, error) {
		r.mu.Lock()
		r.hookSaw = append(r.hookSaw, hookSeen{Turn: ev.Turn, MessageCount: len(ev.Messages), ToolCount: len(ev.Tools)})
		r.mu.Unlock()
		ov := &toolnexus.LLMOverride{}
		if h.SetLastUserContent != nil {
			msgs, _ := editLastUser(ev.Messages, func(any) any { return *h.SetLastUserContent }).([]any)
			ov.Messages = msgs
		}
		if tools != nil {
			// A fresh copy per turn, so the library may own what it gets.
			if fresh, ok := jsonCopy(tools).([]any); ok {
				ov.Tools = fresh
			} else {
				ov.Tools = append([]any{}, tools...)
			}
		}
		return ov, nil
	}, nil
}

// editLastUser returns a copy of msgs where the last message with role "user"
// is a copy whose content is edit(content). Non-list input is returned as is.
func editLastUser(msgs any, edit func(any) any) any {
	switch list := msgs.(type) {
	case []any:
		out := append([]any{}, list...)
		for i := len(out) - 1; i >= 0; i-- {
			if m, ok := out[i].(map[string]any); ok && m["role"] == "user" {
				out[i] = withContent(m, edit)
				return out
			}
		}
		return out
	case []map[string]any:
		out := append([]map[string]any{}, list...)
		for i := len(out) - 1; i >= 0; i-- {
			if out[i]["role"] == "user" {
				out[i] = withContent(out[i], edit)
				return out
			}
		}
		return out
	}
	return msgs
}

// withContent copies one message map with its content edited.
func withContent(m map[string]any, edit func(any) any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	c["content"] = edit(m["content"])
	return c
}

// jsonCopy deep-copies a JSON-like value through a round trip; a value that
// cannot be marshalled is recorded as an error object instead.
func jsonCopy(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"adapterError": "cannot marshal: " + err.Error()}
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return map[string]any{"adapterError": "cannot unmarshal: " + err.Error()}
	}
	return out
}

// countingTransport counts every request the client's HTTP client carries.
type countingTransport struct {
	base http.RoundTripper
	n    *atomic.Int64
}

// RoundTrip counts, then delegates to the default transport.
func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.n.Add(1)
	return t.base.RoundTrip(req)
}
