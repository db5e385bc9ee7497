package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLLM is a loopback OpenAI-style endpoint that answers "hi" (plain or
// SSE) and keeps every decoded request body.
type fakeLLM struct {
	mu     sync.Mutex
	bodies []map[string]any
}

// ServeHTTP records the body and answers "hi", streamed when asked.
func (f *fakeLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	if body["stream"] == true {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"hi"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, `data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
}

// last returns the most recent request body.
func (f *fakeLLM) last() map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies[len(f.bodies)-1]
}

// call sends one request through the dispatcher and round-trips the
// response through JSON, as the runner would see it.
func call(t *testing.T, a *adapter, op string, args any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	resp := a.handle(request{ID: 1, Op: op, Args: raw})
	var buf bytes.Buffer
	writeResponse(json.NewEncoder(&buf), resp)
	var out map[string]any
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("%s: bad response line %q: %v", op, buf.String(), err)
	}
	if _, ok := out["warnings"].([]any); !ok {
		t.Fatalf("%s: warnings missing or not an array: %s", op, buf.String())
	}
	return out
}

// mustOK fails unless the response is ok and returns its result.
func mustOK(t *testing.T, resp map[string]any) map[string]any {
	t.Helper()
	if resp["ok"] != true {
		t.Fatalf("want ok, got %v", resp)
	}
	return resp["result"].(map[string]any)
}

// mustFail fails unless the response is an error of the given kind.
func mustFail(t *testing.T, resp map[string]any, kind string) {
	t.Helper()
	if resp["ok"] != false {
		t.Fatalf("want error %s, got %v", kind, resp)
	}
	if got := resp["error"].(map[string]any)["kind"]; got != kind {
		t.Fatalf("want kind %s, got %v (%v)", kind, got, resp["error"])
	}
}

// TestHello checks hello's identity fields and op list.
func TestHello(t *testing.T) {
	res := mustOK(t, call(t, newAdapter(), "hello", map[string]any{}))
	if res["port"] != "go" || res["library"] != "toolnexus" || res["runtime"] == "" || res["version"] == "" {
		t.Fatalf("bad hello %v", res)
	}
	ops := fmt.Sprint(res["ops"])
	for _, op := range []string{"client.run", "store.identity", "mcp.list", "shutdown"} {
		if !strings.Contains(ops, op) {
			t.Errorf("hello ops lack %s: %s", op, ops)
		}
	}
}

// TestClientRunRecordsTransformHookAndRequests covers the recording closures on run and stream.
func TestClientRunRecordsTransformHookAndRequests(t *testing.T) {
	llm := &fakeLLM{}
	srv := httptest.NewServer(llm)
	defer srv.Close()
	a := newAdapter()
	mustOK(t, call(t, a, "toolkit.create", map[string]any{
		"handle": "tk",
		"extraTools": []any{map[string]any{"name": "echo", "description": "echo", "output": "pong",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}}},
	}))
	mustOK(t, call(t, a, "client.create", map[string]any{
		"handle": "c", "baseUrl": srv.URL + "/s/1", "style": "openai", "model": "m", "apiKey": "k",
		"bodyTransform": map[string]any{"set": map[string]any{"temperature": 0.5}, "delete": []string{"tool_choice"}, "appendToLastUser": "!"},
		"beforeLLM":     map[string]any{"setLastUserContent": "changed"},
		"httpClient":    "recording",
	}))
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			res := mustOK(t, call(t, a, "client.run", map[string]any{"client": "c", "toolkit": "tk", "prompt": "hello", "stream": stream}))
			if res["text"] != "hi" || res["httpRequests"] != float64(1) {
				t.Fatalf("bad report %v", res)
			}
			saw := res["transformSaw"].([]any)
			if len(saw) != 1 {
				t.Fatalf("transformSaw = %v", saw)
			}
			if _, ok := saw[0].(map[string]any)["tool_choice"]; !ok {
				t.Errorf("the recorded body should be the one received, before the delete: %v", saw[0])
			}
			hook := res["hookSaw"].([]any)
			if len(hook) != 1 || hook[0].(map[string]any)["toolCount"] != float64(1) || hook[0].(map[string]any)["messageCount"] != float64(1) {
				t.Fatalf("hookSaw = %v", hook)
			}
			body := llm.last()
			if body["temperature"] != 0.5 {
				t.Errorf("set not applied: %v", body)
			}
			if _, ok := body["tool_choice"]; ok {
				t.Errorf("delete not applied: %v", body)
			}
			msgs := body["messages"].([]any)
			if got := msgs[len(msgs)-1].(map[string]any)["content"]; got != "changed!" {
				t.Errorf("last user content = %v, want hook value plus suffix", got)
			}
		})
	}
}

// TestBodyTransformReturnNullAndEmptyHookTools covers returnNull and a present-but-empty tools override.
func TestBodyTransformReturnNullAndEmptyHookTools(t *testing.T) {
	llm := &fakeLLM{}
	srv := httptest.NewServer(llm)
	defer srv.Close()
	a := newAdapter()
	mustOK(t, call(t, a, "toolkit.create", map[string]any{
		"handle": "tk",
		"extraTools": []any{map[string]any{"name": "echo", "description": "echo", "output": "pong",
			"inputSchema": map[string]any{"type": "object"}}},
	}))
	mustOK(t, call(t, a, "client.create", map[string]any{
		"handle": "c", "baseUrl": srv.URL, "style": "openai", "model": "m", "apiKey": "k",
		"bodyTransform": map[string]any{"returnNull": true},
		"beforeLLM":     map[string]any{"tools": []any{}},
	}))
	res := mustOK(t, call(t, a, "client.run", map[string]any{"client": "c", "toolkit": "tk", "prompt": "p"}))
	if res["httpRequests"] != float64(0) || len(res["transformSaw"].([]any)) != 1 {
		t.Fatalf("bad report %v", res)
	}
	if _, ok := llm.last()["tools"]; ok {
		t.Errorf("beforeLLM tools [] should have emptied the tool list: %v", llm.last())
	}
}

// TestWarningsAreCaptured checks the log sink lands in warnings, per request only.
func TestWarningsAreCaptured(t *testing.T) {
	srv := httptest.NewServer(&fakeLLM{})
	defer srv.Close()
	a := newAdapter()
	mustOK(t, call(t, a, "client.create", map[string]any{
		"handle": "c", "baseUrl": srv.URL, "style": "openai", "model": "m", "apiKey": "k",
		"requestParams": map[string]any{"stream": true},
	}))
	resp := call(t, a, "client.run", map[string]any{"client": "c", "prompt": "p"})
	mustOK(t, resp)
	if !strings.Contains(fmt.Sprint(resp["warnings"]), "stream") {
		t.Fatalf("warning naming the stripped key not captured: %v", resp["warnings"])
	}
	if w := call(t, a, "hello", nil)["warnings"].([]any); len(w) != 0 {
		t.Fatalf("warnings leaked into the next request: %v", w)
	}
}

// TestStoreOps covers store.get/save/identity for host and default stores.
func TestStoreOps(t *testing.T) {
	a := newAdapter()
	mustOK(t, call(t, a, "client.create", map[string]any{"handle": "h", "baseUrl": "http://127.0.0.1:1", "style": "openai", "model": "m", "apiKey": "k", "store": "host"}))
	mustOK(t, call(t, a, "client.create", map[string]any{"handle": "d", "baseUrl": "http://127.0.0.1:1", "style": "openai", "model": "m", "apiKey": "k"}))
	if res := mustOK(t, call(t, a, "store.get", map[string]any{"client": "h", "id": "x"})); res["messages"] != nil {
		t.Fatalf("absent conversation should be null, got %v", res)
	}
	msgs := []any{map[string]any{"role": "user", "content": "hello"}}
	mustOK(t, call(t, a, "store.save", map[string]any{"client": "h", "id": "x", "messages": msgs}))
	res := mustOK(t, call(t, a, "store.get", map[string]any{"client": "h", "id": "x"}))
	if got, _ := json.Marshal(res["messages"]); string(got) != `[{"content":"hello","role":"user"}]` {
		t.Fatalf("store.get = %s", got)
	}
	if res := mustOK(t, call(t, a, "store.identity", map[string]any{"client": "h"})); res["same"] != true {
		t.Fatalf("host store identity = %v", res)
	}
	if res := mustOK(t, call(t, a, "store.identity", map[string]any{"client": "d"})); res["same"] != false {
		t.Fatalf("default store identity = %v", res)
	}
	mustFail(t, call(t, a, "store.get", map[string]any{"client": "nope"}), kindFailed)
}

// TestErrorKinds checks the error-to-kind mapping, directly and through ops.
func TestErrorKinds(t *testing.T) {
	cases := []struct {
		err  error
		kind string
	}{
		{context.Canceled, kindCancelled},
		{fmt.Errorf("mcp: load: %w", context.Canceled), kindCancelled},
		{fmt.Errorf("wrapped: %w", context.DeadlineExceeded), kindDeadline},
		{asConfigError(fmt.Errorf("x: %w", context.Canceled)), kindCancelled},
		{asConfigError(fmt.Errorf("parse mcp config: boom")), kindInvalid},
		{fmt.Errorf("invalid but not from a config op"), kindFailed},
		{unsupportedf("nope"), kindUnsupported},
		{fmt.Errorf("toolnexus: ClientOptions.Style %q is not a known style", "x"), kindInvalid},
	}
	for _, c := range cases {
		if got := errorKind(c.err); got != c.kind {
			t.Errorf("errorKind(%v) = %s, want %s", c.err, got, c.kind)
		}
	}

	a := newAdapter()
	mustFail(t, call(t, a, "no.such.op", map[string]any{}), kindUnsupported)
	mustFail(t, call(t, a, "hello", map[string]any{"surprise": 1}), kindUnsupported)
	mustFail(t, call(t, a, "toolkit.create", map[string]any{"handle": "t", "mcpConfig": map[string]any{"file": "/nonexistent/mcp.json"}}), kindInvalid)
}

// TestCancelledLoad drives toolkit.create and mcp.list at an MCP endpoint
// that never answers: the caller's cancel or deadline must surface as its kind.
func TestCancelledLoad(t *testing.T) {
	stop := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer hang.Close()
	defer close(stop)
	cfg := map[string]any{"inline": map[string]any{"mcpServers": map[string]any{
		"slow": map[string]any{"type": "remote", "url": hang.URL + "/mcp", "timeout": 60000},
	}}}
	a := newAdapter()
	start := time.Now()
	mustFail(t, call(t, a, "toolkit.create", map[string]any{"handle": "t", "mcpConfig": cfg, "cancelAfterMs": 100}), kindCancelled)
	mustFail(t, call(t, a, "mcp.list", map[string]any{"mcpConfig": cfg, "deadlineMs": 100}), kindDeadline)
	mustFail(t, call(t, a, "mcp.load", map[string]any{"mcpConfig": cfg, "deadlineMs": 100}), kindDeadline)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled loads took %v", d)
	}
}

// TestServeLoop checks the line loop: skip unanswerable lines, stop after shutdown.
func TestServeLoop(t *testing.T) {
	in := strings.Join([]string{
		`{"id":1,"op":"hello","args":{}}`,
		`not json`,
		`{"op":"hello"}`,
		``,
		`{"id":2,"op":"bogus"}`,
		`{"id":3,"op":"shutdown","args":{}}`,
		`{"id":4,"op":"hello"}`,
	}, "\n")
	var out bytes.Buffer
	if err := serve(newAdapter(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var ids []float64
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var resp map[string]any
		if err := json.Unmarshal(sc.Bytes(), &resp); err != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		ids = append(ids, resp["id"].(float64))
	}
	if fmt.Sprint(ids) != "[1 2 3]" {
		t.Fatalf("answered ids %v, want [1 2 3] (skip unparseable, stop after shutdown)", ids)
	}
}
