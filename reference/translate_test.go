package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// trFake is the fake upstream answering request n with replies[n] (the last repeats),
// written byte for byte; requests are read as their bodies.
type trFake struct{ *fakeLLM }

func newTrFake(t *testing.T, replies ...string) *trFake {
	t.Helper()
	turns := make([]fakeTurn, len(replies))
	for i, r := range replies {
		turns[i] = fakeTurn{raw: r}
	}
	return &trFake{newFakeLLM(t, turns...)}
}

// bodies are the request bodies the fake received, in order.
func (f *trFake) bodies() []map[string]any {
	var out []map[string]any
	for _, c := range f.requests() {
		out = append(out, c.Body)
	}
	return out
}

// only returns the single request the test expects.
func (f *trFake) only(t *testing.T) map[string]any {
	t.Helper()
	reqs := f.bodies()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	return reqs[0]
}

func trClient(f *trFake, style ClientStyle, edit func(*ClientOptions)) *Client {
	opts := ClientOptions{BaseURL: f.srv.URL, Style: style, Model: "m", APIKey: "k", RetryBaseMs: 1}
	if edit != nil {
		edit(&opts)
	}
	return CreateClient(opts)
}

type obj = map[string]any

// Replies used by several tests.
const (
	trAnthropicText = `{"id":"msg_t","type":"message","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":2,"output_tokens":1}}`
	trOpenAIText    = `{"id":"cc_t","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":2,"completion_tokens":1,"total_tokens":3}}`
)

// noKeys fails when any of keys is in body.
func noKeys(t *testing.T, body map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, ok := body[k]; ok {
			t.Errorf("body key %q present (%v), want absent", k, v)
		}
	}
}

// Inbound to anthropic: tool_calls become tool_use blocks (string or object arguments),
// consecutive tool results one user turn, system and developer hoisted and joined, parts
// flattened. Outbound: text joined, three tool_use in order, byte-exact arguments, and a
// tool_use turn that says end_turn still reports tool_calls.
func TestTranslateAnthropicInbound(t *testing.T) {
	reply := `{"id":"msg_x","type":"message","role":"assistant","content":[` +
		`{"type":"text","text":"Let me "},{"type":"text","text":"look"},` +
		`{"type":"tool_use","id":"tu_1","name":"weather","input":{"b":1,"city":"Zürich","h":"<i>"}},` +
		`{"type":"tool_use","id":"tu_2","name":"time","input":{}},` +
		`{"type":"tool_use","id":"tu_3","name":"deep","input":{ "z" : [1, 2], "a" : {"y": true} }}` +
		`],"stop_reason":"end_turn","usage":{"input_tokens":7,"output_tokens":3}}`
	f := newTrFake(t, reply)
	req := TranslateRequest{Messages: []any{
		obj{"role": "system", "content": "S1"},
		obj{"role": "user", "content": []any{obj{"type": "text", "text": "a"}, obj{"type": "image_url", "image_url": obj{"url": "x"}}, obj{"type": "text", "text": "b"}}},
		obj{"role": "developer", "content": []any{obj{"type": "text", "text": "D1"}}},
		obj{"role": "assistant", "content": "checking", "tool_calls": []any{
			obj{"id": "c1", "type": "function", "function": obj{"name": "weather", "arguments": `{"city":"Oslo","n":2}`}},
			obj{"id": "c2", "type": "function", "function": obj{"name": "time", "arguments": obj{"tz": "UTC"}}},
		}},
		obj{"role": "tool", "tool_call_id": "c1", "content": "rainy"},
		obj{"role": "tool", "tool_call_id": "c2", "content": []any{obj{"type": "text", "text": "12:"}, obj{"type": "text", "text": "00"}}},
		obj{"role": "user", "content": "thanks"},
		obj{"role": "assistant", "content": "welcome"},
		obj{"role": "user", "content": "again"},
	}}
	res, err := trClient(f, StyleAnthropic, nil).Translate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	body := f.only(t)
	mustEqual(t, "messages", body["messages"], jsonish(t, []any{
		obj{"role": "user", "content": "ab"},
		obj{"role": "assistant", "content": []any{
			obj{"type": "text", "text": "checking"},
			obj{"type": "tool_use", "id": "c1", "name": "weather", "input": obj{"city": "Oslo", "n": 2}},
			obj{"type": "tool_use", "id": "c2", "name": "time", "input": obj{"tz": "UTC"}},
		}},
		obj{"role": "user", "content": []any{
			obj{"type": "tool_result", "tool_use_id": "c1", "content": "rainy"},
			obj{"type": "tool_result", "tool_use_id": "c2", "content": "12:00"},
		}},
		obj{"role": "user", "content": "thanks"},
		obj{"role": "assistant", "content": "welcome"},
		obj{"role": "user", "content": "again"},
	}))
	mustEqual(t, "system", body["system"], "S1\n\nD1")
	mustEqual(t, "max_tokens", body["max_tokens"], 4096.0)
	mustEqual(t, "model", body["model"], "m")
	noKeys(t, body, "stream", "tools", "tool_choice")

	mustEqual(t, "text", res.Text, "Let me look")
	mustEqual(t, "toolCalls", res.ToolCalls, []TranslatedToolCall{
		{ID: "tu_1", Name: "weather", Arguments: `{"b":1,"city":"Zürich","h":"<i>"}`},
		{ID: "tu_2", Name: "time", Arguments: `{}`},
		{ID: "tu_3", Name: "deep", Arguments: `{"z":[1,2],"a":{"y":true}}`},
	})
	mustEqual(t, "finishReason", res.FinishReason, "tool_calls")
	mustEqual(t, "usage", res.Usage, Usage{PromptTokens: 7, CompletionTokens: 3, TotalTokens: 10})
	mustEqual(t, "model", res.Model, "m")
	mustEqual(t, "raw id", res.Raw["id"], "msg_x")
	out, _ := json.Marshal(res)
	if !strings.Contains(string(out), `"toolCalls":[{"id":"tu_1","name":"weather","arguments":`) {
		t.Errorf("result JSON %s lacks the pinned field names", out)
	}
}

// OpenAI style sends the messages verbatim (object arguments aside), the toolkit's
// declarations before request.tools, tool_choice verbatim and no max_tokens by default;
// a reply's string arguments come back as given, object ones compacted in order.
func TestTranslateOpenAIPassThrough(t *testing.T) {
	reply := `{"id":"cc_1","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
		`{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"b\":1,\"city\":\"Zürich\",\"h\":\"<i>\"}"}},` +
		`{"id":"call_2","type":"function","function":{"name":"lookup","arguments":{ "q" : "<x>", "a" : 1 }}}` +
		`]},"finish_reason":"stop"}],"usage":{"prompt_tokens":11,"completion_tokens":4,"total_tokens":15}}`
	f := newTrFake(t, reply, trOpenAIText)
	lookup := obj{"type": "function", "function": obj{"name": "lookup", "description": "finds", "parameters": obj{"type": "object"}}}
	stringCall := obj{"id": "c1", "type": "function", "function": obj{"name": "weather", "arguments": `{"city":"Oslo"}`}}
	msgs := []any{
		obj{"role": "system", "content": "S"},
		obj{"role": "developer", "content": "D"},
		obj{"role": "user", "content": []any{obj{"type": "text", "text": "hi"}}},
		obj{"role": "assistant", "content": nil, "tool_calls": []any{stringCall, obj{"id": "c2", "type": "function", "function": obj{"name": "lookup", "arguments": obj{"q": "x"}}}}},
		obj{"role": "tool", "tool_call_id": "c1", "content": "rainy"},
		obj{"role": "tool", "tool_call_id": "c2", "content": "found"},
	}
	before := jsonish(t, msgs)
	c := trClient(f, StyleOpenAI, func(o *ClientOptions) { o.RequestParams = map[string]any{"temperature": 0.5} })
	choice := obj{"type": "function", "function": obj{"name": "lookup"}}
	res, err := c.Translate(context.Background(), TranslateRequest{Messages: msgs, Tools: []any{lookup}, Toolkit: toolkitWith(t, echoTool()), ToolChoice: choice})
	if err != nil {
		t.Fatal(err)
	}
	body := f.bodies()[0]
	want := jsonish(t, msgs).([]any)
	want[3].(obj)["tool_calls"].([]any)[1].(obj)["function"].(obj)["arguments"] = `{"q":"x"}`
	mustEqual(t, "messages", body["messages"], want)
	mustEqual(t, "caller's messages untouched", jsonish(t, msgs), before)
	mustEqual(t, "tools", body["tools"], jsonish(t, append(ToOpenAI([]Tool{echoTool()}), lookup)))
	mustEqual(t, "tool_choice", body["tool_choice"], jsonish(t, choice))
	mustEqual(t, "temperature", body["temperature"], 0.5)
	noKeys(t, body, "max_tokens", "stream", "system")

	mustEqual(t, "toolCalls", res.ToolCalls, []TranslatedToolCall{
		{ID: "call_1", Name: "weather", Arguments: `{"b":1,"city":"Zürich","h":"<i>"}`},
		{ID: "call_2", Name: "lookup", Arguments: `{"q":"<x>","a":1}`},
	})
	mustEqual(t, "text", res.Text, "")
	mustEqual(t, "finishReason", res.FinishReason, "tool_calls")
	mustEqual(t, "usage", res.Usage, Usage{PromptTokens: 11, CompletionTokens: 4, TotalTokens: 15})

	// A second call: maxTokens is sent as max_tokens, and no tools means no tool keys.
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: msgs[2:3], MaxTokens: 77}); err != nil {
		t.Fatal(err)
	}
	body = f.bodies()[1]
	mustEqual(t, "max_tokens", body["max_tokens"], 77.0)
	noKeys(t, body, "tools", "tool_choice")
}

// request.System replaces every system and developer message, on both styles; the
// client's own SystemPrompt is not added to a translated transcript.
func TestTranslateSystemOverride(t *testing.T) {
	msgs := []any{obj{"role": "system", "content": "S"}, obj{"role": "user", "content": "hi"}, obj{"role": "developer", "content": "D"}}
	withPrompt := func(o *ClientOptions) { o.SystemPrompt = "client prompt" }

	f := newTrFake(t, trAnthropicText)
	c := trClient(f, StyleAnthropic, withPrompt)
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: msgs, System: "X"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: msgs[1:2]}); err != nil {
		t.Fatal(err)
	}
	reqs := f.bodies()
	mustEqual(t, "anthropic system", reqs[0]["system"], "X")
	mustEqual(t, "anthropic messages", reqs[0]["messages"], []any{map[string]any{"role": "user", "content": "hi"}})
	noKeys(t, reqs[1], "system")

	g := newTrFake(t, trOpenAIText)
	c = trClient(g, StyleOpenAI, withPrompt)
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: msgs, System: "X"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: msgs[1:2]}); err != nil {
		t.Fatal(err)
	}
	reqs = g.bodies()
	mustEqual(t, "openai messages", reqs[0]["messages"], jsonish(t, []any{obj{"role": "system", "content": "X"}, obj{"role": "user", "content": "hi"}}))
	mustEqual(t, "openai messages without override", reqs[1]["messages"], jsonish(t, msgs[1:2]))
}

// Anthropic tools: the toolkit's declarations, then request.tools converted; tool_choice
// mapped (auto meaning no key); maxTokens overriding the 4096 default.
func TestTranslateAnthropicToolsAndChoice(t *testing.T) {
	lookup := obj{"type": "function", "function": obj{"name": "lookup", "description": "finds", "parameters": obj{"type": "object", "properties": obj{"q": obj{"type": "string"}}}}}
	bare := obj{"type": "function", "function": obj{"name": "bare"}}
	cases := []struct {
		choice any
		want   any // nil: no tool_choice key
	}{
		{nil, nil},
		{"auto", nil},
		{"required", obj{"type": "any"}},
		{"none", obj{"type": "none"}},
		{obj{"type": "function", "function": obj{"name": "lookup"}}, obj{"type": "tool", "name": "lookup"}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.choice), func(t *testing.T) {
			f := newTrFake(t, trAnthropicText)
			_, err := trClient(f, StyleAnthropic, nil).Translate(context.Background(), TranslateRequest{
				Messages: []any{obj{"role": "user", "content": "hi"}}, Tools: []any{lookup, bare},
				Toolkit: toolkitWith(t, echoTool()), ToolChoice: tc.choice, MaxTokens: 123,
			})
			if err != nil {
				t.Fatal(err)
			}
			body := f.only(t)
			mustEqual(t, "tools", body["tools"], jsonish(t, []any{
				ToAnthropic([]Tool{echoTool()})[0],
				obj{"name": "lookup", "description": "finds", "input_schema": lookup["function"].(obj)["parameters"]},
				obj{"name": "bare", "input_schema": obj{"type": "object", "properties": obj{}}},
			}))
			mustEqual(t, "max_tokens", body["max_tokens"], 123.0)
			if tc.want == nil {
				noKeys(t, body, "tool_choice")
			} else {
				mustEqual(t, "tool_choice", body["tool_choice"], jsonish(t, tc.want))
			}
		})
	}
	f := newTrFake(t, trAnthropicText)
	_, err := trClient(f, StyleAnthropic, nil).Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "hi"}}, Tools: []any{lookup}, ToolChoice: "bogus"})
	if err == nil || !strings.Contains(err.Error(), "bogus") || len(f.bodies()) != 0 {
		t.Fatalf("err = %v, %d requests; want an error naming the choice and nothing sent", err, len(f.bodies()))
	}
}

// finishReason: any tool call wins; otherwise length, content_filter or stop.
func TestTranslateFinishReasons(t *testing.T) {
	anth := func(blocks, stop string) string {
		return `{"content":[` + blocks + `],"stop_reason":"` + stop + `","usage":{"input_tokens":1,"output_tokens":1}}`
	}
	oai := func(calls, finish string) string {
		return `{"choices":[{"message":{"role":"assistant","content":"t"` + calls + `},"finish_reason":"` + finish + `"}]}`
	}
	const toolUse = `{"type":"tool_use","id":"t","name":"x","input":{}}`
	const text = `{"type":"text","text":"t"}`
	const calls = `,"tool_calls":[{"id":"t","type":"function","function":{"name":"x","arguments":"{}"}}]`
	cases := []struct {
		name  string
		style ClientStyle
		reply string
		want  string
	}{
		{"anthropic tool_use+end_turn", StyleAnthropic, anth(text+","+toolUse, "end_turn"), "tool_calls"},
		{"anthropic tool_use+max_tokens", StyleAnthropic, anth(text+","+toolUse, "max_tokens"), "tool_calls"},
		{"anthropic tool_use", StyleAnthropic, anth(text+","+toolUse, "tool_use"), "tool_calls"},
		{"anthropic max_tokens", StyleAnthropic, anth(text, "max_tokens"), "length"},
		{"anthropic refusal", StyleAnthropic, anth(text, "refusal"), "content_filter"},
		{"anthropic end_turn", StyleAnthropic, anth(text, "end_turn"), "stop"},
		{"anthropic stop_sequence", StyleAnthropic, anth(text, "stop_sequence"), "stop"},
		{"anthropic pause_turn", StyleAnthropic, anth(text, "pause_turn"), "stop"},
		{"openai tool_calls+stop", StyleOpenAI, oai(calls, "stop"), "tool_calls"},
		{"openai tool_calls+length", StyleOpenAI, oai(calls, "length"), "tool_calls"},
		{"openai length", StyleOpenAI, oai("", "length"), "length"},
		{"openai content_filter", StyleOpenAI, oai("", "content_filter"), "content_filter"},
		{"openai stop", StyleOpenAI, oai("", "stop"), "stop"},
		{"openai function_call", StyleOpenAI, oai("", "function_call"), "stop"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newTrFake(t, tc.reply)
			res, err := trClient(f, tc.style, nil).Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "hi"}}})
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "finishReason", res.FinishReason, tc.want)
			mustEqual(t, "text", res.Text, "t")
		})
	}
}

// Arguments that are not a JSON object fail before anything is sent, naming the message.
func TestTranslateBadArguments(t *testing.T) {
	for _, style := range []ClientStyle{StyleOpenAI, StyleAnthropic} {
		for _, args := range []any{`{"city":`, `[1,2]`, 42} {
			t.Run(fmt.Sprintf("%s/%v", style, args), func(t *testing.T) {
				f := newTrFake(t, trOpenAIText)
				msgs := []any{
					obj{"role": "user", "content": "hi"},
					obj{"role": "assistant", "content": "ok"},
					obj{"role": "assistant", "tool_calls": []any{obj{"id": "c", "type": "function", "function": obj{"name": "x", "arguments": args}}}},
				}
				_, err := trClient(f, style, nil).Translate(context.Background(), TranslateRequest{Messages: msgs})
				if err == nil || !strings.Contains(err.Error(), "message 2") {
					t.Fatalf("err = %v, want one naming message 2", err)
				}
				if n := len(f.bodies()); n != 0 {
					t.Fatalf("%d requests sent", n)
				}
			})
		}
	}
}

// BeforeLLM and AfterLLM fire once each as turn 0; tool hooks never fire and no tool runs,
// though the model asks for the toolkit's tool.
func TestTranslateHooksOnceAndNothingExecutes(t *testing.T) {
	replies := map[ClientStyle]string{
		StyleAnthropic: `{"content":[{"type":"tool_use","id":"t1","name":"boom","input":{"x":1}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":2}}`,
		StyleOpenAI:    `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"boom","arguments":"{\"x\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`,
	}
	for style, reply := range replies {
		t.Run(string(style), func(t *testing.T) {
			boom := Tool{Name: "boom", Description: "must never run", Source: SourceCustom,
				Execute: func(map[string]any, *ToolContext) (ToolResult, error) {
					t.Error("a translated tool call was executed")
					return ToolResult{}, nil
				}}
			var before, after int
			hooks := &Hooks{
				BeforeLLM: func(_ context.Context, ev BeforeLLMEvent) (*LLMOverride, error) {
					before++
					if ev.Turn != 0 || len(ev.Tools) != 1 || len(ev.Messages) != 1 || ev.Model != "m" {
						t.Errorf("BeforeLLM event %+v", ev)
					}
					return nil, nil
				},
				AfterLLM: func(_ context.Context, ev AfterLLMEvent) error {
					after++
					if ev.Turn != 0 || ev.Model != "m" || ev.Response["usage"] == nil {
						t.Errorf("AfterLLM event %+v", ev)
					}
					return nil
				},
				BeforeTool: func(context.Context, BeforeToolEvent) (*ToolOverride, error) {
					t.Error("BeforeTool fired")
					return nil, nil
				},
				AfterTool: func(context.Context, AfterToolEvent) (*ToolOverride, error) {
					t.Error("AfterTool fired")
					return nil, nil
				},
			}
			f := newTrFake(t, reply)
			c := trClient(f, style, func(o *ClientOptions) { o.Hooks = hooks })
			res, err := c.Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "go"}}, Toolkit: toolkitWith(t, boom)})
			if err != nil {
				t.Fatal(err)
			}
			if before != 1 || after != 1 {
				t.Fatalf("BeforeLLM %d, AfterLLM %d; want 1 each", before, after)
			}
			mustEqual(t, "toolCalls", res.ToolCalls, []TranslatedToolCall{{ID: "t1", Name: "boom", Arguments: `{"x":1}`}})
			mustEqual(t, "requests", len(f.bodies()), 1)
		})
	}
}

// BeforeLLM's override is what is sent (a tool_choice without tools is dropped with a
// warning, since providers reject it), and its error ends the call before any request.
func TestTranslateBeforeLLMOverride(t *testing.T) {
	warnings := captureWarnings(t)
	f := newTrFake(t, trOpenAIText)
	swap := []any{obj{"role": "user", "content": "swapped"}}
	c := trClient(f, StyleOpenAI, func(o *ClientOptions) {
		o.Hooks = &Hooks{BeforeLLM: func(context.Context, BeforeLLMEvent) (*LLMOverride, error) {
			return &LLMOverride{Messages: swap, Tools: []any{}}, nil
		}}
	})
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "hi"}}, Toolkit: toolkitWith(t, echoTool()), ToolChoice: "auto"}); err != nil {
		t.Fatal(err)
	}
	body := f.only(t)
	mustEqual(t, "messages", body["messages"], jsonish(t, swap))
	noKeys(t, body, "tools", "tool_choice")
	if w := warnings(); len(w) != 1 || !strings.Contains(w[0], "toolChoice") {
		t.Errorf("warnings %q, want one about the dropped toolChoice", w)
	}

	g := newTrFake(t, trOpenAIText)
	c = trClient(g, StyleOpenAI, func(o *ClientOptions) {
		o.Hooks = &Hooks{BeforeLLM: func(context.Context, BeforeLLMEvent) (*LLMOverride, error) { return nil, fmt.Errorf("veto") }}
	})
	if _, err := c.Translate(context.Background(), TranslateRequest{Messages: swap}); err == nil || err.Error() != "veto" || len(g.bodies()) != 0 {
		t.Fatalf("err = %v, %d requests; want the hook's error and nothing sent", err, len(g.bodies()))
	}
}

// A 503 is retried like the loop's requests: two requests, the same body, one result.
func TestTranslateRetries(t *testing.T) {
	for style, reply := range map[ClientStyle]string{StyleAnthropic: trAnthropicText, StyleOpenAI: trOpenAIText} {
		t.Run(string(style), func(t *testing.T) {
			f := newTrFake(t, reply)
			f.fail = 1
			res, err := trClient(f, style, nil).Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "hi"}}})
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.bodies()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2 (a 503, then success)", len(reqs))
			}
			mustEqual(t, "retried body", reqs[1], reqs[0])
			mustEqual(t, "text", res.Text, "hi")
		})
	}
}

// Two translates on one client share nothing: each sends only its own messages.
func TestTranslateCarriesNoState(t *testing.T) {
	for _, style := range []ClientStyle{StyleAnthropic, StyleOpenAI} {
		t.Run(string(style), func(t *testing.T) {
			first := `{"content":[{"type":"tool_use","id":"t1","name":"x","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`
			second := trAnthropicText
			if style == StyleOpenAI {
				first = `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"x","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
				second = trOpenAIText
			}
			f := newTrFake(t, first, second)
			c := trClient(f, style, nil)
			a, err := c.Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "one"}}})
			if err != nil {
				t.Fatal(err)
			}
			b, err := c.Translate(context.Background(), TranslateRequest{Messages: []any{obj{"role": "user", "content": "two"}}})
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.bodies()
			mustEqual(t, "second messages", reqs[1]["messages"], []any{map[string]any{"role": "user", "content": "two"}})
			mustEqual(t, "first finish", a.FinishReason, "tool_calls")
			mustEqual(t, "second finish", b.FinishReason, "stop")
			mustEqual(t, "second calls", b.ToolCalls, []TranslatedToolCall{})
		})
	}
}

// The client's own failures apply: a bad Style, a missing key, TimeoutMs.
func TestTranslateClientErrors(t *testing.T) {
	f := newTrFake(t, trOpenAIText)
	msgs := []any{obj{"role": "user", "content": "hi"}}
	if _, err := trClient(f, "gemini", nil).Translate(context.Background(), TranslateRequest{Messages: msgs}); err == nil || !strings.Contains(err.Error(), "gemini") {
		t.Fatalf("bad style: err = %v", err)
	}
	for _, k := range []string{"OPENROUTER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		t.Setenv(k, "")
	}
	if _, err := trClient(f, StyleOpenAI, func(o *ClientOptions) { o.APIKey = "" }).Translate(context.Background(), TranslateRequest{Messages: msgs}); err == nil || !strings.Contains(err.Error(), "APIKey") {
		t.Fatalf("no key: err = %v", err)
	}
	if n := len(f.bodies()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	hang := newFakeLLM(t)
	hang.hang = true
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	c := CreateClient(ClientOptions{BaseURL: hang.base(), Model: "m", APIKey: "k", TimeoutMs: 50})
	if _, err := c.Translate(ctx, TranslateRequest{Messages: msgs}); err != context.DeadlineExceeded {
		t.Fatalf("timeout: err = %v, want context.DeadlineExceeded", err)
	}
}

// Messages built as Go structs rather than maps are read through their JSON.
func TestTranslateTypedMessages(t *testing.T) {
	type fn struct {
		Name      string `json:"name"`
		Arguments any    `json:"arguments"`
	}
	type toolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	type message struct {
		Role       string     `json:"role"`
		Content    any        `json:"content"`
		ToolCalls  []toolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}
	msgs := []any{
		message{Role: "user", Content: "hi"},
		message{Role: "assistant", ToolCalls: []toolCall{{ID: "c1", Type: "function", Function: fn{Name: "x", Arguments: map[string]int{"n": 1}}}}},
		message{Role: "tool", ToolCallID: "c1", Content: "done"},
	}
	f := newTrFake(t, trAnthropicText)
	if _, err := trClient(f, StyleAnthropic, nil).Translate(context.Background(), TranslateRequest{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "anthropic messages", f.only(t)["messages"], jsonish(t, []any{
		obj{"role": "user", "content": "hi"},
		obj{"role": "assistant", "content": []any{obj{"type": "tool_use", "id": "c1", "name": "x", "input": obj{"n": 1}}}},
		obj{"role": "user", "content": []any{obj{"type": "tool_result", "tool_use_id": "c1", "content": "done"}}},
	}))
	g := newTrFake(t, trOpenAIText)
	if _, err := trClient(g, StyleOpenAI, nil).Translate(context.Background(), TranslateRequest{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	calls := g.only(t)["messages"].([]any)[1].(obj)["tool_calls"].([]any)
	mustEqual(t, "openai arguments", calls[0].(obj)["function"].(obj)["arguments"], `{"n":1}`)
}
