package llm

import (
	"bytes"
	"strings"
	"testing"
)

// TestStreamQuirks: the provider variants a Reply can ask a stream for (issue 39).
func TestStreamQuirks(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	c := newClient(t)
	openai := map[string]any{"model": "m", "stream": true}

	// DataNoSpace: every line is "data:{…}" / "event:name"; the events are the usual ones.
	r.Script(Reply{Text: "hi", DataNoSpace: true}, Reply{Text: "hi", DataNoSpace: true})
	_, b := post(t, c, r.BaseURL()+"/chat/completions", openai)
	if bytes.Contains(b, []byte("data: ")) || !bytes.Contains(b, []byte("data:{")) {
		t.Errorf("openai DataNoSpace stream:\n%s", b)
	}
	if st := readOpenAIStream(t, bytes.ReplaceAll(b, []byte("data:"), []byte("data: "))); st.text != "hi" || !st.done {
		t.Errorf("openai DataNoSpace stream = %+v", st)
	}
	_, b = post(t, c, r.BaseURL()+"/v1/messages", openai)
	if bytes.Contains(b, []byte("data: ")) || bytes.Contains(b, []byte("event: ")) || !bytes.Contains(b, []byte("event:message_start\ndata:{")) {
		t.Errorf("anthropic DataNoSpace stream:\n%s", b)
	}

	// RepeatCallIDs: every fragment of a call carries its id; the arguments still assemble.
	r.Script(Reply{RepeatCallIDs: true, ToolCalls: []ToolCall{{Name: "a", Args: map[string]any{"x": "long enough"}}}})
	_, b = post(t, c, r.BaseURL()+"/chat/completions", openai)
	fragments, withID := 0, 0
	for _, e := range parseSSE(t, b) {
		if e.data == "[DONE]" {
			continue
		}
		tc, _ := at(decode(t, []byte(e.data)), "choices", 0, "delta", "tool_calls", 0).(map[string]any)
		if tc == nil {
			continue
		}
		fragments++
		if tc["id"] == "call_1" {
			withID++
		}
	}
	if fragments < 3 || withID != fragments {
		t.Errorf("the id is on %d of %d tool call chunks; want all:\n%s", withID, fragments, b)
	}

	// UsageTwice and Usage.Total: the same cumulative usage on two chunks, the scripted total.
	r.Script(Reply{Text: "hi", UsageTwice: true, Usage: &Usage{Prompt: 3, Completion: 4, Total: 9}})
	_, b = post(t, c, r.BaseURL()+"/chat/completions", openai)
	if n := strings.Count(string(b), `"usage":{"completion_tokens":4,"prompt_tokens":3,"total_tokens":9}`); n != 2 {
		t.Errorf("usage reported %d times; want 2:\n%s", n, b)
	}

	// DeltaInputTokens: message_delta repeats input_tokens.
	r.Script(Reply{Text: "hi", DeltaInputTokens: true, Usage: &Usage{Prompt: 3, Completion: 4}})
	_, b = post(t, c, r.BaseURL()+"/v1/messages", openai)
	var delta string
	for _, e := range parseSSE(t, b) {
		if e.name == "message_delta" {
			delta = e.data
		}
	}
	if at(decode(t, []byte(delta)), "usage", "input_tokens") != 3.0 || at(decode(t, []byte(delta)), "usage", "output_tokens") != 4.0 {
		t.Errorf("message_delta = %s", delta)
	}
}

// TestStreamCRLF: CRLF ends every line of both styles' streams; read with LF, the events
// are the usual ones.
func TestStreamCRLF(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	c := newClient(t)
	body := map[string]any{"model": "m", "stream": true}
	call := []ToolCall{{Name: "a", Args: map[string]any{"x": "long enough"}}}
	r.Script(Reply{Text: "hi", CRLF: true}, Reply{ToolCalls: call, CRLF: true})
	_, b := post(t, c, r.BaseURL()+"/chat/completions", body)
	if bare := strings.Count(string(b), "\n") - strings.Count(string(b), "\r\n"); bare != 0 || !bytes.Contains(b, []byte("data: [DONE]\r\n\r\n")) {
		t.Errorf("openai CRLF stream has %d bare LFs:\n%q", bare, b)
	}
	if st := readOpenAIStream(t, bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))); st.text != "hi" || !st.done {
		t.Errorf("openai CRLF stream = %+v", st)
	}
	_, b = post(t, c, r.BaseURL()+"/v1/messages", body)
	if bare := strings.Count(string(b), "\n") - strings.Count(string(b), "\r\n"); bare != 0 || !bytes.Contains(b, []byte("event: message_start\r\ndata: {")) {
		t.Errorf("anthropic CRLF stream has %d bare LFs:\n%q", bare, b)
	}
	if st := readAnthropicStream(t, bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))); len(st.calls) != 1 || st.calls[0].Args["x"] != "long enough" {
		t.Errorf("anthropic CRLF stream = %+v", st)
	}
}

// TestStreamLastOpenedFirst: index 1 is opened before index 0, and the fragments, joined by
// their index, are each call's own arguments.
func TestStreamLastOpenedFirst(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{Interleave: true, LastOpenedFirst: true, ToolCalls: []ToolCall{
		{Name: "a", Args: map[string]any{"a": "xyz"}}, {Name: "b", Args: map[string]any{"b": []any{1, 2}}},
	}})
	_, b := post(t, newClient(t), r.BaseURL()+"/chat/completions", map[string]any{"model": "m", "stream": true})
	var opened []float64
	args := map[float64]string{}
	names := map[float64]any{}
	for _, e := range parseSSE(t, b) {
		if e.data == "[DONE]" {
			continue
		}
		tcs, _ := at(decode(t, []byte(e.data)), "choices", 0, "delta", "tool_calls").([]any)
		for _, tc := range tcs {
			idx := at(tc, "index").(float64)
			if _, ok := at(tc, "id").(string); ok {
				opened = append(opened, idx)
				names[idx] = at(tc, "function", "name")
			}
			a, _ := at(tc, "function", "arguments").(string)
			args[idx] += a
		}
	}
	if len(opened) != 2 || opened[0] != 1 || opened[1] != 0 {
		t.Errorf("calls opened in index order %v; want [1 0]", opened)
	}
	if names[0] != "a" || names[1] != "b" || args[0] != `{"a":"xyz"}` || args[1] != `{"b":[1,2]}` {
		t.Errorf("by index: names %v, arguments %v", names, args)
	}
}

// TestStreamThinking: a streamed thinking block starts empty, its text comes in
// thinking_delta pieces and its signature in one signature_delta, before the other blocks.
func TestStreamThinking(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{Thinking: &Thinking{Text: "let me see", Signature: "sig=="}, Text: "x", ToolCalls: []ToolCall{{Name: "a"}}})
	_, b := post(t, newClient(t), r.BaseURL()+"/v1/messages", map[string]any{"model": "m", "stream": true})
	var kinds []any
	var thinking, signature string
	thinkingDeltas, signatures := 0, 0
	for _, e := range parseSSE(t, b) {
		d := decode(t, []byte(e.data))
		switch e.name {
		case "content_block_start":
			kinds = append(kinds, at(d, "content_block", "type"))
			if len(kinds) == 1 && (at(d, "content_block", "thinking") != "" || at(d, "content_block", "signature") != "") {
				t.Errorf("thinking block starts with content: %v", d)
			}
		case "content_block_delta":
			if at(d, "index") != 0.0 {
				continue
			}
			switch at(d, "delta", "type") {
			case "thinking_delta":
				thinking += at(d, "delta", "thinking").(string)
				thinkingDeltas++
			case "signature_delta":
				signature += at(d, "delta", "signature").(string)
				signatures++
			default:
				t.Errorf("block 0 delta %v", d)
			}
		}
	}
	if len(kinds) != 3 || kinds[0] != "thinking" || kinds[1] != "text" || kinds[2] != "tool_use" {
		t.Errorf("blocks %v; want thinking, text, tool_use", kinds)
	}
	if thinking != "let me see" || thinkingDeltas < 2 || signature != "sig==" || signatures != 1 {
		t.Errorf("thinking %q in %d deltas, signature %q in %d", thinking, thinkingDeltas, signature, signatures)
	}
}
