package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/loopback"
)

// Server is the fake LLM HTTP server.
type Server struct {
	http *loopback.Server

	mu     sync.Mutex
	routes map[string]*Route
	last   int // number of the last route handed out
}

// Start starts a fake LLM server on a free 127.0.0.1 port.
func Start() (*Server, error) {
	s := &Server{routes: map[string]*Route{}}
	hs, err := loopback.Start(http.HandlerFunc(s.serve))
	if err != nil {
		return nil, err
	}
	s.http = hs
	return s, nil
}

// URL is "http://127.0.0.1:<port>", without a trailing slash.
func (s *Server) URL() string { return s.http.URL() }

// Close stops the server, ending any stream still being written.
func (s *Server) Close() { s.http.Close() }

// NewRoute reserves the next route prefix ("/s/1", "/s/2", ...).
func (s *Server) NewRoute() *Route {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last++
	r := &Route{prefix: "/s/" + strconv.Itoa(s.last), base: s.URL()}
	s.routes[r.prefix] = r
	return r
}

// route finds the route and wire style for a path, or nil. A path under a route that is no
// endpoint (a doubled /v1, a double slash) still finds its route, with style "": the request
// is recorded, so a scenario can say where it went, and answered 404.
func (s *Server) route(path string) (*Route, string) {
	rest, ok := strings.CutPrefix(path, "/s/")
	if !ok {
		return nil, ""
	}
	n, tail, _ := strings.Cut(rest, "/")
	var style string
	switch "/" + tail {
	case "/chat/completions", "/v1/chat/completions":
		// An openai base URL may end in /v1 (most providers' do): {base}/chat/completions.
		style = StyleOpenAI
	case "/v1/messages":
		// Clients append "/v1" only when the base URL lacks it, so both
		// base "<prefix>" and base "<prefix>/v1" arrive here.
		style = StyleAnthropic
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.routes["/s/"+n], style
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rt, style := s.route(r.URL.Path)
	if rt == nil {
		// Not recorded: nothing was addressed to a scenario.
		writeError(w, StyleOpenAI, http.StatusNotFound, "no route for "+r.URL.Path)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, StyleOpenAI, http.StatusMethodNotAllowed, r.Method+" not allowed")
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client went away mid-body; there is nobody to answer
	}
	req := Request{
		Method: r.Method,
		Path:   r.URL.Path,
		Header: r.Header.Clone(),
		Raw:    raw,
		Style:  style,
	}
	if json.Unmarshal(raw, &req.Body) != nil {
		req.Body = nil // a partial decode must not pass for the real body
	}
	req.Stream = req.Body["stream"] == true
	// Record before answering: a client that gives up on the answer has
	// still sent the request the scenario judges.
	arrived := time.Now()
	req.At = arrived
	index := rt.record(req)
	if style == "" {
		writeError(w, StyleOpenAI, http.StatusNotFound, "no endpoint at "+r.URL.Path)
		return
	}
	if req.Body == nil {
		writeError(w, style, http.StatusBadRequest, "request body is not a JSON object")
		return
	}

	reply := rt.next()
	if reply.Drop {
		dropConnection(w)
		return
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			rt.gaveUp(index, time.Since(arrived)) // it never gets the answer
			return
		}
	}
	if reply.RetryAfter != "" {
		w.Header().Set("Retry-After", reply.RetryAfter)
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		msg := reply.Text
		if msg == "" {
			msg = http.StatusText(reply.Status)
		}
		if len(reply.HeaderLines) > 0 {
			writeRawError(w, style, reply.Status, msg, reply.HeaderLines)
			return
		}
		writeError(w, style, reply.Status, msg)
		return
	}
	if len(reply.Body) > 0 && !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(reply.Body)
		return
	}
	a := rt.answer(reply, style, req.Body["model"])
	switch {
	case style == StyleOpenAI && req.Stream:
		streamOpenAI(w, a)
	case style == StyleOpenAI:
		writeJSON(w, http.StatusOK, openAIMessage(a))
	case req.Stream:
		streamAnthropic(w, a)
	default:
		writeJSON(w, http.StatusOK, anthropicMessage(a))
	}
}

// dropConnection closes the client's connection with no answer at all.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler) // net/http closes the connection without a response
}

// writeRawError writes an error answer on the bare connection, the scripted header lines
// byte for byte, and closes it (SPEC.md §4: a header's own spaces and repeats are what a
// Retry-After scenario is about).
func writeRawError(w http.ResponseWriter, style string, status int, msg string, lines []string) {
	rec := httptest.NewRecorder()
	writeError(rec, style, status, msg)
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n", status, http.StatusText(status), rec.Body.Len())
	for _, l := range lines {
		buf.WriteString(l + "\r\n")
	}
	buf.WriteString("\r\n")
	buf.Write(rec.Body.Bytes())
	_ = buf.Flush()
}

// writeError answers with an error body shaped like the real API's, so client
// libraries surface the message instead of a parse failure.
func writeError(w http.ResponseWriter, style string, status int, msg string) {
	var body any
	if style == StyleAnthropic {
		body = map[string]any{
			"type":  "error",
			"error": map[string]any{"type": anthropicErrorType(status), "message": msg},
		}
	} else {
		body = map[string]any{
			"error": map[string]any{"message": msg, "type": "fake_error", "param": nil, "code": strconv.Itoa(status)},
		}
	}
	writeJSON(w, status, body)
}

func anthropicErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llm fake: marshal answer: %v", err)) // our own values; cannot happen
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
