package endpoint

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

func start(t *testing.T) (*Server, *http.Client) {
	t.Helper()
	leakcheck.Check(t)
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return s, &http.Client{Transport: tr}
}

func do(t *testing.T, c *http.Client, method, url, body string, h http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// rawGet sends a request line byte for byte, as no HTTP client library would rewrite it.
func rawGet(t *testing.T, s *Server, target string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL(), "http://"), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestRecordsAndScripts(t *testing.T) {
	s, c := start(t)
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %q", s.URL())
	}
	r1, r2 := s.NewRoute(), s.NewRoute()
	if r1.Prefix() == r2.Prefix() || r1.BaseURL() != s.URL()+r1.Prefix() {
		t.Fatalf("routes %q %q %q", r1.Prefix(), r2.Prefix(), r1.BaseURL())
	}
	r1.Handle("/items/7", Answer{Status: 503, Body: "down"}, Answer{Status: 201, Body: "ünï\n", Header: http.Header{"X-Fake": {"1"}}})
	r1.Handle("/json/*", Answer{Body: `{"b":1, "a":"<"}`, Header: http.Header{"Content-Type": {"application/json"}}})
	r1.Handle("/json/exact", Answer{Body: "exact"})

	resp, body := do(t, c, http.MethodPost, r1.BaseURL()+"/items/7?page=3", `{"name":"n","n":2}`,
		http.Header{"Content-Type": {"application/json"}, "X-Token": {"s3cr3t"}})
	if resp.StatusCode != 503 || body != "down" {
		t.Errorf("first answer %d %q", resp.StatusCode, body)
	}
	for range 2 { // the last answer repeats
		resp, body = do(t, c, http.MethodPost, r1.BaseURL()+"/items/7", "", nil)
		if resp.StatusCode != 201 || body != "ünï\n" || resp.Header.Get("X-Fake") != "1" ||
			resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("later answer %d %q %v", resp.StatusCode, body, resp.Header)
		}
	}
	if resp, body = do(t, c, http.MethodGet, r1.BaseURL()+"/json/x", "", nil); body != `{"b":1, "a":"<"}` || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("wildcard answer %q %v", body, resp.Header)
	}
	if _, body = do(t, c, http.MethodGet, r1.BaseURL()+"/json/exact", "", nil); body != "exact" {
		t.Errorf("exact beats wildcard: %q", body)
	}
	if _, body = do(t, c, http.MethodGet, r2.BaseURL()+"/items/7", "", nil); body != DefaultBody {
		t.Errorf("another route's script leaked: %q", body)
	}
	if resp, _ := do(t, c, http.MethodGet, s.URL()+"/nowhere", "", nil); resp.StatusCode != 404 {
		t.Errorf("no route: %d", resp.StatusCode)
	}

	// The path and query exactly as sent, still percent-encoded.
	const seg = "a%20b%2Fc%26d%3De%2Bf%20it's%20(ok)!~*"
	if body := rawGet(t, s, r1.Prefix()+"/items/"+seg+"?q=a%20b&n=1&b=true"); body != DefaultBody {
		t.Errorf("raw GET answered %q", body)
	}

	reqs := r1.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests recorded on route 1", len(reqs))
	}
	first := reqs[0]
	if first.Method != "POST" || first.RawPath != "/items/7" || first.RawQuery != "page=3" ||
		string(first.Body) != `{"name":"n","n":2}` || first.Header.Get("X-Token") != "s3cr3t" ||
		first.Header.Get("Content-Type") != "application/json" || first.At.IsZero() ||
		first.RequestURI != r1.Prefix()+"/items/7?page=3" {
		t.Errorf("first record %+v", first)
	}
	last := reqs[5]
	if last.RawPath != "/items/"+seg || last.RawQuery != "q=a%20b&n=1&b=true" || len(last.Body) != 0 || last.Method != "GET" {
		t.Errorf("raw record %+v", last)
	}
	if n := len(r2.Requests()); n != 1 {
		t.Errorf("%d requests on route 2", n)
	}
	// Snapshots are copies.
	reqs[0].Body[0] = 'X'
	reqs[0].Header.Set("X-Token", "changed")
	if again := r1.Requests()[0]; again.Body[0] != '{' || again.Header.Get("X-Token") != "s3cr3t" {
		t.Error("Requests shares its records")
	}
}

func TestRedirect(t *testing.T) {
	s, c := start(t)
	r := s.NewRoute()
	resp, body := do(t, c, http.MethodGet, r.BaseURL()+"/redirect", "", nil)
	if resp.StatusCode != 200 || body != FinalBody {
		t.Errorf("redirect followed to %d %q", resp.StatusCode, body)
	}
	reqs := r.Requests()
	if len(reqs) != 2 || reqs[0].RawPath != "/redirect" || reqs[1].RawPath != "/final" {
		t.Errorf("records %+v", reqs)
	}
	noFollow := &http.Client{Transport: c.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, _ = do(t, noFollow, http.MethodGet, r.BaseURL()+"/redirect", "", nil)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != r.Prefix()+"/final" {
		t.Errorf("redirect answered %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestSlow(t *testing.T) {
	s, c := start(t)
	r := s.NewRoute()
	impatient := &http.Client{Transport: c.Transport, Timeout: 200 * time.Millisecond}
	begin := time.Now()
	if resp, err := impatient.Get(r.BaseURL() + "/slow"); err == nil {
		resp.Body.Close()
		t.Fatal("/slow answered within 200ms")
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("a client timeout took %v", d)
	}
	deadline := time.Now().Add(3 * time.Second)
	for r.Requests()[0].GaveUpAfter == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if g := r.Requests()[0].GaveUpAfter; g < 150*time.Millisecond || g > 2*time.Second {
		t.Errorf("GaveUpAfter %v", g)
	}

	r.SetSlowDelay(100 * time.Millisecond)
	begin = time.Now()
	if _, body := do(t, c, http.MethodGet, r.BaseURL()+"/slow", "", nil); body != SlowBody {
		t.Errorf("/slow answered %q", body)
	}
	if d := time.Since(begin); d < 100*time.Millisecond {
		t.Errorf("/slow answered after %v", d)
	}
	if g := r.Requests()[1].GaveUpAfter; g != 0 {
		t.Errorf("an answered request gave up after %v", g)
	}
}

// Close ends a delayed answer at once.
func TestClosePromptly(t *testing.T) {
	s, c := start(t)
	r := s.NewRoute()
	r.SetSlowDelay(time.Hour)
	done := make(chan error, 1)
	go func() {
		resp, err := c.Get(r.BaseURL() + "/slow")
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	deadline := time.Now().Add(3 * time.Second)
	for s.InFlight() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	begin := time.Now()
	s.Close()
	if d := time.Since(begin); d > 1500*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("the slow request outlived Close")
	}
	if s.Open() != 0 {
		t.Errorf("%d connections open after Close", s.Open())
	}
}
