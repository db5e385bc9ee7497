package llm

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestScriptOrderAcrossStylesThenOK(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{Text: "one"}, Reply{Text: "two"})
	r.Script(Reply{Text: "three"}) // appends
	c := newClient(t)
	oa, an := r.BaseURL()+"/chat/completions", r.BaseURL()+"/v1/messages"

	var got []string
	_, b := post(t, c, oa, map[string]any{})
	got = append(got, at(decode(t, b), "choices", 0, "message", "content").(string))
	_, b = post(t, c, an, map[string]any{"stream": true})
	got = append(got, readAnthropicStream(t, b).text)
	_, b = post(t, c, oa, map[string]any{"stream": true})
	got = append(got, readOpenAIStream(t, b).text)
	_, b = post(t, c, an, map[string]any{})
	got = append(got, at(decode(t, b), "content", 0, "text").(string))
	_, b = post(t, c, oa, map[string]any{"stream": true})
	got = append(got, readOpenAIStream(t, b).text)

	if want := []string{"one", "two", "three", "ok", "ok"}; !slices.Equal(got, want) {
		t.Errorf("texts = %q, want %q", got, want)
	}
}

func TestRequestsRecorded(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	c := newClient(t)
	raw := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,"temperature":0.42}`)
	post(t, c, r.BaseURL()+"/chat/completions", raw, "Authorization", "Bearer k")
	post(t, c, r.BaseURL()+"/v1/messages", map[string]any{"model": "m", "stream": false}, "x-api-key", "k")

	reqs := r.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	q := reqs[0]
	if q.Method != "POST" || q.Path != r.Prefix()+"/chat/completions" || q.Style != StyleOpenAI || !q.Stream ||
		string(q.Raw) != string(raw) || q.Header.Get("Authorization") != "Bearer k" ||
		q.Body["temperature"] != 0.42 || at(q.Body, "messages", 0, "content") != "hi" {
		t.Errorf("openai request = %+v", q)
	}
	q = reqs[1]
	if q.Path != r.Prefix()+"/v1/messages" || q.Style != StyleAnthropic || q.Stream || q.Header.Get("X-Api-Key") != "k" {
		t.Errorf("anthropic request = %+v", q)
	}

	// Copies: what a caller does to them never reaches the record.
	reqs[0].Body["model"] = "changed"
	reqs[0].Raw[0] = 'X'
	reqs[0].Header.Set("Authorization", "changed")
	again := r.Requests()[0]
	if again.Body["model"] != "m" || again.Raw[0] != '{' || again.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("Requests returned the record itself: %+v", again)
	}
}

func TestBadBodyRecordedAnd400(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	r.Script(Reply{Text: "kept"})
	c := newClient(t)
	for _, body := range []string{`{"model":`, `[1,2]`, `null`} {
		resp, b := post(t, c, r.BaseURL()+"/v1/messages", []byte(body))
		if resp.StatusCode != 400 || decode(t, b)["type"] != "error" {
			t.Errorf("%s: status %d %s", body, resp.StatusCode, b)
		}
	}
	reqs := r.Requests()
	if len(reqs) != 3 || reqs[0].Body != nil || string(reqs[0].Raw) != `{"model":` || reqs[2].Body != nil {
		t.Errorf("requests = %+v", reqs)
	}
	// A rejected request does not use up the script.
	_, b := post(t, c, r.BaseURL()+"/chat/completions", map[string]any{})
	if got := at(decode(t, b), "choices", 0, "message", "content"); got != "kept" {
		t.Errorf("content = %v, want kept", got)
	}
}

func TestUnknownRoutesAnd404(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	c := newClient(t)
	// Paths under the route that are no endpoint are recorded (a scenario says where a
	// request went) and answered 404; paths under no route are neither.
	underRoute := []string{r.Prefix() + "/completions", r.Prefix() + "/messages", r.Prefix() + "/v1/v1/messages",
		r.Prefix() + "//chat/completions"}
	for _, path := range append([]string{"/s/99/chat/completions", "/chat/completions", "/s/"}, underRoute...) {
		resp, b := post(t, c, s.URL()+path, map[string]any{})
		if resp.StatusCode != 404 || at(decode(t, b), "error", "message") == nil {
			t.Errorf("%s: status %d %s", path, resp.StatusCode, b)
		}
	}
	resp, err := c.Get(r.BaseURL() + "/chat/completions")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("GET: status %d", resp.StatusCode)
	}
	var paths []string
	for _, q := range r.Requests() {
		paths = append(paths, q.Path)
	}
	if !slices.Equal(paths, underRoute) {
		t.Errorf("recorded %q, want %q", paths, underRoute)
	}
	// An openai base URL ending in /v1 reaches the openai endpoint.
	if resp, _ := post(t, c, r.BaseURL()+"/v1/chat/completions", map[string]any{"model": "m", "messages": []any{}}); resp.StatusCode != 200 {
		t.Errorf("/v1/chat/completions: status %d", resp.StatusCode)
	}
}

func TestRoutesIsolated(t *testing.T) {
	s := startServer(t)
	r1, r2 := s.NewRoute(), s.NewRoute()
	if r1.Prefix() != "/s/1" || r2.Prefix() != "/s/2" || r2.BaseURL() != s.URL()+"/s/2" {
		t.Fatalf("prefixes %q %q, base %q", r1.Prefix(), r2.Prefix(), r2.BaseURL())
	}
	r1.Script(Reply{Text: "for one"})
	r2.Script(Reply{Text: "for two", ToolCalls: []ToolCall{{Name: "t"}}})
	c := newClient(t)

	_, b := post(t, c, r2.BaseURL()+"/chat/completions", map[string]any{"n": 2})
	m2 := decode(t, b)
	_, b = post(t, c, r1.BaseURL()+"/chat/completions", map[string]any{"n": 1})
	m1 := decode(t, b)
	if at(m1, "choices", 0, "message", "content") != "for one" || at(m2, "choices", 0, "message", "content") != "for two" {
		t.Errorf("replies crossed: %v / %v", m1, m2)
	}
	// Ids count per route, so each scenario sees the same ids wherever it runs.
	if m1["id"] != "chatcmpl-1" || m2["id"] != "chatcmpl-1" || at(m2, "choices", 0, "message", "tool_calls", 0, "id") != "call_1" {
		t.Errorf("ids %v %v", m1["id"], m2["id"])
	}
	q1, q2 := r1.Requests(), r2.Requests()
	if len(q1) != 1 || len(q2) != 1 || q1[0].Body["n"] != 1.0 || q2[0].Body["n"] != 2.0 {
		t.Errorf("requests crossed: %+v / %+v", q1, q2)
	}
}

func TestConcurrentRoutes(t *testing.T) {
	s := startServer(t)
	c := newClient(t)
	const n = 20
	var wg sync.WaitGroup
	prefixes := make([]string, n)
	for i := range n {
		wg.Go(func() {
			r := s.NewRoute()
			prefixes[i] = r.Prefix()
			r.Script(Reply{Text: r.Prefix()})
			req, _ := http.NewRequest("POST", r.BaseURL()+"/v1/messages", strings.NewReader(`{"stream":true}`))
			resp, err := c.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var sb strings.Builder
			buf := make([]byte, 512)
			for {
				k, err := resp.Body.Read(buf)
				sb.Write(buf[:k])
				if err != nil {
					break
				}
			}
			if got := readAnthropicStream(t, []byte(sb.String())).text; got != r.Prefix() {
				t.Errorf("route %s got %q", r.Prefix(), got)
			}
			if len(r.Requests()) != 1 {
				t.Errorf("route %s recorded %d", r.Prefix(), len(r.Requests()))
			}
		})
	}
	wg.Wait()
	slices.Sort(prefixes)
	if len(slices.Compact(prefixes)) != n {
		t.Errorf("prefixes not unique: %v", prefixes)
	}
}

func TestCloseIsPromptAndFreesThePort(t *testing.T) {
	s := startServer(t)
	r := s.NewRoute()
	c := newClient(t)
	post(t, c, r.BaseURL()+"/chat/completions", map[string]any{}) // leaves a keep-alive connection
	// A request stuck half-sent: its handler waits for a body that never comes.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{", r.Prefix())
	time.Sleep(50 * time.Millisecond)

	start := time.Now()
	s.Close()
	s.Close() // idempotent
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL(), "http://"), time.Second); err == nil {
		t.Error("port still accepts connections after Close")
	}
	if n := len(r.Requests()); n != 1 {
		t.Errorf("%d requests recorded, want 1 (the half-sent one never completed)", n)
	}
}

func TestPieces(t *testing.T) {
	for _, s := range []string{"", "x", "ok", "héllo wörld", strings.Repeat("ab", 50)} {
		p := pieces(s)
		if len(p) < 2 || strings.Join(p, "") != s {
			t.Errorf("pieces(%q) = %q", s, p)
		}
	}
}
