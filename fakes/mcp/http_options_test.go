package mcpfake

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

// headerRT adds a header to every request, as a port's configured headers would.
type headerRT struct {
	next http.RoundTripper
	key  string
	val  string
}

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.val)
	return h.next.RoundTrip(r)
}

func headerClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: headerRT{tr, "Authorization", "Bearer s3cr3t"}}
}

// Every request to either HTTP fake is recorded with its headers, GETs and POSTs alike, and
// the catalogue and delays apply over HTTP.
func TestHTTPRecordsAndOptions(t *testing.T) {
	leakcheck.Check(t)
	for _, tc := range []struct {
		name  string
		start func(HTTPOptions) (*HTTPServer, error)
		tr    func(url string, c *http.Client) mcp.Transport
	}{
		{"streamable", StartStreamableWith, func(u string, c *http.Client) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: c, MaxRetries: -1}
		}},
		{"sse", StartSSEWith, func(u string, c *http.Client) mcp.Transport {
			return &mcp.SSEClientTransport{Endpoint: u, HTTPClient: c}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const d = 200 * time.Millisecond
			h, err := tc.start(HTTPOptions{ServerOptions: ServerOptions{Catalogue: CatalogueAwkward, InitDelay: d, ListDelay: d}})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			hc := headerClient(t)
			begin := time.Now()
			cs := connect(t, tc.tr(h.URL(), hc))
			if took := time.Since(begin); took < d {
				t.Errorf("handshake took %v, want at least %v", took, d)
			}
			begin = time.Now()
			res, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(begin); took < d {
				t.Errorf("tools/list took %v, want at least %v", took, d)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			if want := CatalogueToolNames(CatalogueAwkward, false); !slices.Equal(names, want) {
				t.Errorf("listed %q, want %q", names, want)
			}
			r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get.balance", Arguments: map[string]any{"x": "1"}})
			if err != nil {
				t.Fatal(err)
			}
			if txt := r.Content[0].(*mcp.TextContent).Text; txt != `{"name":"get.balance","arguments":{"x":"1"}}` {
				t.Errorf("get.balance answered %s", txt)
			}
			_ = cs.Close()

			reqs := h.Requests()
			var methods []string
			seen := map[string]bool{}
			for _, q := range reqs {
				seen[q.Method] = true
				methods = append(methods, q.RPCMethods...)
				if got := q.Header.Get("Authorization"); got != "Bearer s3cr3t" {
					t.Errorf("%s %s: Authorization %q", q.Method, q.Path, got)
				}
				if q.At.IsZero() || !strings.HasPrefix(q.Path, "/") {
					t.Errorf("record %+v", q)
				}
			}
			for _, m := range []string{"initialize", "notifications/initialized", "tools/list", "tools/call"} {
				if !slices.Contains(methods, m) {
					t.Errorf("no request carried %s (methods %q)", m, methods)
				}
			}
			if !seen[http.MethodPost] || (tc.name == "sse" && !seen[http.MethodGet]) {
				t.Errorf("methods seen %v", seen)
			}
			if tc.name == "sse" {
				posts := 0
				for _, q := range reqs {
					if q.Method == http.MethodPost {
						posts++
						if !strings.Contains(q.RawQuery, "sessionid=") {
							t.Errorf("SSE POST query %q", q.RawQuery)
						}
					}
				}
				if posts < 4 {
					t.Errorf("%d SSE POSTs recorded", posts)
				}
			}
			// Requests returns copies.
			reqs[0].Header.Set("Authorization", "changed")
			if h.Requests()[0].Header.Get("Authorization") != "Bearer s3cr3t" {
				t.Error("Requests shares its records")
			}
			hc.Transport.(headerRT).next.(*http.Transport).CloseIdleConnections()
		})
	}
}

// An Unauthorized fake answers every request 401, and still records it.
func TestHTTPUnauthorized(t *testing.T) {
	leakcheck.Check(t)
	for _, start := range []func(HTTPOptions) (*HTTPServer, error){StartStreamableWith, StartSSEWith} {
		h, err := start(HTTPOptions{Unauthorized: true})
		if err != nil {
			t.Fatal(err)
		}
		hc := headerClient(t)
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			req, _ := http.NewRequest(method, h.URL(), bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)))
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" || len(body) == 0 {
				t.Errorf("%s %s: %d %v %s", method, h.URL(), resp.StatusCode, resp.Header, body)
			}
		}
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		if _, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: h.URL(), HTTPClient: hc, MaxRetries: -1}, nil); err == nil {
			t.Error("a client connected to a 401 server")
		}
		cancel()
		reqs := h.Requests()
		if len(reqs) < 3 || !slices.Equal(reqs[1].RPCMethods, []string{"initialize"}) || reqs[1].Header.Get("Authorization") != "Bearer s3cr3t" {
			t.Errorf("records %+v", reqs)
		}
		hc.Transport.(headerRT).next.(*http.Transport).CloseIdleConnections()
		h.Close()
	}
	if _, err := StartStreamableWith(HTTPOptions{ServerOptions: ServerOptions{Catalogue: "nope"}}); err == nil {
		t.Error("an unknown catalogue started")
	}
	if _, err := StartSSEWith(HTTPOptions{Stall: "nope"}); err == nil {
		t.Error("an unknown stall phase started")
	}
}

func TestRPCMethods(t *testing.T) {
	for body, want := range map[string][]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:                                       {"tools/list"},
		`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":{}},{"method":"b"}]`: {"a", "b"},
		`{"jsonrpc":"2.0","id":1,"result":{}}`:                                                 nil,
		`not json`:                                                                             nil,
	} {
		if got := rpcMethods([]byte(body)); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}

// A go-sdk client sends server/discover and then initialize; the handshake is held once, so it
// takes the delay the scenario names, not twice that. Held twice it could not end before 2d.
func TestHandshakeHeldOnce(t *testing.T) {
	const d = time.Second
	h, err := StartStreamableWith(HTTPOptions{ServerOptions: ServerOptions{InitDelay: d}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	begin := time.Now()
	connect(t, &mcp.StreamableClientTransport{Endpoint: h.URL(), MaxRetries: -1})
	took := time.Since(begin)
	if took < d || took >= 2*d {
		t.Errorf("handshake took %v, want at least %v and under %v", took, d, 2*d)
	}
	var methods []string
	for _, r := range h.Requests() {
		methods = append(methods, r.RPCMethods...)
	}
	if !slices.Contains(methods, "server/discover") || !slices.Contains(methods, "initialize") {
		t.Logf("the client sent %v: this test proves the single hold only for a client that sends both", methods)
	}
}
