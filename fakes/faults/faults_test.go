package faults

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

// hostOf is the host:port of a fake's URL.
func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Path != "/mcp" || !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Fatalf("URL %q", raw)
	}
	return u.Host
}

func newClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func refused(t *testing.T, host string) {
	t.Helper()
	if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections", host)
	}
}

func closePromptly(t *testing.T, close func()) {
	t.Helper()
	start := time.Now()
	close()
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
	close() // idempotent
}

func TestHang(t *testing.T) {
	leakcheck.Check(t)
	h, err := StartHang()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	host := hostOf(t, h.URL())

	// An HTTP client gets nothing back; only its own deadline ends the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.URL(), strings.NewReader(`{"jsonrpc":"2.0"}`))
	if _, err := newClient(t).Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("client error %v, want deadline exceeded", err)
	}

	// A raw connection stays open and silent until Close.
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, strings.Repeat("x", 1<<20)) // all of it is read, nothing answered
	conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, err := conn.Read(make([]byte, 1)); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read %d, %v; want a timeout", n, err)
	}
	if h.Accepted() != 2 {
		t.Errorf("accepted %d, want 2", h.Accepted())
	}

	closePromptly(t, h.Close)
	conn.SetReadDeadline(time.Now().Add(time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("after Close the connection reads %v, want it closed", err)
	}
	refused(t, host)
}

func TestSlow(t *testing.T) {
	leakcheck.Check(t)
	c := newClient(t)

	quick, err := StartSlow(20 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer quick.Close()
	resp, err := c.Post(quick.URL(), "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || quick.Requests() != 1 {
		t.Errorf("status %d, requests %d", resp.StatusCode, quick.Requests())
	}

	slow, err := StartSlow(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, slow.URL(), strings.NewReader("{}"))
	if _, err := c.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("client error %v, want deadline exceeded", err)
	}
	// A request still waiting out the delay must not hold Close up.
	waiting := make(chan error, 1)
	go func() {
		resp, err := c.Post(slow.URL(), "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
		}
		waiting <- err
	}()
	for slow.Requests() < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	closePromptly(t, slow.Close)
	select {
	case <-waiting: // an error or an empty answer; either way it ended
	case <-time.After(time.Second):
		t.Error("the waiting request did not end with Close")
	}
	refused(t, hostOf(t, slow.URL()))
}

func TestSSEFallbackHang(t *testing.T) {
	leakcheck.Check(t)
	f, err := StartSSEFallbackHang()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := newClient(t)

	resp, err := c.Post(f.URL(), "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || f.Posts() != 1 {
		t.Errorf("POST: status %d, posts %d", resp.StatusCode, f.Posts())
	}

	// A real SSE client reaches the endpoint, then waits for an endpoint
	// event that never comes until its own deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	_, err = mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.SSEClientTransport{Endpoint: f.URL(), HTTPClient: c}, nil)
	if err == nil || f.SSEGets() != 1 {
		t.Errorf("SSE connect: %v, gets %d", err, f.SSEGets())
	}

	// The headers arrive at once; the body never does, until Close.
	resp, err = c.Get(f.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || f.SSEGets() != 2 {
		t.Errorf("GET: status %d, type %q, gets %d", resp.StatusCode, resp.Header.Get("Content-Type"), f.SSEGets())
	}
	read := make(chan error, 1)
	go func() {
		_, err := bufio.NewReader(resp.Body).ReadByte()
		read <- err
	}()
	select {
	case err := <-read:
		t.Fatalf("the SSE stream produced something: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	closePromptly(t, f.Close)
	select {
	case err := <-read:
		if err == nil {
			t.Error("read a byte after Close")
		}
	case <-time.After(time.Second):
		t.Error("the SSE stream did not end with Close")
	}
	refused(t, hostOf(t, f.URL()))
}

func TestClosedPort(t *testing.T) {
	u, err := ClosedPort()
	if err != nil {
		t.Fatal(err)
	}
	refused(t, hostOf(t, u))
}
