package httpfake

import (
	"strconv"
	"strings"
	"sync"
)

// Routes hands out per-scenario path prefixes on one server, so scenarios and ports can run
// in parallel against it without seeing each other's requests or answers. R is the fake's
// own route type. The zero value is ready to use.
type Routes[R any] struct {
	mu       sync.Mutex
	byPrefix map[string]R
	last     int // number of the last prefix handed out
}

// Add reserves the next prefix ("/s/1", "/s/2", ...) and keeps the route newRoute builds
// for it.
func (t *Routes[R]) Add(newRoute func(prefix string) R) R {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last++
	prefix := "/s/" + strconv.Itoa(t.last)
	r := newRoute(prefix)
	if t.byPrefix == nil {
		t.byPrefix = map[string]R{}
	}
	t.byPrefix[prefix] = r
	return r
}

// Find returns the route a path ("/s/<n>" or "/s/<n>/...") falls under.
func (t *Routes[R]) Find(path string) (r R, ok bool) {
	after, found := strings.CutPrefix(path, "/s/")
	if !found {
		return r, false
	}
	n, _, _ := strings.Cut(after, "/")
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok = t.byPrefix["/s/"+n]
	return r, ok
}
