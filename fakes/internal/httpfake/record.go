package httpfake

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// MaxBody bounds how much of a request body is recorded; a handler reading r.Body after
// Record still gets all of it.
const MaxBody = 16 << 20

// Arrival is one recorded request.
type Arrival struct {
	Method string
	// RequestURI is the request target exactly as sent ("/s/1/items/a%20b?q=1").
	RequestURI string
	// Path is the URL path, decoded ("/s/1/items/a b").
	Path string
	// RawPath is the path as sent, still percent-encoded ("/s/1/items/a%20b").
	RawPath string
	// RawQuery is the query as sent, without "?" ("" when there was none).
	RawQuery string
	// Host is the Host header, which net/http keeps out of Header.
	Host   string
	Header http.Header
	// Body is the body as received (at most MaxBody bytes).
	Body []byte
	// At is when the whole request had arrived, on the fake's own clock (the process's).
	At time.Time
	// GaveUpAfter is, for an answer held back with Hold, how long after At the client went
	// away without it (or the server closed); 0 when it was answered or never held.
	GaveUpAfter time.Duration
}

// clone deep-copies a record so callers can neither see later changes nor make any.
func (a Arrival) clone() Arrival {
	a.Header = a.Header.Clone()
	a.Body = slices.Clone(a.Body)
	return a
}

// Log records the requests a fake (or one of its routes) received, in arrival order. The
// zero value is ready to use.
type Log struct {
	mu       sync.Mutex
	arrivals []Arrival
}

// Record reads r's body and records the request before anything is answered: a client that
// gives up on the answer has still sent what a scenario judges. It returns the record and
// its index for Hold, and leaves r.Body readable from the start for the next handler.
// ok is false, and nothing is recorded, when the client went away mid-body: there is
// nobody to answer.
func (l *Log) Record(r *http.Request) (a Arrival, i int, ok bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody))
	if err != nil {
		return Arrival{}, 0, false
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	a = Arrival{
		Method:     r.Method,
		RequestURI: r.RequestURI,
		Path:       r.URL.Path,
		RawPath:    r.URL.EscapedPath(),
		RawQuery:   r.URL.RawQuery,
		Host:       r.Host,
		Header:     r.Header.Clone(),
		Body:       body,
		At:         time.Now(),
	}
	if strings.HasPrefix(r.RequestURI, "/") {
		// The target as sent: EscapedPath may re-encode a path it finds non-canonical.
		a.RawPath, a.RawQuery, _ = strings.Cut(r.RequestURI, "?")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.arrivals = append(l.arrivals, a.clone())
	return a, len(l.arrivals) - 1, true
}

// Hold keeps the answer to record i back for d. It returns false when the client went away
// (or the server closed) first, and records then how long after arrival that was.
func (l *Log) Hold(ctx context.Context, i int, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.arrivals[i].GaveUpAfter = time.Since(l.arrivals[i].At)
	return false
}

// All returns copies of the records so far, in arrival order. It never waits: a snapshot of
// what arrived.
func (l *Log) All() []Arrival {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Arrival, len(l.arrivals))
	for i, a := range l.arrivals {
		out[i] = a.clone()
	}
	return out
}
