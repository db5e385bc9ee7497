package llm

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A scripted fault comes once, in order, and is recorded like any request: a status with
// Retry-After, a dropped connection, a slow answer the client may give up on.
func TestScriptedFaults(t *testing.T) {
	s := startServer(t)
	c := newClient(t)
	rt := s.NewRoute()
	rt.Script(Reply{Status: 503, RetryAfter: "0"}, Reply{Drop: true}, Reply{Text: "late", Delay: 300 * time.Millisecond})
	body := map[string]any{"model": "m", "messages": []any{}}
	url := rt.BaseURL() + "/chat/completions"

	resp, _ := post(t, c, url, body)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "0" {
		t.Errorf("first: %d, Retry-After %q; want 503 with Retry-After 0", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if _, err := c.Post(url, "application/json", strings.NewReader(`{"model":"m","messages":[]}`)); err == nil {
		t.Error("second: the dropped connection gave an answer")
	}
	fast := &http.Client{Transport: c.Transport, Timeout: 100 * time.Millisecond}
	if _, err := fast.Post(url, "application/json", strings.NewReader(`{"model":"m","messages":[]}`)); err == nil {
		t.Error("third: a client timeout shorter than the delay still got the answer")
	}
	reqs := rt.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests recorded; want 3 (faults are recorded too)", len(reqs))
	}
	// The fake saw the client give up on the slow one, by its own clock.
	time.Sleep(50 * time.Millisecond)
	if d := rt.Requests()[2].GaveUpAfter; d < 90*time.Millisecond || d > 290*time.Millisecond {
		t.Errorf("the client gave up after %s by the fake's clock; want about 100ms", d)
	}
	if d := reqs[0].GaveUpAfter; d != 0 {
		t.Errorf("an answered request has GaveUpAfter %s", d)
	}
}

// Scripted header lines reach the wire as written: the name's case kept, a line twice, an
// empty value. Read raw, since net/http's client would canonicalise the names.
func TestScriptedHeaderLines(t *testing.T) {
	s := startServer(t)
	rt := s.NewRoute()
	rt.Script(Reply{Status: 429, HeaderLines: []string{"retry-after:  2  ", "X-Twice: a", "X-Twice: b", "X-Empty:"}})
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"model":"m","messages":[]}`
	fmt.Fprintf(conn, "POST %s/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", rt.Prefix(), len(body), body)
	raw, err := io.ReadAll(conn)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	head += "\r\n"
	for _, line := range []string{"HTTP/1.1 429 ", "\r\nretry-after:  2  \r\n", "\r\nX-Twice: a\r\nX-Twice: b\r\n", "\r\nX-Empty:\r\n"} {
		if !strings.Contains(head, line) {
			t.Errorf("the response head lacks %q:\n%s", line, head)
		}
	}
}
