package toolnexus

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingTransport counts the requests it carries.
type countingTransport struct {
	mu    sync.Mutex
	paths []string
	next  http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.paths = append(c.paths, r.URL.Path)
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

func (c *countingTransport) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.paths)
}

// watchDefaultClient counts what goes through http.DefaultClient during the test.
func watchDefaultClient(t *testing.T) *countingTransport {
	t.Helper()
	old := http.DefaultClient.Transport
	ct := &countingTransport{next: http.DefaultTransport}
	http.DefaultClient.Transport = ct
	t.Cleanup(func() { http.DefaultClient.Transport = old })
	return ct
}

// G2.1: an injected client carries every LLM request of run and stream; the default client none.
func TestInjectedHTTPClientCarriesEveryRequest(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			def := watchDefaultClient(t)
			rec := &countingTransport{next: http.DefaultTransport}
			f := newFakeLLM(t, toolLoop...)
			c := p.client(f, func(o *ClientOptions) { o.HTTPClient = &http.Client{Transport: rec} })
			if _, _, err := p.run(t, context.Background(), c, "hi", toolkitWith(t, echoTool())); err != nil {
				t.Fatal(err)
			}
			if got, want := rec.count(), len(f.requests()); got != want || want != 2 {
				t.Fatalf("recorder saw %d requests, upstream %d; want 2 and 2", got, want)
			}
			if def.count() != 0 {
				t.Fatalf("http.DefaultClient carried %d requests", def.count())
			}
		})
	}
}

// G2.2: without an injected client the default one is used and the run succeeds.
func TestDefaultHTTPClient(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			def := watchDefaultClient(t)
			f := newFakeLLM(t)
			res, _, err := p.run(t, context.Background(), p.client(f, nil), "hi", nil)
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "text", res.Text, "hello")
			if def.count() != 1 {
				t.Fatalf("http.DefaultClient carried %d requests, want 1", def.count())
			}
		})
	}
}

// Retries go through the injected client and resend the shaped body.
func TestRetriesUseInjectedClientAndShapedBody(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			rec := &countingTransport{next: http.DefaultTransport}
			f := newFakeLLM(t)
			f.fail = 2
			c := p.client(f, func(o *ClientOptions) {
				o.HTTPClient = &http.Client{Transport: rec}
				o.RequestParams = map[string]any{"temperature": 0.42}
				o.BodyTransform = func(b map[string]any) map[string]any { b["injected"] = "yes"; return b }
			})
			if _, _, err := p.run(t, context.Background(), c, "hi", nil); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 3 || rec.count() != 3 {
				t.Fatalf("upstream %d, recorder %d; want 3 (two 503s, then success)", len(reqs), rec.count())
			}
			for _, r := range reqs {
				mustEqual(t, "retried body", r.Body, reqs[0].Body)
				mustEqual(t, "temperature", r.Body["temperature"], 0.42)
				mustEqual(t, "injected", r.Body["injected"], "yes")
			}
		})
	}
}

// Retries are bounded: 0 means 2, so three attempts then the error.
func TestRetriesExhausted(t *testing.T) {
	f := newFakeLLM(t)
	f.fail = 10
	_, err := fourPaths[0].client(f, nil).Run(context.Background(), "hi", nil)
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err = %v, want an HTTP 503 error", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Fatalf("%d attempts, want 3", n)
	}
}

// Endpoint paths and headers per style.
func TestEndpointsAndHeaders(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			c := p.client(f, func(o *ClientOptions) { o.Headers = map[string]string{"X-Extra": "1"} })
			if _, _, err := p.run(t, context.Background(), c, "hi", nil); err != nil {
				t.Fatal(err)
			}
			r := f.requests()[0]
			mustEqual(t, "content type", r.Header.Get("Content-Type"), "application/json")
			mustEqual(t, "extra header", r.Header.Get("X-Extra"), "1")
			if p.style == StyleOpenAI {
				mustEqual(t, "path", r.Path, "/s/1/chat/completions")
				mustEqual(t, "auth", r.Header.Get("Authorization"), "Bearer k")
			} else {
				mustEqual(t, "path", r.Path, "/s/1/v1/messages")
				mustEqual(t, "x-api-key", r.Header.Get("X-Api-Key"), "k")
				mustEqual(t, "version", r.Header.Get("Anthropic-Version"), "2023-06-01")
				mustEqual(t, "no bearer", r.Header.Get("Authorization"), "")
			}
		})
	}
}

// An anthropic base that already ends in /v1 does not get a second one.
func TestAnthropicBaseWithV1(t *testing.T) {
	f := newFakeLLM(t)
	c := fourPaths[2].client(f, func(o *ClientOptions) { o.BaseURL = f.base() + "/v1/" })
	if _, err := c.Run(context.Background(), "hi", nil); err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "path", f.requests()[0].Path, "/s/1/v1/messages")
}

// Cancelling the caller's context aborts the in-flight request with context.Canceled.
func TestCancelAbortsInFlight(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			f.hang = true
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			start := time.Now()
			_, _, err := p.run(t, ctx, p.client(f, nil), "hi", nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled unwrapped", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("took %v to give up", d)
			}
			if len(f.requests()) != 1 {
				t.Fatalf("%d requests, want 1 (a cancel is never retried)", len(f.requests()))
			}
		})
	}
}

// A cancel while the reply is being read also ends with context.Canceled, unwrapped.
func TestCancelMidReply(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			f.stall = true
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			_, _, err := p.run(t, ctx, p.client(f, nil), "hi", nil)
			if err != context.Canceled {
				t.Fatalf("err = %v, want context.Canceled unwrapped", err)
			}
		})
	}
}

// TimeoutMs bounds the run and reports context.DeadlineExceeded.
func TestTimeoutMs(t *testing.T) {
	for _, p := range fourPaths {
		t.Run(p.name, func(t *testing.T) {
			f := newFakeLLM(t)
			f.hang = true
			// The outer deadline only keeps a broken TimeoutMs from hanging the suite.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			start := time.Now()
			_, _, err := p.run(t, ctx, p.client(f, func(o *ClientOptions) { o.TimeoutMs = 50 }), "hi", nil)
			if err != context.DeadlineExceeded {
				t.Fatalf("err = %v, want context.DeadlineExceeded", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("TimeoutMs 50 took %v", d)
			}
		})
	}
}

// An unknown Style is reported, naming the field, by every entry point, and nothing is sent.
func TestUnknownStyle(t *testing.T) {
	f := newFakeLLM(t)
	c := CreateClient(ClientOptions{BaseURL: f.base(), Style: "gemini", Model: "m", APIKey: "k"})
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "Style") || !strings.Contains(err.Error(), "gemini") {
			t.Errorf("%s: err = %v, want an error naming Style and the value", what, err)
		}
	}
	_, err := c.Run(context.Background(), "hi", nil)
	check("Run", err)
	_, err = c.Stream(context.Background(), "hi", nil)
	check("Stream", err)
	_, err = c.Ask(context.Background(), "hi", nil, "id")
	check("Ask", err)
	if n := len(f.requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}
