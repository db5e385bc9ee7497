package httpfake

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/fakes/internal/leakcheck"
)

// A request is recorded as sent (target, headers, body), before the handler answers, and the
// handler can still read the body.
func TestRecord(t *testing.T) {
	leakcheck.Check(t)
	var log Log
	s, err := Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, ok := log.Record(r); !ok {
			return
		}
		b, _ := io.ReadAll(r.Body)
		_, _ = w.Write(b) // echo: the body is still there for the handler
	}))
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
	before := time.Now()
	// A target no client library would send as is.
	_, _ = io.WriteString(conn, "POST /s/1/a%20b%2F(c)?q=a%20b HTTP/1.1\r\nHost: h\r\nX-Key: k\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	echo, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(echo) != "hello" {
		t.Errorf("the handler read %q after Record", echo)
	}
	all := log.All()
	if len(all) != 1 {
		t.Fatalf("%d records", len(all))
	}
	a := all[0]
	if a.Method != "POST" || a.RequestURI != "/s/1/a%20b%2F(c)?q=a%20b" || a.RawPath != "/s/1/a%20b%2F(c)" ||
		a.Path != "/s/1/a b/(c)" || a.RawQuery != "q=a%20b" || a.Host != "h" || a.Header.Get("X-Key") != "k" ||
		string(a.Body) != "hello" || a.At.Before(before) || a.GaveUpAfter != 0 {
		t.Errorf("record %+v", a)
	}
	all[0].Body[0], all[0].Header["X-Key"][0] = 'X', "changed"
	if again := log.All()[0]; string(again.Body) != "hello" || again.Header.Get("X-Key") != "k" {
		t.Error("All shares its records")
	}
}

// Hold answers after its delay, or notes when the client gave up first, by the fake's clock.
func TestHold(t *testing.T) {
	leakcheck.Check(t)
	var log Log
	held := make(chan bool, 2)
	s, err := Start(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, i, _ := log.Record(r)
		d := 50 * time.Millisecond
		if r.URL.Path == "/long" {
			d = time.Hour
		}
		ok := log.Hold(r.Context(), i, d)
		held <- ok
		if ok {
			_, _ = io.WriteString(w, "late")
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()

	begin := time.Now()
	resp, err := (&http.Client{Transport: tr}).Get(s.URL() + "/short")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "late" || time.Since(begin) < 50*time.Millisecond || !<-held {
		t.Errorf("short hold answered %q after %v", body, time.Since(begin))
	}
	impatient := &http.Client{Transport: tr, Timeout: 100 * time.Millisecond}
	if _, err := impatient.Get(s.URL() + "/long"); err == nil {
		t.Fatal("a hold of an hour answered")
	}
	select {
	case ok := <-held:
		if ok {
			t.Error("Hold reported an answer to a client that left")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Hold did not see the client leave")
	}
	recs := log.All()
	if g := recs[1].GaveUpAfter; g < 90*time.Millisecond || g > 2*time.Second {
		t.Errorf("GaveUpAfter %v, want about 100ms", g)
	}
	if g := recs[0].GaveUpAfter; g != 0 {
		t.Errorf("an answered request gave up after %v", g)
	}
}
