package adapter

import (
	"sync"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// tail keeps the last max bytes written, so a chatty adapter cannot exhaust memory: a ring
// of max bytes, allocated once, that each write overwrites (copying the kept bytes anew on
// each write made 50 MB of stderr 260 MB of garbage). What it returns is escaped: adapter
// bytes never reach a terminal or report raw.
type tail struct {
	mu    sync.Mutex
	ring  []byte // len max once full; ring[next] is the oldest byte then
	next  int
	max   int
	total int64
}

// showBytes is how much of the tail a failure shows.
const showBytes = 4096

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	written := len(b)
	t.total += int64(written)
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	if len(t.ring) < t.max { // filling: append up to max, then wrap
		n := min(len(b), t.max-len(t.ring))
		if t.ring == nil {
			t.ring = make([]byte, 0, t.max)
		}
		t.ring = append(t.ring, b[:n]...)
		b = b[n:]
	}
	for len(b) > 0 {
		n := copy(t.ring[t.next:], b)
		t.next = (t.next + n) % t.max
		b = b[n:]
	}
	return written, nil
}

// last returns the last n bytes kept (n at most what is kept), in order, as a new slice.
func (t *tail) last(n int) []byte {
	n = min(n, len(t.ring))
	out := make([]byte, 0, n)
	if len(t.ring) < t.max {
		return append(out, t.ring[len(t.ring)-n:]...)
	}
	start := (t.next - n + t.max) % t.max
	if start+n <= t.max {
		return append(out, t.ring[start:start+n]...)
	}
	return append(append(out, t.ring[start:]...), t.ring[:(start+n)%t.max]...)
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.ring) > showBytes {
		return "…" + safetext.Bytes(t.last(showBytes))
	}
	return safetext.Bytes(t.last(len(t.ring)))
}

// Total is how many bytes were ever written.
func (t *tail) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// Since returns what was written after the given total, as far as the buffer still holds it.
func (t *tail) Since(mark int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.total - mark
	if n <= 0 {
		return ""
	}
	return safetext.Bytes(t.last(int(min(n, int64(len(t.ring)), showBytes))))
}
