package faults

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/httpfake"
)

// Slow answers every HTTP request with 503 Service Unavailable, but only
// after a delay: long enough that a client's deadline must fire first.
type Slow struct {
	srv      *httpfake.Server
	requests atomic.Int64
}

// StartSlow starts a Slow with the given delay on a free 127.0.0.1 port.
func StartSlow(delay time.Duration) (*Slow, error) {
	s := &Slow{}
	srv, err := httpfake.Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
			http.Error(w, "slow fake: unavailable", http.StatusServiceUnavailable)
		case <-r.Context().Done():
			// The client gave up or Close cancelled us: nobody to answer.
		}
	}))
	if err != nil {
		return nil, err
	}
	s.srv = srv
	return s, nil
}

// URL is "http://127.0.0.1:<port>/mcp".
func (s *Slow) URL() string { return s.srv.URL() + "/mcp" }

// Requests is the number of HTTP requests received so far.
func (s *Slow) Requests() int { return int(s.requests.Load()) }

// Close stops the server, cancelling requests still waiting out the delay.
func (s *Slow) Close() { s.srv.Close() }
