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
