package toolnexus

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// seenRequest is what the endpoint fake recorded of one request.
type seenRequest struct {
	Method, URI, Query, Body string
	Header                   http.Header
}

// httpFake answers /status/<n> with that status and the body ?body=..., /redirect with a
// 302 to /final, /slow after the client gives up (or 3 s), anything else 200 "ok".
func httpFake(t *testing.T) (*httptest.Server, func() []seenRequest) {
	t.Helper()
	var mu sync.Mutex
	var seen []seenRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenRequest{r.Method, r.RequestURI, r.URL.RawQuery, string(body), r.Header.Clone()})
		mu.Unlock()
		switch {
		case r.URL.Path == "/redirect":
			http.Redirect(w, r, "/final", http.StatusFound)
		case r.URL.Path == "/final":
			io.WriteString(w, "final-body")
		case r.URL.Path == "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(3 * time.Second):
			}
		case strings.HasPrefix(r.URL.Path, "/status/"):
			var code int
			json.Unmarshal([]byte(strings.TrimPrefix(r.URL.Path, "/status/")), &code)
			w.WriteHeader(code)
			io.WriteString(w, r.URL.Query().Get("body"))
		default:
			io.WriteString(w, "ok")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []seenRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]seenRequest(nil), seen...)
	}
}

func runHTTP(t *testing.T, opts HTTPToolOptions, args map[string]any, tc *ToolContext) ToolResult {
	t.Helper()
	res, err := HTTPTool(opts).Execute(args, tc)
	if err != nil {
		t.Fatalf("Execute returned a Go error: %v", err)
	}
	return res
}

func TestHTTPToolShape(t *testing.T) {
	tool := HTTPTool(HTTPToolOptions{Name: "get weather", Description: "d", URL: "http://127.0.0.1/"})
	raw, _ := json.Marshal(tool.InputSchema)
	if tool.Source != SourceHTTP || tool.Name != "get weather" || string(raw) != `{"additionalProperties":false,"properties":{},"type":"object"}` {
		t.Fatalf("tool = %+v %s", tool, raw)
	}
}

func TestHTTPToolGetPathAndQuery(t *testing.T) {
	srv, seen := httpFake(t)
	res := runHTTP(t, HTTPToolOptions{URL: srv.URL + "/items/{id}/{q}"},
		map[string]any{"id": 1234567.0, "q": "a b/c&d=e+f it's (ok)!~*", "f": 2.5, "b": true, "s": "a b"}, nil)
	if res.IsError || res.Output != "ok" || res.Metadata["status"] != 200 {
		t.Fatalf("res = %+v", res)
	}
	r := seen()[0]
	if r.Method != "GET" || r.URI != "/items/1234567/a%20b%2Fc%26d%3De%2Bf%20it's%20(ok)!~*?b=true&f=2.5&s=a+b" || r.Body != "" {
		t.Fatalf("request = %+v", r)
	}
	if r.Header.Get("Content-Type") != "" {
		t.Fatalf("a GET carried a Content-Type: %q", r.Header.Get("Content-Type"))
	}
}

func TestHTTPToolMissingPlaceholderIsEmpty(t *testing.T) {
	srv, seen := httpFake(t)
	runHTTP(t, HTTPToolOptions{URL: srv.URL + "/items/{id}"}, nil, nil)
	if r := seen()[0]; r.URI != "/items/" {
		t.Fatalf("uri = %q", r.URI)
	}
}

func TestHTTPToolPostJSONBody(t *testing.T) {
	srv, seen := httpFake(t)
	res := runHTTP(t, HTTPToolOptions{Method: "post", URL: srv.URL + "/items/{id}", Query: []string{"page"}},
		map[string]any{"id": "7", "name": "<n>", "n": 2.0, "page": 3.0}, nil)
	if res.IsError {
		t.Fatalf("res = %+v", res)
	}
	r := seen()[0]
	if r.Method != "POST" || r.URI != "/items/7?page=3" || r.Header.Get("Content-Type") != "application/json" || r.Body != `{"n":2,"name":"<n>"}` {
		t.Fatalf("request = %+v", r)
	}
}

func TestHTTPToolBodyModes(t *testing.T) {
	srv, seen := httpFake(t)
	runHTTP(t, HTTPToolOptions{Method: "PUT", URL: srv.URL, Body: "form"}, map[string]any{"q": "a b", "n": 1.0}, nil)
	runHTTP(t, HTTPToolOptions{Method: "POST", URL: srv.URL, Body: "raw"}, map[string]any{"body": "<x/>", "other": 1.0}, nil)
	runHTTP(t, HTTPToolOptions{Method: "POST", URL: srv.URL, Body: "raw", Headers: map[string]string{"content-type": "application/xml"}}, map[string]any{"body": "<x/>"}, nil)
	runHTTP(t, HTTPToolOptions{Method: "DELETE", URL: srv.URL + "/d"}, map[string]any{"id": 1.0}, nil)
	runHTTP(t, HTTPToolOptions{Method: "POST", URL: srv.URL + "/empty"}, nil, nil)
	runHTTP(t, HTTPToolOptions{Method: "HEAD", URL: srv.URL + "/h"}, map[string]any{"x": 1.0}, nil)
	want := []struct{ method, uri, ctype, body string }{
		{"PUT", "/", "application/x-www-form-urlencoded", "n=1&q=a+b"},
		{"POST", "/", "text/plain;charset=UTF-8", "<x/>"},
		{"POST", "/", "application/xml", "<x/>"},
		{"DELETE", "/d", "application/json", `{"id":1}`},
		{"POST", "/empty", "", ""},
		{"HEAD", "/h", "", ""},
	}
	got := seen()
	for i, w := range want {
		r := got[i]
		if r.Method != w.method || r.URI != w.uri || r.Header.Get("Content-Type") != w.ctype || r.Body != w.body {
			t.Errorf("request %d = %s %s %q %q, want %+v", i, r.Method, r.URI, r.Header.Get("Content-Type"), r.Body, w)
		}
	}
}

func TestHTTPToolHeadersFromEnvNeverInResults(t *testing.T) {
	const secret = "s3cr3t-ref-tools"
	t.Setenv("TNX_REF_SECRET", secret)
	srv, seen := httpFake(t)
	headers := map[string]string{"X-Token": "${TNX_REF_SECRET}", "X-Unset": "a${TNX_REF_UNSET_XYZ}b", "X-Shell": "$TNX_REF_SECRET ${TNX_REF_SECRET:-d}"}
	results := []ToolResult{
		runHTTP(t, HTTPToolOptions{URL: srv.URL + "/status/401", Headers: headers}, nil, nil),
		runHTTP(t, HTTPToolOptions{URL: srv.URL + "/slow", Headers: headers, Timeout: 100}, nil, nil),
		runHTTP(t, HTTPToolOptions{URL: "http://127.0.0.1:1/x", Headers: headers}, nil, nil),
		runHTTP(t, HTTPToolOptions{URL: "::bad", Headers: headers}, nil, nil),
	}
	r := seen()[0]
	if r.Header.Get("X-Token") != secret || r.Header.Get("X-Unset") != "ab" || r.Header.Get("X-Shell") != "$TNX_REF_SECRET ${TNX_REF_SECRET:-d}" {
		t.Fatalf("headers = %v", r.Header)
	}
	for i, res := range results {
		raw, _ := json.Marshal(res)
		if !res.IsError || res.Output == "" || strings.Contains(string(raw), secret) {
			t.Errorf("result %d = %s", i, raw)
		}
	}
	if results[0].Output != "HTTP 401: " {
		t.Errorf("401 output = %q", results[0].Output)
	}
}

func TestHTTPToolStatusMapping(t *testing.T) {
	srv, _ := httpFake(t)
	cases := []struct {
		path, mode, out string
		isErr           bool
		status          int
	}{
		{"/status/503?body=down", "", "HTTP 503: down", true, 503},
		{"/status/404", "json", "HTTP 404: ", true, 404},
		{"/status/200?body=%C3%BCn%C3%AF%0A", "", "ünï\n", false, 200},
		{"/status/201?body=made", "", "made", false, 201},
		{"/status/200?body=hi", "status+text", "200\nhi", false, 200},
		{"/status/200?body=" + encodeURIComponent(`{"b":1, "a":"<"}`), "json", `{"b":1,"a":"<"}`, false, 200},
		{"/status/200?body=plain", "json", `"plain"`, false, 200},
		{"/redirect", "", "final-body", false, 200},
	}
	for _, c := range cases {
		res := runHTTP(t, HTTPToolOptions{URL: srv.URL + c.path, ResultMode: c.mode}, nil, nil)
		if res.Output != c.out || res.IsError != c.isErr || res.Metadata["status"] != c.status {
			t.Errorf("%s (%s): %+v", c.path, c.mode, res)
		}
	}
}

func TestHTTPToolTimeouts(t *testing.T) {
	srv, _ := httpFake(t)
	start := time.Now()
	res := runHTTP(t, HTTPToolOptions{URL: srv.URL + "/slow", Timeout: 150}, nil, nil)
	if !res.IsError || res.Output != "HTTP request timed out after 150 ms" || time.Since(start) > 1500*time.Millisecond {
		t.Fatalf("tool timeout: %+v after %v", res, time.Since(start))
	}
	res = runHTTP(t, HTTPToolOptions{URL: srv.URL + "/slow", Timeout: 20000}, nil, &ToolContext{Timeout: 150})
	if !res.IsError || res.Output != "HTTP request timed out after 150 ms" {
		t.Fatalf("call timeout did not override: %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res = runHTTP(t, HTTPToolOptions{URL: srv.URL + "/slow"}, nil, &ToolContext{Ctx: ctx})
	if !res.IsError || !strings.Contains(res.Output, "context canceled") {
		t.Fatalf("cancel: %+v", res)
	}
	if httpTimeoutMs(0, nil) != 30000 || httpTimeoutMs(-5, &ToolContext{}) != 30000 || httpTimeoutMs(300, nil) != 300 {
		t.Fatal("default timeout is not 30000 ms")
	}
}

func TestHTTPToolClosedPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	res := runHTTP(t, HTTPToolOptions{URL: "http://" + addr + "/x"}, nil, nil)
	if !res.IsError || res.Output == "" || res.Metadata != nil {
		t.Fatalf("closed port: %+v", res)
	}
}
