package mcpfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// HTTPServer is a fake MCP server over HTTP (streamable or SSE).
type HTTPServer struct {
	srv    *httpfake.Server
	url    string
	log    httpfake.Log
	stalls atomic.Int64
	lists  atomic.Int64
	sse    bool // served over the SSE transport only (StartSSEWith)
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

// SSEOnly reports whether the fake speaks the SSE transport only, and how many GETs opened
// its event stream at /sse: a client with no SSE fallback never sends one.
func (h *HTTPServer) SSEOnly() (bool, int) {
	if !h.sse {
		return false, 0
	}
	n := 0
	for _, q := range h.Requests() {
		if q.Method == http.MethodGet && q.Path == "/sse" {
			n++
		}
	}
	return true, n
}

// Close ends every MCP session and connection and stops the server.
func (h *HTTPServer) Close() { h.srv.Close() }

// HTTPOptions shape an HTTP fake: what it lists and how it misbehaves.
type HTTPOptions struct {
	ServerOptions
	// Stall is a Phase the server never answers ("" stalls nowhere).
	Stall string
	// Unauthorized answers every request 401 (with WWW-Authenticate: Bearer), after
	// recording it.
	Unauthorized bool
	// Path is where the streamable server is served ("" is /mcp); any other path is recorded
	// and answered 404, so a client that does not use the configured URL is seen.
	Path string
}

// StartStreamable serves NewServer over the streamable HTTP transport at
// "<server>/mcp".
func StartStreamable() (*HTTPServer, error) { return StartStreamableWith(HTTPOptions{}) }

// StartStreamableStalling is StartStreamable whose server never answers phase (a Phase
// constant; "" stalls nowhere).
func StartStreamableStalling(phase string) (*HTTPServer, error) {
	return StartStreamableWith(HTTPOptions{Stall: phase})
}

// StartStreamableWith serves the server opts describe over the streamable HTTP transport
// at "<server>/mcp", or at opts.Path.
func StartStreamableWith(opts HTTPOptions) (*HTTPServer, error) {
	server, err := opts.server()
	if err != nil {
		return nil, err
	}
	path := opts.Path
	if path == "" {
		path = "/mcp"
	}
	h := &HTTPServer{}
	mux := http.NewServeMux()
	mux.Handle(path, stallHTTP(opts.Stall, &h.stalls, &h.lists,
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)))
	return h.start(server, h.front(opts, mux), path)
}

// StartSSE serves NewServer over the 2024-11-05 SSE transport only, at
// "<server>/sse": a GET there opens a session, and POSTs carrying its
// sessionid deliver the session's messages.
//
// Any other POST to the URL (a client trying streamable HTTP first) gets
// 405 Method Not Allowed, the answer the MCP spec's backwards-compatibility
// rule names as the cue to fall back to SSE; the bare SSEHandler would answer
// 400 or 415, which some clients take for a hard failure.
func StartSSE() (*HTTPServer, error) { return StartSSEWith(HTTPOptions{}) }

// StartSSEStalling is StartSSE whose server never answers phase: the POST carrying that
// request is held open and no response is ever sent on the event stream.
func StartSSEStalling(phase string) (*HTTPServer, error) {
	return StartSSEWith(HTTPOptions{Stall: phase})
}

// StartSSEWith serves the server opts describe as StartSSE does.
func StartSSEWith(opts HTTPOptions) (*HTTPServer, error) {
	server, err := opts.server()
	if err != nil {
		return nil, err
	}
	h := &HTTPServer{sse: true}
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	// Only SSE-session messages may stall: a streamable POST is refused first, so a client
	// with no SSE fallback is never counted as having reached the stalled phase.
	stalled := stallHTTP(opts.Stall, &h.stalls, &h.lists, sse)
	mux := http.NewServeMux()
	mux.HandleFunc("/sse", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "" {
			w.Header().Set("Allow", http.MethodGet)
			http.Error(w, "this server speaks the SSE transport only: GET this URL", http.StatusMethodNotAllowed)
			return
		}
		stalled.ServeHTTP(w, r)
	})
	return h.start(server, h.front(opts, mux), "/sse")
}

func (opts HTTPOptions) server() (*mcp.Server, error) {
	if !ValidPhase(opts.Stall) {
		return nil, fmt.Errorf("stall %q: want initialize or tools/list", opts.Stall)
	}
	return NewServerWith(opts.ServerOptions)
}

// front records every request, then answers 401 if opts say so, else passes it on.
func (h *HTTPServer) front(opts HTTPOptions, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, ok := h.log.Record(r); !ok {
			return
		}
		if opts.Unauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="fake-mcp"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":"unauthorized"}`)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// HTTPRequest is one HTTP request an HTTP fake received, recorded before it was answered.
type HTTPRequest struct {
	Method string
	// Path is the request path as sent (still percent-encoded); RawQuery is the query
	// without "?" (the SSE transport's POSTs carry sessionid there).
	Path     string
	RawQuery string
	Header   http.Header
	// RPCMethods are the JSON-RPC methods a POST body carries ("initialize", "tools/list",
	// "notifications/initialized", ...; a response carries none), in body order.
	RPCMethods []string
	At         time.Time
}

// Requests returns copies of every request received so far (GET, POST and DELETE alike),
// in arrival order.
func (h *HTTPServer) Requests() []HTTPRequest {
	arrivals := h.log.All()
	out := make([]HTTPRequest, len(arrivals))
	for i, a := range arrivals {
		out[i] = HTTPRequest{Method: a.Method, Path: a.RawPath, RawQuery: a.RawQuery, Header: a.Header, At: a.At}
		if a.Method == http.MethodPost {
			out[i].RPCMethods = rpcMethods(a.Body)
		}
	}
	return out
}

// rpcMethods lists the methods of a JSON-RPC message or batch.
func rpcMethods(body []byte) []string {
	type msg struct {
		Method string `json:"method"`
	}
	var batch []msg
	if json.Unmarshal(body, &batch) != nil {
		var one msg
		if json.Unmarshal(body, &one) != nil {
			return nil
		}
		batch = []msg{one}
	}
	var out []string
	for _, m := range batch {
		if m.Method != "" {
			out = append(out, m.Method)
		}
	}
	return out
}

func (hs *HTTPServer) start(server *mcp.Server, h http.Handler, path string) (*HTTPServer, error) {
	srv, err := httpfake.Start(h)
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
