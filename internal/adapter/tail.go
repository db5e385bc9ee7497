package adapter

import (
	"sync"

	"github.com/muthuishere/toolnexus-conformance/internal/safetext"
)

// tail keeps the last max bytes written, so a chatty adapter cannot exhaust memory.
// What it returns is escaped: adapter bytes never reach a terminal or report raw.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

// showBytes is how much of the tail a failure shows.
const showBytes = 4096

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(b))
	if len(b) >= t.max {
		t.buf = append(t.buf[:0], b[len(b)-t.max:]...)
		return len(b), nil
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) > showBytes {
		return "…" + safetext.Bytes(t.buf[len(t.buf)-showBytes:])
	}
	return safetext.Bytes(t.buf)
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
	if n > int64(len(t.buf)) {
		n = int64(len(t.buf))
	}
	s := t.buf[int64(len(t.buf))-n:]
	if len(s) > showBytes {
		s = s[len(s)-showBytes:]
	}
	return safetext.Bytes(s)
}
