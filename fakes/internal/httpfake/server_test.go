package httpfake

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

func TestCountsAndClose(t *testing.T) {
	leakcheck.Check(t)
	entered := make(chan struct{}, 1)
	s, err := Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			w.WriteHeader(http.StatusOK)
			_ = http.NewResponseController(w).Flush()
			entered <- struct{}{}
			<-r.Context().Done()
			return
		}
		io.WriteString(w, "hi")
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %q", s.URL())
	}
	closed := false
	s.OnClose(func() { closed = true })

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	resp, err := c.Get(s.URL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	hung, err := c.Get(s.URL() + "/hang")
	if err != nil {
		t.Fatal(err)
	}
	<-entered
	if s.Accepted() < 1 || s.Open() < 1 {
		t.Errorf("accepted %d open %d", s.Accepted(), s.Open())
	}
	tr.CloseIdleConnections()

	start := time.Now()
	s.Close()
	if d := time.Since(start); d > CloseWait {
		t.Errorf("Close took %v with a hung handler", d)
	}
	if !closed {
		t.Error("OnClose hook did not run")
	}
	// The hung response must end (EOF or error, either will do) now.
	_, _ = io.Copy(io.Discard, hung.Body)
	hung.Body.Close()
	if s.Open() != 0 {
		t.Errorf("open %d after Close", s.Open())
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL(), "http://"), time.Second); err == nil {
		t.Error("still listening after Close")
	}
	s.Close() // idempotent
}

// A handler that ignores its context must not hold Close longer than CloseWait.
func TestCloseBoundedByStubbornHandler(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	s, err := Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
	}))
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	go func() {
		if resp, err := (&http.Client{Transport: tr}).Get(s.URL()); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	start := time.Now()
	s.Close()
	d := time.Since(start)
	close(release)
	if d < CloseWait/2 || d > CloseWait+500*time.Millisecond {
		t.Errorf("Close took %v, want about %v", d, CloseWait)
	}
}

func TestOpenCountsClientClose(t *testing.T) {
	leakcheck.Check(t)
	s, err := Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return s.Open() == 1 })
	conn.Close()
	waitFor(t, func() bool { return s.Open() == 0 })
	if s.Accepted() != 1 {
		t.Errorf("accepted %d", s.Accepted())
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 2s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
