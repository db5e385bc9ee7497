package llm

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestOpenAIText(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{Text: "hello there"})
	resp, b := post(t, newClient(t), r.BaseURL()+"/chat/completions", map[string]any{"model": "m1", "messages": []any{}})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	m := decode(t, b)
	for path, want := range map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": "m1",
	} {
		if m[path] != want {
			t.Errorf("%s = %v, want %v", path, m[path], want)
		}
	}
	if _, ok := m["created"].(float64); !ok {
		t.Errorf("created = %v, want a number", m["created"])
	}
	msg := at(m, "choices", 0, "message")
	if at(msg, "role") != "assistant" || at(msg, "content") != "hello there" {
		t.Errorf("message = %v", msg)
	}
	if _, ok := msg.(map[string]any)["tool_calls"]; ok {
		t.Errorf("tool_calls present on a text reply: %v", msg)
	}
	if got := at(m, "choices", 0, "finish_reason"); got != "stop" {
		t.Errorf("finish_reason = %v", got)
	}
	if got := at(m, "usage", "total_tokens"); got != 15.0 {
		t.Errorf("usage.total_tokens = %v", got)
	}
}

func TestOpenAIToolCalls(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{ToolCalls: []ToolCall{
		{Name: "srv_a", Args: map[string]any{"x": "1"}},
		{ID: "mine", Name: "srv_b"},
	}})
	_, b := post(t, newClient(t), r.BaseURL()+"/chat/completions", map[string]any{"model": "m"})
	m := decode(t, b)
	msg := at(m, "choices", 0, "message")
	if c, ok := msg.(map[string]any)["content"]; !ok || c != nil {
		t.Errorf("content = %v (present %v), want null", c, ok)
	}
	if got := at(m, "choices", 0, "finish_reason"); got != "tool_calls" {
		t.Errorf("finish_reason = %v", got)
	}
	var got []toolCall
	for i := range 2 {
		c := at(msg, "tool_calls", i)
		if at(c, "type") != "function" {
			t.Errorf("tool call %d type = %v", i, at(c, "type"))
		}
		args, ok := at(c, "function", "arguments").(string)
		if !ok {
			t.Fatalf("arguments of call %d are not a JSON string: %v", i, c)
		}
		got = append(got, toolCall{at(c, "id").(string), at(c, "function", "name").(string), argsOf(t, args)})
	}
	want := []toolCall{{"call_1", "srv_a", map[string]any{"x": "1"}}, {"mine", "srv_b", map[string]any{}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tool calls = %v, want %v", got, want)
	}
}

// openAIStream is what a client reassembles from a chat.completion.chunk stream.
type openAIStream struct {
	text          string
	contentDeltas int
	calls         []toolCall
	argDeltas     map[int]int
	finish        string
	usage         map[string]any
	done          bool
}

func readOpenAIStream(t *testing.T, b []byte) openAIStream {
	t.Helper()
	var out openAIStream
	out.argDeltas = map[int]int{}
	args := map[int]*strings.Builder{}
	events := parseSSE(t, b)
	for i, ev := range events {
		if ev.name != "" {
			t.Errorf("openai events carry no name, got %q", ev.name)
		}
		if ev.data == "[DONE]" {
			if i != len(events)-1 {
				t.Errorf("[DONE] is event %d of %d", i, len(events))
			}
			out.done = true
			continue
		}
		c := decode(t, []byte(ev.data))
		if c["object"] != "chat.completion.chunk" || c["id"] == nil || c["model"] == nil {
			t.Errorf("chunk header wrong: %v", c)
		}
		if u, ok := c["usage"].(map[string]any); ok {
			if ch, _ := c["choices"].([]any); len(ch) != 0 {
				t.Errorf("usage chunk has choices: %v", c)
			}
			out.usage = u
			continue
		}
		if out.usage != nil {
			t.Errorf("chunk after the usage chunk: %v", c)
		}
		if i == 0 && at(c, "choices", 0, "delta", "role") != "assistant" {
			t.Errorf("first chunk has no role delta: %v", c)
		}
		if fr, ok := at(c, "choices", 0, "finish_reason").(string); ok {
			out.finish = fr
		}
		delta := at(c, "choices", 0, "delta")
		if s, ok := at(delta, "content").(string); ok && i > 0 {
			out.text += s
			out.contentDeltas++
		}
		tcs, _ := at(delta, "tool_calls").([]any)
		for _, tc := range tcs {
			idx := int(at(tc, "index").(float64))
			if id, ok := at(tc, "id").(string); ok {
				if idx != len(out.calls) {
					t.Fatalf("tool call %d opened out of order", idx)
				}
				if at(tc, "type") != "function" || at(tc, "function", "name") == nil {
					t.Errorf("first delta of call %d lacks type or name: %v", idx, tc)
				}
				out.calls = append(out.calls, toolCall{ID: id, Name: at(tc, "function", "name").(string)})
				args[idx] = &strings.Builder{}
			}
			if a, ok := at(tc, "function", "arguments").(string); ok {
				args[idx].WriteString(a)
				if a != "" {
					out.argDeltas[idx]++
				}
			}
		}
	}
	for i := range out.calls {
		out.calls[i].Args = argsOf(t, args[i].String())
	}
	return out
}

func TestOpenAIStream(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(
		Reply{Text: "streamed words"},
		Reply{Text: "x", ToolCalls: []ToolCall{
			{Name: "srv_a", Args: map[string]any{"x": "long enough value"}},
			{Name: "srv_get_balance", Args: map[string]any{"account": "42"}},
		}},
	)
	c := newClient(t)
	body := map[string]any{"model": "m", "stream": true, "stream_options": map[string]any{"include_usage": true}}

	resp, b := post(t, c, r.BaseURL()+"/chat/completions", body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	st := readOpenAIStream(t, b)
	if st.text != "streamed words" || st.contentDeltas < 2 || st.finish != "stop" || !st.done || len(st.calls) != 0 {
		t.Errorf("text stream = %+v", st)
	}
	if st.usage["total_tokens"] != 15.0 {
		t.Errorf("usage = %v", st.usage)
	}

	_, b = post(t, c, r.BaseURL()+"/chat/completions", body)
	st = readOpenAIStream(t, b)
	want := []toolCall{
		{"call_1", "srv_a", map[string]any{"x": "long enough value"}},
		{"call_2", "srv_get_balance", map[string]any{"account": "42"}},
	}
	if !reflect.DeepEqual(st.calls, want) {
		t.Errorf("tool calls = %v, want %v", st.calls, want)
	}
	for i := range want {
		if st.argDeltas[i] < 2 {
			t.Errorf("call %d arguments came in %d delta(s), want 2+", i, st.argDeltas[i])
		}
	}
	if st.text != "x" || st.contentDeltas < 2 || st.finish != "tool_calls" || !st.done || st.usage == nil {
		t.Errorf("tool stream = %+v", st)
	}
}

func TestOpenAIStreamEmptyArgs(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{ToolCalls: []ToolCall{{Name: "srv_c"}}})
	_, b := post(t, newClient(t), r.BaseURL()+"/chat/completions", map[string]any{"stream": true})
	st := readOpenAIStream(t, b)
	if len(st.calls) != 1 || len(st.calls[0].Args) != 0 || st.argDeltas[0] < 2 || st.text != "" {
		t.Errorf("stream = %+v", st)
	}
}

func TestErrorReplies(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{Status: http.StatusTooManyRequests, Text: "slow down"}, Reply{Status: 500})
	c := newClient(t)

	resp, b := post(t, c, r.BaseURL()+"/chat/completions", map[string]any{"stream": true})
	if resp.StatusCode != 429 || at(decode(t, b), "error", "message") != "slow down" {
		t.Errorf("openai error: %d %s", resp.StatusCode, b)
	}
	resp, b = post(t, c, r.BaseURL()+"/v1/messages", map[string]any{})
	m := decode(t, b)
	if resp.StatusCode != 500 || m["type"] != "error" || at(m, "error", "type") != "api_error" ||
		at(m, "error", "message") != "Internal Server Error" {
		t.Errorf("anthropic error: %d %s", resp.StatusCode, b)
	}
	if n := len(r.Requests()); n != 2 {
		t.Errorf("%d requests recorded, want 2", n)
	}
}
