package suite

import (
	"context"
	"errors"
	"testing"
	"time"

	"toolnexus-conformance/internal/adapter"
)

// shAdapter answers every request ok, except "hang", which it never answers.
var shAdapter = []string{"sh", "-c", `while IFS= read -r line; do
	id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
	case "$line" in *'"op":"hang"'*) sleep 60;; esac
	printf '{"id":%s,"ok":true,"result":{"ops":["hello"]},"warnings":[]}\n' "$id"
done`}

func TestPoolHandsEachScenarioItsOwnProcessAndReplacesBrokenOnes(t *testing.T) {
	ctx := context.Background()
	p := newPool(ctx, adapter.Config{Port: "sh", Argv: shAdapter, CallTimeout: 5 * time.Second}, 2)
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
	p.Release(b)
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
	p.Release(a)
	d, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d != a {
		t.Errorf("a released healthy process was not reused")
	}
	p.Release(c)
	p.Release(d)
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
