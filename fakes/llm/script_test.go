package llm

import (
	"encoding/json"
	"slices"
	"testing"
)

// A scripted answer's usage, text deltas and interleaved fragments reach the wire; Always
// answers once the script is used up.
func TestScriptShapesTheStream(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(
		Reply{TextPieces: []string{"hel", "lo"}, Usage: &Usage{Prompt: 3, Completion: 4}},
		Reply{ToolCalls: []ToolCall{{Name: "a", Args: map[string]any{"a": "xyz"}}, {Name: "b", Args: map[string]any{"b": "uvw"}}}, Interleave: true},
	)
	r.Always(Reply{ToolCalls: []ToolCall{{Name: "ping"}}})
	c := newClient(t)
	oa := r.BaseURL() + "/chat/completions"

	_, b := post(t, c, oa, map[string]any{"stream": true})
	var deltas []string
	var usage any
	for _, ev := range parseSSE(t, b) {
		var chunk map[string]any
		if json.Unmarshal([]byte(ev.data), &chunk) != nil {
			continue
		}
		if d, ok := at(chunk, "choices", 0, "delta", "content").(string); ok && d != "" {
			deltas = append(deltas, d)
		}
		if u, ok := chunk["usage"]; ok {
			usage = u
		}
	}
	if !slices.Equal(deltas, []string{"hel", "lo"}) {
		t.Errorf("text deltas %q; want hel, lo", deltas)
	}
	if u, _ := usage.(map[string]any); u["prompt_tokens"] != float64(3) || u["completion_tokens"] != float64(4) || u["total_tokens"] != float64(7) {
		t.Errorf("usage %v; want 3, 4, 7", usage)
	}

	_, b = post(t, c, oa, map[string]any{"stream": true})
	var order []float64
	for _, ev := range parseSSE(t, b) {
		var chunk map[string]any
		if json.Unmarshal([]byte(ev.data), &chunk) != nil {
			continue
		}
		if idx, ok := at(chunk, "choices", 0, "delta", "tool_calls", 0, "index").(float64); ok {
			order = append(order, idx)
		}
	}
	if len(order) < 6 || !slices.Equal(order[:4], []float64{0, 1, 0, 1}) {
		t.Errorf("tool-call chunk indexes %v; want both calls opened, then fragments alternating", order)
	}

	_, b = post(t, c, r.BaseURL()+"/v1/messages", map[string]any{})
	if name := at(decode(t, b), "content", 0, "name"); name != "ping" {
		t.Errorf("after the script, the answer calls %v; want ping (Always)", name)
	}
}

// reasoning_content rides beside openai content; a thinking block comes first on anthropic.
func TestScriptedReasoningAndThinking(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{ToolCalls: []ToolCall{{Name: "ping"}}, ReasoningContent: "r"},
		Reply{Text: "x", ToolCalls: []ToolCall{{Name: "ping"}}, Thinking: &Thinking{Text: "t", Signature: "sig"}})
	c := newClient(t)
	_, b := post(t, c, r.BaseURL()+"/chat/completions", map[string]any{})
	if got := at(decode(t, b), "choices", 0, "message", "reasoning_content"); got != "r" {
		t.Errorf("reasoning_content %v; want r", got)
	}
	_, b = post(t, c, r.BaseURL()+"/v1/messages", map[string]any{})
	m := decode(t, b)
	if at(m, "content", 0, "type") != "thinking" || at(m, "content", 0, "signature") != "sig" || at(m, "content", 1, "text") != "x" || at(m, "content", 2, "type") != "tool_use" {
		t.Errorf("blocks %v; want thinking, text, tool_use", m["content"])
	}
}
