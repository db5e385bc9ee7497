package mcpfake

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

func TestStreamable(t *testing.T) {
	leakcheck.Check(t)
	h, err := StartStreamable()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if !strings.HasPrefix(h.URL(), "http://127.0.0.1:") || !strings.HasSuffix(h.URL(), "/mcp") {
		t.Fatalf("URL %q", h.URL())
	}
	if h.Connections() != 0 {
		t.Fatalf("connections %d before any client", h.Connections())
	}
	hc := newHTTPClient(t)
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: h.URL(), HTTPClient: hc})
	if h.Listed() != 0 {
		t.Fatalf("listed %d times before any tools/list", h.Listed())
	}
	checkTools(t, cs)
	if h.Listed() < 1 {
		t.Error("a tools/list was not counted")
	}
	if h.Connections() < 1 || h.Open() < 1 {
		t.Errorf("connections %d open %d during a session", h.Connections(), h.Open())
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close session: %v", err)
	}
	hc.Transport.(*http.Transport).CloseIdleConnections()
	waitFor(t, "connections to close", func() bool { return h.Open() == 0 })
}

func TestSSE(t *testing.T) {
	leakcheck.Check(t)
	h, err := StartSSE()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hc := newHTTPClient(t)

	// A client trying streamable HTTP first must be refused with a 4xx.
	resp, err := hc.Post(h.URL(), "application/json",
		bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("streamable POST: status %d, want 405", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: h.URL(), HTTPClient: hc, MaxRetries: -1}, nil); err == nil {
		t.Error("a streamable HTTP client connected to the SSE-only server")
	}

	// The fallback: the same URL, spoken to as SSE.
	cs := connect(t, &mcp.SSEClientTransport{Endpoint: h.URL(), HTTPClient: hc})
	checkTools(t, cs)
	if h.Listed() < 1 {
		t.Error("a tools/list over SSE was not counted")
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close session: %v", err)
	}
	hc.Transport.(*http.Transport).CloseIdleConnections()
	waitFor(t, "connections to close", func() bool { return h.Open() == 0 })
}

// Close must end sessions a client left open (their SSE streams hang) and
// return promptly.
func TestCloseWithOpenSessions(t *testing.T) {
	leakcheck.Check(t)
	for _, start := range []struct {
		name string
		fn   func() (*HTTPServer, error)
		tr   func(url string, c *http.Client) mcp.Transport
	}{
		{"streamable", StartStreamable, func(u string, c *http.Client) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: c, MaxRetries: -1}
		}},
		{"sse", StartSSE, func(u string, c *http.Client) mcp.Transport {
			return &mcp.SSEClientTransport{Endpoint: u, HTTPClient: c}
		}},
	} {
		t.Run(start.name, func(t *testing.T) {
			h, err := start.fn()
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			hc := newHTTPClient(t)
			cs := connect(t, start.tr(h.URL(), hc))
			defer cs.Close()
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			begin := time.Now()
			h.Close()
			if d := time.Since(begin); d > 1500*time.Millisecond {
				t.Errorf("Close took %v", d)
			}
			if h.Open() != 0 {
				t.Errorf("%d connections open after Close", h.Open())
			}
		})
	}
}
