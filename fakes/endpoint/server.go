package endpoint

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// Server is the HTTP endpoint fake.
type Server struct {
	http   *httpfake.Server
	routes httpfake.Routes[*Route]
}

// Start starts an endpoint fake on a free 127.0.0.1 port.
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

// Open is the number of TCP connections currently open.
func (s *Server) Open() int { return s.http.Open() }

// InFlight is the number of requests being answered right now (a delayed answer counts).
func (s *Server) InFlight() int { return s.http.InFlight() }

// Close stops the server, ending every delayed answer at once.
func (s *Server) Close() { s.http.Close() }

// NewRoute reserves the next route prefix ("/s/1", "/s/2", ...).
func (s *Server) NewRoute() *Route {
	return s.routes.Add(func(prefix string) *Route {
		return &Route{prefix: prefix, base: s.URL(), slow: DefaultSlowDelay, script: map[string][]Answer{}}
	})
}

// Route is one scenario's slice of the server: its prefix, script and request log.
type Route struct {
	prefix string
	base   string
	log    httpfake.Log

	mu     sync.Mutex
	script map[string][]Answer
	keys   []string // script keys in the order first scripted
	slow   time.Duration
}

// Prefix is the route's path prefix, e.g. "/s/7".
func (r *Route) Prefix() string { return r.prefix }

// BaseURL is the server URL plus the prefix: what a tool's URL is built on.
func (r *Route) BaseURL() string { return r.base + r.prefix }

// Handle scripts the answers to path (relative to the prefix, "/items/42"). A request
// matches when its path after the prefix equals path either as sent (percent-encoded) or
// decoded; a path ending in "*" matches every path that starts with what precedes the "*"
// (the longest such prefix wins over shorter ones, an exact path over all of them). The
// answers are served in order, one per request, and the last one repeats. Handle replaces
// an earlier script of the same path, and can override "/redirect", "/final" and "/slow".
func (r *Route) Handle(path string, answers ...Answer) {
	if len(answers) == 0 {
		panic("endpoint: Handle " + path + " without an answer")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.script[path]; !ok {
		r.keys = append(r.keys, path)
	}
	r.script[path] = slices.Clone(answers)
}

// SetSlowDelay sets how long "/slow" waits before it answers (at most MaxDelay).
func (r *Route) SetSlowDelay(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.slow = d
}

// Requests returns copies of the requests recorded so far, in arrival order. It never
// waits: a snapshot of what arrived.
func (r *Route) Requests() []Request {
	arrivals := r.log.All()
	out := make([]Request, len(arrivals))
	for i, a := range arrivals {
		out[i] = Request{
			Method:      a.Method,
			RequestURI:  a.RequestURI,
			RawPath:     r.tail(a),
			RawQuery:    a.RawQuery,
			Header:      a.Header,
			Host:        a.Host,
			Body:        a.Body,
			At:          a.At,
			GaveUpAfter: a.GaveUpAfter,
		}
	}
	return out
}

// tail is the path after the prefix as sent, still percent-encoded; for a prefix sent
// encoded ("/s/%31"), the decoded path's tail, encoded again.
func (r *Route) tail(a httpfake.Arrival) string {
	if t, ok := strings.CutPrefix(a.RawPath, r.prefix); ok {
		return t
	}
	return (&url.URL{Path: strings.TrimPrefix(a.Path, r.prefix)}).EscapedPath()
}

// answer picks the answer to a path (raw and decoded forms of the tail).
func (r *Route) answer(raw, decoded string) Answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	key, ok := "", false
	for _, p := range []string{raw, decoded} {
		if _, found := r.script[p]; found {
			key, ok = p, true
			break
		}
	}
	if !ok {
		for _, k := range r.keys {
			pre, wild := strings.CutSuffix(k, "*")
			if wild && (strings.HasPrefix(raw, pre) || strings.HasPrefix(decoded, pre)) && (!ok || len(k) > len(key)) {
				key, ok = k, true
			}
		}
	}
	if ok {
		q := r.script[key]
		a := q[0]
		if len(q) > 1 {
			r.script[key] = q[1:]
		}
		return a
	}
	switch decoded {
	case "/redirect":
		return Answer{Status: http.StatusFound, Header: http.Header{"Location": {r.prefix + "/final"}}}
	case "/final":
		return Answer{Body: FinalBody}
	case "/slow":
		return Answer{Body: SlowBody, Delay: r.slow}
	}
	return Answer{Body: DefaultBody}
}

func (s *Server) serve(w http.ResponseWriter, req *http.Request) {
	rt, ok := s.routes.Find(req.URL.Path)
	if !ok {
		// Not recorded: nothing was addressed to a scenario.
		http.Error(w, "no route for "+req.URL.Path, http.StatusNotFound)
		return
	}
	arrival, index, ok := rt.log.Record(req)
	if !ok {
		return
	}
	tail := rt.tail(arrival)
	decoded, err := url.PathUnescape(tail)
	if err != nil {
		decoded = tail
	}
	a := rt.answer(tail, decoded)
	if !rt.log.Hold(req.Context(), index, min(a.Delay, MaxDelay)) {
		return // the client gave up: it never gets the answer
	}
	for k, vs := range a.Header {
		w.Header()[http.CanonicalHeaderKey(k)] = slices.Clone(vs)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(a.Body)))
	status := a.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, a.Body)
}
