package faults

import (
	"net/http"
	"sync/atomic"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// SSEFallback refuses streamable HTTP (POST gets 405 Method Not Allowed, the
// MCP spec's cue to fall back to the SSE transport) and then hangs on the
// SSE stream: a GET gets 200 text/event-stream with its headers flushed, and
// never an endpoint event. Only the client's own timeout can end its wait.
type SSEFallback struct {
	srv   *httpfake.Server
	posts atomic.Int64
	gets  atomic.Int64
}

// StartSSEFallbackHang starts an SSEFallback on a free 127.0.0.1 port.
func StartSSEFallbackHang() (*SSEFallback, error) {
	f := &SSEFallback{}
	srv, err := httpfake.Start(http.HandlerFunc(f.serve))
	if err != nil {
		return nil, err
	}
	f.srv = srv
	return f, nil
}

func (f *SSEFallback) serve(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		f.posts.Add(1)
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "streamable HTTP not supported", http.StatusMethodNotAllowed)
	case http.MethodGet:
		// A streamable-HTTP client's own listening GET carries the protocol-version header;
		// only a legacy SSE client's GET counts as reaching the SSE endpoint.
		if r.Header.Get("Mcp-Protocol-Version") == "" && r.Header.Get("Mcp-Session-Id") == "" {
			f.gets.Add(1)
		}
		// Flushed headers make the client believe the stream is open, so it waits for the
		// endpoint event instead of failing fast.
		httpfake.StartSSE(w)
		<-r.Context().Done() // the client went away, or Close
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// URL is "http://127.0.0.1:<port>/mcp".
func (f *SSEFallback) URL() string { return f.srv.URL() + "/mcp" }

// Posts is the number of POST requests (streamable HTTP attempts) so far.
func (f *SSEFallback) Posts() int { return int(f.posts.Load()) }

// SSEGets is the number of legacy SSE stream opens (GETs without streamable-HTTP headers) so far.
func (f *SSEFallback) SSEGets() int { return int(f.gets.Load()) }

// Close stops the server, ending every hung SSE stream.
func (f *SSEFallback) Close() { f.srv.Close() }
