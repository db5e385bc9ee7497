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

// rawAnswer sends a GET on a bare connection and returns all the server wrote.
func rawAnswer(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	s, err := Start(h)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	_, _ = io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("read: %v (got %q)", err, b)
	}
	return string(b)
}

func TestWriteRaw(t *testing.T) {
	leakcheck.Check(t)
	got := rawAnswer(t, func(w http.ResponseWriter, r *http.Request) {
		WriteRaw(w, 429, "application/json", []string{"retry-after:  2  ", "X-Twice: a", "X-Twice: b"}, []byte(`{"e":1}`))
	})
	want := "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n" +
		"retry-after:  2  \r\nX-Twice: a\r\nX-Twice: b\r\n\r\n{\"e\":1}"
	if got != want {
		t.Errorf("wrote %q\nwant  %q", got, want)
	}
}

func TestDrop(t *testing.T) {
	leakcheck.Check(t)
	if got := rawAnswer(t, func(w http.ResponseWriter, r *http.Request) { Drop(w) }); got != "" {
		t.Errorf("a dropped connection carried %q", got)
	}
}

func TestSSE(t *testing.T) {
	leakcheck.Check(t)
	got := rawAnswer(t, func(w http.ResponseWriter, r *http.Request) {
		s := StartSSE(w)
		s.Event("", map[string]int{"a": 1})
		s.NoSpace = true
		s.Event("ping", []int{2})
		s.Data("", []byte("[DONE]"))
	})
	head, body, _ := strings.Cut(got, "\r\n\r\n")
	if !strings.Contains(head, "Content-Type: text/event-stream\r\n") || !strings.Contains(head, "Cache-Control: no-cache\r\n") {
		t.Errorf("head %q", head)
	}
	// The body is chunked: each flushed event is its own chunk.
	for _, ev := range []string{"data: {\"a\":1}\n\n", "event:ping\ndata:[2]\n\n", "data:[DONE]\n\n"} {
		if !strings.Contains(body, ev) {
			t.Errorf("the stream lacks %q:\n%q", ev, body)
		}
	}
}
