package toolnexus

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// mcpHTTP is one session's own HTTP client. MCP traffic never uses http.DefaultClient or
// the LLM client's transport, and closing the session can drop its idle connections.
type mcpHTTP struct {
	client    *http.Client
	transport *http.Transport
}

func newMcpHTTP(life context.Context, headers map[string]string, sink *mcpRawSink) *mcpHTTP {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          10,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	rt := &mcpRoundTripper{base: tr, life: life, headers: headers, sink: sink}
	return &mcpHTTP{client: &http.Client{Transport: rt}, transport: tr}
}

func (h *mcpHTTP) closeIdle() { h.transport.CloseIdleConnections() }

// mcpRoundTripper adds the configured headers and ties every request to the session's
// lifetime, so ending a session aborts its in-flight requests (the SDK's own cancel
// notifications included) instead of leaving them to their own timeouts. It also lets the
// session's sink see tools/call answers as sent (see mcp_raw.go).
type mcpRoundTripper struct {
	base    http.RoundTripper
	life    context.Context
	headers map[string]string
	sink    *mcpRawSink
}

func (t *mcpRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.life.Err(); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	call, body, getBody, err := t.sink.watchRequest(req)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(t.life, cancel)
	out := req.Clone(ctx)
	out.Body, out.GetBody = body, getBody
	for k, v := range t.headers {
		// The SDK's protocol headers (Accept, Content-Type, session id) stay authoritative.
		if out.Header.Get(k) == "" {
			out.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		stop()
		cancel()
		return nil, err
	}
	t.sink.watchResponse(resp, call)
	resp.Body = &mcpReleasingBody{ReadCloser: resp.Body, release: func() { stop(); cancel() }}
	return resp, nil
}

// mcpReleasingBody frees the request's lifetime hook once the body is done with.
type mcpReleasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *mcpReleasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}
