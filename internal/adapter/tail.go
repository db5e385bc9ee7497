package adapter

import "sync"

// tail keeps the last max bytes written, so a chatty adapter cannot exhaust memory.
type tail struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	t.total += int64(len(b))
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	const show = 4096
	if len(t.buf) > show {
		return "…" + string(t.buf[len(t.buf)-show:])
	}
	return string(t.buf)
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
	if len(s) > 4096 {
		s = s[len(s)-4096:]
	}
	return string(s)
}
