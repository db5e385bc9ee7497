package suite

import (
	"context"
	"testing"
	"time"
)

// admitted waits for admit's answer, failing the test when it hangs.
func admitted(t *testing.T, got <-chan error) {
	t.Helper()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("admitted with an error: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a freed slot was not passed on")
	}
}

func waitAdmit(s *share, releases chan<- func()) <-chan error {
	got := make(chan error, 1)
	go func() {
		r, err := s.admit(context.Background())
		releases <- r
		got <- err
	}()
	return got
}

func TestBudgetHoldsItsSizeAndPassesAFreedSlotOn(t *testing.T) {
	b := newBudget(2)
	s := b.join(10)
	r1, err1 := s.admit(context.Background())
	r2, err2 := s.admit(context.Background())
	if err1 != nil || err2 != nil {
		t.Fatalf("two slots of two: %v, %v", err1, err2)
	}
	releases := make(chan func(), 4)
	got := waitAdmit(s, releases)
	select {
	case err := <-got:
		t.Fatalf("a third scenario was admitted with both slots taken (err %v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	r1()
	r1() // a second release gives nothing back twice
	admitted(t, got)
	if b.held != 2 {
		t.Errorf("%d slots held after one release and one admit; want 2", b.held)
	}
	r2()
	(<-releases)()
	if b.held != 0 || s.done != 3 {
		t.Errorf("held %d, done %d; want 0 and 3", b.held, s.done)
	}
}

// A freed slot goes to the implementation with the most work left, not the first in line.
func TestBudgetGivesAFreedSlotToTheMostWorkLeft(t *testing.T) {
	b := newBudget(1)
	quick, slow := b.join(100), b.join(100)
	// Each has finished one scenario: quick in no time, slow after 30 ms.
	r, _ := quick.admit(context.Background())
	r()
	r, _ = slow.admit(context.Background())
	time.Sleep(30 * time.Millisecond)
	r()
	hold, _ := quick.admit(context.Background())
	releases := make(chan func(), 2)
	first := waitAdmit(quick, releases) // in line first
	time.Sleep(20 * time.Millisecond)
	second := waitAdmit(slow, releases)
	time.Sleep(20 * time.Millisecond)
	hold()
	admitted(t, second)
	select {
	case <-first:
		t.Fatal("the quick implementation got the slot; the slow one has more work left")
	default:
	}
	(<-releases)()
	admitted(t, first)
	(<-releases)()
}

func TestBudgetAdmitEndsWithTheRun(t *testing.T) {
	b := newBudget(1)
	s := b.join(2)
	if _, err := s.admit(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	release, err := s.admit(ctx)
	if err == nil {
		t.Fatal("admitted past a full budget")
	}
	release() // safe to call on the error path
	if b.held != 1 || len(b.waiting) != 0 {
		t.Errorf("held %d, %d waiting; want 1 and none", b.held, len(b.waiting))
	}
	if (*budget)(nil).join(3).admitter() != nil {
		t.Error("no budget must mean no waiting")
	}
}

// While two implementations run, each holds at most half; once one is done the other may
// take the rest.
func TestBudgetSharesGrowOnlyWhenAnImplementationIsDone(t *testing.T) {
	b := newBudget(4)
	a, other := b.join(10), b.join(10)
	for range 2 {
		if _, err := a.admit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	releases := make(chan func(), 2)
	third := waitAdmit(a, releases)
	select {
	case <-third:
		t.Fatalf("a third slot of 4 with two implementations running (held %d)", a.held)
	case <-time.After(50 * time.Millisecond):
	}
	other.leave()
	admitted(t, third)
	if a.held != 3 || b.held != 3 {
		t.Errorf("held %d of %d; want 3", a.held, b.held)
	}
}
