package httpfake

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// CloseWait bounds how long Close waits for handlers to return after their
// request contexts were cancelled and their connections closed.
const CloseWait = time.Second

// Server is an HTTP server on a free 127.0.0.1 port.
type Server struct {
	url     string
	ln      *countingListener
	srv     *http.Server
	cancel  context.CancelFunc
	track   *tracker
	served  chan struct{}
	once    sync.Once
	onClose []func()
}

// Start serves h on a free loopback port until Close.
func Start(h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	// Every request context derives from base, so cancelling it releases every
	// handler blocked on r.Context() at once, even on connections that Close
	// cannot reach any more.
	base, cancel := context.WithCancel(context.Background())
	s := &Server{
		url:    "http://" + ln.Addr().String(),
		ln:     &countingListener{Listener: ln},
		cancel: cancel,
		track:  newTracker(),
		served: make(chan struct{}),
	}
	s.srv = &http.Server{
		Handler:           s.wrap(h),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second,
		// Clients that vanish mid-request are normal here (cancelled loads);
		// net/http's complaints about them would only clutter the harness log.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(s.ln)
	}()
	return s, nil
}

// wrap registers every handler with the tracker so Close can wait for it.
func (s *Server) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.track.enter() {
			http.Error(w, "server closing", http.StatusServiceUnavailable)
			return
		}
		defer s.track.leave()
		h.ServeHTTP(w, r)
	})
}

// URL is "http://127.0.0.1:<port>", without a trailing slash.
func (s *Server) URL() string { return s.url }

// Accepted is the number of TCP connections accepted so far.
func (s *Server) Accepted() int { return int(s.ln.accepted.Load()) }

// Open is the number of accepted TCP connections not yet closed.
func (s *Server) Open() int { return int(s.ln.open.Load()) }

// InFlight is the number of requests being served right now: a stream the client keeps
// open (an SSE GET, a streamable GET) or a request still unanswered. An idle keep-alive
// connection has none.
func (s *Server) InFlight() int { return s.track.running() }

// OnClose registers f to run in Close after every request context is
// cancelled and before connections are closed (e.g. to end MCP sessions that
// outlive their requests). Call it before the server is shared.
func (s *Server) OnClose(f func()) { s.onClose = append(s.onClose, f) }

// Close stops the server: it cancels every request, runs the OnClose hooks,
// closes the listener and every connection, and waits at most CloseWait for
// handlers to return. It is safe to call more than once.
func (s *Server) Close() {
	s.once.Do(func() {
		s.cancel()
		for _, f := range s.onClose {
			f()
		}
		_ = s.srv.Close()
		timer := time.NewTimer(CloseWait)
		defer timer.Stop()
		select {
		case <-s.track.shut():
		case <-timer.C:
		}
		<-s.served
	})
}
