package faults

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Hang accepts TCP connections, reads and discards what arrives, and never
// writes a byte: a client's connect succeeds and then only its own timeout
// or cancellation can end the wait.
type Hang struct {
	ln       net.Listener
	accepted atomic.Int64

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup // the accept loop and one reader per connection
	once   sync.Once
}

// StartHang starts a Hang on a free 127.0.0.1 port.
func StartHang() (*Hang, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &Hang{ln: ln, conns: map[net.Conn]struct{}{}}
	h.wg.Add(1)
	go h.accept()
	return h, nil
}

// URL is "http://127.0.0.1:<port>/mcp".
func (h *Hang) URL() string { return "http://" + h.ln.Addr().String() + "/mcp" }

// Accepted is the number of TCP connections accepted so far.
func (h *Hang) Accepted() int { return int(h.accepted.Load()) }

// Open is the number of connections the peer has not closed yet; a client that
// abandons a load must close its sockets, and this is how the suite sees it did.
func (h *Hang) Open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// Close closes the listener and every connection, and waits for their
// goroutines (which end as soon as their sockets close).
func (h *Hang) Close() {
	h.once.Do(func() {
		h.mu.Lock()
		h.closed = true
		_ = h.ln.Close()
		for c := range h.conns {
			_ = c.Close()
		}
		h.mu.Unlock()
		waitBounded(&h.wg, time.Second)
	})
}

func (h *Hang) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return // closed
		}
		h.accepted.Add(1)
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			_ = c.Close()
			return
		}
		h.conns[c] = struct{}{}
		h.wg.Add(1) // under mu, so never after Close started waiting
		h.mu.Unlock()
		go h.drain(c)
	}
}

// drain reads until the peer or Close ends the connection. Reading (rather
// than ignoring the socket) keeps the client's writes from blocking, so the
// client really is waiting for an answer, not for buffer space.
func (h *Hang) drain(c net.Conn) {
	defer h.wg.Done()
	_, _ = io.Copy(io.Discard, c)
	_ = c.Close()
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
}

// waitBounded waits for wg, but no longer than d.
func waitBounded(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
