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
	"os"
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

// fakeRunner answers the adapter's callbacks as the runner would, and keeps them.
type fakeRunner struct {
	mu     sync.Mutex
	answer func(fn string, args map[string]any) map[string]any
	calls  []string
	pipe   *os.File
}

// Write takes one callback line from the adapter and writes the answer to fd 3's stand-in.
func (f *fakeRunner) Write(b []byte) (int, error) {
	var cb struct {
		Callback int            `json:"callback"`
		Fn       string         `json:"fn"`
		Args     map[string]any `json:"args"`
	}
	if err := json.Unmarshal(b, &cb); err != nil {
		return 0, err
	}
	f.mu.Lock()
	f.calls = append(f.calls, cb.Fn)
	f.mu.Unlock()
	a := map[string]any{"return": nil}
	if f.answer != nil {
		if got := f.answer(cb.Fn, cb.Args); got != nil {
			a = got
		}
	}
	a["callback"] = cb.Callback
	line, _ := json.Marshal(a)
	_, err := f.pipe.Write(append(line, '\n'))
	return len(b), err
}

// newTestAdapter is an adapter whose host functions call back to f.
func newTestAdapter(t *testing.T, f *fakeRunner) *kit {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if f == nil {
		f = &fakeRunner{}
	}
	f.pipe = w
	return newKit(&host{out: &lockedWriter{w: f}, answers: bufio.NewReader(r)})
}

// call sends one request through the dispatcher and round-trips the response through JSON.
func call(t *testing.T, a *kit, op string, args any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	b := a.handle(request{ID: 1, Op: op, Args: raw})
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: bad response line %q: %v", op, b, err)
	}
	if _, ok := out["warnings"].([]any); !ok {
		t.Fatalf("%s: warnings missing or not an array: %s", op, b)
	}
	return out
}

func mustOK(t *testing.T, resp map[string]any) map[string]any {
	t.Helper()
	if resp["ok"] != true {
		t.Fatalf("want ok, got %v", resp)
	}
	return resp["result"].(map[string]any)
}

// mustFail fails unless the response is an error; it returns the relayed error.
func mustFail(t *testing.T, resp map[string]any) map[string]any {
	t.Helper()
	if resp["ok"] != false {
		t.Fatalf("want an error, got %v", resp)
	}
	return resp["error"].(map[string]any)
}

// TestPatchKeepsIdentity: an in-place answer edits the received maps themselves.
func TestPatchKeepsIdentity(t *testing.T) {
	msg := map[string]any{"role": "user", "content": "hi"}
	nested := map[string]any{"a": 1}
	body := map[string]any{"messages": []any{msg}, "extra": nested, "gone": true, "n": 3}
	want := map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi!"}},
		"extra": map[string]any{"a": 1.0, "b": "x"}, "n": 3.0}
	got := patch(body, want).(map[string]any)
	if msg["content"] != "hi!" || nested["b"] != "x" || body["gone"] != nil || got["n"] != 3 {
		t.Errorf("patch did not edit in place: body %v, msg %v, nested %v", body, msg, nested)
	}
}

// TestRelay: errors are relayed with their chain, never judged; the adapter's own carry a kind.
func TestRelay(t *testing.T) {
	b := relay(fmt.Errorf("mcp: load: %w", context.Canceled))
	if b.Kind != "" || b.Type != "*fmt.wrapError" || len(b.Chain) != 2 || fmt.Sprint(b.Chain[1].Is) != "[context.Canceled]" {
		t.Errorf("relay = %+v", b)
	}
	if b := relay(adapterErr("unsupported", "nope")); b.Kind != "unsupported" || b.Type != "" {
		t.Errorf("own error relayed as %+v", b)
	}
	e := mustFail(t, call(t, newTestAdapter(t, nil), "toolkit.create", map[string]any{"handle": "t", "mcpConfig": map[string]any{"file": "/nonexistent/mcp.json"}}))
	if !strings.Contains(fmt.Sprint(e["chain"]), "*fs.PathError") {
		t.Errorf("a missing config file's chain does not say *fs.PathError: %v", e)
	}
}

// TestWarningsAreCaptured checks the log sink lands in warnings, per request only.
func TestWarningsAreCaptured(t *testing.T) {
	srv := httptest.NewServer(&fakeLLM{})
	defer srv.Close()
	a := newTestAdapter(t, nil)
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
	a := newTestAdapter(t, nil)
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
	mustFail(t, call(t, a, "store.get", map[string]any{"client": "nope"}))
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
	a := newTestAdapter(t, nil)
	start := time.Now()
	mustFail(t, call(t, a, "toolkit.create", map[string]any{"handle": "t", "mcpConfig": cfg, "cancelAfterMs": 100}))
	mustFail(t, call(t, a, "mcp.list", map[string]any{"mcpConfig": cfg, "deadlineMs": 100}))
	mustFail(t, call(t, a, "mcp.load", map[string]any{"mcpConfig": cfg, "deadlineMs": 100}))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled loads took %v", d)
	}
}

// TestServeLoop checks the line loop: skip unanswerable lines, stop after shutdown.
func TestServeLoop(t *testing.T) {
	in := strings.Join([]string{`{"id":1,"op":"hello","args":{}}`, `not json`, `{"op":"hello"}`, ``,
		`{"id":2,"op":"bogus"}`, `{"id":3,"op":"shutdown","args":{}}`, `{"id":4,"op":"hello"}`}, "\n")
	var out bytes.Buffer
	if err := serve(newTestAdapter(t, nil), strings.NewReader(in), &lockedWriter{w: &out}); err != nil {
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
