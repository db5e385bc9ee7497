package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

// captured is one request as the fake upstream saw it.
type captured struct {
	Path   string
	Header http.Header
	Body   map[string]any
}

// fakeCall is a tool call the fake model makes; args is its JSON text.
type fakeCall struct{ id, name, args string }

// fakeTurn is one scripted model answer; raw, when set, is the whole non-streamed answer,
// byte for byte (a provider reply the fields cannot say).
type fakeTurn struct {
	text  string
	calls []fakeCall
	raw   string
}

// fakeLLM is a loopback upstream for both wire styles, streamed or not,
// answering request n with script[n] (the last entry repeats).
type fakeLLM struct {
	srv      *httptest.Server
	mu       sync.Mutex
	reqs     []captured
	script   []fakeTurn
	answered int
	fail     int  // answer this many requests with 503 first
	hang     bool // never answer; wait for the client to give up
	stall    bool // send headers and a first fragment, then wait for the client to give up
}

func newFakeLLM(t *testing.T, script ...fakeTurn) *fakeLLM {
	t.Helper()
	if len(script) == 0 {
		script = []fakeTurn{{text: "hello"}}
	}
	f := &fakeLLM{script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve)) // binds 127.0.0.1
	t.Cleanup(f.srv.Close)
	return f
}

// base is the client's BaseURL; the route prefix mimics the suite's fake.
func (f *fakeLLM) base() string { return f.srv.URL + "/s/1" }

func (f *fakeLLM) requests() []captured {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]captured(nil), f.reqs...)
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, "body is not a JSON object", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, captured{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	failing, hang, stall := f.fail > 0, f.hang, f.stall
	if failing {
		f.fail--
	}
	turn := f.script[min(f.answered, len(f.script)-1)]
	if !failing {
		f.answered++
	}
	f.mu.Unlock()
	switch {
	case hang:
		<-r.Context().Done()
	case stall:
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			sse(w, "", map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "par"}}}})
		} else {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[`)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	case failing:
		http.Error(w, "busy", http.StatusServiceUnavailable)
	case turn.raw != "":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, turn.raw)
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		if body["stream"] == true {
			streamOpenAI(w, turn)
		} else {
			writeJSON(w, openAIReply(turn))
		}
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		if body["stream"] == true {
			streamAnthropic(w, turn)
		} else {
			writeJSON(w, anthropicReplyBody(turn))
		}
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func sse(w http.ResponseWriter, event string, v any) {
	raw, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", raw)
	w.(http.Flusher).Flush()
}

// halves splits s so every stream delivers text and arguments in fragments.
func halves(s string) []string {
	if len(s) < 2 {
		return []string{s}
	}
	return []string{s[:len(s)/2], s[len(s)/2:]}
}

func openAIReply(turn fakeTurn) map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil}
	if turn.text != "" {
		msg["content"] = turn.text
	}
	finish := "stop"
	if len(turn.calls) > 0 {
		finish = "tool_calls"
		var tcs []any
		for _, c := range turn.calls {
			tcs = append(tcs, map[string]any{"id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": c.args}})
		}
		msg["tool_calls"] = tcs
	}
	return map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	}
}

func streamOpenAI(w http.ResponseWriter, turn fakeTurn) {
	w.Header().Set("Content-Type", "text/event-stream")
	delta := func(d map[string]any) {
		sse(w, "", map[string]any{"choices": []any{map[string]any{"index": 0, "delta": d}}})
	}
	for _, part := range halves(turn.text) {
		if part != "" {
			delta(map[string]any{"content": part})
		}
	}
	for i, c := range turn.calls {
		delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.id, "type": "function", "function": map[string]any{"name": c.name, "arguments": ""}}}})
		for _, part := range halves(c.args) {
			delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": part}}}})
		}
	}
	sse(w, "", map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
	sse(w, "", map[string]any{"choices": []any{}, "usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func anthropicReplyBody(turn fakeTurn) map[string]any {
	content := []any{}
	if turn.text != "" {
		content = append(content, map[string]any{"type": "text", "text": turn.text})
	}
	stop := "end_turn"
	for _, c := range turn.calls {
		stop = "tool_use"
		var input any
		_ = json.Unmarshal([]byte(c.args), &input)
		content = append(content, map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": input})
	}
	return map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "content": content, "stop_reason": stop,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5},
	}
}

func streamAnthropic(w http.ResponseWriter, turn fakeTurn) {
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	idx := 0
	if turn.text != "" {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
		for _, part := range halves(turn.text) {
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": part}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	stop := "end_turn"
	for _, c := range turn.calls {
		stop = "tool_use"
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "tool_use", "id": c.id, "name": c.name, "input": map[string]any{}}})
		for _, part := range halves(c.args) {
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	sse(w, "ping", map[string]any{"type": "ping"})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// path is one of the four ADR paths.
type path struct {
	name   string
	style  ClientStyle
	stream bool
}

var fourPaths = []path{
	{"openai run", StyleOpenAI, false},
	{"openai stream", StyleOpenAI, true},
	{"anthropic run", StyleAnthropic, false},
	{"anthropic stream", StyleAnthropic, true},
}

// client builds a client for this path against the fake; edit adjusts the options.
func (p path) client(f *fakeLLM, edit func(*ClientOptions)) *Client {
	opts := ClientOptions{BaseURL: f.base(), Style: p.style, Model: "m", APIKey: "k", RetryBaseMs: 1}
	if edit != nil {
		edit(&opts)
	}
	return CreateClient(opts)
}

// run drives the path to its end; for streams it also returns every event.
func (p path) run(t *testing.T, ctx context.Context, c *Client, prompt string, tk *Toolkit) (RunResult, []StreamEvent, error) {
	t.Helper()
	if !p.stream {
		res, err := c.Run(ctx, prompt, tk)
		return res, nil, err
	}
	ch, err := c.Stream(ctx, prompt, tk)
	if err != nil {
		return RunResult{}, nil, err
	}
	return drain(t, ch)
}

// drain reads a stream to its close and checks it ends with exactly one terminal event.
func drain(t *testing.T, ch <-chan StreamEvent) (RunResult, []StreamEvent, error) {
	t.Helper()
	var evs []StreamEvent
	for ev := range ch {
		evs = append(evs, ev)
	}
	if len(evs) == 0 {
		t.Fatal("stream closed without a terminal event")
	}
	last := evs[len(evs)-1]
	for _, ev := range evs[:len(evs)-1] {
		if ev.Type == "done" || ev.Type == "error" {
			t.Fatalf("terminal event %q before the end of the stream", ev.Type)
		}
	}
	switch last.Type {
	case "done":
		if last.Result == nil {
			t.Fatal("done event without Result")
		}
		return *last.Result, evs, nil
	case "error":
		if last.Err == nil {
			t.Fatal("error event without Err")
		}
		return RunResult{}, evs, last.Err
	}
	t.Fatalf("stream ended with %q, want done or error", last.Type)
	return RunResult{}, nil, nil
}

// echoTool answers "echo:<text>".
func echoTool() Tool {
	return Tool{
		Name: "echo", Description: "echoes its text", Source: SourceCustom,
		InputSchema: JSONSchema{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}},
		Execute: func(args map[string]any, _ *ToolContext) (ToolResult, error) {
			return ToolResult{Output: fmt.Sprint("echo:", args["text"])}, nil
		},
	}
}

func toolkitWith(t *testing.T, tools ...Tool) *Toolkit {
	t.Helper()
	tk, err := CreateToolkit(context.Background(), Options{ExtraTools: tools, Builtins: false})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tk.Close)
	return tk
}

// toolLoop is turn 1: two echo calls; turn 2: a final answer.
var toolLoop = []fakeTurn{
	{calls: []fakeCall{{"call_1", "echo", `{"text":"hi"}`}, {"call_2", "echo", `{"text":"yo"}`}}},
	{text: "all done"},
}

// captureWarnings swaps the warning sink for the test's duration.
func captureWarnings(t *testing.T) func() []string {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	old := Warnf
	Warnf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	t.Cleanup(func() { Warnf = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
}

func keysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// jsonish turns a Go value into what a decoded JSON body holds, for DeepEqual.
func jsonish(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s:\n got  %s\n want %s", what, g, w)
	}
}

// lastUser returns the last user message whose content is a string.
func lastUser(msgs []any) map[string]any {
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if _, ok := m["content"].(string); ok && m["role"] == "user" {
			return m
		}
	}
	return nil
}
