package toolnexus

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const webfetchPage = `<!DOCTYPE html>
<html><head><title>T</title><style>p{color:red}</style></head>
<body>
<script>var x = "<p>no</p>";</script>
<!-- a comment -->
<h1>Main   title</h1>
<p>First &amp; <b>bold</b>
paragraph with <a href="/docs?a=1&amp;b=2"> a link </a>.</p>
<h3>Sub</h3>
<ul><li>one</li><li>two</li></ul>
<p>line<br>break</p>
<hr>
<a name="anchor">no href</a>
</body></html>`

func startWebfetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(webfetchPage))
		case "/bare":
			w.Header()["Content-Type"] = nil // no type at all: taken as HTML
			w.Write([]byte("<p>bare</p>"))
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"a": "<b>kept</b>"}`))
		case "/moved":
			http.Redirect(w, r, "/page", http.StatusFound)
		case "/missing":
			http.Error(w, "not here", http.StatusNotFound)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestWebfetchTool(t *testing.T) {
	srv := startWebfetchServer(t)
	markdown := "# Main title\n\nFirst & bold paragraph with [a link](/docs?a=1&b=2).\n\n### Sub\n\n- one\n- two\n\nline\nbreak\n\n---\n\nno href"
	text := "Main title\n\nFirst & bold paragraph with a link .\n\nSub\n\none\ntwo\n\nline\nbreak\n\nno href"
	cases := []struct {
		name    string
		args    map[string]any
		isError bool
		output  string
	}{
		{"markdown by default", map[string]any{"url": srv.URL + "/page"}, false, markdown},
		{"markdown", map[string]any{"url": srv.URL + "/page", "format": "markdown"}, false, markdown},
		{"text", map[string]any{"url": srv.URL + "/page", "format": "text"}, false, text},
		{"html as is", map[string]any{"url": srv.URL + "/page", "format": "html"}, false, webfetchPage},
		{"no content type is HTML", map[string]any{"url": srv.URL + "/bare", "format": "text"}, false, "bare"},
		{"a JSON body is not converted", map[string]any{"url": srv.URL + "/json"}, false, `{"a": "<b>kept</b>"}`},
		{"follows redirects", map[string]any{"url": srv.URL + "/moved", "format": "text"}, false, text},
		{"non-2xx", map[string]any{"url": srv.URL + "/missing"}, true, "HTTP 404"},
		{"timeout in seconds", map[string]any{"url": srv.URL + "/slow", "timeout": 0.2}, true, "webfetch: request timed out after 200ms"},
		{"timeout as json.Number", map[string]any{"url": srv.URL + "/slow", "timeout": json.Number("0.15")}, true, "webfetch: request timed out after 150ms"},
		{"a bad format", map[string]any{"url": srv.URL + "/page", "format": "pdf"}, true, `webfetch: "format" must be text, markdown or html, got "pdf"`},
		{"not an http URL", map[string]any{"url": "file:///etc/passwd"}, true, `webfetch: "file:///etc/passwd" is not an http(s) URL`},
		{"a closed port", map[string]any{"url": "http://127.0.0.1:1/x"}, true, "~webfetch: Get \"http://127.0.0.1:1/x\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			res := runBuiltin(t, "webfetch", c.args, nil)
			wantBuiltinResult(t, res, c.isError, c.output)
			if time.Since(start) > 3*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
		})
	}
	res := runBuiltin(t, "webfetch", map[string]any{"url": srv.URL + "/missing"}, nil)
	if res.Metadata["status"] != 404 {
		t.Fatalf("metadata = %v", res.Metadata)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res = runBuiltin(t, "webfetch", map[string]any{"url": srv.URL + "/slow"}, &ToolContext{Ctx: ctx})
	if !res.IsError || !strings.Contains(res.Output, "context canceled") {
		t.Fatalf("cancel: %+v", res)
	}
	res = runBuiltin(t, "webfetch", map[string]any{"url": srv.URL + "/slow"}, &ToolContext{Timeout: 100})
	if !res.IsError || res.Output != "webfetch: request timed out after 100ms" {
		t.Fatalf("context timeout: %+v", res)
	}
}

func TestWebfetchUsesItsOwnClient(t *testing.T) {
	srv := startWebfetchServer(t)
	counting := &mcpCountingTransport{base: http.DefaultTransport}
	old := http.DefaultClient
	http.DefaultClient = &http.Client{Transport: counting}
	t.Cleanup(func() { http.DefaultClient = old })
	if res := runBuiltin(t, "webfetch", map[string]any{"url": srv.URL + "/bare"}, nil); res.IsError {
		t.Fatalf("%+v", res)
	}
	if counting.n.Load() != 0 {
		t.Fatal("webfetch went through http.DefaultClient")
	}
}

func TestHTMLToTextEdges(t *testing.T) {
	cases := []struct {
		in, md, text string
	}{
		{"plain words", "plain words", "plain words"},
		{"<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc", "a b\nc"},
		{"<h2>  Spaced  </h2><li>  item</li>", "## Spaced\n\n- item", "Spaced\n\nitem"},
		{"<a href='x'>single</a> <a href=y>bare</a>", "[single](x) [bare](y)", "single bare"},
		{"<header>kept</header><HEAD>gone</HEAD>", "kept", "kept"},
		{"a &lt;b&gt; &#39;c&#39;", "a <b> 'c'", "a <b> 'c'"},
	}
	for _, c := range cases {
		if got := htmlToText(c.in, true); got != c.md {
			t.Errorf("markdown(%q) = %q, want %q", c.in, got, c.md)
		}
		if got := htmlToText(c.in, false); got != c.text {
			t.Errorf("text(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}
