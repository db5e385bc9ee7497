package endpoint

import (
	"net/http"
	"time"
)

// Answer is one scripted response.
type Answer struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Body is sent as is.
	Body string
	// Header is added to the response. Content-Type defaults to "text/plain;
	// charset=utf-8"; Content-Length is always the body's length.
	Header http.Header
	// Delay holds the answer back this long (at most MaxDelay); a client that gives up
	// first never gets it.
	Delay time.Duration
}

// Request is one recorded request.
type Request struct {
	// Method is the HTTP method.
	Method string
	// RequestURI is the request target exactly as the client sent it ("/s/1/items/a%20b?q=1").
	RequestURI string
	// RawPath is the path after the route prefix as sent, still percent-encoded
	// ("/items/a%20b"; "" for the prefix itself).
	RawPath string
	// RawQuery is the query as sent, without "?" ("" when there was none).
	RawQuery string
	// Header holds the request headers (Host is in Host, as net/http keeps it).
	Header http.Header
	Host   string
	// Body is the body exactly as received (at most its first 16 MiB).
	Body []byte
	// At is when the request arrived.
	At time.Time
	// GaveUpAfter is, for a delayed answer, how long after its arrival the client closed
	// the request without waiting for it (or the server closed); 0 when it was answered.
	GaveUpAfter time.Duration
}

const (
	// MaxDelay bounds every delay (scripted or slow).
	MaxDelay = 2 * time.Minute
	// DefaultSlowDelay is how long "/slow" waits unless the route says otherwise.
	DefaultSlowDelay = 5 * time.Second
	// FinalBody is the body of "/final", where "/redirect" leads.
	FinalBody = "final-body"
	// SlowBody is the body "/slow" answers with, once its delay has passed.
	SlowBody = "slow-body"
	// DefaultBody is the body of a path nothing scripted.
	DefaultBody = "ok"
)
