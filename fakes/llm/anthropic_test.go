package llm

import (
	"reflect"
	"strings"
	"testing"
)

func TestAnthropicMessage(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(
		Reply{Text: "plain"},
		Reply{Text: "let me look", ToolCalls: []ToolCall{{Name: "srv_a", Args: map[string]any{"x": "1"}}}},
	)
	c := newClient(t)
	url := r.BaseURL() + "/v1/messages"

	resp, b := post(t, c, url, map[string]any{"model": "claude", "max_tokens": 4096})
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	m := decode(t, b)
	want := map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
		"content":     []any{map[string]any{"type": "text", "text": "plain"}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10.0, "output_tokens": 5.0},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("message =\n%v\nwant\n%v", m, want)
	}

	_, b = post(t, c, url, map[string]any{"model": "claude"})
	m = decode(t, b)
	wantContent := []any{
		map[string]any{"type": "text", "text": "let me look"},
		map[string]any{"type": "tool_use", "id": "toolu_1", "name": "srv_a", "input": map[string]any{"x": "1"}},
	}
	if !reflect.DeepEqual(m["content"], wantContent) || m["stop_reason"] != "tool_use" || m["id"] != "msg_2" {
		t.Errorf("tool message = %v", m)
	}
}

// anthropicStream is what a client reassembles from a messages stream.
type anthropicStream struct {
	types  []string // event types in order, deltas collapsed
	text   string
	deltas map[int]int // non-empty deltas per block
	calls  []toolCall
	stop   string
	input  float64 // message_start usage.input_tokens
	output float64 // message_delta usage.output_tokens
}

func readAnthropicStream(t *testing.T, b []byte) anthropicStream {
	t.Helper()
	out := anthropicStream{deltas: map[int]int{}}
	kinds := map[int]string{}
	partial := map[int]*strings.Builder{}
	open := -1
	for _, ev := range parseSSE(t, b) {
		d := decode(t, []byte(ev.data))
		if d["type"] != ev.name {
			t.Errorf("event %q carries type %v", ev.name, d["type"])
		}
		if n := len(out.types); n == 0 || out.types[n-1] != ev.name || ev.name != "content_block_delta" {
			out.types = append(out.types, ev.name)
		}
		idx := -1
		if f, ok := d["index"].(float64); ok {
			idx = int(f)
		}
		switch ev.name {
		case "message_start":
			out.input, _ = at(d, "message", "usage", "input_tokens").(float64)
			if at(d, "message", "id") == nil || at(d, "message", "role") != "assistant" {
				t.Errorf("message_start = %v", d)
			}
		case "content_block_start":
			if open != -1 || idx != len(kinds) {
				t.Errorf("block %d starts while %d is open or out of order", idx, open)
			}
			open = idx
			kinds[idx], _ = at(d, "content_block", "type").(string)
			if kinds[idx] == "tool_use" {
				out.calls = append(out.calls, toolCall{
					ID: at(d, "content_block", "id").(string), Name: at(d, "content_block", "name").(string),
				})
				partial[idx] = &strings.Builder{}
			}
		case "content_block_delta":
			if idx != open {
				t.Errorf("delta for block %d while %d is open", idx, open)
			}
			switch at(d, "delta", "type") {
			case "text_delta":
				s := at(d, "delta", "text").(string)
				out.text += s
				if s != "" {
					out.deltas[idx]++
				}
			case "input_json_delta":
				s := at(d, "delta", "partial_json").(string)
				partial[idx].WriteString(s)
				if s != "" {
					out.deltas[idx]++
				}
			default:
				t.Errorf("unknown delta %v", d)
			}
		case "content_block_stop":
			if idx != open {
				t.Errorf("stop for block %d while %d is open", idx, open)
			}
			open = -1
		case "message_delta":
			out.stop, _ = at(d, "delta", "stop_reason").(string)
			out.output, _ = at(d, "usage", "output_tokens").(float64)
		}
	}
	n := 0
	for i := range len(kinds) {
		if kinds[i] == "tool_use" {
			out.calls[n].Args = argsOf(t, partial[i].String())
			n++
		}
	}
	return out
}

func TestAnthropicStream(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(
		Reply{Text: "streamed words"},
		Reply{Text: "hm", ToolCalls: []ToolCall{
			{Name: "srv_a", Args: map[string]any{"x": "1"}},
			{ID: "given", Name: "srv_b", Args: map[string]any{"n": 3}},
		}},
		Reply{ToolCalls: []ToolCall{{Name: "srv_c"}}},
	)
	c := newClient(t)
	url := r.BaseURL() + "/v1/messages"
	body := map[string]any{"model": "claude", "max_tokens": 4096, "stream": true}

	resp, b := post(t, c, url, body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	st := readAnthropicStream(t, b)
	wantTypes := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if !reflect.DeepEqual(st.types, wantTypes) {
		t.Errorf("events = %v, want %v", st.types, wantTypes)
	}
	if st.text != "streamed words" || st.deltas[0] < 2 || st.stop != "end_turn" || st.input != 10 || st.output != 5 {
		t.Errorf("text stream = %+v", st)
	}

	_, b = post(t, c, url, body)
	st = readAnthropicStream(t, b)
	want := []toolCall{
		{"toolu_1", "srv_a", map[string]any{"x": "1"}},
		{"given", "srv_b", map[string]any{"n": 3.0}},
	}
	if !reflect.DeepEqual(st.calls, want) {
		t.Errorf("tool calls = %v, want %v", st.calls, want)
	}
	if st.text != "hm" || st.stop != "tool_use" || st.deltas[0] < 2 || st.deltas[1] < 2 || st.deltas[2] < 2 {
		t.Errorf("tool stream = %+v", st)
	}

	_, b = post(t, c, url, body)
	st = readAnthropicStream(t, b)
	if len(st.calls) != 1 || st.calls[0].ID != "toolu_2" || len(st.calls[0].Args) != 0 || st.text != "" || st.deltas[0] < 2 {
		t.Errorf("tool-only stream = %+v", st)
	}
}
