package main

import (
	"strings"
	"testing"
	"time"
)

// The stream of a package that passes and one whose test fails: a line as each starts, the
// failing test's output (a passing one's is dropped), go test's own closing lines verbatim
// and last, and a beat naming what still runs.
func TestFormatterShowsProgressAndFailures(t *testing.T) {
	var b strings.Builder
	f := newFormatter(&b)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.now = func() time.Time { return clock }
	stream := `{"Action":"start","Package":"p/ok"}
{"Action":"start","Package":"p/bad"}
{"Action":"run","Package":"p/ok","Test":"TestQuiet"}
{"Action":"output","Package":"p/ok","Test":"TestQuiet","Output":"    x_test.go:1: chatter of a passing test\n"}
{"Action":"pass","Package":"p/ok","Test":"TestQuiet"}
{"Action":"output","Package":"p/bad","Test":"TestLoud","Output":"=== RUN   TestLoud\n"}
{"Action":"output","Package":"p/bad","Test":"TestLoud","Output":"    y_test.go:9: want 1, got 2\n"}
{"Action":"output","Package":"p/bad","Test":"TestLoud","Output":"--- FAIL: TestLoud (0.00s)\n"}
{"Action":"fail","Package":"p/bad","Test":"TestLoud"}
{"Action":"output","Package":"p/ok","Output":"PASS\n"}
{"Action":"output","Package":"p/ok","Output":"ok  \tp/ok\t0.5s\n"}
{"Action":"pass","Package":"p/ok"}
not json: printed as it is
`
	f.read(strings.NewReader(stream))
	f.beat(clock.Add(90 * time.Second))
	f.read(strings.NewReader(`{"Action":"output","Package":"p/bad","Output":"FAIL\n"}
{"Action":"output","Package":"p/bad","Output":"FAIL\tp/bad\t0.7s\n"}
{"Action":"fail","Package":"p/bad"}
`))
	f.beat(clock.Add(120 * time.Second)) // nothing runs: no line
	want := "start\tp/ok\nstart\tp/bad\n" +
		"=== RUN   TestLoud\n    y_test.go:9: want 1, got 2\n--- FAIL: TestLoud (0.00s)\n" +
		"ok  \tp/ok\t0.5s\n" +
		"not json: printed as it is\n" +
		"running\tp/bad (1m30s, 0 passed)\n" +
		"FAIL\tp/bad\t0.7s\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
