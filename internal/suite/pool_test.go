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
	p.fill(ctx)
	if _, n := p.startCost(); n != 3 {
		t.Fatalf("the fill started %d processes; want 3 (two jobs and a spare)", n)
	}
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
	// A third must wait for a free process (the spare is not a third job): here until its deadline.
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if c, err := p.Acquire(short); err == nil {
		t.Fatalf("a third process %p was handed out with --jobs 2", c)
	}

	// b breaks (abandoned at a bound): it is killed, and the next scenario gets the spare at
	// once while a replacement starts behind it.
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
		t.Fatalf("the spare does not answer: %v", err)
	}
	if _, _, waits, _ := p.replacements(); waits != 0 {
		t.Errorf("%d scenarios waited for a start; the spare was ready", waits)
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
	// b's replacement comes up in the background; close would cancel it.
	for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait); time.Sleep(10 * time.Millisecond) {
		if n, _, _, _ := p.replacements(); n >= 1 {
			break
		}
	}
	p.close()
	if n, _, _, _ := p.replacements(); n != 1 {
		t.Errorf("%d replacements started; want 1 (for b)", n)
	}
	for _, proc := range []*adapter.Process{a, c} {
		if !proc.IsBroken() {
			t.Errorf("process %p still usable after close", proc)
		}
	}
	if left := adapterProcesses(); len(left) > 0 {
		t.Errorf("processes left after close (spares included): %v", left)
	}
}

// slowShAdapter is shAdapter after a start-up of a second, like a runtime that takes a while.
var slowShAdapter = []string{"sh", "-c", "sleep 1; " + shAdapter[2]}

// After a burst of discards the spares run out: a scenario that finds none ready waits for the
// one starting (counted, with its wait), and the pool keeps a second spare from then on.
func TestPoolSparesGrowAfterAWait(t *testing.T) {
	ctx, cancelAll := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelAll()
	p := newPool(ctx, adapter.Config{Port: "sh", Argv: slowShAdapter, CallTimeout: 5 * time.Second}, 2, BreakerThreshold)
	defer p.close()
	p.fill(ctx)
	a, _ := p.Acquire(ctx)
	b, _ := p.Acquire(ctx)
	if a == nil || b == nil {
		t.Fatal("no process after the fill")
	}
	a.Discard()
	b.Discard()
	p.Release(a, true)
	p.Release(b, true)
	c, err := p.Acquire(ctx) // the spare
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	d, err := p.Acquire(ctx) // a replacement still starting
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(began) < 300*time.Millisecond {
		t.Errorf("the second scenario got a process after %s; none should have been ready", time.Since(began))
	}
	_, _, waits, waited := p.replacements()
	if waits != 1 || waited < 300*time.Millisecond {
		t.Errorf("%d waits of %s in all; want 1 of most of a second", waits, waited)
	}
	p.Release(c, false)
	p.Release(d, false)
	p.mu.Lock()
	spares, live := p.spares, p.live
	p.mu.Unlock()
	if spares != 2 || live != 4 {
		t.Errorf("after a wait the pool keeps %d spares, %d processes; want 2 and 4 (jobs 2 + 2)", spares, live)
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

// A spare that will not start is dropped with its reason said, not without a trace.
func TestDiscardedSpareIsReported(t *testing.T) {
	ctx, cancelAll := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelAll()
	// The first two starts say hello; every later one exits at once (mkdir is atomic, so
	// starts side by side cannot both take a slot).
	slots := t.TempDir()
	argv := []string{"sh", "-c", `mkdir "$0/1" 2>/dev/null || mkdir "$0/2" 2>/dev/null || { echo "spare: cannot start" >&2; exit 1; }
` + shAdapter[2], slots}
	p := newPool(ctx, adapter.Config{Port: "sh", Argv: argv, CallTimeout: 5 * time.Second}, 1, BreakerThreshold)
	got := make(chan string, 4)
	p.discarded = func(why string) { got <- why }
	defer p.close()
	p.fill(ctx)
	a, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// a breaks: its spare takes over and a replacement is started, which fails.
	hang, cancelHang := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancelHang()
	_, _ = a.Call(hang, "hang", nil)
	p.Release(a, true)
	select {
	case why := <-got:
		if why == "" {
			t.Error("discarded without a reason")
		}
	case <-ctx.Done():
		t.Fatal("a spare that would not start was dropped without a word")
	}
}
