package llm

import (
	"net/http"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// Server is the fake LLM HTTP server.
type Server struct {
	http   *httpfake.Server
	routes httpfake.Routes[*Route]
}

// Start starts a fake LLM server on a free 127.0.0.1 port.
func Start() (*Server, error) {
	s := &Server{}
	hs, err := httpfake.Start(http.HandlerFunc(s.serve))
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
	return s.routes.Add(func(prefix string) *Route { return &Route{prefix: prefix, base: s.URL()} })
}

// styleOf is the wire style of a path under a route, or "" for a path that is no endpoint (a
// doubled /v1, a double slash): such a request is still recorded, so a scenario can say
// where it went, and answered 404.
func styleOf(rest string) string {
	switch rest {
	case "/chat/completions", "/v1/chat/completions":
		// An openai base URL may end in /v1 (most providers' do): {base}/chat/completions.
		return StyleOpenAI
	case "/v1/messages":
		// Clients append "/v1" only when the base URL lacks it, so both
		// base "<prefix>" and base "<prefix>/v1" arrive here.
		return StyleAnthropic
	}
	return ""
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rt, ok := s.routes.Find(r.URL.Path)
	if !ok {
		// Not recorded: nothing was addressed to a scenario.
		writeError(w, StyleOpenAI, http.StatusNotFound, "no route for "+r.URL.Path)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, StyleOpenAI, http.StatusMethodNotAllowed, r.Method+" not allowed")
		return
	}
	arrival, index, ok := rt.log.Record(r)
	if !ok {
		return
	}
	req := rt.request(arrival)
	if req.Style == "" {
		writeError(w, StyleOpenAI, http.StatusNotFound, "no endpoint at "+r.URL.Path)
		return
	}
	if req.Body == nil {
		writeError(w, req.Style, http.StatusBadRequest, "request body is not a JSON object")
		return
	}

	reply := rt.next()
	if reply.Drop {
		httpfake.Drop(w)
		return
	}
	if !rt.log.Hold(r.Context(), index, reply.Delay) {
		return // the client gave up: it never gets the answer
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
			// SPEC.md §4: a header's own spaces and repeats are what a Retry-After scenario is about.
			httpfake.WriteRaw(w, reply.Status, "application/json", reply.HeaderLines, mustJSON(errorBody(req.Style, reply.Status, msg)))
			return
		}
		writeError(w, req.Style, reply.Status, msg)
		return
	}
	if len(reply.Body) > 0 && !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(reply.Body)
		return
	}
	a := rt.answer(reply, req.Style, req.Body["model"])
	switch {
	case req.Style == StyleOpenAI && req.Stream:
		streamOpenAI(w, a)
	case req.Style == StyleOpenAI:
		writeJSON(w, http.StatusOK, openAIMessage(a))
	case req.Stream:
		streamAnthropic(w, a)
	default:
		writeJSON(w, http.StatusOK, anthropicMessage(a))
	}
}
