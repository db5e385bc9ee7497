package httpfake

import "sync"

// tracker counts running handlers so Close can wait for them. A WaitGroup
// does not fit: a request already read off the wire may reach the handler
// after Close started waiting, and WaitGroup forbids Add racing with Wait.
type tracker struct {
	mu     sync.Mutex
	n      int
	closed bool
	zero   chan struct{} // closed once shut down and no handler runs
}

func newTracker() *tracker { return &tracker{zero: make(chan struct{})} }

// enter registers a handler; false means the server is closing and the
// request must not be served.
func (t *tracker) enter() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.n++
	return true
}

// leave unregisters a handler.
func (t *tracker) leave() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.closed && t.n == 0 {
		close(t.zero)
	}
}

// running is the number of handlers serving a request right now.
func (t *tracker) running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// shut refuses new handlers and returns a channel closed when none runs.
func (t *tracker) shut() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.closed = true
		if t.n == 0 {
			close(t.zero)
		}
	}
	return t.zero
}
