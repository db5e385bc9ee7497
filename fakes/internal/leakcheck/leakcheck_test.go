package leakcheck

import (
	"strings"
	"testing"
	"time"
)

// recorder is a testing.TB that keeps cleanups and errors to itself.
type recorder struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, f) }
func (r *recorder) run() {
	for _, f := range r.cleanups {
		f()
	}
}

func TestCatchesALeak(t *testing.T) {
	defer func(g time.Duration) { grace = g }(grace)
	grace = 100 * time.Millisecond
	r := &recorder{TB: t}
	Check(r)
	stop := make(chan struct{})
	go func() { <-stop }()
	r.run()
	close(stop)
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "leaked") {
		t.Errorf("errors = %q, want one leak report", r.errors)
	}
}

func TestQuietWhenClean(t *testing.T) {
	r := &recorder{TB: t}
	Check(r)
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	r.run()
	if len(r.errors) != 0 {
		t.Errorf("errors = %q, want none", r.errors)
	}
}
