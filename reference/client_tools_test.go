package toolnexus

import (
	"context"
	"strings"
	"testing"
)

// G5.1, G5.2: a zero-tool toolkit (or none) sends no tools and no tool_choice key.
func TestEmptyToolsOmitted(t *testing.T) {
	for _, p := range fourPaths {
		for _, tk := range []struct {
			name string
			tk   func(*testing.T) *Toolkit
		}{{"empty toolkit", func(t *testing.T) *Toolkit { return toolkitWith(t) }}, {"nil toolkit", func(*testing.T) *Toolkit { return nil }}} {
			t.Run(p.name+"/"+tk.name, func(t *testing.T) {
				f := newFakeLLM(t)
				if _, _, err := p.run(t, context.Background(), p.client(f, nil), "hi", tk.tk(t)); err != nil {
					t.Fatal(err)
				}
				body := f.requests()[0].Body
				for _, k := range []string{"tools", "tool_choice"} {
					if v, ok := body[k]; ok {
						t.Errorf("key %q present (%v), want absent", k, v)
					}
				}
			})
		}
	}
}

// G5.3: one tool is sent in the style's shape, with tool_choice auto on openai.
func TestOneToolSent(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			if _, _, err := p.run(t, context.Background(), p.client(f, nil), "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			body := f.requests()[0].Body
			if p.style == StyleOpenAI {
				mustEqual(t, "tools", body["tools"], []any{map[string]any{"type": "function", "function": map[string]any{"name": "echo", "description": "echoes its text", "parameters": schema}}})
				mustEqual(t, "tool_choice", body["tool_choice"], "auto")
			} else {
				mustEqual(t, "tools", body["tools"], []any{map[string]any{"name": "echo", "description": "echoes its text", "input_schema": schema}})
				if _, ok := body["tool_choice"]; ok {
					t.Error("anthropic body has tool_choice")
				}
			}
		})
	}
}

// G5.4: a hook returning an empty tool list drops the keys on that turn; a nil Tools keeps them.
func TestHookEmptyToolsOmitted(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t, toolLoop...)
			c := p.client(f, func(o *ClientOptions) {
				o.Hooks = &Hooks{BeforeLLM: func(_ context.Context, ev BeforeLLMEvent) (*LLMOverride, error) {
					if ev.Turn == 1 {
						return &LLMOverride{Tools: []any{}}, nil
					}
					return &LLMOverride{}, nil
				}}
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			if _, ok := reqs[0].Body["tools"]; !ok {
				t.Error("turn 1: tools missing although the hook kept them")
			}
			for _, k := range []string{"tools", "tool_choice"} {
				if _, ok := reqs[1].Body[k]; ok {
					t.Errorf("turn 2: key %q present after the hook emptied the tools", k)
				}
			}
		})
	}
}

// The tool loop on every path: calls run, results go back in the style's shape, usage adds up.
func TestToolLoop(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t, toolLoop...)
			res, evs, err := p.run(t, context.Background(), p.client(f, nil), "hi", toolkitWith(t, echoTool()))
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			user := map[string]any{"role": "user", "content": "hi"}
			var want []any
			if p.style == StyleOpenAI {
				var content any // a tool-call turn without text goes back with a null content, run and stream (C9.15)
				want = []any{user,
					map[string]any{"role": "assistant", "content": content, "tool_calls": []any{
						map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "echo", "arguments": `{"text":"hi"}`}},
						map[string]any{"id": "call_2", "type": "function", "function": map[string]any{"name": "echo", "arguments": `{"text":"yo"}`}},
					}},
					map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "echo:hi"},
					map[string]any{"role": "tool", "tool_call_id": "call_2", "content": "echo:yo"},
				}
			} else {
				want = []any{user,
					map[string]any{"role": "assistant", "content": []any{
						map[string]any{"type": "tool_use", "id": "call_1", "name": "echo", "input": map[string]any{"text": "hi"}},
						map[string]any{"type": "tool_use", "id": "call_2", "name": "echo", "input": map[string]any{"text": "yo"}},
					}},
					map[string]any{"role": "user", "content": []any{
						map[string]any{"type": "tool_result", "tool_use_id": "call_1", "content": "echo:hi", "is_error": false},
						map[string]any{"type": "tool_result", "tool_use_id": "call_2", "content": "echo:yo", "is_error": false},
					}},
				}
			}
			mustEqual(t, "turn 2 messages", reqs[1].Body["messages"], want)
			mustEqual(t, "transcript", jsonish(t, res.Messages), append(want, jsonish(t, finalAssistant(p.style))))
			mustEqual(t, "text", res.Text, "all done")
			mustEqual(t, "status", res.Status, "done")
			mustEqual(t, "turns", res.Turns, 2)
			mustEqual(t, "tool calls", res.ToolCallCount, 2)
			mustEqual(t, "first call", res.ToolCalls[0], ToolCall{Name: "echo", Args: map[string]any{"text": "hi"}, Output: "echo:hi"})
			mustEqual(t, "usage", res.Usage, Usage{PromptTokens: 20, CompletionTokens: 10, TotalTokens: 30})
			if p.stream {
				checkStreamEvents(t, evs)
			}
		})
	}
}

func finalAssistant(style ClientStyle) map[string]any {
	if style == StyleOpenAI {
		return map[string]any{"role": "assistant", "content": "all done"}
	}
	return map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "all done"}}}
}

// checkStreamEvents checks the event sequence of the two-turn tool loop.
func checkStreamEvents(t *testing.T, evs []StreamEvent) {
	t.Helper()
	var kinds []string
	var text strings.Builder
	for _, ev := range evs {
		if ev.Type == "text" {
			text.WriteString(ev.Delta)
			if len(kinds) > 0 && kinds[len(kinds)-1] == "text" {
				continue
			}
		}
		kinds = append(kinds, ev.Type)
	}
	mustEqual(t, "event kinds", kinds, []string{"tool_call", "tool_call", "tool_result", "tool_result", "text", "usage", "done"})
	mustEqual(t, "streamed text", text.String(), "all done")
	mustEqual(t, "tool_call event", []any{evs[0].ID, evs[0].Name, evs[0].Args}, []any{"call_1", "echo", map[string]any{"text": "hi"}})
	mustEqual(t, "tool_result event", []any{evs[3].ID, evs[3].Output, evs[3].IsError}, []any{"call_2", "echo:yo", false})
	last := evs[len(evs)-1]
	if last.Usage == nil || *last.Usage != (Usage{20, 10, 30}) {
		t.Errorf("done usage = %v", last.Usage)
	}
}

// Running out of turns with tool calls pending is "incomplete", never "done".
func TestMaxTurnsIncomplete(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t, toolLoop[0])
			res, _, err := p.run(t, context.Background(), p.client(f, func(o *ClientOptions) { o.MaxTurns = 3 }), "hi", toolkitWith(t, echoTool()))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(f.requests()); n != 3 {
				t.Fatalf("%d requests, want MaxTurns = 3", n)
			}
			mustEqual(t, "status", res.Status, "incomplete")
			mustEqual(t, "limit", res.Limit, "maxTurns")
			mustEqual(t, "tool calls", res.ToolCallCount, 6)
		})
	}
}

// A tool the toolkit does not have comes back to the model as an error result.
func TestUnknownToolIsErrorResult(t *testing.T) {
	f := newFakeLLM(t, fakeTurn{calls: []fakeCall{{"c1", "nope", `{}`}}}, fakeTurn{text: "ok"})
	res, err := fourPaths[2].client(f, nil).Run(context.Background(), "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	msgs := f.requests()[1].Body["messages"].([]any)
	block := msgs[2].(map[string]any)["content"].([]any)[0].(map[string]any)
	mustEqual(t, "is_error", block["is_error"], true)
	mustEqual(t, "recorded", res.ToolCalls[0].IsError, true)
}
