package mcpfake

import (
	"net/http"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/loopback"
)

// HTTPServer is a fake MCP server over HTTP (streamable or SSE).
type HTTPServer struct {
	srv    *loopback.Server
	url    string
	stalls atomic.Int64
	lists  atomic.Int64
}

// URL is what a client config's "url" should be.
func (h *HTTPServer) URL() string { return h.url }

// Connections is the number of TCP connections accepted so far.
func (h *HTTPServer) Connections() int { return h.srv.Accepted() }

// Open is the number of TCP connections currently open.
func (h *HTTPServer) Open() int { return h.srv.Open() }

// InFlight is the number of requests the fake is serving right now (open streams and
// unanswered requests); idle keep-alive connections are not counted.
func (h *HTTPServer) InFlight() int { return h.srv.InFlight() }

// Stalls is the number of requests held unanswered in the stall phase so far: evidence that
// the client got that far.
func (h *HTTPServer) Stalls() int { return int(h.stalls.Load()) }

// Listed is the number of tools/list requests the fake answered: evidence that the client
// had listed it.
func (h *HTTPServer) Listed() int { return int(h.lists.Load()) }

// Close ends every MCP session and connection and stops the server.
func (h *HTTPServer) Close() { h.srv.Close() }

// StartStreamable serves NewServer over the streamable HTTP transport at
// "<server>/mcp".
func StartStreamable() (*HTTPServer, error) { return StartStreamableStalling("") }

// StartStreamableStalling is StartStreamable whose server never answers phase (a Phase
// constant; "" stalls nowhere).
func StartStreamableStalling(phase string) (*HTTPServer, error) {
	server := NewServer()
	h := &HTTPServer{}
	mux := http.NewServeMux()
	mux.Handle("/mcp", stallHTTP(phase, &h.stalls, &h.lists,
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))
	return h.start(server, mux, "/mcp")
}

// StartSSE serves NewServer over the 2024-11-05 SSE transport only, at
// "<server>/sse": a GET there opens a session, and POSTs carrying its
// sessionid deliver the session's messages.
//
// Any other POST to the URL (a client trying streamable HTTP first) gets
// 405 Method Not Allowed, the answer the MCP spec's backwards-compatibility
// rule names as the cue to fall back to SSE; the bare SSEHandler would answer
// 400 or 415, which some clients take for a hard failure.
func StartSSE() (*HTTPServer, error) { return StartSSEStalling("") }

// StartSSEStalling is StartSSE whose server never answers phase: the POST carrying that
// request is held open and no response is ever sent on the event stream.
func StartSSEStalling(phase string) (*HTTPServer, error) {
	server := NewServer()
	h := &HTTPServer{}
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	// Only SSE-session messages may stall: a streamable POST is refused first, so a client
	// with no SSE fallback is never counted as having reached the stalled phase.
	stalled := stallHTTP(phase, &h.stalls, &h.lists, sse)
	mux := http.NewServeMux()
	mux.HandleFunc("/sse", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "" {
			w.Header().Set("Allow", http.MethodGet)
			http.Error(w, "this server speaks the SSE transport only: GET this URL", http.StatusMethodNotAllowed)
			return
		}
		stalled.ServeHTTP(w, r)
	})
	return h.start(server, mux, "/sse")
}

func (hs *HTTPServer) start(server *mcp.Server, h http.Handler, path string) (*HTTPServer, error) {
	srv, err := loopback.Start(h)
	if err != nil {
		return nil, err
	}
	// Streamable sessions outlive their requests (a client that never sends
	// DELETE leaves one behind); close them all, or their goroutines leak.
	srv.OnClose(func() {
		for ss := range server.Sessions() {
			_ = ss.Close()
		}
	})
	hs.srv, hs.url = srv, srv.URL()+path
	return hs, nil
}
