package suite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/muthuishere/toolnexus-conformance/internal/adapter"
)

// shAdapter answers every request ok, except "hang", which it never answers.
var shAdapter = []string{"sh", "-c", `while IFS= read -r line; do
	id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
	case "$line" in *'"op":"hang"'*) sleep 60;; esac
	printf '{"id":%s,"ok":true,"result":{"ops":["hello"]},"warnings":[]}\n' "$id"
done`}

func TestPoolHandsEachScenarioItsOwnProcessAndReplacesBrokenOnes(t *testing.T) {
	// Bounded, so a pool that never hands a process out fails here rather than hanging.
	ctx, cancelAll := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelAll()
	p := newPool(ctx, adapter.Config{Port: "sh", Argv: shAdapter, CallTimeout: 5 * time.Second}, 2, BreakerThreshold)
	defer p.close()
	a, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("two scenarios got the same process")
	}
	// A third must wait for a free process: here until its deadline.
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if c, err := p.Acquire(short); err == nil {
		t.Fatalf("a third process %p was handed out with --jobs 2", c)
	}

	// b breaks (abandoned at a bound): it is killed, and the next scenario gets a new one.
	hang, cancelHang := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancelHang()
	_, err = b.Call(hang, "hang", nil)
	var broken *adapter.Broken
	if !errors.As(err, &broken) || !b.IsBroken() {
		t.Fatalf("hang call: %v; want the process broken", err)
	}
	if p.Release(b, true) {
		t.Error("a process cut at its bound counted as a strike")
	}
	c, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c == b || c == a || c.IsBroken() {
		t.Fatalf("after a break the pool handed out %p (a %p, broken b %p)", c, a, b)
	}
	if r, err := c.Call(ctx, "hello", nil); err != nil || !r.OK {
		t.Fatalf("replacement does not answer: %v", err)
	}

	// A healthy process is reused.
	p.Release(a, false)
	d, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d != a {
		t.Errorf("a released healthy process was not reused")
	}
	p.Release(c, false)
	p.Release(d, false)
	// The spare started at the first break comes up in the background; close would cancel it.
	for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait); time.Sleep(10 * time.Millisecond) {
		if _, n := p.startCost(); n >= 4 {
			break
		}
	}
	p.close()
	if _, n := p.startCost(); n != 4 {
		t.Errorf("%d processes started; want 4 (a, b, b's replacement and the spare)", n)
	}
	for _, proc := range []*adapter.Process{a, c} {
		if !proc.IsBroken() {
			t.Errorf("process %p still usable after close", proc)
		}
	}
}

// The breaker counts failures across every process of the pool: a process cut at its bound is
// replaced without a strike; broken processes strike; a clean scenario resets the count; after
// a strike fewer scenarios may hold a process; at the threshold nothing is handed out any more.
func TestPoolBreaker(t *testing.T) {
	// Bounded, so a pool that never hands a process out fails here rather than hanging.
	ctx, cancelAll := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelAll()
	p := newPool(ctx, adapter.Config{Port: "sh", Argv: shAdapter, CallTimeout: 5 * time.Second}, 2, 2)
	defer p.close()
	breakOne := func(cutAtBound bool) bool {
		t.Helper()
		proc, err := p.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		hang, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, err := proc.Call(hang, "hang", nil); err == nil {
			t.Fatal("hang call answered")
		}
		return p.Release(proc, cutAtBound)
	}
	if breakOne(true) || p.unresponsive() != "" {
		t.Fatal("a cut at the bound counted as a strike")
	}
	if !breakOne(false) || p.unresponsive() != "" {
		t.Fatal("a broken process is one strike, not yet the breaker")
	}
	// One strike left: only one scenario may hold a process.
	a, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if b, err := p.Acquire(short); err == nil {
		t.Fatalf("a second process %p was handed out with one strike left", b)
	}
	p.Release(a, false)
	p.ScenarioDone(true) // a clean scenario resets the count
	if !breakOne(false) || p.unresponsive() != "" {
		t.Fatal("after a reset one break must not trip the breaker")
	}
	if !breakOne(false) || p.unresponsive() == "" {
		t.Fatal("two consecutive strikes must trip the breaker")
	}
	_, err = p.Acquire(ctx)
	var ue *UnresponsiveError
	if !errors.As(err, &ue) {
		t.Fatalf("Acquire after the breaker: %v, want UnresponsiveError", err)
	}
	if st, _ := ue.NotRun(); st != "not run (adapter unresponsive)" {
		t.Errorf("NotRun status %q", st)
	}
}
