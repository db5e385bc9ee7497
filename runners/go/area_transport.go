package main

import "net/http"

// The transport area: the recording HTTP client (slot transport.http).

// transport calls back before each request, then sends it the default way.
type transport struct {
	h      *host
	client string
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := t.h.call(slotHTTP, map[string]any{"client": t.client, "method": req.Method, "url": req.URL.String()}, nil); err != nil {
		return nil, err
	}
	return http.DefaultTransport.RoundTrip(req)
}
